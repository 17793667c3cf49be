#pragma once
// Two plans of one model side by side (the studio's compare: a plan pinned as A, the one shown as
// B): their totals, and every tensor placed differently, moved to another memory first.
#include "memory/hierarchy_planner.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera {

struct PlacementChange {
    std::string tensor;
    PlacementKind kind = PlacementKind::Activation;
    std::optional<TensorPlacement> before;  // in A (none: only B places it)
    std::optional<TensorPlacement> after;   // in B (none: only A places it)
    bool changedLevel() const;
};

struct PlanTotal {
    std::string name;  // "L2 peak", "L3 traffic per inference", ...
    std::int64_t a = 0;
    std::int64_t b = 0;
    bool bytes = true;  // a size (else a count)
};

struct PlanComparison {
    std::vector<PlanTotal> totals;
    std::vector<PlacementChange> changes;  // level changes, then placements only one plan has, then moves
};

// A placement is matched across plans by tensor, kind and first step (a constant's L2 copy and its
// flash image, or a spilled tensor's staging buffer, are different placements of one tensor).
PlanComparison comparePlans(const HierarchyPlan& a, const HierarchyPlan& b);

} // namespace tessera
