#include "tiler/tiling_report_file.h"

#include "base/error.h"
#include "tiler/model_check.h"
#include "tiler/model_json.h"

#include <nlohmann/json.hpp>

namespace tessera::tiler {

TilingReportFile parseTilingReport(const std::string& bytes, const std::string& source)
{
    nlohmann::json report;
    try {
        report = nlohmann::json::parse(bytes);
    } catch (const nlohmann::json::exception& error) {
        throw ModelError(source + " is not a valid tiling report (corrupt JSON: " + jsonErrorText(error) + ")");
    }
    if (!report.is_object() || !report.contains("model"))
        throw ModelError(source + " has no \"model\" section, so its kernels cannot be solved again; generate it again "
                                  "with this version of Tessera (GenerateTilingCode writes the model into the report)");
    TilingReportFile file;
    try {
        file.model = kernelModelFromJson(report["model"]);
    } catch (const std::exception& error) {
        // kernelModelFromJson names the field; a JSON library error names only its own tag.
        throw ModelError(source + ": " + jsonErrorText(error));
    }
    // Each field in range is not yet a model the tiler can take: the same checks as
    // GenerateTilingCode (names that resolve, argument sizes) keep an edited report from the solver.
    const std::vector<std::string> problems = checkModel(file.model);
    if (!problems.empty()) {
        std::string message = source + ": its model cannot be solved again:";
        for (const std::string& problem : problems)
            message += "\n  " + problem;
        throw ModelError(message);
    }
    file.l1Budget = file.model.options.l1Size;
    if (const auto it = report.find("l1_budget"); it != report.end() && it->is_number_unsigned())
        file.l1Budget = it->get<std::uint64_t>();
    return file;
}

}  // namespace tessera::tiler
