#pragma once
// A studio project: which model, which target, which budgets. Saved as JSON, atomically, so a
// crash while saving never loses the previous file.
#include <cstdint>
#include <optional>
#include <string>

namespace tessera {

struct Project {
    std::string modelPath;            // absolute, or relative to the project file
    std::string target = "gap8";
    int64_t l2Budget = 0;             // bytes; 0 means the target's default
    std::optional<int64_t> l3Budget;  // bytes; absent means the L3 RAM size
    std::optional<int64_t> l1Budget;  // bytes; absent means the target's L1
    std::optional<int64_t> flashBudget; // bytes; absent means the target's flash
};

// {"tessera_project": 1, "model": ..., "target": ..., "l2_budget": ..., "l3_budget": ...,
//  "l1_budget": ..., "flash_budget": ...} (the last three optional)
std::string projectToJson(const Project& project);
// Throws ModelError naming `source` and the field for malformed or incomplete files.
Project projectFromJson(const std::string& text, const std::string& source);

void saveProject(const Project& project, const std::string& path);
// Reads a project; a relative model path is resolved against the project file's folder.
Project loadProject(const std::string& path);

} // namespace tessera
