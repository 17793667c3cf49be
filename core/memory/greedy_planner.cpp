#include "memory/greedy_planner.h"

#include "memory/live_index.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <numeric>

namespace tessera {

namespace {

std::vector<size_t> placementOrder(const std::vector<Buffer>& buffers, GreedyOrder order)
{
    std::vector<size_t> indices(buffers.size());
    std::iota(indices.begin(), indices.end(), 0);
    auto key = [&](size_t k) {
        const Buffer& b = buffers[k];
        const int64_t length = b.length();
        switch (order) {
        case GreedyOrder::LifetimeDescending: return std::make_pair(length, b.size);
        case GreedyOrder::AreaDescending: return std::make_pair(b.area(), b.size);
        case GreedyOrder::SizeDescending: break;
        }
        return std::make_pair(b.size, length);
    };
    std::stable_sort(indices.begin(), indices.end(), [&](size_t a, size_t b) {
        // Pinned buffers first: everything else has to fit around them.
        if (buffers[a].fixedOffset.has_value() != buffers[b].fixedOffset.has_value())
            return buffers[a].fixedOffset.has_value();
        return key(a) > key(b);
    });
    return indices;
}

enum class Placement { Complete, Overflow, Stopped };

// First fit in `order`; stops early as soon as a buffer would end above `limit` (Overflow), or
// when `limits` says so (Stopped: large instances take long enough for a deadline to matter).
// The buffers placed before one that are live with it come from a LiveIndex, so each placement
// costs about the size of its live set, not the number of buffers placed.
Placement placeGreedily(const std::vector<Buffer>& buffers, GreedyOrder order, int64_t limit,
                        std::vector<int64_t>& offsets, const SearchLimits& limits = {})
{
    offsets.assign(buffers.size(), 0);
    LiveIndex placed(buffers);
    std::vector<std::pair<int64_t, int64_t>> blocking;  // (offset, end) of those live with the next one
    // The limits are read after every ~64k steps of work (well under a millisecond), so small
    // instances always complete.
    constexpr std::uint64_t kStepsBetweenChecks = 1 << 16;
    const bool timed = limits.deadline != std::chrono::steady_clock::time_point::max() || limits.cancel;
    std::uint64_t steps = 0;
    for (size_t index : placementOrder(buffers, order)) {
        const Buffer& buffer = buffers[index];
        if (buffer.fixedOffset) {
            offsets[index] = *buffer.fixedOffset;
        } else {
            blocking.clear();
            steps += placed.forEachOverlapping(index, [&](size_t other) {
                if (buffers[other].size > 0)
                    blocking.emplace_back(offsets[other], offsets[other] + buffers[other].size);
            });
            steps += blocking.size();
            std::sort(blocking.begin(), blocking.end());
            int64_t candidate = 0;
            for (const auto& [start, end] : blocking) {
                if (candidate + buffer.size <= start)
                    break;
                candidate = std::max(candidate, alignUp(end, buffer.alignment));
            }
            offsets[index] = candidate;
        }
        if (buffer.size > 0 && offsets[index] + buffer.size > limit)
            return Placement::Overflow;
        placed.add(index);
        if (timed && ++steps >= kStepsBetweenChecks) {
            steps = 0;
            if (std::chrono::steady_clock::now() >= limits.deadline || (limits.cancel && limits.cancel->load()))
                return Placement::Stopped;
        }
    }
    return Placement::Complete;
}

} // namespace

std::vector<int64_t> greedyPlan(const std::vector<Buffer>& buffers, GreedyOrder order)
{
    std::vector<int64_t> offsets;
    placeGreedily(buffers, order, std::numeric_limits<int64_t>::max(), offsets);
    return offsets;
}

bool greedyFits(const std::vector<Buffer>& buffers, int64_t capacity)
{
    std::vector<int64_t> offsets;
    for (GreedyOrder order : {GreedyOrder::SizeDescending, GreedyOrder::AreaDescending, GreedyOrder::LifetimeDescending})
        if (placeGreedily(buffers, order, capacity, offsets) == Placement::Complete)
            return true;
    return false;
}

std::vector<int64_t> bestGreedyPlan(const std::vector<Buffer>& buffers)
{
    return *bestGreedyPlan(buffers, SearchLimits{});
}

std::optional<std::vector<int64_t>> bestGreedyPlan(const std::vector<Buffer>& buffers, const SearchLimits& limits)
{
    std::vector<int64_t> best;
    int64_t bestPeak = 0;
    for (GreedyOrder order : {GreedyOrder::SizeDescending, GreedyOrder::AreaDescending, GreedyOrder::LifetimeDescending}) {
        std::vector<int64_t> offsets;
        if (placeGreedily(buffers, order, std::numeric_limits<int64_t>::max(), offsets, limits) == Placement::Stopped) {
            if (best.empty())
                return std::nullopt;
            break;  // the orders already complete are a plan
        }
        const int64_t peak = planPeak(buffers, offsets);
        if (best.empty() || peak < bestPeak) {
            best = std::move(offsets);
            bestPeak = peak;
        }
    }
    return best;
}

} // namespace tessera
