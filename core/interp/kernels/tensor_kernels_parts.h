#pragma once
// Internal to the tensor reference kernels (tensor_*_kernels.cpp): element copies that move bytes
// rather than converting through double, so every dtype (int64, float16, ...) stays exact.
#include "interp/kernel.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tessera::tensor_kernels {

// Gather, Scatter*, ArgMax/ArgMin, CumSum, Trilu, OneHot, Compress, TopK, NonZero.
void registerTensorIndexKernels(KernelTable& table);

// Marks an output element that takes the fill value instead of an input element.
inline constexpr int64_t kFill = -1;

// Copies `count` elements from `in` at element `from` to `out` at element `to` (same dtype).
inline void copyElements(const TensorData& in, int64_t from, TensorData& out, int64_t to, int64_t count = 1)
{
    const size_t size = dtypeSize(out.dtype());
    if (count > 0)
        std::memcpy(out.bytes() + static_cast<size_t>(to) * size, in.bytes() + static_cast<size_t>(from) * size,
                    static_cast<size_t>(count) * size);
}

// Index map of an output of `outShape` whose element at coordinates (c_0, ..., c_r-1) reads input
// element tables[0][c_0] + ... + tables[r-1][c_r-1]; kFill in any table marks a fill element.
inline std::vector<int64_t> indexMapFromTables(const Shape& outShape, const std::vector<std::vector<int64_t>>& tables)
{
    const int64_t total = elementCount(outShape);
    std::vector<int64_t> map(static_cast<size_t>(total));
    const size_t rank = outShape.size();
    std::vector<int64_t> counter(rank, 0);
    for (int64_t i = 0; i < total; ++i) {
        int64_t offset = 0;
        bool fill = false;
        for (size_t d = 0; d < rank; ++d) {
            const int64_t part = tables[d][static_cast<size_t>(counter[d])];
            fill = fill || part == kFill;
            offset += part;
        }
        map[static_cast<size_t>(i)] = fill ? kFill : offset;
        for (size_t d = rank; d-- > 0;) {
            if (++counter[d] < outShape[d])
                break;
            counter[d] = 0;
        }
    }
    return map;
}

// Table of one output dimension of `size` that steps through the input by `stride` elements.
inline std::vector<int64_t> strideTable(int64_t size, int64_t stride, int64_t start = 0, int64_t step = 1)
{
    std::vector<int64_t> table(static_cast<size_t>(size));
    for (int64_t o = 0; o < size; ++o)
        table[static_cast<size_t>(o)] = (start + o * step) * stride;
    return table;
}

// out[i] = in[map[i]]; elements mapped to kFill take the single element of `fill` (or stay zero
// when `fill` is null).
inline void copyByMap(const TensorData& in, TensorData& out, const std::vector<int64_t>& map,
                      const TensorData* fill = nullptr)
{
    const size_t size = dtypeSize(out.dtype());
    std::byte* dst = out.bytes();
    const std::byte* src = in.bytes();
    for (size_t i = 0; i < map.size(); ++i) {
        if (map[i] != kFill)
            std::memcpy(dst + i * size, src + static_cast<size_t>(map[i]) * size, size);
        else if (fill)
            std::memcpy(dst + i * size, fill->bytes(), size);
    }
}

// Product of shape[begin, end); saturates (a zero elsewhere in the shape can leave the other
// dimensions' product unbounded, and no loop then runs over it).
inline int64_t spanProduct(const Shape& shape, size_t begin, size_t end)
{
    int64_t product = 1;
    for (size_t d = begin; d < end && d < shape.size(); ++d)
        if (__builtin_mul_overflow(product, shape[d], &product))
            product = INT64_MAX;
    return product;
}

// Axis attribute normalized against `rank` (the shape rule has already checked the range).
inline int64_t kernelAxis(const KernelContext& ctx, const char* name, int64_t fallback, int64_t rank)
{
    int64_t axis = ctx.node.attrInt(name, fallback);
    if (axis < 0)
        axis += rank;
    if (axis < 0 || axis >= rank)
        ctx.fail(std::string(name) + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    return axis;
}

} // namespace tessera::tensor_kernels
