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

struct TileSolverResult {
    bool ok = false;
    KernelTiling tiling;
    std::string error;             // names the kernel, the arguments and the fix
    std::uint64_t minimumL1 = 0;   // smallest budget with a solution (0 when none exists at all, or
                                   // not measured: solveTiling's measureMinimum)
    bool badKernel = false;        // the kernel itself is malformed (no budget would help)
};

// The L1 promotions the solver may choose (AT_KERNEL_BUFFER_PROMOTE and
// AT_KERNEL_PARTIAL_BUFFER_PROMOTE): a whole argument kept in L1, or one chunk holding all the
// input planes of a tile.
struct PromotionPolicy {
    bool whole = true;
    bool acrossInputPlanes = true;
};
PromotionPolicy promotionPolicy(const GenerationOptions& options);

// l2Budget bounds the L2 staging buffers of arguments homed in L3 (O_L2DB). A tiling found also
// measures the smallest L1 any tiling needs (minimumL1) unless measureMinimum is false: that search
// costs as much as the solution's, and a caller weighing many variants needs only the solution.
TileSolverResult solveTiling(const UserKernel& kernel, std::uint64_t l1Budget,
                             std::uint64_t l2Budget = UINT64_MAX, const TilerCostModel& costModel = {},
                             const PromotionPolicy& promotions = {}, bool measureMinimum = true);

// The kernel solved with the model's L1 budget and all the L2 it could want; `overL1` is set when
// it has no tiling in that L1 (a well-formed kernel that no L2 budget would help).
TileSolverResult solveWithoutL2Limit(const UserKernel& kernel, const GenerationOptions& options, bool& overL1);

}  // namespace tessera::tiler
