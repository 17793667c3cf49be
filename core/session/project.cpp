#include "session/project.h"

#include "io/file_io.h"
#include "base/error.h"
#include "target/chip_table.h"
#include "target/nvdla_configs.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <filesystem>

namespace tessera {

namespace {

constexpr int kFormatVersion = 1;

// A whole number within [smallest, largest]; 1e30, 1.5 or "3" are refused with the field named.
int64_t integerField(const nlohmann::json& value, const std::string& source, const char* name, int64_t smallest,
                     int64_t largest)
{
    const bool whole = value.is_number_integer();
    const bool tooLarge = value.is_number_unsigned() && value.get<uint64_t>() > uint64_t(largest);
    if (!whole || tooLarge || value.get<int64_t>() < smallest || value.get<int64_t>() > largest)
        throw ModelError(source + ": \"" + name + "\" is " + value.dump() + ", not a whole number from " +
                         std::to_string(smallest) + " to " + std::to_string(largest));
    return value.get<int64_t>();
}

// The chip table's chips, or an NVDLA configuration and one of its precisions.
void requireKnownTarget(const std::string& target, const std::string& source)
{
    try {
        if (target.rfind("nvdla:", 0) != 0) {
            target::chip(target);
            return;
        }
        const size_t colon = target.find(':', 6);
        if (colon == std::string::npos)
            throw Error("an NVDLA target is nvdla:<config>:<precision>");
        const target::NvdlaConfig& config = target::nvdlaConfig(target.substr(6, colon - 6));
        const target::NvdlaPrecision precision = target::parseNvdlaPrecision(target.substr(colon + 1));
        if (std::find(config.precisions.begin(), config.precisions.end(), precision) == config.precisions.end())
            throw Error(config.name + " has no " + target.substr(colon + 1) + " precision");
    } catch (const Error& error) {
        throw ModelError(source + ": target '" + target + "' is not one Tessera knows (" + error.what() + ")");
    }
}

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
        const int64_t version = integerField(field("tessera_project"), source, "tessera_project", 1, INT64_MAX);
        if (version > kFormatVersion)
            throw ModelError(source + ": written by a newer Tessera (format " + std::to_string(version) +
                             "); update Tessera to open it");
        project.modelPath = field("model").get<std::string>();
        project.target = field("target").get<std::string>();
    } catch (const nlohmann::json::exception& error) {
        throw ModelError(source + ": a field has the wrong type (" + jsonErrorText(error) + ")");
    }
    requireKnownTarget(project.target, source);
    // L2 0 is the target's default; every other budget is given in bytes or left out.
    project.l2Budget = field("l2_budget") == 0 ? 0
                                               : integerField(json.at("l2_budget"), source, "l2_budget",
                                                              kProjectSmallestBudget, kProjectLargestL2);
    auto optionalBudget = [&](const char* name, int64_t largest) -> std::optional<int64_t> {
        if (!json.contains(name))
            return std::nullopt;
        return integerField(json.at(name), source, name, kProjectSmallestBudget, largest);
    };
    project.l3Budget = optionalBudget("l3_budget", kProjectLargestL3);
    project.l1Budget = optionalBudget("l1_budget", kProjectLargestL1);
    project.flashBudget = optionalBudget("flash_budget", kProjectLargestFlash);
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
