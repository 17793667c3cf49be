#pragma once
// Buffers indexed by lifetime: which of those added are live at some step of a given lifetime.
// Each buffer is kept at the O(log n) nodes of a segment tree over the distinct steps of the
// schedule that together cover its lifetime; a query visits the nodes that meet its lifetime, so it
// costs about the number of distinct steps it spans plus the buffers it finds, not the number
// added. The greedy placement and the plan validator use it instead of comparing every pair.
#include "memory/buffer.h"

#include <cstdint>
#include <vector>

namespace tessera {

class LiveIndex {
public:
    // `buffers` outlives the index; only their lifetimes are read.
    explicit LiveIndex(const std::vector<Buffer>& buffers);

    void add(size_t buffer);
    // Calls `visit(k)` once for every added buffer k live at some step of buffer `query`'s lifetime
    // (never for `query` itself); returns how many tree nodes it looked at (a measure of work).
    template <class Visit> uint64_t forEachOverlapping(size_t query, Visit&& visit);

private:
    size_t firstLeaf(int64_t step) const;  // index of the elementary interval starting at `step`
    void insert(size_t node, size_t low, size_t high, size_t from, size_t to, uint32_t buffer);
    template <class Visit>
    void collect(size_t node, size_t low, size_t high, size_t from, size_t to, size_t query, Visit& visit,
                 uint64_t& work);

    static constexpr uint32_t kNone = UINT32_MAX;
    // The buffers kept at a tree node, as a list threaded through one array (the index is built
    // afresh for every greedy plan: one growing array instead of a vector per node).
    struct Entry {
        uint32_t buffer;
        uint32_t next;  // the node's next entry, or kNone
    };

    const std::vector<Buffer>& buffers_;
    std::vector<int64_t> steps_;                  // distinct lower/upper steps, ascending
    size_t leaves_ = 0;                           // elementary intervals [steps_[i], steps_[i + 1])
    std::vector<uint32_t> heads_;                 // per tree node: its first entry, or kNone
    std::vector<Entry> entries_;
    std::vector<uint32_t> seen_;                  // the query a buffer was last reported for
    uint32_t query_ = 0;
};

template <class Visit> uint64_t LiveIndex::forEachOverlapping(size_t query, Visit&& visit)
{
    if (++query_ == 0) {  // the stamps wrapped: start them again
        std::fill(seen_.begin(), seen_.end(), 0);
        query_ = 1;
    }
    uint64_t work = 0;
    const Buffer& buffer = buffers_[query];
    collect(1, 0, leaves_, firstLeaf(buffer.lower), firstLeaf(buffer.upper), query, visit, work);
    return work;
}

template <class Visit>
void LiveIndex::collect(size_t node, size_t low, size_t high, size_t from, size_t to, size_t query, Visit& visit,
                        uint64_t& work)
{
    if (to <= low || high <= from)
        return;
    ++work;
    // Every buffer kept here covers all of [low, high), which meets the query's lifetime.
    for (uint32_t entry = heads_[node]; entry != kNone; entry = entries_[entry].next) {
        const uint32_t other = entries_[entry].buffer;
        if (other != query && seen_[other] != query_) {
            seen_[other] = query_;
            visit(size_t(other));
        }
    }
    if (high - low > 1) {
        const size_t middle = low + (high - low) / 2;
        collect(2 * node, low, middle, from, to, query, visit, work);
        collect(2 * node + 1, middle, high, from, to, query, visit, work);
    }
}

} // namespace tessera
