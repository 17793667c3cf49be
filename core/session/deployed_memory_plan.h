// A GAP plan as the memory timeline and `tessera plan --model` show it: one placement per tensor of
// the deployed graph (the quantized, fused layers), per staging buffer and per prefetched copy, at
// the offsets the generated code uses. The L2 panel holds the static block (constants promoted at
// construction) followed by the dynamic block; the L3 RAM panel its static block followed by its
// dynamic block; constants read from flash sit at their offset in the flash image. Steps are the
// deployed graph's nodes.
#pragma once

#include "gap/compile/gap_deployment.h"
#include "memory/hierarchy_planner.h"
#include "target/chip_table.h"

#include <string>
#include <vector>

namespace tessera {

HierarchyPlan deployedMemoryPlan(const gap::GapDeployment& deployment, const gap::GapPlan& plan);

// The memories such a plan places tensors in, top down, by the names its placements carry: L2,
// the L3 RAM, the privileged flash (on chips that have one) and the flash.
std::vector<std::string> deployedPlanLevels(const target::ChipDescription& chip);

// The totals of a plan as `tessera plan --model` prints them: L2 peak (static and dynamic blocks)
// against the budget, L3 RAM, flash images and L3 traffic.
std::string formatPlanTotals(const gap::GapPlan& plan);

}  // namespace tessera
