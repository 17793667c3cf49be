// A convolution keeps the 32-bit accumulators of every output feature of a tile in L1, so one with
// many output features over a wide plane may have no tiling at all (SqueezeNet's 1000-feature
// classifier at 224 needs 82 KB). The plan then runs it as several convolutions, each over a run of
// output features with its share of the constants, and a copy layer (a concatenation along the
// channels) joins their outputs in order. The values are those of the whole convolution.
#pragma once

#include "gap/compile/gap_network.h"
#include "gap/compile/gap_graph_builder.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <map>
#include <string>

namespace tessera::gap {

// The convolutions (not depthwise) whose user kernel in `model` has no tiling within the L1 budget,
// each with the smallest number of parts over its output features whose kernels do tile; a
// convolution no split helps is left out (the plan then names the L1 it needs).
std::map<std::string, int> convolutionsToSplit(const GapNetwork& network, const tiler::KernelModel& model,
                                               const GapBudgets& budgets, const tiler::TilerCostModel& costModel);

// `network` with each convolution of `parts` run as that many convolutions <layer>_part<k> over
// consecutive output features, joined by the concatenation <layer> (which keeps the output).
GapNetwork splitOutputFeatures(const GapNetwork& network, const std::map<std::string, int>& parts);

}  // namespace tessera::gap
