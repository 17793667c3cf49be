#pragma once
// The functional check of a split plan: each layer is executed chunk by chunk exactly as the plan
// streams it (memory-tile windows with zero padding and overlap, node groups for an asynchronous
// output, sample chunks for pools) with the reference kernels, on seeded random inputs and the
// model's own weights, and compared with the whole layer run at once. A plan is only correct when
// they agree.
#include "aie/split_planner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::aie {

struct LayerCheck {
    std::string layer;
    bool passed = false;
    int64_t pieces = 0;      // kernel calls the chunked run made
    double maxError = 0;     // largest |chunked - whole| / (1 + |whole|)
};

std::vector<LayerCheck> checkPlan(const Graph& graph, const AiePlan& plan, uint32_t seed = 1);

} // namespace tessera::aie
