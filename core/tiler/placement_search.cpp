#include "tiler/placement_search.h"

#include <array>
#include <memory>

namespace tessera::tiler {

AllocationMemo::AllocationMemo() : state_(std::make_unique<State>()) {}
AllocationMemo::~AllocationMemo() = default;

namespace placement_search {

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
        const std::size_t bytes = move.placement.approximateBytes() + immovable.size() * 48 + key.size();
        if (memo->moveBytes + bytes > kMemoBytes) {
            memo->moves.clear();
            memo->moveBytes = 0;
        }
        if (memo->moves.emplace(key, KeptMove{move.tensor, move.node, move.placement, immovable, largestStaging}).second)
            memo->moveBytes += bytes;
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
    // The best candidate by each criterion, kept as the candidates are judged (holding every
    // candidate's placement would take memory quadratic in the graph's size).
    struct Best {
        std::shared_ptr<Move> move;
        double score = 0, gain = 0;
    };
    std::array<Best, 3> best;
    const auto consider = [&](int tensor, int node, Placement&& next) {
        auto candidate = std::make_shared<Move>(Move{tensor, node, std::move(next)});
        // Each L3 transfer also pays its setup: a tensor costs at least kL3SetupBytes to move.
        const double added = double(candidate->placement.traffic) - double(current.traffic) + kL3SetupBytes;
        for (int criterion = 0; criterion < 3; ++criterion) {
            const double freed = gain(candidate->placement, criterion);
            if (freed <= 0)
                continue;
            const double score = freed / std::max(1.0, added);
            Best& kept = best[std::size_t(criterion)];
            if (!kept.move || score > kept.score || (score == kept.score && freed > kept.gain))
                kept = {candidate, score, freed};
        }
    };
    const bool peakOnly = !staticOnly && movableCount(placer, current, tensors, immovable, staticOnly) > kPeakOnlyCandidates;
    const auto atPeak = [&](std::int64_t first, std::int64_t end) {
        return !peakOnly || (first < current.peakEnd && current.peakFirst < end);
    };
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        if (current.inL3.count(i) || immovable.count(i) || !placer.movable(i) ||
            (staticOnly && !isConstant(tensors[i])))
            continue;
        if (!isConstant(tensors[i]) && !atPeak(tensors[i].firstNode, std::int64_t(tensors[i].lastNode) + 1))
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
        consider(int(i), -1, std::move(next));
    }
    // Nodes that stream from L3 may also take smaller tiles and half the staging buffers: L2 freed
    // for little or no more traffic.
    for (std::size_t n = 0; n < current.nodes.size() && !staticOnly; ++n) {
        const std::uint64_t staging = current.nodes[n].staging;
        const std::uint64_t limit = staging / 2 / kAlignment * kAlignment;
        if (staging == 0 || limit == 0 || !atPeak(std::int64_t(n), std::int64_t(n) + 1))
            continue;
        std::map<std::size_t, std::uint64_t> limits = current.stagingLimits;
        limits[n] = limit;
        Placement next = placer.evaluate(current.inL3, 0.02, {}, limits);
        judged(next);
        if (next.ok)
            consider(-1, int(n), std::move(next));
    }
    for (const Best& kept : best)  // the criteria in order: the first that frees anything decides
        if (kept.move)
            return *kept.move;
    return {};
}

namespace {

bool moveCandidate(const Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                   const std::set<std::size_t>& immovable, bool staticOnly, std::size_t i)
{
    return !current.inL3.count(i) && !immovable.count(i) && placer.movable(i) &&
           (!staticOnly || isConstant(tensors[i]));
}

}  // namespace

std::size_t movableCount(const Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                         const std::set<std::size_t>& immovable, bool staticOnly)
{
    std::size_t count = 0;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        count += moveCandidate(placer, current, tensors, immovable, staticOnly, i);
    return count;
}

std::vector<std::size_t> batchMove(Placer& placer, const Placement& current, const std::vector<GraphTensor>& tensors,
                                   std::set<std::size_t>& immovable, bool staticOnly, std::uint64_t excess,
                                   Placement& next)
{
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < tensors.size(); ++i)
        if (moveCandidate(placer, current, tensors, immovable, staticOnly, i))
            candidates.push_back(i);
    std::stable_sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
        if (isConstant(tensors[a]) != isConstant(tensors[b]))
            return isConstant(tensors[a]);
        return tensors[a].bytes > tensors[b].bytes;
    });
    const auto frees = [&](const Placement& placement) {
        return staticOnly ? placement.l2Static < current.l2Static : placement.total() < current.total();
    };
    // Batch sizes are searched between `low` and `high`: a batch that does not place asks for fewer
    // tensors, one that places but frees nothing for more (a node streaming several constants
    // pays its staging once).
    std::size_t first = 0;  // candidates before it were set aside
    while (first < candidates.size()) {
        const std::size_t left = candidates.size() - first;
        std::size_t count = 0;  // the fewest whose bytes cover half the excess
        for (std::uint64_t covered = 0; count < left && covered < (excess + 1) / 2;)
            covered += tensors[candidates[first + count++]].bytes;
        std::size_t low = 1, high = left;
        count = std::clamp<std::size_t>(count, low, std::max<std::size_t>(1, left / 2));
        while (low <= high) {
            std::set<std::size_t> inL3 = current.inL3;
            inL3.insert(candidates.begin() + std::ptrdiff_t(first), candidates.begin() + std::ptrdiff_t(first + count));
            Placement placement = placer.evaluate(inL3, 0.02, {}, current.stagingLimits);
            if (placement.ok && frees(placement)) {
                next = std::move(placement);
                return {candidates.begin() + std::ptrdiff_t(first), candidates.begin() + std::ptrdiff_t(first + count)};
            }
            if (placement.ok)
                low = count + 1;
            else
                high = count - 1;
            count = placement.ok ? std::min(high, 2 * count) : std::max(low, count / 2);
        }
        immovable.insert(candidates[first++]);  // no batch starting with it places and frees anything
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
    // Each prefetch is judged by placements of the whole graph, each costing about a step per node:
    // the judging stops after kPrefetchWork such steps (a few thousand placements of a small graph,
    // a handful of a huge one), and the constants not judged by then are read from L3 where used.
    constexpr std::uint64_t kPrefetchWork = 4000000;
    const std::uint64_t placementsAllowed = std::max<std::uint64_t>(1, kPrefetchWork / std::max<std::size_t>(1, tensors.size()));
    std::uint64_t placementsMade = 0;
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
            if (++placementsMade > placementsAllowed)
                break;
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

}  // namespace placement_search
}  // namespace tessera::tiler
