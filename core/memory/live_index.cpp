#include "memory/live_index.h"

#include <algorithm>

namespace tessera {

LiveIndex::LiveIndex(const std::vector<Buffer>& buffers) : buffers_(buffers), seen_(buffers.size(), 0)
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
    // A lifetime is covered by at most about 2 log2(leaves) nodes.
    size_t depth = 1;
    while ((size_t(1) << depth) < leaves_)
        ++depth;
    entries_.reserve(buffers.size() * std::min<size_t>(2 * depth, 16));
}

size_t LiveIndex::firstLeaf(int64_t step) const
{
    return size_t(std::lower_bound(steps_.begin(), steps_.end(), step) - steps_.begin());
}

void LiveIndex::add(size_t buffer)
{
    const Buffer& b = buffers_[buffer];
    insert(1, 0, leaves_, firstLeaf(b.lower), firstLeaf(b.upper), uint32_t(buffer));
}

void LiveIndex::insert(size_t node, size_t low, size_t high, size_t from, size_t to, uint32_t buffer)
{
    if (to <= low || high <= from)
        return;
    if (from <= low && high <= to) {
        entries_.push_back({buffer, heads_[node]});
        heads_[node] = uint32_t(entries_.size() - 1);
        return;
    }
    const size_t middle = low + (high - low) / 2;
    insert(2 * node, low, middle, from, to, buffer);
    insert(2 * node + 1, middle, high, from, to, buffer);
}

} // namespace tessera
