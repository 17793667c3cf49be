#include "memory/exact_planner.h"

#include "memory/failed_states.h"
#include "memory/large_stack.h"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>

namespace tessera {

namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
// valleyEnd_ of a section outside every valley the valley bound checks.
constexpr size_t kNoValley = std::numeric_limits<size_t>::max();
// Above this many buffers a search node is slow enough to read the clock at every one.
constexpr size_t kLargeInstance = 2048;

// Searches over at most this many buffers run on the caller's stack (well under 1 MiB deep).
constexpr size_t kInlineSearchDepth = 128;
// Deeper ones get a stack of their own: a base plus a generous bound on one level's frames
// (search, branch, tryPlacement and the parts' split), sanitized builds included.
constexpr size_t kBaseStackBytes = size_t{8} << 20;
constexpr size_t kStackBytesPerBuffer = size_t{32} << 10;

// Orders in which buffers are preferred among those at the same offset. Each is a list of keys
// compared in turn, larger first. The search restarts round-robin over them with a growing node
// budget, so one unlucky order does not stall it.
enum class Key { SectionTotal, Area, Length };
// MiniMalloc's default trio: lifetime length, area and section total in three orders.
using Preorder = std::array<Key, 3>;
const std::vector<Preorder> kPreorders = {
    {Key::Length, Key::Area, Key::SectionTotal},
    {Key::SectionTotal, Key::Area, Key::Length},
    {Key::SectionTotal, Key::Length, Key::Area},
};

enum class Status { Found, NotFound, Stopped, OutOfNodes };

uint64_t mix(uint64_t x)
{
    // splitmix64's finalizer: every input bit affects every output bit.
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// The hash term of "buffer k is unplaced and can go no lower than `offset`". A state's key is the
// XOR of the terms of its unplaced buffers, so it is updated in O(1) per change.
StateKey termOf(size_t k, int64_t offset)
{
    const uint64_t base = mix(uint64_t(k)) ^ uint64_t(offset);
    return {mix(base ^ 0x6A09E667F3BCC908ull), mix(base + 0xBB67AE8584CAA73Bull)};
}

class CanonicalSearch {
public:
    CanonicalSearch(const std::vector<Buffer>& buffers, int64_t capacity, const SearchLimits& limits)
        : buffers_(buffers), capacity_(capacity), limits_(limits), n_(buffers.size())
    {
        buildSections();
        buildNeighbours();
        offset_.assign(n_, 0);
        for (size_t k = 0; k < n_; ++k)
            key_ ^= termOf(k, 0);
        placedAt_.assign(n_, -1);
        for (size_t s = 0; s < lowest_.size(); ++s)
            recountLowest(s);
        solution_.assign(n_, 0);
        rank_.assign(n_, 0);
        rankTerm_.assign(n_, {});
    }

    SearchResult run()
    {
        SearchResult result;
        std::vector<size_t> all(n_);
        std::iota(all.begin(), all.end(), 0);
        Status status = Status::OutOfNodes;
        // Each preorder is tried twice per budget: branching on the floor without spare bytes that
        // the fewest buffers can fill whenever there is one, keeping the ranks in parts that
        // dynamic decomposition splits off; and the canonical order, branching on such a floor
        // only when at most two buffers can fill it, re-ranking each part by what is left of it.
        // The first wins where every byte counts, the second where some sections have slack;
        // round-robin costs at most a constant factor. Failed states are remembered across
        // budgets and variants, so each restart replays what its predecessors proved quickly.
        for (int64_t budget = std::max<int64_t>(2 * int64_t(n_), 64); status == Status::OutOfNodes; budget *= 2) {
            for (size_t variant = 0; variant < 2 * kPreorders.size(); ++variant) {
                const Preorder& preorder = kPreorders[variant / 2];
                const bool floorFirst = variant % 2 == 0;
                rerankParts_ = !floorFirst;
                floorLimit_ = floorFirst ? std::numeric_limits<size_t>::max() : 2;
                setPreorder(preorder);
                nodesLeft_ = budget;
                status = solveParts(all, 0, remaining_.size());
                if (status != Status::OutOfNodes)
                    break;
            }
        }
        result.nodes = nodes_;
        switch (status) {
        case Status::Found:
            result.outcome = SearchOutcome::Found;
            result.offsets = solution_;
            break;
        case Status::NotFound: result.outcome = SearchOutcome::Infeasible; break;
        default: result.outcome = SearchOutcome::Stopped; break;
        }
        return result;
    }

private:
    void buildSections()
    {
        // Sections are the maximal sets of buffers live together: one per distinct end time,
        // holding every buffer that starts before it and has not ended. Bounds on these cliques
        // imply the bounds on every time step in between.
        std::vector<int64_t> times;
        for (const Buffer& b : buffers_)
            times.push_back(b.upper);
        std::sort(times.begin(), times.end());
        times.erase(std::unique(times.begin(), times.end()), times.end());
        const size_t sections = times.size();
        remaining_.assign(sections, 0);
        floor_.assign(sections, 0);
        lowest_.assign(sections, kNone);
        members_.assign(sections, {});
        atLowest_.assign(sections, 0);
        valleyEnd_.assign(sections, 0);
        startingAt_.assign(sections, {});
        reached_.assign(sections + 1, false);
        coverCount_.assign(sections + 1, 0);
        crossing_.assign(sections, 0);
        for (const Buffer& b : buffers_) {
            const auto first = size_t(std::upper_bound(times.begin(), times.end(), b.lower) - times.begin());
            const auto last = size_t(std::upper_bound(times.begin(), times.end(), b.upper) - times.begin());
            span_.emplace_back(first, last);
            for (size_t s = first; s < last; ++s) {
                remaining_[s] += b.size;
                members_[s].push_back(span_.size() - 1);
            }
            for (size_t s = first; s + 1 < last; ++s)
                ++crossing_[s];
        }

    }

    void buildNeighbours()
    {
        // Sweep by start time: a buffer overlaps those started before it that have not ended.
        neighbours_.assign(n_, {});
        std::vector<size_t> byLower(n_);
        std::iota(byLower.begin(), byLower.end(), 0);
        std::sort(byLower.begin(), byLower.end(), [&](size_t a, size_t b) { return buffers_[a].lower < buffers_[b].lower; });
        std::vector<size_t> active;
        for (size_t k : byLower) {
            const Buffer& b = buffers_[k];
            std::erase_if(active, [&](size_t a) { return buffers_[a].upper <= b.lower; });
            for (size_t a : active) {
                neighbours_[a].push_back(k);
                neighbours_[k].push_back(a);
            }
            active.push_back(k);
        }
    }

    void setPreorder(const Preorder& keys)
    {
        preorder_ = &keys;
        std::vector<size_t> all(n_);
        std::iota(all.begin(), all.end(), 0);
        rankMembers(all);
    }

    // Ranks `members` by the current preorder. The section totals are those of the buffers still
    // unplaced, so a part split off mid-search is ordered by what is left of it.
    void rankMembers(const std::vector<size_t>& members)
    {
        auto keyValue = [&](size_t k, Key key) -> int64_t {
            const Buffer& b = buffers_[k];
            switch (key) {
            case Key::SectionTotal: {
                int64_t total = 0;
                for (size_t s = span_[k].first; s < span_[k].second; ++s)
                    total = std::max(total, remaining_[s]);
                return total;
            }
            case Key::Area: return b.area();
            case Key::Length: return b.length();
            }
            return 0;
        };
        // Keys computed once per member (the section total walks the buffer's sections).
        std::vector<std::pair<std::array<int64_t, 3>, size_t>> keyed;
        keyed.reserve(members.size());
        for (size_t k : members) {
            std::array<int64_t, 3> values;
            for (size_t i = 0; i < values.size(); ++i)
                values[i] = -keyValue(k, (*preorder_)[i]); // larger first
            keyed.emplace_back(values, k);
        }
        std::sort(keyed.begin(), keyed.end());
        std::vector<size_t> order;
        for (const auto& entry : keyed)
            order.push_back(entry.second);
        for (size_t r = 0; r < order.size(); ++r)
            setRank(order[r], r);
    }

    void setRank(size_t k, uint64_t rank)
    {
        rank_[k] = rank;
        rankTerm_[k] = termOf(k, -1 - int64_t(rank)); // offsets are >= 0: distinct from offset terms
    }

    int64_t positionOf(size_t k) const { return buffers_[k].fixedOffset ? *buffers_[k].fixedOffset : offset_[k]; }

    bool outOfTime()
    {
        ++nodes_;
        if (nodesLeft_-- <= 0)
            return true;
        if (limits_.maxNodes && nodes_ >= limits_.maxNodes)
            stopped_ = true;
        // The clock is read every 1024 nodes, or at every node on large instances, where one node's
        // bounds sweep thousands of sections and 1024 nodes can take seconds.
        const uint64_t clockMask = buffers_.size() > kLargeInstance ? 0 : 1023;
        if ((nodes_ & clockMask) == 0 && (std::chrono::steady_clock::now() >= limits_.deadline ||
                                     (limits_.cancel && limits_.cancel->load(std::memory_order_relaxed))))
            stopped_ = true;
        return stopped_;
    }

    // Splits `members` (all unplaced) at section boundaries no unplaced buffer crosses and solves
    // the parts one after another: they are independent, so each only has to be solved once.
    Status solveParts(const std::vector<size_t>& members, size_t firstSection, size_t endSection)
    {
        std::vector<size_t> cuts{firstSection};
        for (size_t s = firstSection; s + 1 < endSection; ++s)
            if (crossing_[s] == 0)
                cuts.push_back(s + 1);
        cuts.push_back(endSection);
        if (cuts.size() == 2)
            return search(members, firstSection, endSection, {0, 0}, partBase(members));
        for (size_t c = 0; c + 1 < cuts.size(); ++c) {
            std::vector<size_t> part;
            for (size_t k : members)
                if (span_[k].first < cuts[c + 1] && cuts[c] < span_[k].second)
                    part.push_back(k);
            if (part.empty())
                continue;
            std::vector<uint64_t> savedRanks;
            for (size_t k : part)
                savedRanks.push_back(rank_[k]);
            if (rerankParts_)
                rankMembers(part);
            const Status status = search(part, cuts[c], cuts[c + 1], {0, 0}, partBase(part));
            for (size_t j = 0; j < part.size(); ++j)
                setRank(part[j], savedRanks[j]);
            if (status != Status::Found)
                return status;
        }
        return Status::Found;
    }

    // What to XOR into key_ for the key of a part whose unplaced buffers are `members`: the terms
    // of every other unplaced buffer cancel out (they do not change while the part is searched).
    StateKey partBase(const std::vector<size_t>& members) const
    {
        StateKey base = key_;
        for (size_t k : members)
            base ^= termOf(k, offset_[k]);
        return base;
    }

    // Section bound over [firstSection, endSection): the unplaced buffers of a section are all live
    // together, so they stack above the lowest offset any of them can still take, and nothing goes
    // below the sweep any more.
    bool sectionsCanFit(size_t firstSection, size_t endSection, int64_t sweep) const
    {
        for (size_t s = firstSection; s < endSection; ++s)
            if (remaining_[s] > 0 && std::max({lowest_[s], floor_[s], sweep}) + remaining_[s] > capacity_)
                return false;
        return true;
    }

    // Valley bound. A valley is a maximal run of unfinished sections at one floor with higher
    // floors or finished sections (or the part's ends) on both sides. A section with no spare byte
    // above its floor must have a buffer starting right at the floor, and such a buffer lies
    // within the valley (it is unplaced, so its lowest offset is the highest floor it spans). The
    // buffers at the floor of one valley are live at different times, so the section without a
    // spare byte must be covered by disjoint lifetimes of buffers that can start there.
    bool valleysCanBeFloored(const std::vector<size_t>& unplaced, size_t firstSection, size_t endSection,
                             SweepPoint sweep)
    {
        bool anyTight = false;
        for (size_t a = firstSection; a < endSection;) {
            size_t b = a + 1;
            if (remaining_[a] == 0) {
                valleyEnd_[a] = kNoValley;
                startingAt_[a].clear();
                a = b;
                continue;
            }
            bool tight = capacity_ - floor_[a] - remaining_[a] <= 0;
            while (b < endSection && remaining_[b] > 0 && floor_[b] == floor_[a]) {
                tight = tight || capacity_ - floor_[b] - remaining_[b] <= 0;
                ++b;
            }
            const bool walled = (a == firstSection || remaining_[a - 1] == 0 || floor_[a - 1] > floor_[a]) &&
                                (b == endSection || remaining_[b] == 0 || floor_[b] > floor_[a]);
            // Below the sweep nothing can start at the floor; the section bound counts that waste.
            const bool checked = walled && tight && floor_[a] >= sweep.offset;
            anyTight = anyTight || checked;
            for (size_t s = a; s < b; ++s) {
                valleyEnd_[s] = checked ? b : kNoValley;
                startingAt_[s].clear();
            }
            a = b;
        }
        if (!anyTight)
            return true;
        for (size_t k : unplaced) {
            const size_t first = span_[k].first;
            const int64_t position = positionOf(k);
            if (valleyEnd_[first] != kNoValley && position == floor_[first] && span_[k].second <= valleyEnd_[first] &&
                SweepPoint{position, rank_[k]} >= sweep)
                startingAt_[first].emplace_back(span_[k].second, k);
        }
        // Left to right over each checked valley: which sections can be reached by skipping a
        // section with a spare byte or by a buffer starting at the floor.
        for (size_t a = firstSection; a < endSection;) {
            if (valleyEnd_[a] == kNoValley) {
                ++a;
                continue;
            }
            const size_t b = valleyEnd_[a];
            for (size_t s = a; s <= b; ++s)
                reached_[s] = s == a;
            for (size_t s = a; s < b; ++s) {
                if (!reached_[s])
                    continue;
                if (capacity_ - floor_[s] - remaining_[s] > 0)
                    reached_[s + 1] = true;
                for (const auto& [end, k] : startingAt_[s])
                    reached_[end] = true;
            }
            if (!reached_[b])
                return false;
            a = b;
        }
        return true;
    }

    // After valleysCanBeFloored: the buffers that can fill the floor of the section without spare
    // bytes that the fewest can fill (sorted by rank), or none when no checked valley has one.
    std::vector<size_t> floorCoverers(size_t firstSection, size_t endSection)
    {
        for (size_t s = firstSection; s <= endSection; ++s)
            coverCount_[s] = 0;
        for (size_t s = firstSection; s < endSection; ++s)
            for (const auto& [end, k] : startingAt_[s]) {
                ++coverCount_[s];
                --coverCount_[end];
            }
        size_t best = kNoValley;
        int64_t count = 0;
        for (size_t s = firstSection; s < endSection; ++s) {
            count += coverCount_[s];
            if (valleyEnd_[s] != kNoValley && capacity_ - floor_[s] - remaining_[s] <= 0 &&
                (best == kNoValley || count < coverCount_[best]))
                best = s;
            coverCount_[s] = count; // prefix sums in place: coverCount_[s] is now s's count
        }
        std::vector<size_t> coverers;
        if (best == kNoValley || size_t(coverCount_[best]) > floorLimit_)
            return coverers;
        for (size_t s = best + 1; s-- > firstSection && valleyEnd_[s] == valleyEnd_[best];)
            for (const auto& [end, k] : startingAt_[s])
                if (end > best)
                    coverers.push_back(k);
        std::sort(coverers.begin(), coverers.end(), [&](size_t a, size_t b) { return rank_[a] < rank_[b]; });
        return coverers;
    }

    // Sets lowest_[s] and atLowest_[s] from the unplaced members of section s.
    void recountLowest(size_t s)
    {
        int64_t lowest = kNone;
        int64_t count = 0;
        for (size_t m : members_[s]) {
            if (placedAt_[m] >= 0)
                continue;
            const int64_t position = positionOf(m);
            if (position < lowest) {
                lowest = position;
                count = 0;
            }
            count += position == lowest;
        }
        lowest_[s] = lowest;
        atLowest_[s] = count;
    }

    // Buffer k no longer counts at `position` in its sections (placed, or raised from there). A
    // section's lowest position changes only when the last buffer at it leaves; then it is
    // recounted. The old values are logged for undo.
    void leavePosition(size_t k, int64_t position)
    {
        for (size_t s = span_[k].first; s < span_[k].second; ++s) {
            if (lowest_[s] != position)
                continue;
            log_.push_back({Change::AtLowest, s, atLowest_[s]});
            if (--atLowest_[s] == 0) {
                log_.push_back({Change::Lowest, s, lowest_[s]});
                recountLowest(s);
            }
        }
    }

    // Depth-first search over one independent part whose unplaced buffers are `unplaced`. The
    // canonical branching places buffers at non-decreasing (offset, rank) (`sweep`, the last one it
    // made); branching on a floor leaves the sweep where it is. On success every buffer of the part
    // has its offset in solution_.
    //
    // A node fails exactly when none of the packings of its unplaced buffers with the least total
    // offset (above the placed ones) keeps every placement at or after the sweep. That depends on
    // the unplaced buffers, their lowest offsets (both named by key_ ^ base), their ranks and the
    // sweep, not on the path to the node, the preorder or the way of branching, so failures are
    // shared across all of them. When no unplaced buffer is behind the sweep, none ever will be
    // (offsets only rise) and the sweep and the ranks drop out of the key.
    Status search(const std::vector<size_t>& unplaced, size_t firstSection, size_t endSection, SweepPoint sweep,
                  const StateKey& base)
    {
        if (unplaced.empty())
            return Status::Found;
        if (outOfTime())
            return stopped_ ? Status::Stopped : Status::OutOfNodes;
        // The cheap bounds first: most nodes fail one of them.
        if (!sectionsCanFit(firstSection, endSection, sweep.offset))
            return Status::NotFound;
        int64_t lowestTop = kNone;
        bool behindSweep = false;
        for (size_t k : unplaced) {
            behindSweep = behindSweep || SweepPoint{positionOf(k), rank_[k]} < sweep;
            if (buffers_[k].fixedOffset) {
                // A pinned buffer below the sweep, or pushed above its pin, can no longer be placed.
                if (*buffers_[k].fixedOffset < sweep.offset || offset_[k] > *buffers_[k].fixedOffset)
                    return Status::NotFound;
                continue;
            }
            lowestTop = std::min(lowestTop, offset_[k] + buffers_[k].size);
        }
        if (!valleysCanBeFloored(unplaced, firstSection, endSection, sweep))
            return Status::NotFound;
        const std::vector<size_t> coverers = floorCoverers(firstSection, endSection);

        StateKey key = key_ ^ base;
        SweepPoint stateSweep{std::numeric_limits<int64_t>::min(), 0};
        if (behindSweep) {
            stateSweep = sweep;
            for (size_t k : unplaced)
                key ^= rankTerm_[k];
        }
        if (failed_.provenFailed(key, stateSweep))
            return Status::NotFound;
        const Status status = coverers.empty()
                                  ? branch(unplaced, firstSection, endSection, sweep, base, lowestTop)
                                  : branchOnFloor(coverers, unplaced, firstSection, endSection, sweep, base);
        if (status == Status::NotFound)
            failed_.recordFailure(key, stateSweep);
        return status;
    }

    // The children of a search node: each candidate placed at its lowest offset, in order.
    Status branch(const std::vector<size_t>& unplaced, size_t firstSection, size_t endSection, SweepPoint sweep,
                  const StateKey& base, int64_t lowestTop)
    {
        // Candidates: at or above the sweep, under the capacity, and below the top of every unplaced
        // buffer (dominance: a buffer that could still go underneath must be placed first).
        std::vector<std::pair<int64_t, size_t>> candidates;
        for (size_t k : unplaced) {
            const int64_t position = positionOf(k);
            if (SweepPoint{position, rank_[k]} < sweep)
                continue;
            if (position + buffers_[k].size > capacity_ || position >= lowestTop)
                continue;
            candidates.emplace_back(position, k);
        }
        std::sort(candidates.begin(), candidates.end(), [&](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : rank_[a.second] < rank_[b.second];
        });

        std::vector<size_t> rest;
        rest.reserve(unplaced.size());
        Overflow overflow;
        for (const auto& [position, k] : candidates) {
            if (position != overflow.position)
                overflow = overflowAbove(position, firstSection, endSection);
            if (!overflow.allows(span_[k], buffers_[k].size, splitsPart(k), remaining_, capacity_)) {
                if (!hasUnplacedNeighbour(k)) // a failed child, as below
                    return Status::NotFound;
                continue;
            }
            const Status status =
                tryPlacement(k, unplaced, rest, firstSection, endSection, {position, rank_[k]}, base);
            if (status != Status::NotFound)
                return status;
            // Nothing unplaced can ever sit above k, so k constrained nobody: the failure belongs
            // to the others (all at or above this offset), and every sibling choice fails too.
            if (!hasUnplacedNeighbour(k))
                return Status::NotFound;
        }
        return Status::NotFound;
    }

    // Places k at its lowest offset and searches on with the sweep at `childSweep`.
    Status tryPlacement(size_t k, const std::vector<size_t>& unplaced, std::vector<size_t>& rest, size_t firstSection,
                        size_t endSection, SweepPoint childSweep, const StateKey& base)
    {
        const int64_t position = positionOf(k);
        rest.clear();
        for (size_t m : unplaced)
            if (m != k)
                rest.push_back(m);
        const StateKey savedKey = key_;
        const size_t mark = place(k, position);
        // Boundaries inside k that no unplaced buffer crosses any more split what is left.
        bool splits = false;
        for (size_t s = span_[k].first; s + 1 < span_[k].second; ++s)
            splits = (--crossing_[s] == 0) || splits;
        const Status status = splits ? solveParts(rest, firstSection, endSection)
                                     : search(rest, firstSection, endSection, childSweep, base);
        for (size_t s = span_[k].first; s + 1 < span_[k].second; ++s)
            ++crossing_[s];
        undo(k, mark);
        key_ = savedKey;
        if (status == Status::Found)
            solution_[k] = position;
        return status;
    }

    // Branches on which buffer fills the floor of a section without spare bytes: exactly one of
    // `coverers` does in every packing below the node, so the children share no packing and need
    // no canonical order among themselves; the sweep stays where it is.
    Status branchOnFloor(const std::vector<size_t>& coverers, const std::vector<size_t>& unplaced,
                         size_t firstSection, size_t endSection, SweepPoint sweep, const StateKey& base)
    {
        std::vector<size_t> rest;
        rest.reserve(unplaced.size());
        for (size_t k : coverers) {
            const Status status = tryPlacement(k, unplaced, rest, firstSection, endSection, sweep, base);
            if (status != Status::NotFound)
                return status;
        }
        return Status::NotFound;
    }

    // The sections of a part whose unplaced buffers no longer fit between `position` and the
    // capacity. A placement at `position` that leaves one of them unfinished fails the section
    // bound of its child at once, so it is not tried.
    struct Overflow {
        int64_t position = kNone;
        size_t first = std::numeric_limits<size_t>::max(), last = 0; // sections [first, last]
        int64_t minRemaining = kNone, maxRemaining = 0;

        bool empty() const { return first > last; }

        // Whether a buffer over sections `span` of `size` bytes placed at `position` finishes every
        // such section its child still checks against the sweep: all of them, or when it splits
        // the part (each part restarts its sweep) only those under it, whose floor becomes its top.
        bool allows(std::pair<size_t, size_t> span, int64_t size, bool splits, const std::vector<int64_t>& remaining,
                    int64_t capacity) const
        {
            if (empty())
                return true;
            if (!splits)
                return span.first <= first && last < span.second && minRemaining == size && maxRemaining == size;
            for (size_t s = std::max(first, span.first); s <= last && s < span.second; ++s)
                if (remaining[s] > 0 && position + remaining[s] > capacity && remaining[s] != size)
                    return false;
            return true;
        }
    };

    Overflow overflowAbove(int64_t position, size_t firstSection, size_t endSection) const
    {
        Overflow overflow;
        overflow.position = position;
        for (size_t s = firstSection; s < endSection; ++s) {
            if (remaining_[s] > 0 && position + remaining_[s] > capacity_) {
                overflow.first = std::min(overflow.first, s);
                overflow.last = s;
                overflow.minRemaining = std::min(overflow.minRemaining, remaining_[s]);
                overflow.maxRemaining = std::max(overflow.maxRemaining, remaining_[s]);
            }
        }
        return overflow;
    }

    // Whether placing k leaves a boundary inside it that no unplaced buffer crosses.
    bool splitsPart(size_t k) const
    {
        for (size_t s = span_[k].first; s + 1 < span_[k].second; ++s)
            if (crossing_[s] == 1)
                return true;
        return false;
    }

    bool hasUnplacedNeighbour(size_t k) const
    {
        return std::any_of(neighbours_[k].begin(), neighbours_[k].end(), [&](size_t u) { return placedAt_[u] < 0; });
    }

    // Places buffer k and returns the undo-log mark to roll back to.
    size_t place(size_t k, int64_t position)
    {
        const size_t mark = log_.size();
        const Buffer& b = buffers_[k];
        placedAt_[k] = position;
        key_ ^= termOf(k, offset_[k]);
        leavePosition(k, position);
        const int64_t top = position + b.size;
        for (size_t s = span_[k].first; s < span_[k].second; ++s) {
            remaining_[s] -= b.size;
            if (floor_[s] < top) {
                log_.push_back({Change::Floor, s, floor_[s]});
                floor_[s] = top;
            }
        }
        for (size_t u : neighbours_[k]) {
            if (placedAt_[u] >= 0)
                continue;
            const int64_t raised = alignUp(top, buffers_[u].alignment);
            if (raised > offset_[u]) {
                log_.push_back({Change::Offset, u, offset_[u]});
                key_ ^= termOf(u, offset_[u]) ^ termOf(u, raised);
                const int64_t old = offset_[u];
                offset_[u] = raised;
                if (!buffers_[u].fixedOffset)
                    leavePosition(u, old);
            }
        }
        return mark;
    }

    void undo(size_t k, size_t mark)
    {
        while (log_.size() > mark) {
            const Change change = log_.back();
            log_.pop_back();
            switch (change.kind) {
            case Change::Floor: floor_[change.index] = change.value; break;
            case Change::Offset: offset_[change.index] = change.value; break;
            case Change::Lowest: lowest_[change.index] = change.value; break;
            case Change::AtLowest: atLowest_[change.index] = change.value; break;
            }
        }
        for (size_t s = span_[k].first; s < span_[k].second; ++s)
            remaining_[s] += buffers_[k].size;
        placedAt_[k] = -1;
    }

    struct Change {
        enum Kind { Floor, Offset, Lowest, AtLowest } kind;
        size_t index; // buffer (Offset) or section (the others)
        int64_t value;
    };

    const std::vector<Buffer>& buffers_;
    const int64_t capacity_;
    const SearchLimits limits_;
    const size_t n_;
    std::vector<std::pair<size_t, size_t>> span_;  // sections [first, last) of each buffer
    std::vector<int64_t> remaining_;               // per section: bytes of unplaced buffers
    std::vector<int64_t> floor_;                   // per section: highest top of placed buffers
    std::vector<int64_t> lowest_;                  // per section: lowest position of its unplaced buffers
    std::vector<std::vector<size_t>> members_;     // per section: the buffers live in it
    std::vector<int64_t> atLowest_;                // per section: unplaced buffers at lowest_
    std::vector<size_t> valleyEnd_;                // scratch of the valley bound
    std::vector<std::vector<std::pair<size_t, size_t>>> startingAt_; // (end section, buffer)
    std::vector<int64_t> coverCount_;
    std::vector<char> reached_;
    std::vector<int64_t> crossing_;                // per section boundary: unplaced buffers across it
    std::vector<std::vector<size_t>> neighbours_;  // buffers overlapping in time
    std::vector<uint64_t> rank_;                   // preorder position of each buffer
    std::vector<StateKey> rankTerm_;               // its hash term, for keys that depend on ranks
    const Preorder* preorder_ = nullptr;   // the preorder being tried
    bool rerankParts_ = false;                     // re-rank parts split off mid-search
    size_t floorLimit_ = 0;                        // branch on a floor fillable by at most this many
    std::vector<int64_t> offset_;                  // lowest aligned offset each unplaced buffer can take
    std::vector<int64_t> placedAt_;
    std::vector<int64_t> solution_;
    std::vector<Change> log_;
    StateKey key_;                                 // XOR of termOf(k, offset_[k]) over unplaced k
    FailedStateTable failed_;
    uint64_t nodes_ = 0;
    int64_t nodesLeft_ = 0;
    bool stopped_ = false;
};

} // namespace

SearchResult searchPlacement(const std::vector<Buffer>& buffers, int64_t capacity, const SearchLimits& limits)
{
    // Zero-size buffers take no space; search the others.
    std::vector<Buffer> sized;
    std::vector<size_t> original;
    for (size_t k = 0; k < buffers.size(); ++k) {
        if (buffers[k].size > 0) {
            sized.push_back(buffers[k]);
            original.push_back(k);
        }
    }
    // The search recurses once per buffer placed. Shallow searches run here; deeper ones on a
    // stack sized for their depth, whichever thread called.
    SearchResult inner;
    if (sized.size() <= kInlineSearchDepth)
        inner = CanonicalSearch(sized, capacity, limits).run();
    else
        runWithStack(kBaseStackBytes + sized.size() * kStackBytesPerBuffer,
                     [&] { inner = CanonicalSearch(sized, capacity, limits).run(); });
    SearchResult result;
    result.outcome = inner.outcome;
    result.nodes = inner.nodes;
    if (inner.outcome == SearchOutcome::Found) {
        result.offsets.assign(buffers.size(), 0);
        for (size_t k = 0; k < buffers.size(); ++k)
            if (buffers[k].fixedOffset)
                result.offsets[k] = *buffers[k].fixedOffset;
        for (size_t j = 0; j < sized.size(); ++j)
            result.offsets[original[j]] = inner.offsets[j];
    }
    return result;
}

} // namespace tessera
