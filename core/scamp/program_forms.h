#pragma once
// The forms a program is written in, by name: "text" (Tessera's, formatProgram), "cain" (Cain's
// program text) and "scamp5" (C++ for the SCAMP-5 SDK). The command line's --format and the
// studio's save dialog both choose through this.
#include "scamp/program.h"

#include <optional>
#include <string>

namespace tessera::scamp {

enum class ProgramForm { Text, Cain, Scamp5Sdk };

std::optional<ProgramForm> programFormNamed(const std::string& name);
// The form a file name suggests: .hpp/.h -> Scamp5Sdk, ".cain.txt" -> Cain, else Text.
ProgramForm programFormForPath(const std::string& path);

// Throws Error when the form cannot hold the program (the SDK's registers are A..F).
std::string formatProgramAs(ProgramForm form, const Program& program, const ProgramHeader& header);

} // namespace tessera::scamp
