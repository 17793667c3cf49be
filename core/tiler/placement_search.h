// The search behind allocateGraph (graph_allocation.h): candidate placements of a graph's tensors
// between L2 and L3 and what each costs, the greedy moves to L3, the prefetches, and the memo that
// keeps what holds at other L2 budgets. Internal to the tiler.
#pragma once

#include "memory/memory_planner.h"
#include "tiler/graph_allocation.h"
#include "tiler/tile_solver.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::tiler {
namespace placement_search {

constexpr std::uint64_t kAlignment = 4;
// What starting one L3 transfer costs, in bytes moved in the same time (HyperRAM latency).
constexpr double kL3SetupBytes = 256;
// Marks a planner buffer holding a prefetched constant (Placement::prefetched says which).
constexpr int kPrefetchBuffer = std::numeric_limits<int>::min();

inline std::uint64_t alignTo(std::uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

inline bool isConstant(const GraphTensor& tensor) { return tensor.argument->direction == GraphArgDirection::ConstIn; }
inline bool isLocal(const GraphTensor& tensor) { return tensor.argument->scope == GraphArgScope::Local; }

// What a node costs when some of its arguments are homed in L3.
struct NodeCost {
    bool ok = true;
    std::string error;
    std::uint64_t staging = 0;
    std::uint64_t l3Read = 0;
    std::uint64_t l3Write = 0;
    bool budgetBound = false;  // tiled under the L2 budget, its tiling without one did not fit it
};

// One placement: which tensors are in L3, and the L2 and L3 traffic that implies.
struct Placement {
    std::set<std::size_t> inL3;  // indexes into the tensors
    bool ok = false;
    std::string error;
    std::uint64_t l2Static = 0;
    std::uint64_t l2Dynamic = 0;
    std::uint64_t l2LowerBound = 0;
    std::uint64_t traffic = 0;
    std::uint64_t area = 0;       // L2 bytes x nodes: what the choice falls back on
    std::vector<NodeCost> nodes;
    PlanResult plan;              // the dynamic block
    std::vector<int> planned;     // per planner buffer: tensor index, or -1 - node for staging
    std::map<std::size_t, int> prefetch;                           // constant -> node starting its copy
    std::map<std::size_t, std::uint64_t> stagingLimits;            // node -> the most L2 its staging may take
    std::vector<std::pair<std::size_t, std::size_t>> prefetched;  // (constant, planner buffer)
    // The nodes [first, end) spanned by the buffers at the top of the dynamic block: only a buffer
    // live there can lower it (empty when nothing is planned).
    std::int64_t peakFirst = 0, peakEnd = 0;
    // Whether the placement holds at other L2 budgets: every node tiled as without a budget, the
    // largest staging among them (it holds at budgets of at least that).
    bool budgetBound = false;
    std::uint64_t largestStaging = 0;

    std::uint64_t total() const { return l2Static + l2Dynamic; }
    // Roughly what it holds in memory (the memo keeps placements up to a byte budget).
    std::size_t approximateBytes() const
    {
        return sizeof(Placement) + error.size() + inL3.size() * 48 + nodes.size() * sizeof(NodeCost) +
               plan.offsets.size() * sizeof(std::int64_t) + planned.size() * sizeof(int) +
               (prefetch.size() + stagingLimits.size()) * 64 + prefetched.size() * 16;
    }
};

// A move chosen from a placement, with the tensors found unable to move on the way: the same at
// every budget of at least `largestStaging` when no candidate was tiled under the budget.
struct KeptMove {
    int tensor = -1;
    int node = -1;
    Placement placement;
    std::set<std::size_t> immovable;
    std::uint64_t largestStaging = 0;
};

}  // namespace placement_search

// What placements of one graph at different L2 budgets share: node tilings without a budget and
// the candidate placements that hold at every budget above their largest staging buffer.
struct AllocationMemo::State {
    std::unordered_map<std::string, placement_search::NodeCost> unboundedCosts;
    std::unordered_map<std::string, double> unboundedCycles;  // with the staging it needs
    std::unordered_map<std::string, std::uint64_t> unboundedCyclesStaging;
    std::unordered_map<std::string, placement_search::Placement> placements;
    std::unordered_map<std::string, placement_search::KeptMove> moves;
    std::size_t placementBytes = 0, moveBytes = 0;  // what the two hold, roughly
};

namespace placement_search {

// Kept placements (and kept moves) are dropped past this many bytes: a placement holds a few
// entries per node, so a graph of 10^4 nodes keeps a few hundred, a small one tens of thousands.
constexpr std::size_t kMemoBytes = std::size_t(128) << 20;

class Placer {
public:
    Placer(const KernelModel& model, const GraphModel& graph, const std::vector<GraphTensor>& tensors,
           std::uint64_t l2Budget, AllocationMemo::State* memo)
        : model_(model), graph_(graph), tensors_(tensors), l2Budget_(l2Budget), memo_(memo)
    {
        for (std::size_t i = 0; i < tensors.size(); ++i)
            if (tensors[i].firstNode >= 0 && isConstant(tensors[i]))
                constants_.push_back(i);
        // The static block's order (largest first), so its size is judged with its padding.
        std::stable_sort(constants_.begin(), constants_.end(),
                         [&](std::size_t a, std::size_t b) { return tensors[a].bytes > tensors[b].bytes; });
        // Which tensor and kernel argument each binding of each node is, looked up once: every
        // candidate placement asks for them again.
        std::map<std::string, std::size_t> indexOf;
        for (std::size_t i = 0; i < tensors.size(); ++i)
            indexOf.emplace(tensors[i].name, i);
        nodeArguments_.resize(graph.nodes.size());
        movable_.assign(tensors.size(), true);
        for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
            const GraphNode& node = graph.nodes[n];
            const UserKernel* kernel = model.findUserKernel(node.kernel);
            for (std::size_t b = 0; b < node.bindings.size(); ++b) {
                const auto found = indexOf.find(node.bindings[b].symbol);
                if (found == indexOf.end() || !node.bindings[b].bindsTensor())
                    continue;
                if (!kernel) {
                    movable_[found->second] = false;  // a kernel group: its members' homes are its own business
                    continue;
                }
                if (b >= kernel->cargs.size())
                    continue;
                for (const KernelArgument& arg : kernel->args)
                    if (arg.cArgName == kernel->cargs[b].name)
                        nodeArguments_[n].push_back({found->second, arg.name});
            }
        }
    }

    // Tensors that may move to L3: constants and buffers between nodes that only user kernels use.
    bool movable(std::size_t index) const
    {
        const GraphTensor& tensor = tensors_[index];
        return tensor.firstNode >= 0 && (isConstant(tensor) || isLocal(tensor)) && movable_[index];
    }

    // `prefetch`: constants of inL3 copied into L2 from the given node on (their nodes read L2).
    // `stagingLimits`: nodes tiled with smaller staging buffers than the budget allows.
    Placement evaluate(const std::set<std::size_t>& inL3, double planSeconds,
                       const std::map<std::size_t, int>& prefetch = {},
                       const std::map<std::size_t, std::uint64_t>& stagingLimits = {})
    {
        if (!memo_)
            return computePlacement(inL3, planSeconds, prefetch, stagingLimits);
        const std::string key = std::to_string(planSeconds) + "|" + stateKey(inL3, prefetch, stagingLimits);
        if (const auto found = memo_->placements.find(key);
            found != memo_->placements.end() && found->second.largestStaging <= l2Budget_)
            return found->second;
        Placement placement = computePlacement(inL3, planSeconds, prefetch, stagingLimits);
        if (!placement.budgetBound) {
            const std::size_t bytes = placement.approximateBytes() + key.size();
            if (memo_->placementBytes + bytes > kMemoBytes) {
                memo_->placements.clear();
                memo_->placementBytes = 0;
            }
            if (memo_->placements.emplace(key, placement).second)
                memo_->placementBytes += bytes;
        }
        return placement;
    }

    // Names a placement's choices: the tensors in L3, the prefetches and the staging limits.
    static std::string stateKey(const std::set<std::size_t>& inL3, const std::map<std::size_t, int>& prefetch,
                                const std::map<std::size_t, std::uint64_t>& stagingLimits)
    {
        std::string key;
        for (std::size_t i : inL3)
            key += std::to_string(i) + ",";
        key += "|";
        for (const auto& [index, node] : prefetch)
            key += std::to_string(index) + ":" + std::to_string(node) + ",";
        key += "|";
        for (const auto& [node, limit] : stagingLimits)
            key += std::to_string(node) + ":" + std::to_string(limit) + ",";
        return key;
    }

    AllocationMemo::State* memo() const { return memo_; }
    std::uint64_t l2Budget() const { return l2Budget_; }

    Placement computePlacement(const std::set<std::size_t>& inL3, double planSeconds,
                               const std::map<std::size_t, int>& prefetch,
                               const std::map<std::size_t, std::uint64_t>& stagingLimits)
    {
        Placement placement;
        placement.inL3 = inL3;
        placement.prefetch = prefetch;
        placement.stagingLimits = stagingLimits;
        std::set<std::size_t> streamed = inL3;
        for (const auto& entry : prefetch)
            streamed.erase(entry.first);
        const std::int64_t steps = std::int64_t(graph_.nodes.size());
        for (std::size_t i : constants_) {
            const GraphTensor& tensor = tensors_[i];
            if (inL3.count(i))
                continue;
            placement.l2Static = alignTo(placement.l2Static) + tensor.bytes;
            placement.area += tensor.bytes * std::uint64_t(steps);
        }
        std::vector<Buffer> buffers;
        for (std::size_t i = 0; i < tensors_.size(); ++i) {
            const GraphTensor& tensor = tensors_[i];
            if (tensor.firstNode < 0 || inL3.count(i) || !isLocal(tensor))
                continue;
            buffers.push_back({tensor.name, tensor.firstNode, tensor.lastNode + 1, std::int64_t(tensor.bytes),
                               std::int64_t(kAlignment), {}});
            placement.planned.push_back(int(i));
        }
        for (const auto& [index, node] : prefetch) {
            const GraphTensor& tensor = tensors_[index];
            placement.prefetched.push_back({index, buffers.size()});
            placement.planned.push_back(kPrefetchBuffer);
            buffers.push_back({tensor.name + " prefetch", node, tensor.lastNode + 1, std::int64_t(tensor.bytes),
                               std::int64_t(kAlignment), {}});
            placement.traffic += tensor.bytes;
        }
        for (std::size_t n = 0; n < graph_.nodes.size(); ++n) {
            const auto limit = stagingLimits.find(n);
            const NodeCost cost = nodeCost(n, l3ArgumentsOf(n, streamed), limit == stagingLimits.end() ? 0 : limit->second);
            placement.budgetBound = placement.budgetBound || cost.budgetBound;
            placement.largestStaging = std::max(placement.largestStaging, cost.staging);
            if (!cost.ok) {
                placement.error = cost.error;
                return placement;
            }
            placement.nodes.push_back(cost);
            placement.traffic += cost.l3Read + cost.l3Write;
            if (cost.staging > 0) {
                buffers.push_back({graph_.nodes[n].kernel + " staging", std::int64_t(n), std::int64_t(n) + 1,
                                   std::int64_t(cost.staging), std::int64_t(kAlignment), {}});
                placement.planned.push_back(-1 - int(n));
            }
        }
        for (const Buffer& buffer : buffers)
            placement.area += std::uint64_t(buffer.size) * std::uint64_t(buffer.upper - buffer.lower);
        if (!buffers.empty()) {
            PlanOptions options;
            options.minimize = true;
            options.timeoutSeconds = planSeconds;
            try {
                placement.plan = planMemory(buffers, options);
            } catch (const std::exception& error) {
                placement.error = "graph " + graph_.name + ": " + error.what();
                return placement;
            }
            placement.l2Dynamic = std::uint64_t(placement.plan.peak);
            placement.l2LowerBound = std::uint64_t(placement.plan.lowerBound);
            placement.peakFirst = std::numeric_limits<std::int64_t>::max();
            placement.peakEnd = 0;
            for (std::size_t k = 0; k < buffers.size() && k < placement.plan.offsets.size(); ++k)
                if (placement.plan.offsets[k] + buffers[k].size == placement.plan.peak) {
                    placement.peakFirst = std::min(placement.peakFirst, buffers[k].lower);
                    placement.peakEnd = std::max(placement.peakEnd, buffers[k].upper);
                }
            if (placement.peakEnd == 0)
                placement.peakFirst = 0;
        }
        placement.ok = true;
        return placement;
    }

    // The kernel arguments of node `n` bound to tensors in L3.
    std::vector<std::string> l3ArgumentsOf(std::size_t n, const std::set<std::size_t>& inL3) const
    {
        std::vector<std::string> names;
        for (const auto& [tensor, argument] : nodeArguments_[n])
            if (inL3.count(tensor))
                names.push_back(argument);
        std::sort(names.begin(), names.end());
        return names;
    }

    const KernelModel& model() const { return model_; }

    // The tile solver's cycle estimate of node n with those arguments in L3 (0 for a kernel group
    // or a kernel that does not tile), tiled as by nodeCost.
    double nodeCycles(std::size_t n, const std::vector<std::string>& l3Arguments)
    {
        std::string key = std::to_string(n);
        for (const std::string& name : l3Arguments)
            key += "|" + name;
        if (auto found = cycles_.find(key); found != cycles_.end())
            return found->second;
        const UserKernel* source = model_.findUserKernel(graph_.nodes[n].kernel);
        double cycles = 0;
        if (source) {
            const UserKernel variant = l3HomedVariant(*source, l3Arguments, source->name, {});
            const auto unbounded = [&]() -> std::pair<double, std::uint64_t> {
                if (memo_)
                    if (const auto found = memo_->unboundedCycles.find(key); found != memo_->unboundedCycles.end())
                        return {found->second, memo_->unboundedCyclesStaging[key]};
                const TileSolverResult solved = solve(variant, kNoBudget);
                const std::pair<double, std::uint64_t> result{solved.ok ? solved.tiling.estimatedCycles : 0.0,
                                                              solved.ok ? solved.tiling.l2Bytes : 0};
                if (memo_) {
                    memo_->unboundedCycles[key] = result.first;
                    memo_->unboundedCyclesStaging[key] = result.second;
                }
                return result;
            }();
            if (unbounded.second <= l2Budget_) {
                cycles = unbounded.first;
            } else {
                const TileSolverResult solved = solve(variant, l2Budget_);
                cycles = solved.ok ? solved.tiling.estimatedCycles : 0;
            }
        }
        return cycles_[key] = cycles;
    }

private:
    static constexpr std::uint64_t kNoBudget = UINT64_MAX;

    TileSolverResult solve(const UserKernel& variant, std::uint64_t l2Budget) const
    {
        return solveTiling(variant, model_.options.l1Size, l2Budget, model_.options.costModel,
                           promotionPolicy(model_.options), false);  // minimumL1 is not read here
    }

    // How node n runs with those arguments in L3: the tiling it would have without an L2 budget
    // when its staging buffers fit the budget (the same at every budget that holds them, so it is
    // kept in the memo), otherwise the best tiling whose staging does fit.
    NodeCost nodeCost(std::size_t n, const std::vector<std::string>& l3Arguments, std::uint64_t stagingLimit)
    {
        if (l3Arguments.empty())
            return {};
        std::string key = std::to_string(n) + "/" + std::to_string(stagingLimit);
        for (const std::string& name : l3Arguments)
            key += "|" + name;
        if (auto found = cache_.find(key); found != cache_.end())
            return found->second;
        const UserKernel& source = *model_.findUserKernel(graph_.nodes[n].kernel);
        const UserKernel variant = l3HomedVariant(source, l3Arguments, source.name, {}, stagingLimit);
        const auto costOf = [](const TileSolverResult& solved) {
            NodeCost cost;
            cost.ok = solved.ok;
            cost.error = solved.error;
            cost.staging = solved.tiling.l2Bytes;
            cost.l3Read = solved.tiling.l3Read;
            cost.l3Write = solved.tiling.l3Write;
            return cost;
        };
        NodeCost unbounded;
        if (const auto found = memo_ ? memo_->unboundedCosts.find(key) : decltype(memo_->unboundedCosts.find(key))();
            memo_ && found != memo_->unboundedCosts.end()) {
            unbounded = found->second;
        } else {
            unbounded = costOf(solve(variant, kNoBudget));
            if (memo_)
                memo_->unboundedCosts[key] = unbounded;
        }
        if (!unbounded.ok || unbounded.staging <= l2Budget_)
            return cache_[key] = unbounded;  // no tiling at all fits L1, or the unbounded one fits L2
        NodeCost bounded = costOf(solve(variant, l2Budget_));
        bounded.budgetBound = true;
        return cache_[key] = bounded;
    }

    const KernelModel& model_;
    const GraphModel& graph_;
    const std::vector<GraphTensor>& tensors_;
    std::uint64_t l2Budget_;
    std::vector<std::size_t> constants_;
    std::vector<std::vector<std::pair<std::size_t, std::string>>> nodeArguments_;  // per node: (tensor, argument)
    std::vector<bool> movable_;  // false for tensors a kernel group binds
    AllocationMemo::State* memo_ = nullptr;
    std::map<std::string, NodeCost> cache_;
    std::map<std::string, double> cycles_;
};

// The next tensor to move to L3 from `current`: the most L2 freed per byte of added traffic, judged
// on the L2 needed, then on the lower bound of the dynamic block, then on the L2 bytes x nodes.
// -1 when no move helps.
struct Move {
    int tensor = -1;  // the tensor moved to L3, or -1 with node >= 0: that node's staging shrunk
    int node = -1;
    Placement placement;
    bool found() const { return tensor >= 0 || node >= 0; }
};

// Past this many movable tensors a graph moves tensors to L3 in batches (batchMove): judging each
// candidate by a placement of the whole graph, one move at a time, costs candidates x moves
// placements, cubic in the graph's size.
constexpr std::size_t kSingleMoveCandidates = 400;

// Tensors also move in batches while the graph needs more than twice the budget (an excess over
// the budget divided by this): then most constants must go to L3 anyway, and a constant moved frees
// its own size for its own size of traffic whichever it is, so the largest go first and moves one
// at a time judge only the last part.
constexpr std::uint64_t kBatchExcessDivisor = 1;

// Past this many movable tensors, a single move judges only the constants and the tensors and
// staging live at the top of the dynamic block (Placement::peakFirst..peakEnd): a move elsewhere
// cannot lower the L2 needed, and judging every tensor at every move costs tensors x moves
// placements of the whole graph.
constexpr std::size_t kPeakOnlyCandidates = 64;

// How many tensors a move from `current` may choose among.
std::size_t movableCount(const Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                         const std::set<std::size_t>& immovable, bool staticOnly);

// A move of several tensors to L3 at once, for large graphs: the candidates largest first
// (constants before buffers between nodes, as a constant in L3 frees its whole size), as many as
// cover half of `excess` (the bytes over the budget), judged by one placement; a batch that does not
// place or frees nothing is halved, a single tensor that does not is set aside in `immovable`.
// Returns the tensors moved (empty: nothing could move) and sets `next` to their placement.
std::vector<std::size_t> batchMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                                   std::set<std::size_t>& immovable, bool staticOnly, std::uint64_t excess,
                                   Placement& next);

// The next move from `current` (see searchMove in placement_search.cpp), from the memo when it
// kept one that holds at this budget.
Move chooseMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                std::set<std::size_t>& immovable, bool staticOnly);

// The prefetches of the constants in L3 into L2 that fit the budget; *reasons says why for each.
Placement choosePrefetches(Placer& placer, Placement current, const std::vector<GraphTensor>& tensors,
                           std::uint64_t l2Budget, std::map<std::size_t, std::string>& reasons);

std::string bytesText(std::uint64_t bytes);

}  // namespace placement_search
}  // namespace tessera::tiler
