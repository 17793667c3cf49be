// Checks a loadable against what NVIDIA's runtime and firmware require of it, without hardware: the
// container (all eight lists, identifier, version), the cross-references between the lists (ids,
// memories, addresses, blobs, events, submits, tensor descriptions, bind ids), and each task's
// program (descriptor versions and sizes, op_head, the dependency graph walked as the firmware
// walks it, every data cube's address index and range). Each finding names the exact field.
#pragma once

#include "nvdla/loadable.h"

#include <string>
#include <vector>

namespace tessera::nvdla {

struct Finding {
    enum class Severity { Error, Warning };
    Severity severity = Severity::Error;
    std::string where;    // "task_list[1].address_list[3]", "task 1 op 4 (SDP).consumers[3].index"
    std::string message;
};

std::vector<Finding> validateLoadable(const Loadable& loadable);

// True when no finding is an error.
bool isValid(const std::vector<Finding>& findings);

// "error: task_list[1].address_list[3]: ..." one per line.
std::string formatFindings(const std::vector<Finding>& findings);

}  // namespace tessera::nvdla
