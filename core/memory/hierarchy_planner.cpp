#include "memory/hierarchy_planner.h"

#include "base/error.h"
#include "ir/node_cost.h"
#include "memory/greedy_planner.h"
#include "memory/lifetimes.h"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace tessera {

namespace {

// An activation buffer (one tensor, or a chain sharing one buffer in place) and the steps at which
// a layer reads or writes it.
struct ActivationGroup {
    Buffer buffer;
    std::vector<int64_t> touches;
    bool spilled = false;
    std::string reason;
};

enum class ConstantMode { Streamed, Prefetched, Promoted };

struct ConstantItem {
    std::string name;
    int64_t size = 0;
    std::vector<int64_t> uses;
    ConstantMode mode = ConstantMode::Streamed;
    int64_t prefetchStart = 0;
    std::string reason;

    int64_t loadsPerInference() const
    {
        switch (mode) {
        case ConstantMode::Streamed: return size * int64_t(uses.size());
        case ConstantMode::Prefetched: return size;
        case ConstantMode::Promoted: return 0;
        }
        return 0;
    }
};

class HierarchyPlanner {
public:
    HierarchyPlanner(const Graph& graph, const MemoryHierarchy& hierarchy, const HierarchyPlanOptions& options)
        : graph_(graph), hierarchy_(hierarchy), options_(options), l2_(hierarchy.require(MemoryKind::L2))
    {
        if (options.l2Budget <= 0)
            throw Error("the L2 budget must be positive (give --l2 BYTES)");
        if (options.stagingBytes <= 0)
            throw Error("the staging buffer size must be positive");
        flash_ = hierarchy.find(MemoryKind::L3Flash);
        privilegedFlash_ = hierarchy.find(MemoryKind::PrivilegedFlash);
        l3Ram_ = hierarchy.find(MemoryKind::L3Ram);
        lifetimes_ = computeLifetimes(graph);
        steps_ = int64_t(lifetimes_.schedule.size());
        stepCycles_.resize(size_t(steps_));
        for (int64_t s = 0; s < steps_; ++s) {
            const Node& node = graph.node(lifetimes_.schedule[size_t(s)]);
            int64_t work = nodeMacs(graph, node);
            for (TensorId out : node.outputs)
                work += graph.tensor(out).elements(); // one operation per output element at least
            stepCycles_[size_t(s)] = double(work) / hierarchy.macsPerCycle;
        }
        buildGroups();
        for (const TensorLifetime& life : lifetimes_.constants)
            constants_.push_back({graph.tensor(life.tensor).name, life.bytes, life.uses, ConstantMode::Streamed, 0,
                                  "streamed from flash at each use (no room to prefetch)"});
    }

    HierarchyPlan run()
    {
        checkMinimumFits();
        spillUntilFits();
        bringBackSpilled();
        prefetchConstants();
        promoteConstants();
        return finish();
    }

private:
    void buildGroups()
    {
        std::vector<const TensorLifetime*> lifeOf(graph_.tensorCount(), nullptr);
        for (const TensorLifetime& life : lifetimes_.activations)
            lifeOf[size_t(life.tensor)] = &life;
        for (ActivationBuffer& shared : activationBuffers(graph_, lifetimes_, l2_.alignment, options_.mergeInPlace)) {
            ActivationGroup group;
            group.buffer = shared.buffer;
            group.reason = shared.members.size() > 1 ? "in L2; element-wise layers write in place" : "in L2";
            // Touch steps: the producer and consumers of every tensor sharing the buffer.
            for (TensorId member : shared.members) {
                const TensorLifetime& life = *lifeOf[size_t(member)];
                group.touches.push_back(life.firstStep);
                group.touches.insert(group.touches.end(), life.uses.begin(), life.uses.end());
            }
            std::sort(group.touches.begin(), group.touches.end());
            group.touches.erase(std::unique(group.touches.begin(), group.touches.end()), group.touches.end());
            groups_.push_back(std::move(group));
        }
    }

    int64_t stagingSize(int64_t size) const { return std::min(size, options_.stagingBytes); }

    std::vector<Buffer> l2Buffers() const
    {
        std::vector<Buffer> buffers;
        const int64_t align = l2_.alignment;
        for (const ActivationGroup& group : groups_) {
            if (!group.spilled) {
                buffers.push_back(group.buffer);
                continue;
            }
            for (int64_t step : group.touches)
                buffers.push_back({group.buffer.id + "@" + std::to_string(step), step, step + 1,
                                   stagingSize(group.buffer.size), align, std::nullopt});
        }
        for (const ConstantItem& constant : constants_) {
            switch (constant.mode) {
            case ConstantMode::Streamed:
                for (int64_t step : constant.uses)
                    buffers.push_back({constant.name + "@" + std::to_string(step), step, step + 1,
                                       stagingSize(constant.size), align, std::nullopt});
                break;
            case ConstantMode::Prefetched:
                buffers.push_back({constant.name, constant.prefetchStart, constant.uses.back() + 1, constant.size, align, std::nullopt});
                break;
            case ConstantMode::Promoted:
                buffers.push_back({constant.name, 0, std::max<int64_t>(steps_, 1), constant.size, align, std::nullopt});
                break;
            }
        }
        return buffers;
    }

    // Quick feasibility used while deciding: the lower bound, then the greedy plan.
    bool fits(const std::vector<Buffer>& buffers) const
    {
        if (maxLiveBytes(buffers) > options_.l2Budget)
            return false;
        return greedyFits(buffers, options_.l2Budget);
    }

    std::string stepName(int64_t step) const
    {
        if (step < 0 || step >= steps_)
            return "step " + std::to_string(step);
        return fmt::format("step {} (node '{}')", step, graph_.node(lifetimes_.schedule[size_t(step)]).name);
    }

    // The busiest step of an L2 layout and its live bytes.
    std::pair<int64_t, int64_t> busiestStep(const std::vector<Buffer>& buffers) const
    {
        int64_t bestStep = 0, bestLive = -1;
        for (const auto& [step, live] : liveBytesProfile(buffers))
            if (live > bestLive) {
                bestLive = live;
                bestStep = step;
            }
        return {bestStep, bestLive};
    }

    void checkMinimumFits()
    {
        for (ActivationGroup& group : groups_)
            group.spilled = true;
        const std::vector<Buffer> minimal = l2Buffers();
        const auto [step, live] = busiestStep(minimal);
        for (ActivationGroup& group : groups_)
            group.spilled = false;
        if (live > options_.l2Budget)
            throw Error(fmt::format("L2 budget of {} bytes is too small: {} needs {} bytes even with every activation "
                                    "in L3 and every constant streamed through {}-byte staging buffers (raise the L2 "
                                    "budget to at least {})",
                                    options_.l2Budget, stepName(step), live, options_.stagingBytes, live));
    }

    int64_t trafficOfSpill(const ActivationGroup& group) const
    {
        return group.buffer.size * int64_t(group.touches.size());
    }

    void spillUntilFits()
    {
        while (true) {
            const std::vector<Buffer> buffers = l2Buffers();
            if (fits(buffers))
                return;
            if (!l3Ram_)
                throw Error(fmt::format("activations need more than the L2 budget of {} bytes and target '{}' has no L3 RAM "
                                        "to spill to", options_.l2Budget, hierarchy_.target));
            const auto [step, live] = busiestStep(buffers);
            // Spill the tensor live at the busiest step that frees the most room per byte of traffic.
            ActivationGroup* best = nullptr;
            double bestScore = -1.0;
            for (ActivationGroup& group : groups_) {
                if (group.spilled || group.buffer.lower > step || group.buffer.upper <= step)
                    continue;
                const int64_t freed = group.buffer.size - (std::binary_search(group.touches.begin(), group.touches.end(), step)
                                                               ? stagingSize(group.buffer.size) : 0);
                const double score = double(freed) / double(std::max<int64_t>(trafficOfSpill(group), 1));
                if (freed > 0 && score > bestScore) {
                    bestScore = score;
                    best = &group;
                }
            }
            if (!best) {
                // Nothing live there can give room; spill the largest remaining buffer anywhere.
                for (ActivationGroup& group : groups_)
                    if (!group.spilled && (!best || group.buffer.size > best->buffer.size))
                        best = &group;
            }
            if (!best)
                throw Error(fmt::format("L2 budget of {} bytes is too small: {} needs {} bytes", options_.l2Budget,
                                        stepName(step), live));
            best->spilled = true;
            best->reason = fmt::format("spilled to {}: L2 over budget at {} ({} bytes live); costs {} bytes of L3 "
                                       "traffic per inference", l3Ram_->name, stepName(step), live, trafficOfSpill(*best));
        }
    }

    // Spilling is greedy; afterwards each spilled tensor comes back if the rest still fits,
    // most expensive first.
    void bringBackSpilled()
    {
        std::vector<ActivationGroup*> spilled;
        for (ActivationGroup& group : groups_)
            if (group.spilled)
                spilled.push_back(&group);
        std::sort(spilled.begin(), spilled.end(),
                  [&](auto* a, auto* b) { return trafficOfSpill(*a) > trafficOfSpill(*b); });
        for (ActivationGroup* group : spilled) {
            group->spilled = false;
            if (fits(l2Buffers())) {
                group->reason = "in L2 (fits after other spills)";
                continue;
            }
            group->spilled = true;
        }
    }

    const MemoryLevel& constantHome() const { return flash_ ? *flash_ : l2_; }

    void prefetchConstants()
    {
        std::vector<ConstantItem*> order;
        for (ConstantItem& constant : constants_)
            order.push_back(&constant);
        std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->uses.front() < b->uses.front(); });
        for (ConstantItem* constant : order) {
            const int64_t first = constant->uses.front();
            if (first == 0) {
                constant->reason = "used by the first step: loaded before it, nothing earlier can hide the transfer";
                continue;
            }
            const double transfer = constantHome().transferCycles(constant->size);
            // The latest start whose preceding compute hides the transfer.
            int64_t ideal = first - 1;
            double hidden = stepCycles_[size_t(ideal)];
            while (ideal > 0 && hidden < transfer)
                hidden += stepCycles_[size_t(--ideal)];
            // Feasibility only improves as the start moves later: binary search the earliest start that fits.
            const auto fitsFrom = [&](int64_t start) {
                constant->mode = ConstantMode::Prefetched;
                constant->prefetchStart = start;
                const bool ok = fits(l2Buffers());
                constant->mode = ConstantMode::Streamed;
                return ok;
            };
            if (!fitsFrom(first - 1))
                continue;
            int64_t low = ideal, high = first - 1;
            while (low < high) {
                const int64_t mid = low + (high - low) / 2;
                if (fitsFrom(mid))
                    high = mid;
                else
                    low = mid + 1;
            }
            constant->mode = ConstantMode::Prefetched;
            constant->prefetchStart = low;
            double cover = 0;
            for (int64_t s = low; s < first; ++s)
                cover += stepCycles_[size_t(s)];
            constant->reason = cover >= transfer
                                   ? fmt::format("prefetched from step {}: {:.0f} transfer cycles hidden by {:.0f} compute cycles",
                                                 low, transfer, cover)
                                   : fmt::format("prefetched from step {} (earliest that fits): {:.0f} of {:.0f} transfer cycles hidden",
                                                 low, cover, transfer);
        }
    }

    void promoteConstants()
    {
        std::vector<ConstantItem*> order;
        for (ConstantItem& constant : constants_)
            order.push_back(&constant);
        std::stable_sort(order.begin(), order.end(),
                         [](auto* a, auto* b) { return a->loadsPerInference() > b->loadsPerInference(); });
        for (ConstantItem* constant : order) {
            const ConstantItem before = *constant;
            constant->mode = ConstantMode::Promoted;
            if (fits(l2Buffers())) {
                constant->reason = fmt::format("promoted to L2 for the whole run: saves {} bytes of flash traffic per "
                                               "inference", before.loadsPerInference());
                continue;
            }
            *constant = before;
        }
    }

    HierarchyPlan finish()
    {
        HierarchyPlan plan;
        plan.steps = steps_;
        const std::vector<Buffer> buffers = l2Buffers();
        PlanOptions options;
        options.capacity = options_.l2Budget;
        options.minimize = true;
        options.timeoutSeconds = options_.finalPlanSeconds;
        plan.l2 = planMemory(buffers, options);
        std::vector<int64_t> offsets = plan.l2.offsets;
        if (plan.l2.peak > options_.l2Budget) { // the exact search ran out of time: keep the greedy layout
            offsets = bestGreedyPlan(buffers);
            plan.l2.offsets = offsets;
            plan.l2.peak = planPeak(buffers, offsets);
        }

        // L2 rows, in the order l2Buffers() produced them.
        size_t index = 0;
        for (const ActivationGroup& group : groups_) {
            if (!group.spilled) {
                plan.placements.push_back({group.buffer.id, PlacementKind::Activation, l2_.name, offsets[index],
                                           group.buffer.size, group.buffer.lower, group.buffer.upper, group.reason});
                ++index;
                continue;
            }
            for (int64_t step : group.touches) {
                plan.placements.push_back({group.buffer.id, PlacementKind::Staging, l2_.name, offsets[index],
                                           buffers[index].size, step, step + 1,
                                           fmt::format("staging for {} at {}", l3Ram_->name, stepName(step))});
                ++index;
            }
        }
        for (const ConstantItem& constant : constants_) {
            const size_t rows = constant.mode == ConstantMode::Streamed ? constant.uses.size() : 1;
            for (size_t r = 0; r < rows; ++r, ++index) {
                const PlacementKind kind = constant.mode == ConstantMode::Promoted     ? PlacementKind::Constant
                                           : constant.mode == ConstantMode::Prefetched ? PlacementKind::Prefetch
                                                                                       : PlacementKind::Staging;
                plan.placements.push_back({constant.name, kind, l2_.name, offsets[index], buffers[index].size,
                                           buffers[index].lower, buffers[index].upper, constant.reason});
            }
            plan.l3TrafficBytes += constant.loadsPerInference();
            plan.promotedConstants += constant.mode == ConstantMode::Promoted;
            plan.prefetchedConstants += constant.mode == ConstantMode::Prefetched;
        }

        placeSpilled(plan);
        placeConstantsInFlash(plan);
        return plan;
    }

    void placeSpilled(HierarchyPlan& plan)
    {
        std::vector<Buffer> spilled;
        for (const ActivationGroup& group : groups_) {
            if (!group.spilled)
                continue;
            spilled.push_back(group.buffer);
            spilled.back().alignment = l3Ram_->alignment;
            plan.l3TrafficBytes += trafficOfSpill(group);
            ++plan.spilledTensors;
        }
        if (spilled.empty())
            return;
        const int64_t budget = options_.l3Budget.value_or(l3Ram_->size);
        PlanOptions options;
        options.capacity = budget;
        options.minimize = true;
        options.timeoutSeconds = options_.finalPlanSeconds;
        const PlanResult result = planMemory(spilled, options);
        if (result.peak > budget)
            throw Error(fmt::format("{} budget of {} bytes is too small for the spilled activations (they need {} bytes)",
                                    l3Ram_->name, budget, result.peak));
        plan.l3RamBytes = result.peak;
        size_t k = 0;
        for (const ActivationGroup& group : groups_)
            if (group.spilled) {
                plan.placements.push_back({group.buffer.id, PlacementKind::Activation, l3Ram_->name, result.offsets[k++],
                                           group.buffer.size, group.buffer.lower, group.buffer.upper, group.reason});
            }
    }

    void placeConstantsInFlash(HierarchyPlan& plan)
    {
        if (!flash_ && !privilegedFlash_) {
            // No flash: constants are part of L2's promoted set or nowhere; report their L2 rows only.
            return;
        }
        // Constants read at run time go to the privileged flash first, most traffic first; promoted
        // constants are read once at start-up, so their images go to the ordinary flash.
        std::vector<const ConstantItem*> order;
        for (const ConstantItem& constant : constants_)
            order.push_back(&constant);
        std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) {
            return a->loadsPerInference() > b->loadsPerInference();
        });
        int64_t privilegedUsed = 0, flashUsed = 0;
        for (const ConstantItem* constant : order) {
            const bool runtime = constant->mode != ConstantMode::Promoted;
            const MemoryLevel* level = nullptr;
            std::string reason;
            if (runtime && privilegedFlash_ &&
                alignUp(privilegedUsed, privilegedFlash_->alignment) + constant->size <= privilegedFlash_->size) {
                level = privilegedFlash_;
                reason = fmt::format("read at run time ({} bytes per inference): privileged flash first",
                                     constant->loadsPerInference());
            } else if (flash_) {
                level = flash_;
                reason = runtime ? "read at run time; privileged flash full or absent" : "image of a promoted constant";
            } else {
                throw Error(fmt::format("constant '{}' ({} bytes) does not fit the {} and there is no other flash",
                                        constant->name, constant->size, privilegedFlash_->name));
            }
            // The ordinary flash is filled past its size here so the message can name what would fit.
            int64_t& used = level == privilegedFlash_ ? privilegedUsed : flashUsed;
            const int64_t offset = alignUp(used, level->alignment);
            used = offset + constant->size;
            plan.placements.push_back({constant->name, PlacementKind::Constant, level->name, offset, constant->size, 0,
                                       std::max<int64_t>(steps_, 1), reason});
        }
        if (flash_ && flashUsed > flash_->size)
            throw Error(fmt::format("constants need {} bytes of {}, which has {}: raise the flash budget to at least {} "
                                    "bytes, or the L2 budget so that more constants stay in L2",
                                    flashUsed, flash_->name, flash_->size, flashUsed));
        plan.privilegedFlashBytes = privilegedUsed;
        plan.flashBytes = flashUsed;
    }

    const Graph& graph_;
    const MemoryHierarchy& hierarchy_;
    const HierarchyPlanOptions options_;
    const MemoryLevel& l2_;
    const MemoryLevel* flash_ = nullptr;
    const MemoryLevel* privilegedFlash_ = nullptr;
    const MemoryLevel* l3Ram_ = nullptr;
    GraphLifetimes lifetimes_;
    int64_t steps_ = 0;
    std::vector<double> stepCycles_;
    std::vector<ActivationGroup> groups_;
    std::vector<ConstantItem> constants_;
};

} // namespace

std::string placementKindName(PlacementKind kind)
{
    switch (kind) {
    case PlacementKind::Activation: return "activation";
    case PlacementKind::Constant: return "constant";
    case PlacementKind::Staging: return "staging";
    case PlacementKind::Prefetch: return "prefetch";
    }
    return "buffer";
}

HierarchyPlan planHierarchy(const Graph& graph, const MemoryHierarchy& hierarchy, const HierarchyPlanOptions& options)
{
    return HierarchyPlanner(graph, hierarchy, options).run();
}

std::string formatPlacements(const HierarchyPlan& plan)
{
    std::string text = fmt::format("{:<40} {:<10} {:<16} {:>10} {:>10} {:>12}  {}\n", "tensor", "kind", "level", "offset",
                                   "size", "lifetime", "reason");
    for (const TensorPlacement& p : plan.placements)
        text += fmt::format("{:<40} {:<10} {:<16} {:>10} {:>10} {:>12}  {}\n", p.tensor, placementKindName(p.kind),
                            p.level, p.offset, p.size, fmt::format("[{}, {})", p.lower, p.upper), p.reason);
    return text;
}

std::string formatHierarchyPlan(const HierarchyPlan& plan)
{
    std::string text = formatPlacements(plan);
    text += fmt::format("L2: peak {} bytes, lower bound {}, ratio {:.4f}, {}\n", plan.l2.peak, plan.l2.lowerBound,
                        plan.l2.ratio(), planStatusName(plan.l2.status));
    text += fmt::format("L3 RAM: {} bytes for {} spilled tensors; flash: {} bytes privileged, {} bytes ordinary\n",
                        plan.l3RamBytes, plan.spilledTensors, plan.privilegedFlashBytes, plan.flashBytes);
    text += fmt::format("constants: {} promoted, {} prefetched; L3 traffic {} bytes per inference\n",
                        plan.promotedConstants, plan.prefetchedConstants, plan.l3TrafficBytes);
    return text;
}

} // namespace tessera
