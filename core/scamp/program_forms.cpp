#include "scamp/program_forms.h"

#include "scamp/scamp5_sdk_code.h"

namespace tessera::scamp {

namespace {

bool endsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

std::optional<ProgramForm> programFormNamed(const std::string& name)
{
    if (name == "text")
        return ProgramForm::Text;
    if (name == "cain")
        return ProgramForm::Cain;
    if (name == "scamp5")
        return ProgramForm::Scamp5Sdk;
    return std::nullopt;
}

ProgramForm programFormForPath(const std::string& path)
{
    if (endsWith(path, ".hpp") || endsWith(path, ".h"))
        return ProgramForm::Scamp5Sdk;
    if (endsWith(path, ".cain.txt") || endsWith(path, ".cain"))
        return ProgramForm::Cain;
    return ProgramForm::Text;
}

std::string formatProgramAs(ProgramForm form, const Program& program, const ProgramHeader& header)
{
    switch (form) {
    case ProgramForm::Cain: return formatCainProgram(program, header);
    case ProgramForm::Scamp5Sdk: return formatScamp5Code(program, header);
    case ProgramForm::Text: break;
    }
    return formatProgram(program, header);
}

} // namespace tessera::scamp
