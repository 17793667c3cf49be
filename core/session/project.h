#pragma once
// A studio project: which model, which target, which budgets. Saved as JSON, atomically, so a
// crash while saving never loses the previous file.
#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

// The budgets a project may hold, in bytes; the studio's budget fields take the same ranges.
inline constexpr int64_t kProjectSmallestBudget = 1024;
inline constexpr int64_t kProjectLargestL1 = int64_t(4) << 20;     // 4 MiB
inline constexpr int64_t kProjectLargestL2 = int64_t(1) << 30;     // 1 GiB
inline constexpr int64_t kProjectLargestL3 = int64_t(4) << 30;     // 4 GiB
inline constexpr int64_t kProjectLargestFlash = int64_t(4) << 30;  // 4 GiB

struct Project {
    std::string modelPath;            // absolute, or relative to the project file
    std::string target = "gap8";      // a chip of the chip table, or "nvdla:<config>:<precision>"
    int64_t l2Budget = 0;             // bytes; 0 means the target's default
    std::optional<int64_t> l3Budget;  // bytes; absent means the L3 RAM size
    std::optional<int64_t> l1Budget;  // bytes; absent means the target's L1
    std::optional<int64_t> flashBudget; // bytes; absent means the target's flash
};

// {"tessera_project": 1, "model": ..., "target": ..., "l2_budget": ..., "l3_budget": ...,
//  "l1_budget": ..., "flash_budget": ...} (the last three optional)
std::string projectToJson(const Project& project);
// Throws ModelError naming `source` and the field for malformed or incomplete files, a target
// Tessera does not know, and budgets that are not whole numbers of bytes within the ranges above.
Project projectFromJson(const std::string& text, const std::string& source);

void saveProject(const Project& project, const std::string& path);
// Reads a project; a relative model path is resolved against the project file's folder.
Project loadProject(const std::string& path);

} // namespace tessera
