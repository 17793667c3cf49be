#include "scamp/scamp5_sdk_code.h"

#include "base/error.h"

#include <cctype>

namespace tessera::scamp {

std::string sdkFunctionName(const std::string& name)
{
    std::string identifier;
    for (char c : name)
        identifier += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (identifier.empty())
        identifier = "kernels";
    if (std::isdigit(static_cast<unsigned char>(identifier.front())))
        identifier = "kernels_" + identifier;
    return identifier;
}

bool isScamp5Register(const std::string& name)
{
    return name.size() == 1 && name[0] >= 'A' && name[0] <= 'F';
}

std::string formatScamp5Code(const Program& program, const ProgramHeader& header)
{
    for (const Instruction& instruction : program.instructions) {
        for (const std::string& r : instruction.registersNamed())
            if (!isScamp5Register(r))
                throw Error(instruction.toString() + " uses register " + r +
                            "; SCAMP-5 has the analogue registers A to F only: list just those in the kernels file's \"registers\"");
    }
    std::string outputs;
    for (size_t k = 0; k < header.outputRegisters.size(); ++k)
        outputs += (k ? ", " : "") + header.outputRegisters[k] + " = kernel " + std::to_string(k);
    const std::string function = sdkFunctionName(header.name);
    std::string text;
    text += "// " + header.name + ": SCAMP-5 kernel code by Tessera, " + std::to_string(program.instructions.size()) +
            " instructions.\n";
    text += "// Input: the image in " + header.inputRegister + " (e.g. after get_image(" + header.inputRegister +
            ")). Outputs: " + outputs + ",\n";
    text += "// with the weights rounded to multiples of 2^-" + std::to_string(header.depth) +
            ". The other registers are overwritten.\n";
    text += "#pragma once\n#include <scamp5.hpp>\n\n";
    text += "inline void " + function + "()\n{\n";
    text += "    scamp5_kernel_begin();\n";
    for (const Instruction& instruction : program.instructions)
        text += "        " + instruction.toString() + "\n";
    text += "    scamp5_kernel_end();\n}\n";
    return text;
}

} // namespace tessera::scamp
