#pragma once
// Buffers indexed by lifetime: which of those added are live at some step of a given lifetime.
// A buffer live at some step of [lower, upper) is either live at `lower` or starts inside the
// lifetime, and never both. So each buffer is kept twice: at the O(log n) nodes of a segment tree
// over the distinct steps of the schedule that together cover its lifetime, where the path from
// the root to the leaf of `lower` finds every buffer live at that step exactly once; and in the
// list of the leaf where it starts, where the leaves inside the lifetime find the others. A query
// costs the tree's depth plus the distinct steps it spans plus the buffers it finds, not the
// number added. The greedy placement and the plan validator use it instead of comparing pairs.
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
    void push(uint32_t& head, uint32_t buffer);

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
    std::vector<uint32_t> startHeads_;            // per leaf: the buffers starting there
    std::vector<Entry> entries_;
};

template <class Visit> uint64_t LiveIndex::forEachOverlapping(size_t query, Visit&& visit)
{
    const Buffer& buffer = buffers_[query];
    const size_t from = firstLeaf(buffer.lower), to = firstLeaf(buffer.upper);
    if (to <= from)
        return 0;  // live at no step
    uint64_t work = 0;
    auto report = [&](uint32_t head) {
        for (uint32_t entry = head; entry != kNone; entry = entries_[entry].next)
            if (entries_[entry].buffer != query)
                visit(size_t(entries_[entry].buffer));
    };
    // Live at `lower`: the tree nodes on the path to its leaf.
    size_t node = 1, low = 0, high = leaves_;
    while (true) {
        ++work;
        report(heads_[node]);
        if (high - low <= 1)
            break;
        const size_t middle = low + (high - low) / 2;
        if (from < middle) {
            node = 2 * node;
            high = middle;
        } else {
            node = 2 * node + 1;
            low = middle;
        }
    }
    // Starting inside the lifetime, after `lower`.
    for (size_t leaf = from + 1; leaf < to; ++leaf, ++work)
        report(startHeads_[leaf]);
    return work;
}

} // namespace tessera
