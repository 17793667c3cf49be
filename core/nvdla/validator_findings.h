// The validator's findings as its checks collect them, and the checks of a DLA task that follow the
// firmware (validator_firmware_checks.cpp). Internal to the validator.
#pragma once

#include "nvdla/loadable_contents.h"
#include "nvdla/loadable_validator.h"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace tessera::nvdla {

struct FindingList {
    std::vector<Finding> all;

    template <typename... Args>
    void error(const std::string& where, fmt::format_string<Args...> format, Args&&... args)
    {
        all.push_back({Finding::Severity::Error, where, fmt::format(format, std::forward<Args>(args)...)});
    }
    template <typename... Args>
    void warning(const std::string& where, fmt::format_string<Args...> format, Args&&... args)
    {
        all.push_back({Finding::Severity::Warning, where, fmt::format(format, std::forward<Args>(args)...)});
    }
};

// What the firmware asserts of operation i, or programs minus one (so must be at least 1).
void checkFirmwareRules(FindingList& findings, const DlaTaskView& view, std::size_t i, const std::string& opWhere);

// Walks the dependency graph as the firmware does and names a deadlock or an inconsistent count.
void checkDependencyGraph(FindingList& findings, const DlaTaskView& view, const std::string& where);

}  // namespace tessera::nvdla
