#pragma once
// A program as SCAMP-5 application code: a C++ function for the chip's SDK that runs the macros
// between scamp5_kernel_begin() and scamp5_kernel_end(), with the SDK's macro names, its analogue
// registers A..F and its directions north/east/south/west. The program drops into an application
// after the image has been read into the input register (get_image).
#include "scamp/program.h"

#include <string>

namespace tessera::scamp {

// "gauss 5x5" -> "gauss_5x5": a C identifier from the kernel set's name ("kernels" when empty).
std::string sdkFunctionName(const std::string& name);

// The SDK's analogue registers: a program naming others (a kernel set with more registers than the
// chip has) cannot run on it.
bool isScamp5Register(const std::string& name);

// The file: a comment on inputs, outputs and scale, #include <scamp5.hpp>, and
// `inline void <sdkFunctionName>() { scamp5_kernel_begin(); ... scamp5_kernel_end(); }`.
// Throws Error naming the first register that is not one of A..F.
std::string formatScamp5Code(const Program& program, const ProgramHeader& header);

} // namespace tessera::scamp
