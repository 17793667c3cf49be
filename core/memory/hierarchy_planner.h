#pragma once
// Placement of a graph's tensors across a memory hierarchy, on top of the planner:
//  1. activations go to L2; when L2 cannot hold them, the tensors whose spill costs the least L3
//     traffic for the room it frees move to L3 RAM, leaving an L2 staging buffer at every step that
//     streams through them;
//  2. constants live in flash and are staged into L2 at each use; where space allows, each is
//     prefetched early enough that the compute of the steps before its use hides the transfer;
//  3. constants are then promoted to L2 for the whole run, largest traffic saving first, while
//     they fit;
//  4. constants that stay in flash fill the privileged (faster, smaller) flash first.
// Every decision carries a reason for reports and the studio.
#include "ir/graph.h"
#include "memory/memory_hierarchy.h"
#include "memory/memory_planner.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera {

enum class PlacementKind { Activation, Constant, Staging, Prefetch };

std::string placementKindName(PlacementKind kind);

// One rectangle of a memory plan: a tensor (or its copy, or a staging buffer) at an offset of a
// memory level over a range of steps.
struct TensorPlacement {
    std::string tensor;
    PlacementKind kind = PlacementKind::Activation;
    std::string level;   // memory level name ("L2", "HyperRAM", ...)
    int64_t offset = 0;
    int64_t size = 0;
    int64_t lower = 0;   // lifetime [lower, upper) in schedule steps
    int64_t upper = 0;
    std::string reason;
};

struct HierarchyPlanOptions {
    int64_t l2Budget = 0;                // bytes of L2 the graph may use
    std::optional<int64_t> l3Budget;     // bytes of L3 RAM (default: the level's size)
    int64_t stagingBytes = 16 * 1024;    // L2 buffer through which a layer streams an L3 tensor
    bool mergeInPlace = true;            // element-wise outputs reuse a dying input's buffer
    double finalPlanSeconds = 0.05;      // time for the exact planner on the final L2 layout
};

struct HierarchyPlan {
    std::vector<TensorPlacement> placements;
    PlanResult l2;                        // the final L2 plan (peak, lower bound, status)
    int64_t l3RamBytes = 0;               // peak of the spilled activations in L3 RAM
    int64_t privilegedFlashBytes = 0;
    int64_t flashBytes = 0;
    int64_t l3TrafficBytes = 0;           // bytes moved between L3 and L2 per inference
    // Those bytes step by step (the streams of the node run there, the prefetches started there);
    // they sum to l3TrafficBytes. Empty when the plan does not know them.
    std::vector<int64_t> stepTraffic;
    size_t spilledTensors = 0;
    size_t promotedConstants = 0;
    size_t prefetchedConstants = 0;
    int64_t steps = 0;
};

// `graph` must be typed. Throws Error naming the step and node when even with everything in L3
// the L2 budget is too small, or when L3 or flash overflow.
HierarchyPlan planHierarchy(const Graph& graph, const MemoryHierarchy& hierarchy, const HierarchyPlanOptions& options);

// The per-tensor table and totals as `tessera plan --model --dump` prints them.
std::string formatHierarchyPlan(const HierarchyPlan& plan);
// The per-tensor table alone (one line per placement, with a header).
std::string formatPlacements(const HierarchyPlan& plan);

} // namespace tessera
