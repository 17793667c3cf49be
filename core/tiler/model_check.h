// Consistency checks of a KernelModel before tiling: names that must resolve (basic kernels,
// kernel arguments, C arguments, group members), binding counts, argument sizes and flags,
// iteration orders, group structure; in graph mode also memory devices and graphs.
#pragma once

#include "tiler/kernel_model.h"

#include <string>
#include <vector>

namespace tessera::tiler {

// Every problem found, each a message naming the user kernel, group, call or argument involved
// and how to fix it. Empty when the model can be handed to the tiler.
std::vector<std::string> checkModel(const KernelModel& model);

// The graph-mode part of checkModel() (graph_model_check.cpp): memory devices and graphs.
std::vector<std::string> checkGraphModel(const KernelModel& model);

}  // namespace tessera::tiler
