#pragma once
// A SCAMP-5 program: macro instructions in order, as text one per line with a comment header.
#include "scamp/instruction.h"

#include <string>
#include <vector>

namespace tessera::scamp {

struct Program {
    std::vector<Instruction> instructions;
};

struct ProgramHeader {
    std::string name;
    std::string inputRegister;
    std::vector<std::string> outputRegisters;
    int depth = 0;
};

// Header comment naming inputs, outputs, d and the count, then one macro per line.
std::string formatProgram(const Program& program, const ProgramHeader& header);
// The text Cain writes: "//Kernel Code!", "//Inputs in: [A]", then one macro per line.
std::string formatCainProgram(const Program& program, const ProgramHeader& header);
// Reads both forms: one or more macros per line ending in ';' (the SDK's names, including Cain's
// diva, div(u, t, a) and res(u, v)); // and /* */ comments, blank lines and the SDK's
// scamp5_kernel_begin(); / scamp5_kernel_end(); are skipped. Throws Error "<source> line N: ...".
Program parseProgram(const std::string& text, const std::string& source);

} // namespace tessera::scamp
