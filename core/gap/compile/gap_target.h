// The GAP chips as the compiler sees them: the chip table's facts (core/target/chip_table.h) with
// the tile solver's cost model derived from them.
#pragma once

#include "target/chip_table.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

using GapBudgets = target::Budgets;

struct GapTarget {
    std::string name;          // "gap8", "gap9"
    std::string description;
    std::uint64_t l2CodeReserve = 0;  // L2 kept for code: the default L2 budget is the rest
    double clusterMhz = 0;     // nominal cluster clock, for the time estimates of the report
    tiler::TilerCostModel costModel;  // cores, DMA bandwidths and MAC rates per kernel family
    GapBudgets budgets;        // the chip's defaults

    GapBudgets defaultBudgets() const { return budgets; }
};

const std::vector<GapTarget>& gapTargets();

// The target named `name`; throws tessera::Error listing the known ones otherwise.
const GapTarget& gapTarget(const std::string& name);

}  // namespace tessera::gap
