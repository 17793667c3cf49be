#include "memory/live_index.h"

#include <algorithm>

namespace tessera {

LiveIndex::LiveIndex(const std::vector<Buffer>& buffers) : buffers_(buffers)
{
    steps_.reserve(2 * buffers.size());
    for (const Buffer& buffer : buffers) {
        steps_.push_back(buffer.lower);
        steps_.push_back(buffer.upper);
    }
    std::sort(steps_.begin(), steps_.end());
    steps_.erase(std::unique(steps_.begin(), steps_.end()), steps_.end());
    leaves_ = std::max<size_t>(steps_.size(), 2) - 1;
    heads_.assign(4 * leaves_, kNone);
    startHeads_.assign(leaves_ + 1, kNone);
    // A lifetime is covered by at most about 2 log2(leaves) nodes, plus its start entry.
    size_t depth = 1;
    while ((size_t(1) << depth) < leaves_)
        ++depth;
    entries_.reserve(buffers.size() * std::min<size_t>(2 * depth + 1, 16));
}

size_t LiveIndex::firstLeaf(int64_t step) const
{
    return size_t(std::lower_bound(steps_.begin(), steps_.end(), step) - steps_.begin());
}

void LiveIndex::add(size_t buffer)
{
    const Buffer& b = buffers_[buffer];
    const size_t from = firstLeaf(b.lower), to = firstLeaf(b.upper);
    if (to <= from)
        return;  // live at no step: it meets no other buffer
    insert(1, 0, leaves_, from, to, uint32_t(buffer));
    push(startHeads_[from], uint32_t(buffer));
}

void LiveIndex::push(uint32_t& head, uint32_t buffer)
{
    entries_.push_back({buffer, head});
    head = uint32_t(entries_.size() - 1);
}

void LiveIndex::insert(size_t node, size_t low, size_t high, size_t from, size_t to, uint32_t buffer)
{
    if (to <= low || high <= from)
        return;
    if (from <= low && high <= to) {
        push(heads_[node], buffer);
        return;
    }
    const size_t middle = low + (high - low) / 2;
    insert(2 * node, low, middle, from, to, buffer);
    insert(2 * node + 1, middle, high, from, to, buffer);
}

} // namespace tessera
