#pragma once
// Index arithmetic for numpy-style broadcasting, shared by every kernel that broadcasts.
#include "ir/shape.h"

#include <cstdint>
#include <vector>

namespace tessera {

// For each element of `outShape` (row-major), the flat index of the element of `inShape` that
// broadcasts onto it. `inShape` must be broadcastable to `outShape`.
inline std::vector<int64_t> broadcastIndexMap(const Shape& inShape, const Shape& outShape)
{
    const size_t rank = outShape.size();
    const size_t offset = rank - inShape.size();
    std::vector<int64_t> inStrides(rank, 0);
    int64_t stride = 1;
    for (size_t d = inShape.size(); d-- > 0;) {
        inStrides[d + offset] = inShape[d] == 1 ? 0 : stride;
        stride *= inShape[d];
    }
    const int64_t total = elementCount(outShape);
    std::vector<int64_t> map(static_cast<size_t>(total));
    std::vector<int64_t> counter(rank, 0);
    int64_t inIndex = 0;
    for (int64_t i = 0; i < total; ++i) {
        map[static_cast<size_t>(i)] = inIndex;
        for (size_t d = rank; d-- > 0;) {
            inIndex += inStrides[d];
            if (++counter[d] < outShape[d])
                break;
            inIndex -= inStrides[d] * counter[d];
            counter[d] = 0;
        }
    }
    return map;
}

// For each element of `shape`, the flat index of the group it falls in when the axes flagged in
// `collapsed` shrink to size 1 (the output index of a reduction over those axes); `groups` gets the
// number of groups.
inline std::vector<int64_t> collapsedIndexMap(const Shape& shape, const std::vector<bool>& collapsed, size_t& groups)
{
    Shape reduced = shape;
    for (size_t d = 0; d < shape.size(); ++d)
        if (collapsed[d])
            reduced[d] = 1;
    groups = static_cast<size_t>(elementCount(reduced));
    return broadcastIndexMap(reduced, shape);
}

} // namespace tessera
