#pragma once
// Independent check of a memory plan, used by every planner test: it trusts nothing the planner
// computed and compares all pairs directly.
#include "memory/buffer.h"

#include <string>
#include <vector>

namespace tessera {

// Every problem of `offsets` as a plan of `buffers` under `capacity`: a buffer outside [0, capacity),
// a misaligned offset, a fixed offset not kept, two buffers live at the same time that share bytes.
// Empty when the plan is valid.
std::vector<std::string> validatePlan(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets,
                                      int64_t capacity);

} // namespace tessera
