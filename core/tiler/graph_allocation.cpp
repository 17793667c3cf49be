#include "tiler/graph_allocation.h"
#include "tiler/l3_devices.h"
#include "tiler/privileged_flash.h"

#include "memory/memory_planner.h"
#include "tiler/tile_solver.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace tessera::tiler {
namespace {

constexpr std::uint64_t kAlignment = 4;
// What starting one L3 transfer costs, in bytes moved in the same time (HyperRAM latency).
constexpr double kL3SetupBytes = 256;
// Marks a planner buffer holding a prefetched constant (Placement::prefetched says which).
constexpr int kPrefetchBuffer = std::numeric_limits<int>::min();

std::uint64_t alignTo(std::uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

// Bytes of a kernel argument in its home memory: every plane the kernel's dimensions give it.
std::uint64_t homeBytes(const UserKernel& kernel, const KernelArgument& arg)
{
    std::uint64_t planes = 1;
    if (arg.has(ArgFlag::FourD))
        planes = std::uint64_t(kernel.inPlanes) * kernel.outPlanes;
    else if (arg.has(ArgFlag::ThreeD))
        planes = arg.has(ArgFlag::Out) && !arg.has(ArgFlag::In) && !arg.planePerInput ? kernel.outPlanes
                                                                                      : kernel.inPlanes;
    const std::uint64_t plane = std::uint64_t(arg.width) * arg.height * arg.itemSize;
    return plane * planes;
}

}  // namespace

const char* placementName(GraphTensor::Placement placement)
{
    switch (placement) {
    case GraphTensor::Placement::Caller: return "caller";
    case GraphTensor::Placement::L2Static: return "l2_static";
    case GraphTensor::Placement::L2Dynamic: return "l2_dynamic";
    case GraphTensor::Placement::L3Static: return "l3_static";
    case GraphTensor::Placement::L3Dynamic: return "l3_dynamic";
    case GraphTensor::Placement::Flash: return "flash";
    }
    return "caller";
}

const GraphTensor* GraphAllocation::find(const std::string& name) const
{
    for (const GraphTensor& tensor : tensors)
        if (tensor.name == name)
            return &tensor;
    return nullptr;
}

std::uint64_t graphSymbolBytes(const KernelModel& model, const GraphModel& graph, const std::string& name,
                               std::string* error)
{
    std::uint64_t bytes = 0;
    std::string decidedBy;
    for (const GraphNode& node : graph.nodes) {
        const UserKernel* kernel = model.findUserKernel(node.kernel);
        if (!kernel)
            continue;
        for (std::size_t i = 0; i < node.bindings.size() && i < kernel->cargs.size(); ++i) {
            if (node.bindings[i].symbol != name)
                continue;
            for (const KernelArgument& arg : kernel->args) {
                if (arg.cArgName != kernel->cargs[i].name)
                    continue;
                const std::uint64_t implied = homeBytes(*kernel, arg);
                if (bytes != 0 && implied != bytes) {
                    *error = "graph " + graph.name + ": " + name + " is " + std::to_string(bytes) + " bytes for " +
                             decidedBy + " but " + std::to_string(implied) + " bytes for node " + node.kernel +
                             " (argument " + arg.name + "); bind tensors of one size";
                    return 0;
                }
                bytes = implied;
                decidedBy = "node " + node.kernel + " (argument " + arg.name + ")";
            }
        }
    }
    if (bytes == 0)
        *error = "graph " + graph.name + ": the size of " + name +
                 " is unknown: no node binds it to a tiled kernel argument";
    return bytes;
}


UserKernel l3HomedVariant(const UserKernel& source, const std::vector<std::string>& l3Arguments,
                          const std::string& name, const std::string& stagingBase, std::uint64_t stagingLimit,
                          const std::vector<std::pair<std::string, std::string>>& flashArguments)
{
    UserKernel variant = source;
    variant.name = name;
    variant.l2StagingBase = stagingBase;
    variant.l2StagingLimit = stagingLimit;
    for (KernelArgument& arg : variant.args) {
        if (std::find(l3Arguments.begin(), l3Arguments.end(), arg.name) != l3Arguments.end())
            arg.flags |= ArgFlag::L2DoubleBuffer;
        for (const auto& [flashArgument, image] : flashArguments)
            if (flashArgument == arg.name) {
                arg.flags |= ArgFlag::FlashHome;
                arg.flashImage = image;
            }
    }
    return variant;
}

namespace {

bool isConstant(const GraphTensor& tensor) { return tensor.argument->direction == GraphArgDirection::ConstIn; }
bool isLocal(const GraphTensor& tensor) { return tensor.argument->scope == GraphArgScope::Local; }

}  // namespace

// The move search's working values (named, as the memo below keeps them).
namespace move_search {

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
    // Whether the placement holds at other L2 budgets: every node tiled as without a budget, the
    // largest staging among them (it holds at budgets of at least that).
    bool budgetBound = false;
    std::uint64_t largestStaging = 0;

    std::uint64_t total() const { return l2Static + l2Dynamic; }
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

}  // namespace move_search

using move_search::KeptMove;
using move_search::NodeCost;
using move_search::Placement;

// What placements of one graph at different L2 budgets share: node tilings without a budget and
// the candidate placements that hold at every budget above their largest staging buffer.
struct AllocationMemo::State {
    std::unordered_map<std::string, NodeCost> unboundedCosts;
    std::unordered_map<std::string, double> unboundedCycles;  // with the staging it needs
    std::unordered_map<std::string, std::uint64_t> unboundedCyclesStaging;
    std::unordered_map<std::string, Placement> placements;
    std::unordered_map<std::string, KeptMove> moves;
};

AllocationMemo::AllocationMemo() : state_(std::make_unique<State>()) {}
AllocationMemo::~AllocationMemo() = default;

namespace {

// Kept placements are dropped past this many (a few kB each).
constexpr std::size_t kMemoPlacements = 40000;

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
                if (found == indexOf.end())
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
            if (memo_->placements.size() >= kMemoPlacements)
                memo_->placements.clear();
            memo_->placements[key] = placement;
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
                           promotionPolicy(model_.options));
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

// With `staticOnly`, only constants move and the gain is the static L2 block they free (for a
// budget of promoted constants).
Move searchMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                std::set<std::size_t>& immovable, bool staticOnly, bool& budgetBound, std::uint64_t& largestStaging);

// searchMove, or the move the memo kept for the same placement and immovable tensors when it holds
// at this budget.
Move chooseMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                std::set<std::size_t>& immovable, bool staticOnly)
{
    AllocationMemo::State* memo = placer.memo();
    bool budgetBound = false;
    std::uint64_t largestStaging = 0;
    if (!memo)
        return searchMove(placer, current, tensors, immovable, staticOnly, budgetBound, largestStaging);
    std::string key = std::string(staticOnly ? "s" : "a") + Placer::stateKey(current.inL3, {}, current.stagingLimits) + "#";
    for (std::size_t i : immovable)
        key += std::to_string(i) + ",";
    if (const auto found = memo->moves.find(key);
        found != memo->moves.end() && found->second.largestStaging <= placer.l2Budget()) {
        immovable = found->second.immovable;
        Move move;
        move.tensor = found->second.tensor;
        move.node = found->second.node;
        move.placement = found->second.placement;
        return move;
    }
    Move move = searchMove(placer, current, tensors, immovable, staticOnly, budgetBound, largestStaging);
    if (!budgetBound) {
        if (memo->moves.size() >= kMemoPlacements)
            memo->moves.clear();
        memo->moves[key] = {move.tensor, move.node, move.placement, immovable, largestStaging};
    }
    return move;
}

Move searchMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                std::set<std::size_t>& immovable, bool staticOnly, bool& budgetBound, std::uint64_t& largestStaging)
{
    // Whether every placement judged here holds at other budgets.
    const auto judged = [&](const Placement& placement) {
        budgetBound = budgetBound || placement.budgetBound;
        largestStaging = std::max(largestStaging, placement.largestStaging);
    };
    const auto gain = [&](const Placement& next, int criterion) -> double {
        if (staticOnly)
            return criterion == 0 ? double(current.l2Static) - double(next.l2Static) : 0;
        if (next.total() > current.total())
            return 0;
        switch (criterion) {
        case 0: return double(current.total()) - double(next.total());
        case 1: return double(current.l2Static + current.l2LowerBound) - double(next.l2Static + next.l2LowerBound);
        default: return double(current.area) - double(next.area);
        }
    };
    std::vector<Move> candidates;
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (current.inL3.count(i) || immovable.count(i) || !placer.movable(i) ||
            (staticOnly && !isConstant(tensors[i])))
            continue;
        std::set<std::size_t> inL3 = current.inL3;
        inL3.insert(i);
        Placement next = placer.evaluate(inL3, 0.02, {}, current.stagingLimits);
        judged(next);
        if (!next.ok && !current.stagingLimits.empty()) {
            // The staging limits of the nodes using the tensor may not suit their new tilings.
            std::map<std::size_t, std::uint64_t> limits = current.stagingLimits;
            for (int n = tensors[i].firstNode; n >= 0 && n <= tensors[i].lastNode; ++n)
                limits.erase(std::size_t(n));
            next = placer.evaluate(inL3, 0.02, {}, limits);
            judged(next);
        }
        if (!next.ok) {
            immovable.insert(i);  // its node cannot stream it from L3 (the tile solver said why)
            continue;
        }
        candidates.push_back({int(i), -1, std::move(next)});
    }
    // Nodes that stream from L3 may also take smaller tiles and half the staging buffers: L2 freed
    // for little or no more traffic.
    for (std::size_t n = 0; n < current.nodes.size() && !staticOnly; ++n) {
        const std::uint64_t staging = current.nodes[n].staging;
        const std::uint64_t limit = staging / 2 / kAlignment * kAlignment;
        if (staging == 0 || limit == 0)
            continue;
        std::map<std::size_t, std::uint64_t> limits = current.stagingLimits;
        limits[n] = limit;
        Placement next = placer.evaluate(current.inL3, 0.02, {}, limits);
        judged(next);
        if (next.ok)
            candidates.push_back({-1, int(n), std::move(next)});
    }
    for (int criterion = 0; criterion < 3; ++criterion) {
        Move best;
        double bestScore = 0, bestGain = 0;
        for (Move& candidate : candidates) {
            const double freed = gain(candidate.placement, criterion);
            if (freed <= 0)
                continue;
            // Each L3 transfer also pays its setup: a tensor costs at least kL3SetupBytes to move.
            const double added = double(candidate.placement.traffic) - double(current.traffic) + kL3SetupBytes;
            const double score = freed / std::max(1.0, added);
            if (!best.found() || score > bestScore || (score == bestScore && freed > bestGain)) {
                best.tensor = candidate.tensor;
                best.node = candidate.node;
                best.placement = candidate.placement;
                bestScore = score;
                bestGain = freed;
            }
        }
        if (best.found())
            return best;
    }
    return {};
}

std::string bytesText(std::uint64_t bytes) { return std::to_string(bytes) + " bytes"; }

// For each constant in L3, in the order of first use: the latest node from which a prefetch into
// L2 both fits the budget and is hidden by the estimated compute of the nodes before the first
// use; when no such node fits, the earliest node that fits (the most compute hiding it); none when
// nothing fits. Returns the placement with the prefetches; *reasons says why for each.
Placement choosePrefetches(Placer& placer, Placement current, const std::vector<GraphTensor>& tensors,
                           std::uint64_t l2Budget, std::map<std::size_t, std::string>& reasons)
{
    const TilerCostModel& cost = placer.model().options.costModel;
    std::vector<std::size_t> constants;
    for (std::size_t i : current.inL3)
        if (isConstant(tensors[i]) && tensors[i].firstNode > 0)
            constants.push_back(i);
    std::stable_sort(constants.begin(), constants.end(),
                     [&](std::size_t a, std::size_t b) { return tensors[a].firstNode < tensors[b].firstNode; });
    for (std::size_t index : constants) {
        const GraphTensor& tensor = tensors[index];
        std::set<std::size_t> streamed = current.inL3;
        for (const auto& entry : current.prefetch)
            streamed.erase(entry.first);
        const double transfer = double(tensor.bytes) / cost.l3BytesPerCycle + cost.dmaSetupCycles;
        double hiding = 0, chosenHiding = 0;
        int chosen = -1;
        for (int node = tensor.firstNode - 1; node >= 0; --node) {
            hiding += placer.nodeCycles(std::size_t(node), placer.l3ArgumentsOf(std::size_t(node), streamed));
            std::map<std::size_t, int> trial = current.prefetch;
            trial[index] = node;
            const Placement candidate = placer.evaluate(current.inL3, 0.02, trial, current.stagingLimits);
            if (!candidate.ok || candidate.total() > l2Budget)
                continue;
            chosen = node;
            chosenHiding = hiding;
            if (hiding >= transfer)
                break;  // the latest start that hides the copy
        }
        if (chosen < 0)
            continue;
        current.prefetch[index] = chosen;
        reasons[index] = "prefetched into L2 from node " + std::to_string(chosen) + " for its first use at node " +
                         std::to_string(tensor.firstNode) + " (about " + std::to_string(std::uint64_t(chosenHiding)) +
                         " estimated cycles of compute for a copy of about " +
                         std::to_string(std::uint64_t(transfer)) + ")";
    }
    if (current.prefetch.empty())
        return current;
    Placement withPrefetches = placer.evaluate(current.inL3, 0.05, current.prefetch, current.stagingLimits);
    if (withPrefetches.ok && withPrefetches.total() <= l2Budget)
        return withPrefetches;
    current.prefetch.clear();  // the prefetches were judged one at a time; together they do not fit
    reasons.clear();
    return current;
}

}  // namespace

namespace {

GraphAllocation allocateGraphWithin(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget,
                                    AllocationMemo::State* memo)
{
    GraphAllocation allocation;
    std::vector<const GraphArgument*> symbols;
    for (const GraphArgument& argument : graph.arguments)
        symbols.push_back(&argument);
    for (const GraphArgument& argument : graph.locals)
        symbols.push_back(&argument);

    for (const GraphArgument* argument : symbols) {
        GraphTensor tensor;
        tensor.name = argument->carg.name;
        tensor.argument = argument;
        for (std::size_t n = 0; n < graph.nodes.size(); ++n)
            for (const GraphNodeBinding& binding : graph.nodes[n].bindings)
                if (binding.symbol == tensor.name) {
                    if (tensor.firstNode < 0)
                        tensor.firstNode = int(n);
                    tensor.lastNode = int(n);
                }
        if (tensor.firstNode >= 0) {
            tensor.bytes = graphSymbolBytes(model, graph, tensor.name, &allocation.error);
            if (tensor.bytes == 0)
                return allocation;
        }
        allocation.tensors.push_back(tensor);
    }
    std::vector<GraphTensor>& tensors = allocation.tensors;

    // Everything in L2 first; then moves to L3, in an order that does not depend on the budget.
    Placer placer(model, graph, tensors, l2Budget, memo);
    // AT_GRAPH_DISABLE_CONST_L2_PROMOTION: constants start in L3.
    std::set<std::size_t> start;
    std::map<std::size_t, std::string> moveReasons;
    if (!model.options.promoteConstantsToL2)
        for (std::size_t i = 0; i < tensors.size(); ++i)
            if (isConstant(tensors[i]) && placer.movable(i)) {
                start.insert(i);
                moveReasons[i] = "constants are not promoted to L2 (AT_GRAPH_DISABLE_CONST_L2_PROMOTION)";
            }
    Placement current = placer.evaluate(start, 0.05);
    if (!current.ok) {
        allocation.error = current.error;
        return allocation;
    }
    std::uint64_t smallest = current.total();
    std::set<std::size_t> immovable;
    // AT_GRAPH_L2_STATIC_MEMORY_BUDGET bounds the constants promoted to L2.
    const std::uint64_t staticBudget = model.options.l2StaticBudget;
    const auto overStaticBudget = [&](const Placement& placement) {
        return staticBudget > 0 && placement.l2Static > staticBudget;
    };
    while (current.total() > l2Budget || overStaticBudget(current)) {
        const bool staticOnly = current.total() <= l2Budget;
        Move move = chooseMove(placer, current, tensors, immovable, staticOnly);
        if (!move.found())
            break;
        if (move.tensor < 0) {
            current = std::move(move.placement);
            smallest = std::min(smallest, current.total());
            continue;
        }
        const GraphTensor& tensor = tensors[std::size_t(move.tensor)];
        moveReasons[std::size_t(move.tensor)] =
            "move " + std::to_string(moveReasons.size() + 1) + " to L3: the graph then needs " +
            bytesText(move.placement.total()) + " of L2 instead of " + bytesText(current.total()) + " for " +
            bytesText(move.placement.traffic - std::min(move.placement.traffic, current.traffic)) +
            " more L3 traffic per run (" + tensor.name + " is " + bytesText(tensor.bytes) + ")";
        current = std::move(move.placement);
        smallest = std::min(smallest, current.total());
    }
    if (overStaticBudget(current) && current.total() <= l2Budget) {
        allocation.error = "graph " + graph.name + ": the constants promoted to L2 need " +
                           bytesText(current.l2Static) + " and no other constant can move to L3; "
                           "AT_GRAPH_L2_STATIC_MEMORY_BUDGET is " + std::to_string(staticBudget) + "; raise it";
        return allocation;
    }
    if (current.total() > l2Budget) {
        std::string moved;
        for (std::size_t i : current.inL3)
            moved += (moved.empty() ? "" : ", ") + tensors[i].name;
        allocation.smallestL2 = smallest;
        allocation.error = "graph " + graph.name + ": does not fit in the L2 budget of " + std::to_string(l2Budget) +
                           " bytes" +
                           (moved.empty() ? std::string(" and no tensor can move to L3")
                                          : " even with " + moved + " in L3") +
                           " (it then needs " + bytesText(smallest) + ": constants " + bytesText(current.l2Static) +
                           ", buffers between nodes and staging " + bytesText(current.l2Dynamic) + ")";
        return allocation;
    }

    // Constants in L3 prefetched into L2 where the budget leaves room (see choosePrefetches).
    const std::set<std::size_t> inL3 = current.inL3;
    std::map<std::size_t, std::string> prefetchReasons;
    // Constants executed from flash are read where they are (no copy to L3 RAM to prefetch from).
    if (!model.options.constantsExecuteFromFlash)
        current = choosePrefetches(placer, current, tensors, l2Budget, prefetchReasons);
    const std::map<std::size_t, int> prefetch = current.prefetch;
    std::set<std::size_t> streamed = inL3;
    for (const auto& entry : prefetch)
        streamed.erase(entry.first);

    std::set<std::size_t> inFlash;
    if (model.options.constantsExecuteFromFlash)
        for (std::size_t i : inL3)
            if (isConstant(tensors[i]))
                inFlash.insert(i);

    // The privileged flash takes first the constants that stay in flash (not promoted to L2).
    std::set<std::size_t> privileged;
    const MemoryDevice* privilegedDevice = privilegedFlashDevice(model);
    if (privilegedDevice) {
        std::set<std::size_t> stayInFlash;
        for (std::size_t i : inL3)
            if (isConstant(tensors[i]) && tensors[i].firstNode >= 0)
                stayInFlash.insert(i);
        privileged = choosePrivilegedConstants(tensors, stayInFlash, privilegedDevice->size, kAlignment);
    }
    std::set<std::size_t> inOrdinaryFlash, inPrivilegedFlash;
    for (std::size_t i : inFlash)
        (privileged.count(i) ? inPrivilegedFlash : inOrdinaryFlash).insert(i);

    // The chosen placement with more time for the dynamic block's plan.
    Placement final = placer.evaluate(inL3, 2.0, prefetch, current.stagingLimits);
    if (!final.ok || final.total() > current.total())
        final = current;  // never worse than what was judged to fit

    // Nodes: the kernel each runs and its staging buffers.
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        NodeExecution node;
        node.kernel = node.sourceKernel = graph.nodes[n].kernel;
        node.l3Arguments = placer.l3ArgumentsOf(n, streamed);
        node.flashArguments = placer.l3ArgumentsOf(n, inOrdinaryFlash);
        node.privilegedFlashArguments = placer.l3ArgumentsOf(n, inPrivilegedFlash);
        node.stagingBytes = final.nodes[n].staging;
        if (const auto limit = final.stagingLimits.find(n); limit != final.stagingLimits.end())
            node.stagingLimit = limit->second;
        node.l3Read = final.nodes[n].l3Read;
        node.l3Write = final.nodes[n].l3Write;
        allocation.l3Traffic += node.l3Read + node.l3Write;
        if (!node.l3Arguments.empty()) {
            // The model's kernel keeps its name when this node is its only user.
            int users = 0;
            for (const GraphModel& other : model.graphs)
                for (const GraphNode& otherNode : other.nodes)
                    users += otherNode.kernel == node.sourceKernel;
            for (const KernelGroup& group : model.groups)
                for (const KernelCall& call : group.calls)
                    users += call.callee == node.sourceKernel;
            if (users > 1)
                node.kernel = node.sourceKernel + "_" + graph.name + "_N" + std::to_string(n);
        }
        allocation.nodes.push_back(node);
    }

    // Constants: L2 ones largest first in one static block whose layout is also the flash image's,
    // so promotion is one copy per constant at construction; L3 ones after them in the image.
    std::vector<GraphTensor*> constants;
    for (GraphTensor& tensor : tensors)
        if (isConstant(tensor) && tensor.firstNode >= 0)
            constants.push_back(&tensor);
    std::stable_sort(constants.begin(), constants.end(),
                     [](const GraphTensor* a, const GraphTensor* b) { return a->bytes > b->bytes; });
    const auto inL3Tensor = [&](const GraphTensor* tensor) {
        return inL3.count(std::size_t(tensor - tensors.data())) > 0;
    };
    for (GraphTensor* constant : constants) {
        if (inL3Tensor(constant))
            continue;
        constant->placement = GraphTensor::Placement::L2Static;
        constant->offset = constant->flashOffset = alignTo(allocation.l2Static);
        allocation.l2Static = constant->offset + constant->bytes;
        constant->reason = "constant promoted to L2 at construction (used by nodes " +
                           std::to_string(constant->firstNode) + " to " + std::to_string(constant->lastNode) + ")";
    }
    // The flash images: the ordinary one starts with the L2 block, then the constants that stay in
    // flash; the privileged one holds its constants alone.
    std::uint64_t imageEnd = alignTo(allocation.l2Static), privilegedEnd = 0;
    bool constantsAfterL2 = false;
    const auto storeInFlash = [&](GraphTensor* constant) {
        const std::size_t index = std::size_t(constant - tensors.data());
        if (privileged.count(index)) {
            constant->privilegedFlash = true;
            constant->flashOffset = alignTo(privilegedEnd);
            privilegedEnd = constant->flashOffset + constant->bytes;
            return;
        }
        constant->flashOffset = alignTo(imageEnd);
        imageEnd = constant->flashOffset + constant->bytes;
        constantsAfterL2 = true;
    };
    const auto flashReason = [&](const GraphTensor* constant) {
        if (!constant->privilegedFlash)
            return std::string();
        return std::string("; stored in the privileged flash ") + memoryLocationName(privilegedDevice->location) +
               " (filled first, largest constants first)";
    };
    for (GraphTensor* constant : constants) {
        if (!inL3Tensor(constant) || model.options.constantsExecuteFromFlash)
            continue;
        constant->placement = GraphTensor::Placement::L3Static;
        constant->offset = alignTo(allocation.l3Static);
        allocation.l3Static = constant->offset + constant->bytes;
        storeInFlash(constant);
        const std::size_t index = std::size_t(constant - tensors.data());
        constant->reason = "constant copied from flash to L3 RAM at construction, " +
                           (prefetch.count(index) ? prefetchReasons[index]
                                                  : "streamed through L2 by node " + std::to_string(constant->firstNode)) +
                           ": " + moveReasons[index] + flashReason(constant);
        if (prefetch.count(index)) {
            constant->prefetchNode = prefetch.at(index);
            allocation.l3Traffic += constant->bytes;
        }
    }
    for (GraphTensor* constant : constants) {
        if (!inL3Tensor(constant) || !model.options.constantsExecuteFromFlash)
            continue;
        constant->placement = GraphTensor::Placement::Flash;
        storeInFlash(constant);
        constant->offset = constant->flashOffset;
        constant->reason = "constant read from the flash image by node " + std::to_string(constant->firstNode) +
                           (constant->lastNode > constant->firstNode ? " to " + std::to_string(constant->lastNode) : "") +
                           " (AT_GRAPH_CONST_EXEC_FROM_FLASH): " +
                           moveReasons[std::size_t(constant - tensors.data())] + flashReason(constant);
    }
    allocation.flashBytes = constantsAfterL2 ? imageEnd : allocation.l2Static;
    allocation.privilegedFlashBytes = privilegedEnd;

    // Buffers between nodes: L2 ones and the staging buffers from the dynamic block's plan.
    allocation.l2Dynamic = final.l2Dynamic;
    allocation.l2DynamicLowerBound = final.l2LowerBound;
    for (std::size_t b = 0; b < final.planned.size(); ++b) {
        const std::uint64_t offset = std::uint64_t(final.plan.offsets[b]);
        if (final.planned[b] == kPrefetchBuffer) {
            for (const auto& [index, buffer] : final.prefetched)
                if (buffer == b)
                    tensors[index].prefetchOffset = offset;
            continue;
        }
        if (final.planned[b] < 0) {
            allocation.nodes[std::size_t(-1 - final.planned[b])].stagingOffset = offset;
            continue;
        }
        GraphTensor& tensor = tensors[std::size_t(final.planned[b])];
        tensor.placement = GraphTensor::Placement::L2Dynamic;
        tensor.offset = offset;
        tensor.reason = "between nodes " + std::to_string(tensor.firstNode) + " and " + std::to_string(tensor.lastNode) +
                        ", in the dynamic L2 block (" + planStatusName(final.plan.status) + " plan, peak " +
                        std::to_string(final.plan.peak) + " bytes, lower bound " +
                        std::to_string(final.plan.lowerBound) + ")";
    }
    // Buffers between nodes moved to L3 share one dynamic L3 block the same way.
    std::vector<Buffer> l3Buffers;
    std::vector<GraphTensor*> l3Locals;
    for (std::size_t i : inL3) {
        GraphTensor& tensor = tensors[i];
        if (!isLocal(tensor))
            continue;
        l3Locals.push_back(&tensor);
        l3Buffers.push_back({tensor.name, tensor.firstNode, tensor.lastNode + 1, std::int64_t(tensor.bytes),
                             std::int64_t(kAlignment), {}});
    }
    if (!l3Buffers.empty()) {
        PlanOptions options;
        options.minimize = true;
        options.timeoutSeconds = 1.0;
        const PlanResult plan = planMemory(l3Buffers, options);
        allocation.l3Dynamic = std::uint64_t(plan.peak);
        for (std::size_t b = 0; b < l3Locals.size(); ++b) {
            l3Locals[b]->placement = GraphTensor::Placement::L3Dynamic;
            l3Locals[b]->offset = std::uint64_t(plan.offsets[b]);
            l3Locals[b]->reason = "between nodes " + std::to_string(l3Locals[b]->firstNode) + " and " +
                                  std::to_string(l3Locals[b]->lastNode) + ", in the dynamic L3 block: " +
                                  moveReasons[std::size_t(l3Locals[b] - tensors.data())];
        }
    }
    for (GraphTensor& tensor : tensors)
        if (tensor.placement == GraphTensor::Placement::Caller)
            tensor.reason = tensor.firstNode < 0 ? "not used by any node" : "graph argument: the caller provides it";

    if (model.options.l3StaticBudget > 0 && allocation.l3Static > model.options.l3StaticBudget) {
        allocation.error = "graph " + graph.name + ": the constants kept in L3 RAM need " +
                           bytesText(allocation.l3Static) + ", AT_GRAPH_L3_STATIC_MEMORY_BUDGET is " +
                           std::to_string(model.options.l3StaticBudget) + "; raise it or the L2 budget";
        return allocation;
    }
    if (const MemoryDevice* flash = homeFlash(model); flash && flash->size > 0 && allocation.flashBytes > flash->size) {
        allocation.error = "graph " + graph.name + ": its constants image needs " + bytesText(allocation.flashBytes) +
                           " of flash, the flash budget is " + std::to_string(flash->size) +
                           "; raise the flash budget to at least " + std::to_string(allocation.flashBytes) + " bytes";
        return allocation;
    }
    const std::uint64_t l3Needed = allocation.l3Static + allocation.l3Dynamic;
    if (const std::uint64_t l3Bytes = executionL3RamBytes(model); l3Needed > l3Bytes) {
        allocation.error = "graph " + graph.name + ": with " + std::to_string(l2Budget) + " bytes of L2 it needs " +
                           bytesText(l3Needed) + " of L3 RAM, the L3 budget is " + std::to_string(l3Bytes) +
                           "; raise the L3 or the L2 budget";
        return allocation;
    }
    allocation.ok = true;
    return allocation;
}

}  // namespace

GraphAllocation allocateGraph(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget,
                              AllocationMemo* memo)
{
    AllocationMemo::State* const kept = memo ? memo->state_.get() : nullptr;
    GraphAllocation allocation = allocateGraphWithin(model, graph, l2Budget, kept);
    if (allocation.ok || allocation.smallestL2 == 0)
        return allocation;
    // Node tilings adapt their staging buffers to the budget, so the smallest L2 seen under a
    // tighter budget is confirmed by placing the graph within it (and raised until it fits).
    std::uint64_t smallest = allocation.smallestL2;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const GraphAllocation trial = allocateGraphWithin(model, graph, smallest, kept);
        if (trial.ok)
            break;
        smallest = std::max(smallest + kAlignment, trial.smallestL2);
    }
    // Under a very tight budget no staging buffer fits and nothing can move, so the figure above
    // may be far from the smallest: narrow it down between the failing budget and one that works.
    std::uint64_t fails = l2Budget;
    for (int step = 0; step < 16 && smallest > fails + kAlignment; ++step) {
        const std::uint64_t middle = (fails + smallest) / 2 / kAlignment * kAlignment;
        if (middle <= fails)
            break;
        if (allocateGraphWithin(model, graph, middle, kept).ok)
            smallest = middle;
        else
            fails = middle;
    }
    allocation.smallestL2 = smallest;
    allocation.error += "; raise the L2 budget to at least " + std::to_string(smallest) + " bytes (the smallest that works)" +
                        (allocation.error.find(" in L3") != std::string::npos
                             ? " or lower the L1 budget (smaller tiles need smaller staging buffers)"
                             : "");
    return allocation;
}

}  // namespace tessera::tiler
