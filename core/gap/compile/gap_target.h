// The GAP chips as data: memories, cores and the default budgets a compiled project gets.
#pragma once

#include "gap/compile/gap_graph_builder.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

struct GapTarget {
    std::string name;          // "gap8", "gap9"
    std::string description;
    int clusterCores = 8;
    uint64_t l1Bytes = 0;      // shared cluster memory
    uint64_t l2Bytes = 0;
    // L2 kept back for the program's code, stacks and data: the default L2 budget is the rest.
    uint64_t l2CodeReserve = 0;
    uint64_t l3RamBytes = 0;   // the board's external RAM (HyperRAM)
    uint64_t flashBytes = 0;   // the board's external flash
    uint64_t privilegedFlashBytes = 0;  // on-chip flash filled first with constants (GAP9's MRAM)
    double clusterMhz = 0;     // nominal cluster clock, for the time estimates of the report
    tiler::TilerCostModel costModel;  // cores, DMA bandwidths and MAC rates per kernel family

    GapBudgets defaultBudgets() const
    {
        return {l1Bytes, l2Bytes - l2CodeReserve, l3RamBytes, flashBytes, privilegedFlashBytes};
    }
};

const std::vector<GapTarget>& gapTargets();

// The target named `name`; throws tessera::Error listing the known ones otherwise.
const GapTarget& gapTarget(const std::string& name);

}  // namespace tessera::gap
