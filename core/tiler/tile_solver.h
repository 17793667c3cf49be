// The tile solver: for one user kernel and an L1 budget, chooses the tile size, which arguments
// are double-buffered or promoted whole into L1, and where every buffer sits, minimizing an
// estimate of the kernel's cycles (DMA transfers and bytes, their overlap with compute, the
// number of tiles). When nothing fits it names the smallest L1 that would.
#pragma once

#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <cstdint>
#include <string>

namespace tessera::tiler {

// Rough GAP8 cluster figures the cost estimate uses; only their ratios steer the choice.
struct TilerCostModel {
    double dmaBytesPerCycle = 8.0;     // L2 <-> L1 cluster DMA
    double dmaSetupCycles = 30.0;      // programming one transfer
    double dmaLineCycles = 2.0;        // extra per line of a 2-D (strided) transfer
    double l3BytesPerCycle = 1.5;      // L3 (HyperRAM) <-> L2 micro DMA
    double computeCyclesPerItem = 1.0; // per item of the largest tile, per core
    double macsPerCoreCycle = 1.0;     // kernels that declare their operations (16-bit MACs per core)
    unsigned cores = 8;
    double callCycles = 300.0;         // forking an inner-loop basic kernel on the cores and joining
    unsigned alignment = 4;            // L1 buffer alignment in bytes
};

struct TileSolverResult {
    bool ok = false;
    KernelTiling tiling;
    std::string error;             // names the kernel, the arguments and the fix
    std::uint64_t minimumL1 = 0;   // smallest budget with a solution (0 when none exists at all)
};

// l2Budget bounds the L2 staging buffers of arguments homed in L3 (O_L2DB).
TileSolverResult solveTiling(const UserKernel& kernel, std::uint64_t l1Budget,
                             std::uint64_t l2Budget = UINT64_MAX, const TilerCostModel& costModel = {});

}  // namespace tessera::tiler
