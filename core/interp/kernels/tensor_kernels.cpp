// Reference kernels of the tensor operators that rearrange or create data: Reshape, Flatten,
// Squeeze, Unsqueeze, Transpose, Concat, Split, Slice, Expand, Tile, Pad, DepthToSpace,
// SpaceToDepth, Shape, Size, ConstantOfShape, Range and EyeLike. Output shapes come from the shape
// rules; kernels move element bytes so every dtype stays exact. The indexing operators live in
// tensor_index_kernels.cpp.
#include "interp/kernels/kernels.h"
#include "interp/kernels/broadcast.h"
#include "interp/kernels/tensor_kernels_parts.h"
#include "ir/op_shapes/tensor_shapes_parts.h"

#include "base/error.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace tessera {

namespace {

using namespace tensor_kernels;

// Reshape, Flatten, Squeeze, Unsqueeze: the same bytes under the inferred shape.
void copyKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (in.byteSize() != out.byteSize())
        ctx.fail("output of " + std::to_string(out.elements()) + " elements does not match the input's " +
                 std::to_string(in.elements()));
    if (in.byteSize() > 0)
        std::memcpy(out.bytes(), in.bytes(), in.byteSize());
}

void transposeKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    const int64_t rank = in.rank();
    std::vector<int64_t> perm = ctx.node.attrInts("perm");
    if (!ctx.node.hasAttr("perm"))
        for (int64_t d = rank; d-- > 0;)
            perm.push_back(d);
    const std::vector<int64_t> strides = stridesOf(in.shape());
    std::vector<std::vector<int64_t>> tables;
    for (int64_t d = 0; d < rank; ++d)
        tables.push_back(strideTable(out.shape()[static_cast<size_t>(d)], strides[static_cast<size_t>(perm[static_cast<size_t>(d)])]));
    copyByMap(in, out, indexMapFromTables(out.shape(), tables));
}

void concatKernel(KernelContext& ctx)
{
    TensorData& out = ctx.output(0);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, out.rank()));
    const int64_t outer = spanProduct(out.shape(), 0, axis);
    const int64_t inner = spanProduct(out.shape(), axis + 1, out.shape().size());
    if (out.elements() == 0)
        return;
    int64_t position = 0;
    for (int64_t o = 0; o < outer; ++o) {
        for (size_t k = 0; k < ctx.inputs.size(); ++k) {
            const TensorData& in = ctx.input(k);
            const int64_t chunk = in.shape()[axis] * inner;
            copyElements(in, o * chunk, out, position, chunk);
            position += chunk;
        }
    }
}

void splitKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, in.rank()));
    const int64_t outer = spanProduct(in.shape(), 0, axis);
    const int64_t inner = spanProduct(in.shape(), axis + 1, in.shape().size());
    if (in.elements() == 0)
        return;
    int64_t position = 0;
    for (int64_t o = 0; o < outer; ++o) {
        for (TensorData& out : ctx.outputs) {
            const int64_t chunk = out.shape()[axis] * inner;
            copyElements(in, position, out, o * chunk, chunk);
            position += chunk;
        }
        // Outputs the node does not list still take their part of the input.
        position = (o + 1) * in.shape()[axis] * inner;
    }
}

void sliceKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    std::vector<int64_t> starts, ends, axes, steps;
    if (ctx.opset < 10) {
        starts = ctx.node.attrInts("starts");
        ends = ctx.node.attrInts("ends");
        axes = ctx.node.attrInts("axes");
    } else {
        starts = ctx.input(1).toInts();
        ends = ctx.input(2).toInts();
        if (ctx.hasInput(3))
            axes = ctx.input(3).toInts();
        if (ctx.hasInput(4))
            steps = ctx.input(4).toInts();
    }
    const std::vector<tensor_rules::SliceDim> dims =
        tensor_rules::resolveSlice(ctx.node.describe(), in.shape(), starts, ends, axes, steps);
    const std::vector<int64_t> strides = stridesOf(in.shape());
    std::vector<std::vector<int64_t>> tables;
    for (size_t d = 0; d < dims.size(); ++d)
        tables.push_back(strideTable(dims[d].count, strides[d], dims[d].start, dims[d].step));
    copyByMap(in, out, indexMapFromTables(out.shape(), tables));
}

void expandKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    copyByMap(in, out, broadcastIndexMap(in.shape(), out.shape()));
}

void tileKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    const std::vector<int64_t> strides = stridesOf(in.shape());
    std::vector<std::vector<int64_t>> tables;
    for (size_t d = 0; d < in.shape().size(); ++d) {
        const int64_t size = out.shape()[d];
        const int64_t dim = in.shape()[d];
        std::vector<int64_t> table(static_cast<size_t>(size));
        for (int64_t o = 0; o < size; ++o)
            table[static_cast<size_t>(o)] = (o % dim) * strides[d];
        tables.push_back(std::move(table));
    }
    copyByMap(in, out, indexMapFromTables(out.shape(), tables));
}

// Input coordinate of output position `p` (relative to the kept input range of `size` elements)
// under a padding mode; kFill for the constant mode outside the range.
int64_t paddedSource(int64_t p, int64_t size, const std::string& mode)
{
    if (p >= 0 && p < size)
        return p;
    if (mode == "edge")
        return p < 0 ? 0 : size - 1;
    if (mode == "reflect") {
        if (size == 1)
            return 0;
        const int64_t period = 2 * (size - 1);
        int64_t q = p % period;
        if (q < 0)
            q += period;
        return q < size ? q : period - q;
    }
    if (mode == "wrap") {
        int64_t q = p % size;
        return q < 0 ? q + size : q;
    }
    return kFill;
}

void padKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    const std::string mode = ctx.node.attrString("mode", "constant");
    std::vector<int64_t> pads;
    std::vector<int64_t> axes;
    TensorData fill(out.dtype(), {});
    if (ctx.opset < 11) {
        pads = ctx.node.attrInts(ctx.node.hasAttr("paddings") ? "paddings" : "pads");
        fill = TensorData::fromDoubles(out.dtype(), {}, {ctx.node.attrFloat("value", 0.0f)});
    } else {
        pads = ctx.input(1).toInts();
        if (ctx.hasInput(2) && ctx.input(2).elements() == 1)
            copyElements(ctx.input(2), 0, fill, 0);
        if (ctx.hasInput(3))
            axes = ctx.input(3).toInts();
    }
    const int64_t rank = in.rank();
    const std::vector<int64_t> full = tensor_rules::resolvePads(ctx.node.describe(), rank, pads, axes);
    const std::vector<int64_t> strides = stridesOf(in.shape());
    std::vector<std::vector<int64_t>> tables;
    for (int64_t d = 0; d < rank; ++d) {
        const int64_t begin = full[static_cast<size_t>(d)];
        const int64_t end = full[static_cast<size_t>(rank + d)];
        const int64_t dim = in.shape()[static_cast<size_t>(d)];
        // Negative pads crop first; the mode then pads the kept range [low, low + kept).
        const int64_t low = std::max<int64_t>(0, -begin);
        const int64_t kept = dim - low - std::max<int64_t>(0, -end);
        const int64_t lead = std::max<int64_t>(0, begin);
        const int64_t size = out.shape()[static_cast<size_t>(d)];
        std::vector<int64_t> table(static_cast<size_t>(size));
        for (int64_t o = 0; o < size; ++o) {
            const int64_t source = kept > 0 ? paddedSource(o - lead, kept, mode) : kFill;
            table[static_cast<size_t>(o)] = source == kFill ? kFill : (low + source) * strides[static_cast<size_t>(d)];
        }
        tables.push_back(std::move(table));
    }
    copyByMap(in, out, indexMapFromTables(out.shape(), tables), &fill);
}

// DepthToSpace and SpaceToDepth as a copy through a 6-D view of the output.
void blockKernel(KernelContext& ctx, bool toSpace)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (out.elements() == 0)
        return;
    const int64_t b = ctx.node.attrInt("blocksize", 1);
    const Shape& is = in.shape();
    const std::vector<int64_t> s = stridesOf(is);
    Shape view;
    std::vector<int64_t> viewStrides;
    if (toSpace) {
        // Output [N, C', H*b, W*b] seen as [N, C', H, b, W, b].
        const int64_t channels = is[1] / (b * b);
        const bool crd = ctx.node.attrString("mode", "DCR") == "CRD";
        view = {is[0], channels, is[2], b, is[3], b};
        if (crd)
            viewStrides = {s[0], b * b * s[1], s[2], b * s[1], s[3], s[1]};
        else
            viewStrides = {s[0], s[1], s[2], b * channels * s[1], s[3], channels * s[1]};
    } else {
        // Output [N, C*b*b, H/b, W/b] seen as [N, b, b, C, H/b, W/b].
        view = {is[0], b, b, is[1], is[2] / b, is[3] / b};
        viewStrides = {s[0], s[2], s[3], s[1], b * s[2], b * s[3]};
    }
    std::vector<std::vector<int64_t>> tables;
    for (size_t d = 0; d < view.size(); ++d)
        tables.push_back(strideTable(view[d], viewStrides[d]));
    copyByMap(in, out, indexMapFromTables(view, tables));
}

void shapeKernel(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    TensorData& out = ctx.output(0);
    const int64_t rank = static_cast<int64_t>(shape.size());
    int64_t start = 0;
    if (ctx.opset >= 15) {
        start = ctx.node.attrInt("start", 0);
        start = std::clamp<int64_t>(start < 0 ? start + rank : start, 0, rank);
    }
    for (int64_t i = 0; i < out.elements(); ++i)
        out.setInt(i, shape[static_cast<size_t>(start + i)]);
}

void sizeKernel(KernelContext& ctx) { ctx.output(0).setInt(0, ctx.input(0).elements()); }

void constantOfShapeKernel(KernelContext& ctx)
{
    TensorData& out = ctx.output(0);
    const Attribute* value = ctx.node.attr("value");
    if (!value || !value->tensor)
        return;
    for (int64_t i = 0; i < out.elements(); ++i)
        copyElements(*value->tensor, 0, out, i);
}

void rangeKernel(KernelContext& ctx)
{
    TensorData& out = ctx.output(0);
    if (isFloat(out.dtype())) {
        const double start = ctx.input(0).getDouble(0);
        const double delta = ctx.input(2).getDouble(0);
        for (int64_t i = 0; i < out.elements(); ++i)
            out.setDouble(i, start + static_cast<double>(i) * delta);
        return;
    }
    const uint64_t start = static_cast<uint64_t>(ctx.input(0).getInt(0));
    const uint64_t delta = static_cast<uint64_t>(ctx.input(2).getInt(0));
    for (int64_t i = 0; i < out.elements(); ++i)
        out.setInt(i, static_cast<int64_t>(start + static_cast<uint64_t>(i) * delta));
}

void eyeLikeKernel(KernelContext& ctx)
{
    TensorData& out = ctx.output(0);
    const int64_t rows = out.shape()[0];
    const int64_t cols = out.shape()[1];
    const int64_t k = ctx.node.attrInt("k", 0);
    for (int64_t i = 0; i < rows; ++i) {
        if (k > cols || k < -rows)
            break;
        const int64_t j = i + k;
        if (j >= 0 && j < cols)
            out.setDouble(i * cols + j, 1.0);
    }
}

} // namespace

void registerTensorKernels(KernelTable& table)
{
    for (const char* op : {"Reshape", "Flatten", "Squeeze", "Unsqueeze"})
        table[op] = copyKernel;
    table["Transpose"] = transposeKernel;
    table["Concat"] = concatKernel;
    table["Split"] = splitKernel;
    table["Slice"] = sliceKernel;
    table["Expand"] = expandKernel;
    table["Tile"] = tileKernel;
    table["Pad"] = padKernel;
    table["DepthToSpace"] = [](KernelContext& ctx) { blockKernel(ctx, true); };
    table["SpaceToDepth"] = [](KernelContext& ctx) { blockKernel(ctx, false); };
    table["Shape"] = shapeKernel;
    table["Size"] = sizeKernel;
    table["ConstantOfShape"] = constantOfShapeKernel;
    table["Range"] = rangeKernel;
    table["EyeLike"] = eyeLikeKernel;
    tensor_kernels::registerTensorIndexKernels(table);
}

} // namespace tessera
