#include "scamp/program.h"

#include "base/error.h"

#include <sstream>

namespace tessera::scamp {

std::string formatProgram(const Program& program, const ProgramHeader& header)
{
    std::string outputs;
    for (const std::string& r : header.outputRegisters)
        outputs += (outputs.empty() ? "" : ", ") + r;
    std::string text = "// Tessera SCAMP-5 program: " + header.name + "\n";
    text += "// input: " + header.inputRegister + "  outputs: " + outputs + "  d = " + std::to_string(header.depth) +
            " (coefficients in units of 2^-" + std::to_string(header.depth) + ")\n";
    text += "// instructions: " + std::to_string(program.instructions.size()) + "\n";
    for (const Instruction& instruction : program.instructions)
        text += instruction.toString() + "\n";
    return text;
}

Program parseProgram(const std::string& text, const std::string& source)
{
    Program program;
    std::stringstream stream(text);
    std::string line;
    int number = 0;
    while (std::getline(stream, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')  // CRLF files, as Windows editors save them
            line.pop_back();
        const size_t comment = line.find("//");
        if (comment != std::string::npos)
            line.erase(comment);
        if (line.find_first_not_of(" \t\r") == std::string::npos)
            continue;
        try {
            program.instructions.push_back(parseInstruction(line, number));
        } catch (const Error& error) {
            throw Error(source + " " + error.what());
        }
    }
    return program;
}

} // namespace tessera::scamp
