#include "memory/exact_planner.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace tessera {

namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

// Orders in which buffers are preferred among those at the same offset. Each is a list of keys
// compared in turn, larger first. The search restarts round-robin over them with a growing node
// budget, so one unlucky order does not stall it.
enum class Key { SectionTotal, Area, Length };
// MiniMalloc's default trio: lifetime length, area and section total in three orders.
const std::vector<std::vector<Key>> kPreorders = {
    {Key::Length, Key::Area, Key::SectionTotal},
    {Key::SectionTotal, Key::Area, Key::Length},
    {Key::SectionTotal, Key::Length, Key::Area},
};

enum class Status { Found, NotFound, Stopped, OutOfNodes };

class CanonicalSearch {
public:
    CanonicalSearch(const std::vector<Buffer>& buffers, int64_t capacity, const SearchLimits& limits)
        : buffers_(buffers), capacity_(capacity), limits_(limits), n_(buffers.size())
    {
        buildSections();
        buildNeighbours();
        offset_.assign(n_, 0);
        placedAt_.assign(n_, -1);
        solution_.assign(n_, 0);
        rank_.assign(n_, 0);
    }

    SearchResult run()
    {
        SearchResult result;
        std::vector<size_t> all(n_);
        std::iota(all.begin(), all.end(), 0);
        Status status = Status::OutOfNodes;
        // Each preorder is tried twice per budget: keeping the ranks in parts that dynamic
        // decomposition splits off, and re-ranking each part by what is left of it. Neither wins
        // on every instance, and round-robin costs at most a constant factor.
        for (int64_t budget = int64_t(2 * n_); status == Status::OutOfNodes; budget *= 2) {
            for (size_t variant = 0; variant < 2 * kPreorders.size(); ++variant) {
                const std::vector<Key>& preorder = kPreorders[variant / 2];
                rerankParts_ = variant % 2 == 1;
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
        crossing_.assign(sections, 0);
        for (const Buffer& b : buffers_) {
            const auto first = size_t(std::upper_bound(times.begin(), times.end(), b.lower) - times.begin());
            const auto last = size_t(std::upper_bound(times.begin(), times.end(), b.upper) - times.begin());
            span_.emplace_back(first, last);
            for (size_t s = first; s < last; ++s)
                remaining_[s] += b.size;
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

    void setPreorder(const std::vector<Key>& keys)
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
            case Key::Area: return (b.upper - b.lower) * b.size;
            case Key::Length: return b.upper - b.lower;
            }
            return 0;
        };
        std::vector<size_t> order = members;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
            for (Key key : *preorder_) {
                const int64_t va = keyValue(a, key), vb = keyValue(b, key);
                if (va != vb)
                    return va > vb;
            }
            return a < b;
        });
        for (size_t r = 0; r < order.size(); ++r)
            rank_[order[r]] = r;
    }

    int64_t positionOf(size_t k) const { return buffers_[k].fixedOffset ? *buffers_[k].fixedOffset : offset_[k]; }

    bool outOfTime()
    {
        ++nodes_;
        if (nodesLeft_-- <= 0)
            return true;
        if (limits_.maxNodes && nodes_ >= limits_.maxNodes)
            stopped_ = true;
        if ((nodes_ & 1023) == 0 && (std::chrono::steady_clock::now() >= limits_.deadline ||
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
            return search(members, firstSection, endSection, 0, 0);
        for (size_t c = 0; c + 1 < cuts.size(); ++c) {
            std::vector<size_t> part;
            for (size_t k : members)
                if (span_[k].first < cuts[c + 1] && cuts[c] < span_[k].second)
                    part.push_back(k);
            if (part.empty())
                continue;
            std::vector<size_t> savedRanks;
            for (size_t k : part)
                savedRanks.push_back(rank_[k]);
            if (rerankParts_)
                rankMembers(part);
            const Status status = search(part, cuts[c], cuts[c + 1], 0, 0);
            for (size_t j = 0; j < part.size(); ++j)
                rank_[part[j]] = savedRanks[j];
            if (status != Status::Found)
                return status;
        }
        return Status::Found;
    }

    // Section bound over [firstSection, endSection): the unplaced buffers of a section are all live
    // together, so they stack above the lowest offset any of them can still take.
    bool sectionsCanFit(const std::vector<size_t>& members, size_t firstSection, size_t endSection, int64_t sweep)
    {
        for (size_t s = firstSection; s < endSection; ++s)
            lowest_[s] = kNone;
        for (size_t k : members) {
            const int64_t position = std::max(positionOf(k), sweep);
            for (size_t s = span_[k].first; s < span_[k].second; ++s)
                lowest_[s] = std::min(lowest_[s], position);
        }
        for (size_t s = firstSection; s < endSection; ++s)
            if (remaining_[s] > 0 && std::max(lowest_[s], floor_[s]) + remaining_[s] > capacity_)
                return false;
        return true;
    }

    // Canonical depth-first search over one independent part whose unplaced buffers are `unplaced`.
    // Placements are made at non-decreasing offsets (`sweep`); at equal offsets in preorder
    // (`sweepRank`). On success every buffer of the part has its offset in solution_.
    Status search(const std::vector<size_t>& unplaced, size_t firstSection, size_t endSection, int64_t sweep,
                  size_t sweepRank)
    {
        if (outOfTime())
            return stopped_ ? Status::Stopped : Status::OutOfNodes;
        if (unplaced.empty())
            return Status::Found;

        int64_t lowestTop = kNone;
        for (size_t k : unplaced) {
            if (buffers_[k].fixedOffset) {
                // A pinned buffer below the sweep, or pushed above its pin, can no longer be placed.
                if (*buffers_[k].fixedOffset < sweep || offset_[k] > *buffers_[k].fixedOffset)
                    return Status::NotFound;
                continue;
            }
            lowestTop = std::min(lowestTop, offset_[k] + buffers_[k].size);
        }
        if (!sectionsCanFit(unplaced, firstSection, endSection, sweep))
            return Status::NotFound;

        // Candidates: at or above the sweep, under the capacity, and below the top of every unplaced
        // buffer (dominance: a buffer that could still go underneath must be placed first).
        std::vector<std::pair<int64_t, size_t>> candidates;
        for (size_t k : unplaced) {
            const int64_t position = positionOf(k);
            if (position < sweep || (position == sweep && rank_[k] < sweepRank))
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
        for (const auto& [position, k] : candidates) {
            rest.clear();
            for (size_t m : unplaced)
                if (m != k)
                    rest.push_back(m);
            const size_t mark = place(k, position);
            // Boundaries inside k that no unplaced buffer crosses any more split what is left.
            bool splits = false;
            for (size_t s = span_[k].first; s + 1 < span_[k].second; ++s)
                splits = (--crossing_[s] == 0) || splits;
            const Status status = splits ? solveParts(rest, firstSection, endSection)
                                         : search(rest, firstSection, endSection, position, rank_[k]);
            for (size_t s = span_[k].first; s + 1 < span_[k].second; ++s)
                ++crossing_[s];
            undo(k, mark);
            if (status == Status::Found)
                solution_[k] = position;
            if (status != Status::NotFound)
                return status;
            // Nothing unplaced can ever sit above k, so k constrained nobody: the failure belongs
            // to the others (all at or above this offset), and every sibling choice fails too.
            if (!hasUnplacedNeighbour(k))
                return Status::NotFound;
        }
        return Status::NotFound;
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
                offset_[u] = raised;
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
            }
        }
        for (size_t s = span_[k].first; s < span_[k].second; ++s)
            remaining_[s] += buffers_[k].size;
        placedAt_[k] = -1;
    }

    struct Change {
        enum Kind { Floor, Offset } kind;
        size_t index; // section (Floor) or buffer (Offset)
        int64_t value;
    };

    const std::vector<Buffer>& buffers_;
    const int64_t capacity_;
    const SearchLimits limits_;
    const size_t n_;
    std::vector<std::pair<size_t, size_t>> span_;  // sections [first, last) of each buffer
    std::vector<int64_t> remaining_;               // per section: bytes of unplaced buffers
    std::vector<int64_t> floor_;                   // per section: highest top of placed buffers
    std::vector<int64_t> lowest_;                  // per section: lowest offset left for unplaced ones
    std::vector<int64_t> crossing_;                // per section boundary: unplaced buffers across it
    std::vector<std::vector<size_t>> neighbours_;  // buffers overlapping in time
    std::vector<size_t> rank_;                     // preorder position of each buffer
    const std::vector<Key>* preorder_ = nullptr;   // the preorder being tried
    bool rerankParts_ = false;                     // re-rank parts split off mid-search
    std::vector<int64_t> offset_;                  // lowest aligned offset each unplaced buffer can take
    std::vector<int64_t> placedAt_;
    std::vector<int64_t> solution_;
    std::vector<Change> log_;
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
    SearchResult inner = CanonicalSearch(sized, capacity, limits).run();
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
