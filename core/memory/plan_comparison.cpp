#include "memory/plan_comparison.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace tessera {

bool PlacementChange::changedLevel() const { return before && after && before->level != after->level; }

PlanComparison comparePlans(const HierarchyPlan& a, const HierarchyPlan& b)
{
    PlanComparison comparison;
    const auto inL3 = [](const HierarchyPlan& plan) { return std::int64_t(plan.spilledTensors); };
    comparison.totals = {
        {"L2 peak", a.l2.peak, b.l2.peak, true},
        {"L2 lower bound", a.l2.lowerBound, b.l2.lowerBound, true},
        {"L3 RAM", a.l3RamBytes, b.l3RamBytes, true},
        {"L3 traffic per inference", a.l3TrafficBytes, b.l3TrafficBytes, true},
        {"tensors in L3", inL3(a), inL3(b), false},
        {"constants promoted to L2", std::int64_t(a.promotedConstants), std::int64_t(b.promotedConstants), false},
        {"constants prefetched", std::int64_t(a.prefetchedConstants), std::int64_t(b.prefetchedConstants), false},
    };
    using Key = std::tuple<std::string, int, std::int64_t>;
    std::map<Key, PlacementChange> byKey;
    for (const TensorPlacement& p : a.placements)
        byKey[{p.tensor, int(p.kind), p.lower}] = {p.tensor, p.kind, p, std::nullopt};
    for (const TensorPlacement& p : b.placements) {
        PlacementChange& change = byKey[{p.tensor, int(p.kind), p.lower}];
        change.tensor = p.tensor;
        change.kind = p.kind;
        change.after = p;
    }
    for (auto& [key, change] : byKey) {
        const bool same = change.before && change.after && change.before->level == change.after->level &&
                          change.before->offset == change.after->offset && change.before->size == change.after->size;
        if (!same)
            comparison.changes.push_back(std::move(change));
    }
    // Another memory first, then what only one plan places, then moves within one memory.
    const auto rank = [](const PlacementChange& change) { return change.changedLevel() ? 0 : (!change.before || !change.after) ? 1 : 2; };
    std::stable_sort(comparison.changes.begin(), comparison.changes.end(),
                     [&](const PlacementChange& x, const PlacementChange& y) { return rank(x) < rank(y); });
    return comparison;
}

} // namespace tessera
