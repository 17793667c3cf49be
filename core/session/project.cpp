#include "session/project.h"

#include "io/file_io.h"
#include "base/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>

namespace tessera {

namespace {

constexpr int kFormatVersion = 1;

} // namespace

std::string projectToJson(const Project& project)
{
    nlohmann::json json{{"tessera_project", kFormatVersion},
                        {"model", project.modelPath},
                        {"target", project.target},
                        {"l2_budget", project.l2Budget}};
    if (project.l3Budget)
        json["l3_budget"] = *project.l3Budget;
    if (project.l1Budget)
        json["l1_budget"] = *project.l1Budget;
    if (project.flashBudget)
        json["flash_budget"] = *project.flashBudget;
    return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Project projectFromJson(const std::string& text, const std::string& source)
{
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& error) {
        throw ModelError(source + ": not a Tessera project (" + jsonErrorText(error) + ")");
    }
    if (!json.is_object() || !json.contains("tessera_project"))
        throw ModelError(source + ": not a Tessera project (no \"tessera_project\" field)");
    auto field = [&](const char* name) -> const nlohmann::json& {
        if (!json.contains(name))
            throw ModelError(source + ": field \"" + name + "\" is missing");
        return json.at(name);
    };
    Project project;
    try {
        if (field("tessera_project").get<int>() > kFormatVersion)
            throw ModelError(source + ": written by a newer Tessera (format " +
                             std::to_string(json.at("tessera_project").get<int>()) + "); update Tessera to open it");
        project.modelPath = field("model").get<std::string>();
        project.target = field("target").get<std::string>();
        project.l2Budget = field("l2_budget").get<int64_t>();
        if (json.contains("l3_budget"))
            project.l3Budget = json.at("l3_budget").get<int64_t>();
        if (json.contains("l1_budget"))
            project.l1Budget = json.at("l1_budget").get<int64_t>();
        if (json.contains("flash_budget"))
            project.flashBudget = json.at("flash_budget").get<int64_t>();
    } catch (const nlohmann::json::exception& error) {
        throw ModelError(source + ": a field has the wrong type (" + jsonErrorText(error) + ")");
    }
    const auto negative = [](const std::optional<int64_t>& budget) { return budget && *budget < 0; };
    if (project.l2Budget < 0 || negative(project.l3Budget) || negative(project.l1Budget) ||
        negative(project.flashBudget))
        throw ModelError(source + ": budgets must not be negative");
    return project;
}

void saveProject(const Project& project, const std::string& path)
{
    writeFileAtomically(path, projectToJson(project));
}

Project loadProject(const std::string& path)
{
    Project project = projectFromJson(readFileBytes(path), path);
    const std::filesystem::path model(project.modelPath);
    if (model.is_relative())
        project.modelPath = (std::filesystem::path(path).parent_path() / model).lexically_normal().string();
    return project;
}

} // namespace tessera
