#pragma once
// The split plan as people and tools read it: the per-layer table (KB rounded as AMD's tables
// round them), JSON (unrounded), and an ADF-style graph plan in text.
#include "aie/split_planner.h"

#include <string>

namespace tessera::aie {

// 1 decimal, trailing ".0" dropped: 8.05 -> "8", 0.09375 -> "0.1", 17.5 -> "17.5".
std::string formatKB(double kb);

std::string formatTable(const AiePlan& plan);
std::string formatJson(const AiePlan& plan);
std::string formatAdf(const AiePlan& plan);

} // namespace tessera::aie
