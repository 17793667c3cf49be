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

std::string formatCainProgram(const Program& program, const ProgramHeader& header)
{
    std::string text = "//Kernel Code!\n//Inputs in: [" + header.inputRegister + "]\n";
    for (const Instruction& instruction : program.instructions)
        text += instruction.toString() + "\n";
    return text;
}

namespace {

// Blanks /* ... */ comments, keeping the line breaks so that line numbers stay true.
std::string withoutBlockComments(const std::string& text, const std::string& source)
{
    std::string result = text;
    size_t open = result.find("/*");
    while (open != std::string::npos) {
        const size_t close = result.find("*/", open + 2);
        if (close == std::string::npos)
            throw Error(source + ": a /* comment is never closed");
        for (size_t k = open; k < close + 2; ++k)
            if (result[k] != '\n')
                result[k] = ' ';
        open = result.find("/*", close + 2);
    }
    return result;
}

bool isKernelBracket(const std::string& statement)
{
    std::string compact;
    for (char c : statement)
        if (c != ' ' && c != '\t')
            compact += c;
    return compact == "scamp5_kernel_begin()" || compact == "scamp5_kernel_end()";
}

} // namespace

Program parseProgram(const std::string& text, const std::string& source)
{
    Program program;
    std::stringstream stream(withoutBlockComments(text, source));
    std::string line;
    int number = 0;
    while (std::getline(stream, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r')  // CRLF files, as Windows editors save them
            line.pop_back();
        const size_t comment = line.find("//");
        if (comment != std::string::npos)
            line.erase(comment);
        // Statements end with ';' (several may share a line); what follows the last one is an
        // unterminated statement, which parseInstruction reports.
        size_t begin = 0;
        while (begin < line.size()) {
            const size_t end = line.find(';', begin);
            const std::string statement = line.substr(begin, end == std::string::npos ? std::string::npos : end + 1 - begin);
            begin = end == std::string::npos ? line.size() : end + 1;
            const std::string body = statement.substr(0, statement.find(';'));
            if (statement.find_first_not_of(" \t;") == std::string::npos || isKernelBracket(body))
                continue;
            try {
                program.instructions.push_back(parseInstruction(statement, number));
            } catch (const Error& error) {
                throw Error(source + " " + error.what());
            }
        }
    }
    return program;
}

} // namespace tessera::scamp
