#include "memory/memory_planner.h"

#include "base/error.h"
#include "memory/exact_planner.h"
#include "memory/greedy_planner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>

namespace tessera {

namespace {

using Clock = std::chrono::steady_clock;

// Search nodes spent on trying the lower bound before deciding a looser capacity (a few ms).
constexpr uint64_t kQuickBoundNodes = 20000;

// Groups of buffer indices separated by time cut-lines that no buffer crosses.
std::vector<std::vector<size_t>> independentParts(const std::vector<Buffer>& buffers)
{
    std::vector<size_t> byLower(buffers.size());
    std::iota(byLower.begin(), byLower.end(), 0);
    std::sort(byLower.begin(), byLower.end(), [&](size_t a, size_t b) { return buffers[a].lower < buffers[b].lower; });
    std::vector<std::vector<size_t>> parts;
    int64_t reach = 0;
    for (size_t k : byLower) {
        if (parts.empty() || buffers[k].lower >= reach)
            parts.emplace_back();
        parts.back().push_back(k);
        reach = parts.back().size() == 1 ? buffers[k].upper : std::max(reach, buffers[k].upper);
    }
    return parts;
}

struct PartPlan {
    std::vector<int64_t> offsets;
    int64_t peak = 0;
    int64_t provenLow = 0; // no plan of the part has a lower peak
    bool stopped = false;
    bool placed = true;    // false: not even a greedy placement finished in time (offsets invalid)
    uint64_t nodes = 0;
};

// Best plan of one part under `capacity` (kNoCapacity: any), minimizing when asked.
PartPlan planPart(const std::vector<Buffer>& part, std::optional<int64_t> capacity, bool minimize,
                  const SearchLimits& limits)
{
    PartPlan plan;
    plan.provenLow = maxLiveBytes(part);
    std::optional<std::vector<int64_t>> greedy = bestGreedyPlan(part, limits);
    if (!greedy) {
        plan.offsets.assign(part.size(), 0);
        plan.stopped = true;
        plan.placed = false;
        return plan;
    }
    plan.offsets = std::move(*greedy);
    plan.peak = planPeak(part, plan.offsets);
    const auto tryCapacity = [&](int64_t target, Clock::time_point deadline) {
        SearchLimits slice = limits;
        slice.deadline = std::min(limits.deadline, deadline);
        SearchResult result = searchPlacement(part, target, slice);
        plan.nodes += result.nodes;
        return result;
    };

    if (!minimize) {
        if (plan.peak <= *capacity || plan.provenLow > *capacity)
            return plan;
        // A packing at the lower bound also fits the capacity, and the tighter search often
        // finishes sooner: give it a short, bounded try first.
        if (plan.provenLow < *capacity) {
            SearchLimits quick = limits;
            quick.maxNodes = kQuickBoundNodes;
            SearchResult atBound = searchPlacement(part, plan.provenLow, quick);
            plan.nodes += atBound.nodes;
            if (atBound.outcome == SearchOutcome::Found) {
                plan.offsets = std::move(atBound.offsets);
                plan.peak = planPeak(part, plan.offsets);
                return plan;
            }
        }
        SearchResult result = tryCapacity(*capacity, limits.deadline);
        if (result.outcome == SearchOutcome::Found) {
            plan.offsets = std::move(result.offsets);
            plan.peak = planPeak(part, plan.offsets);
        } else if (result.outcome == SearchOutcome::Infeasible) {
            plan.provenLow = *capacity + 1;
        } else {
            plan.stopped = true;
        }
        return plan;
    }

    // Minimize: binary search between the proven bound and the best plan. The bound itself is
    // tried first because it is so often the optimum; an undecided capacity counts as "too small"
    // for the search but is not a proof.
    int64_t low = plan.provenLow;
    bool lowIsProven = true;
    while (low < plan.peak) {
        const auto now = Clock::now();
        if (now >= limits.deadline || (limits.cancel && limits.cancel->load())) {
            plan.stopped = true;
            break;
        }
        const int64_t target = low == plan.provenLow ? low : low + (plan.peak - 1 - low) / 2;
        const auto sliceEnd = now + (limits.deadline - now) / 2;
        SearchResult result = tryCapacity(target, limits.deadline == Clock::time_point::max() ? limits.deadline : sliceEnd);
        if (result.outcome == SearchOutcome::Found) {
            plan.offsets = std::move(result.offsets);
            plan.peak = planPeak(part, plan.offsets);
        } else {
            if (result.outcome == SearchOutcome::Infeasible && lowIsProven)
                plan.provenLow = target + 1;
            else
                lowIsProven = false;
            if (result.outcome == SearchOutcome::Stopped)
                plan.stopped = true;
            low = target + 1;
        }
    }
    return plan;
}

} // namespace

std::string planStatusName(PlanStatus status)
{
    switch (status) {
    case PlanStatus::Optimal: return "optimal";
    case PlanStatus::Feasible: return "feasible";
    case PlanStatus::Infeasible: return "infeasible";
    case PlanStatus::Timeout: return "timeout";
    }
    return "unknown";
}

PlanResult planMemory(const std::vector<Buffer>& buffers, const PlanOptions& options)
{
    const auto start = Clock::now();
    if (buffers.size() > kMaxBuffers)
        throw Error(std::to_string(buffers.size()) + " buffers are more than the " + std::to_string(kMaxBuffers) +
                    " one plan may hold; split the problem at steps where no buffer is live");
    if (options.capacity && (*options.capacity < 1 || *options.capacity > kMaxCapacity))
        throw Error("capacity " + std::to_string(*options.capacity) + " is out of range; give 1 to " +
                    std::to_string(kMaxCapacity) + " bytes");
    const std::vector<std::string> problems = checkBuffers(buffers);
    if (!problems.empty()) {
        constexpr size_t kShown = 20;
        std::string message = "invalid buffers:";
        for (size_t k = 0; k < problems.size() && k < kShown; ++k)
            message += "\n  " + problems[k];
        if (problems.size() > kShown)
            message += "\n  ... and " + std::to_string(problems.size() - kShown) + " more";
        throw Error(message);
    }
    if (const std::string conflict = pinnedConflict(buffers); !conflict.empty())
        throw Error(conflict);
    const bool minimize = options.minimize || !options.capacity;
    SearchLimits limits;
    limits.cancel = options.cancel;
    // Limits beyond a year are no limit (and would overflow the clock's arithmetic); NaN is none.
    constexpr double kYearSeconds = 365.0 * 24 * 3600;
    if (options.timeoutSeconds > 0 && options.timeoutSeconds < kYearSeconds)
        limits.deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options.timeoutSeconds));

    PlanResult result;
    result.lowerBound = maxLiveBytes(buffers);
    result.offsets.assign(buffers.size(), 0);
    bool allProven = true, anyInfeasible = false, allPlaced = true;
    const auto parts = independentParts(buffers);
    result.parts = parts.size();
    for (const std::vector<size_t>& indices : parts) {
        std::vector<Buffer> part;
        for (size_t k : indices)
            part.push_back(buffers[k]);
        const PartPlan plan = planPart(part, options.capacity, minimize, limits);
        for (size_t j = 0; j < indices.size(); ++j)
            result.offsets[indices[j]] = plan.offsets[j];
        result.searchNodes += plan.nodes;
        allPlaced = allPlaced && plan.placed;
        allProven = allProven && plan.provenLow >= plan.peak;
        if (options.capacity && plan.provenLow > *options.capacity)
            anyInfeasible = true;
    }
    result.peak = planPeak(buffers, result.offsets);
    result.milliseconds = std::chrono::duration<double, std::milli>(Clock::now() - start).count();

    const bool fits = !options.capacity || result.peak <= *options.capacity;
    if (anyInfeasible || (options.capacity && result.lowerBound > *options.capacity)) {
        result.status = PlanStatus::Infeasible;
        result.message = "no plan fits " + std::to_string(*options.capacity) + " bytes: at least " +
                         std::to_string(std::max(result.lowerBound, *options.capacity + 1)) + " are needed";
    } else if (!allPlaced) {
        // Past the time limit before even the greedy placement finished: there is no plan.
        result.status = PlanStatus::Timeout;
        result.peak = 0;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", options.timeoutSeconds);
        result.message = "no plan within the " + std::string(seconds) + " s limit: placing " +
                         std::to_string(buffers.size()) + " buffers takes longer; allow more time";
    } else if (!fits) {
        result.status = PlanStatus::Timeout;
        result.message = "no plan under " + std::to_string(*options.capacity) + " bytes found in " +
                         std::to_string(options.timeoutSeconds) + " s (best " + std::to_string(result.peak) + ")";
    } else if (result.peak == result.lowerBound || (minimize && allProven)) {
        result.status = PlanStatus::Optimal;
    } else {
        result.status = PlanStatus::Feasible;
    }
    return result;
}

} // namespace tessera
