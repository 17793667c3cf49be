// Reference kernels of the tensor operators that index or select: Gather, GatherElements,
// GatherND, ScatterND, ScatterElements, Scatter, ArgMax, ArgMin, CumSum, Trilu, OneHot, Compress,
// TopK and NonZero. Every index read from a tensor is checked before it is used.
#include "interp/kernels/tensor_kernels_parts.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace tessera::tensor_kernels {

namespace {

// Index `value` along an axis of `size`, negative counting from the end; fails when out of range.
int64_t checkedIndex(const KernelContext& ctx, int64_t value, int64_t size, const std::string& where)
{
    if (value < -size || value >= size)
        ctx.fail("index " + std::to_string(value) + " is out of range for " + where + " of size " +
                 std::to_string(size) + " (valid: " + std::to_string(-size) + " to " + std::to_string(size - 1) + ")");
    return value < 0 ? value + size : value;
}

void gatherKernel(KernelContext& ctx)
{
    const TensorData& data = ctx.input(0);
    const TensorData& indices = ctx.input(1);
    TensorData& out = ctx.output(0);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, data.rank()));
    const int64_t outer = spanProduct(data.shape(), 0, axis);
    const int64_t dim = data.shape()[axis];
    const int64_t inner = spanProduct(data.shape(), axis + 1, data.shape().size());
    const int64_t count = indices.elements();
    if (out.elements() == 0)
        return;
    std::vector<int64_t> rows(static_cast<size_t>(count));
    for (int64_t j = 0; j < count; ++j)
        rows[static_cast<size_t>(j)] = checkedIndex(ctx, indices.getInt(j), dim, "axis " + std::to_string(axis));
    int64_t position = 0;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < count; ++j) {
            copyElements(data, (o * dim + rows[static_cast<size_t>(j)]) * inner, out, position, inner);
            position += inner;
        }
}

// Coordinates of flat index `flat` in `shape`.
void unravel(int64_t flat, const Shape& shape, std::vector<int64_t>& coords)
{
    coords.resize(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
        coords[d] = flat % shape[d];
        flat /= shape[d];
    }
}


// Flat offset into `data` (strides `strides`) of element i of `indices`, whose coordinate along
// `axis` is replaced by the index it holds (GatherElements and ScatterElements).
int64_t indexedOffset(const KernelContext& ctx, const TensorData& indices, int64_t i, const Shape& dataShape,
                      const std::vector<int64_t>& strides, size_t axis, std::vector<int64_t>& coords)
{
    unravel(i, indices.shape(), coords);
    coords[axis] = checkedIndex(ctx, indices.getInt(i), dataShape[axis], "axis " + std::to_string(axis));
    int64_t offset = 0;
    for (size_t d = 0; d < coords.size(); ++d)
        offset += coords[d] * strides[d];
    return offset;
}

void gatherElementsKernel(KernelContext& ctx)
{
    const TensorData& data = ctx.input(0);
    const TensorData& indices = ctx.input(1);
    TensorData& out = ctx.output(0);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, data.rank()));
    const std::vector<int64_t> strides = stridesOf(data.shape());
    std::vector<int64_t> coords;
    for (int64_t i = 0; i < out.elements(); ++i) {
        const int64_t offset = indexedOffset(ctx, indices, i, data.shape(), strides, axis, coords);
        copyElements(data, offset, out, i);
    }
}

void gatherNdKernel(KernelContext& ctx)
{
    const TensorData& data = ctx.input(0);
    const TensorData& indices = ctx.input(1);
    TensorData& out = ctx.output(0);
    const size_t batch = static_cast<size_t>(ctx.opset >= 12 ? ctx.node.attrInt("batch_dims", 0) : 0);
    const Shape& ds = data.shape();
    const Shape& is = indices.shape();
    const int64_t k = is.back();
    const int64_t batches = spanProduct(is, 0, batch);
    const int64_t tuples = spanProduct(is, batch, is.size() - 1);
    const int64_t slice = spanProduct(ds, batch + static_cast<size_t>(k), ds.size());
    const int64_t batchStride = spanProduct(ds, batch, ds.size());
    const std::vector<int64_t> strides = stridesOf(ds);
    if (out.elements() == 0)
        return;
    int64_t position = 0;
    for (int64_t b = 0; b < batches; ++b)
        for (int64_t t = 0; t < tuples; ++t) {
            const int64_t base = (b * tuples + t) * k;
            int64_t offset = b * batchStride;
            for (int64_t c = 0; c < k; ++c) {
                const size_t d = batch + static_cast<size_t>(c);
                offset += checkedIndex(ctx, indices.getInt(base + c), ds[d], "data dimension " + std::to_string(d)) *
                          strides[d];
            }
            copyElements(data, offset, out, position, slice);
            position += slice;
        }
}

// Combines update element `from` of `updates` into element `to` of `out` by `reduction`.
void combine(TensorData& out, int64_t to, const TensorData& updates, int64_t from, const std::string& reduction)
{
    if (reduction == "none") {
        copyElements(updates, from, out, to);
        return;
    }
    if (isFloat(out.dtype())) {
        const double a = out.getDouble(to);
        const double b = updates.getDouble(from);
        double r = reduction == "add" ? a + b : reduction == "mul" ? a * b : reduction == "max" ? std::max(a, b) : std::min(a, b);
        out.setDouble(to, r);
        return;
    }
    const int64_t a = out.getInt(to);
    const int64_t b = updates.getInt(from);
    int64_t r = 0;
    if (reduction == "add")
        r = static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    else if (reduction == "mul")
        r = static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    else
        r = reduction == "max" ? std::max(a, b) : std::min(a, b);
    out.setInt(to, r);
}

void copyInput(const TensorData& in, TensorData& out)
{
    if (in.byteSize() > 0)
        std::memcpy(out.bytes(), in.bytes(), in.byteSize());
}

void scatterNdKernel(KernelContext& ctx)
{
    const TensorData& data = ctx.input(0);
    const TensorData& indices = ctx.input(1);
    const TensorData& updates = ctx.input(2);
    TensorData& out = ctx.output(0);
    copyInput(data, out);
    const std::string reduction = ctx.node.attrString("reduction", "none");
    const Shape& ds = data.shape();
    const int64_t k = indices.shape().back();
    const int64_t tuples = spanProduct(indices.shape(), 0, indices.shape().size() - 1);
    const int64_t slice = spanProduct(ds, static_cast<size_t>(k), ds.size());
    const std::vector<int64_t> strides = stridesOf(ds);
    for (int64_t t = 0; t < tuples; ++t) {
        int64_t offset = 0;
        for (int64_t c = 0; c < k; ++c) {
            const size_t d = static_cast<size_t>(c);
            offset += checkedIndex(ctx, indices.getInt(t * k + c), ds[d], "data dimension " + std::to_string(d)) *
                      strides[d];
        }
        for (int64_t e = 0; e < slice; ++e)
            combine(out, offset + e, updates, t * slice + e, reduction);
    }
}

void scatterElementsKernel(KernelContext& ctx)
{
    const TensorData& data = ctx.input(0);
    const TensorData& indices = ctx.input(1);
    const TensorData& updates = ctx.input(2);
    TensorData& out = ctx.output(0);
    copyInput(data, out);
    const std::string reduction = ctx.node.attrString("reduction", "none");
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, data.rank()));
    const std::vector<int64_t> strides = stridesOf(data.shape());
    std::vector<int64_t> coords;
    for (int64_t i = 0; i < indices.elements(); ++i) {
        const int64_t offset = indexedOffset(ctx, indices, i, data.shape(), strides, axis, coords);
        combine(out, offset, updates, i, reduction);
    }
}

// ArgMax / ArgMin: first extreme, or last with select_last_index; NaN wins as numpy's argmax does.
template <class T, class Read> void argExtreme(KernelContext& ctx, bool isMax, Read read)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", 0, in.rank()));
    const int64_t outer = spanProduct(in.shape(), 0, axis);
    const int64_t dim = in.shape()[axis];
    const int64_t inner = spanProduct(in.shape(), axis + 1, in.shape().size());
    const bool last = ctx.node.attrInt("select_last_index", 0) != 0;
    if (out.elements() == 0)
        return;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * dim * inner + i;
            T best = read(in, base);
            int64_t bestIndex = 0;
            for (int64_t j = 1; j < dim; ++j) {
                const T value = read(in, base + j * inner);
                if constexpr (std::is_floating_point_v<T>) {
                    if (std::isnan(best))
                        break;
                    if (std::isnan(value)) {
                        best = value;
                        bestIndex = j;
                        break;
                    }
                }
                const bool better = isMax ? (last ? value >= best : value > best) : (last ? value <= best : value < best);
                if (better) {
                    best = value;
                    bestIndex = j;
                }
            }
            out.setInt(o * inner + i, bestIndex);
        }
}

Kernel argKernel(bool isMax)
{
    return [isMax](KernelContext& ctx) {
        if (isFloat(ctx.input(0).dtype()))
            argExtreme<double>(ctx, isMax, [](const TensorData& t, int64_t i) { return t.getDouble(i); });
        else
            argExtreme<int64_t>(ctx, isMax, [](const TensorData& t, int64_t i) { return t.getInt(i); });
    };
}

void cumSumKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    int64_t axis = ctx.input(1).getInt(0);
    const int64_t rank = in.rank();
    if (axis < -rank || axis >= rank)
        ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    if (axis < 0)
        axis += rank;
    const bool exclusive = ctx.node.attrInt("exclusive", 0) != 0;
    const bool reverse = ctx.node.attrInt("reverse", 0) != 0;
    const size_t a = static_cast<size_t>(axis);
    const int64_t outer = spanProduct(in.shape(), 0, a);
    const int64_t dim = in.shape()[a];
    const int64_t inner = spanProduct(in.shape(), a + 1, in.shape().size());
    const bool floats = isFloat(in.dtype());
    if (out.elements() == 0)
        return;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            double sum = 0;
            uint64_t intSum = 0;
            for (int64_t step = 0; step < dim; ++step) {
                const int64_t j = reverse ? dim - 1 - step : step;
                const int64_t index = (o * dim + j) * inner + i;
                if (exclusive)
                    floats ? out.setDouble(index, sum) : out.setInt(index, static_cast<int64_t>(intSum));
                if (floats)
                    sum += in.getDouble(index);
                else
                    intSum += static_cast<uint64_t>(in.getInt(index));
                if (!exclusive)
                    floats ? out.setDouble(index, sum) : out.setInt(index, static_cast<int64_t>(intSum));
            }
        }
}

void triluKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    const bool upper = ctx.node.attrInt("upper", 1) != 0;
    const int64_t k = ctx.hasInput(1) ? ctx.input(1).getInt(0) : 0;
    const Shape& shape = in.shape();
    const int64_t rows = shape[shape.size() - 2];
    const int64_t cols = shape[shape.size() - 1];
    const int64_t matrices = spanProduct(shape, 0, shape.size() - 2);
    if (in.elements() == 0)
        return;
    for (int64_t m = 0; m < matrices; ++m)
        for (int64_t i = 0; i < rows; ++i)
            for (int64_t j = 0; j < cols; ++j) {
                const int64_t diagonal = j - i;
                if (upper ? diagonal >= k : diagonal <= k)
                    copyElements(in, (m * rows + i) * cols + j, out, (m * rows + i) * cols + j);
            }
}

void oneHotKernel(KernelContext& ctx)
{
    const TensorData& indices = ctx.input(0);
    const TensorData& values = ctx.input(2);
    TensorData& out = ctx.output(0);
    const int64_t rank = out.rank();
    int64_t axis = ctx.node.attrInt("axis", -1);
    if (axis < 0)
        axis += rank;
    const size_t a = static_cast<size_t>(axis);
    const int64_t depth = out.shape()[a];
    const int64_t outer = spanProduct(out.shape(), 0, a);
    const int64_t inner = spanProduct(out.shape(), a + 1, out.shape().size());
    for (int64_t i = 0; i < out.elements(); ++i)
        copyElements(values, 0, out, i);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const double raw = indices.getDouble(o * inner + i);
            if (!(std::abs(raw) < static_cast<double>(depth) + 1))
                continue;
            int64_t index = static_cast<int64_t>(raw);
            if (index < 0)
                index += depth;
            if (index < 0 || index >= depth)
                continue;
            copyElements(values, 1, out, (o * depth + index) * inner + i);
        }
}

void compressKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    const TensorData& condition = ctx.input(1);
    TensorData& out = ctx.output(0);
    const bool hasAxis = ctx.node.hasAttr("axis");
    const size_t axis = hasAxis ? static_cast<size_t>(kernelAxis(ctx, "axis", 0, in.rank())) : 0;
    const int64_t outer = hasAxis ? spanProduct(in.shape(), 0, axis) : 1;
    const int64_t dim = hasAxis ? in.shape()[axis] : in.elements();
    const int64_t inner = hasAxis ? spanProduct(in.shape(), axis + 1, in.shape().size()) : 1;
    const int64_t limit = std::min(dim, condition.elements());
    if (out.elements() == 0)
        return;
    int64_t position = 0;
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < limit; ++j) {
            if (condition.getInt(j) == 0)
                continue;
            copyElements(in, (o * dim + j) * inner, out, position, inner);
            position += inner;
        }
}

// TopK: ties keep the lower index first; NaN ranks above every number.
template <class T, class Read> void topK(KernelContext& ctx, Read read)
{
    const TensorData& in = ctx.input(0);
    TensorData& values = ctx.output(0);
    TensorData& indices = ctx.output(1);
    const size_t axis = static_cast<size_t>(kernelAxis(ctx, "axis", -1, in.rank()));
    const bool largest = ctx.opset < 11 || ctx.node.attrInt("largest", 1) != 0;
    const int64_t outer = spanProduct(in.shape(), 0, axis);
    const int64_t dim = in.shape()[axis];
    const int64_t inner = spanProduct(in.shape(), axis + 1, in.shape().size());
    const int64_t k = values.shape()[axis];
    if (values.elements() == 0)
        return;
    std::vector<int64_t> order(static_cast<size_t>(dim));
    std::vector<T> keys(static_cast<size_t>(dim));
    std::vector<bool> nan(static_cast<size_t>(dim), false);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t i = 0; i < inner; ++i) {
            const int64_t base = o * dim * inner + i;
            for (int64_t j = 0; j < dim; ++j) {
                keys[static_cast<size_t>(j)] = read(in, base + j * inner);
                if constexpr (std::is_floating_point_v<T>)
                    nan[static_cast<size_t>(j)] = std::isnan(keys[static_cast<size_t>(j)]);
            }
            std::iota(order.begin(), order.end(), int64_t{0});
            auto before = [&](int64_t x, int64_t y) {
                const size_t a = static_cast<size_t>(x);
                const size_t b = static_cast<size_t>(y);
                if (nan[a] != nan[b])
                    return largest ? bool(nan[a]) : bool(nan[b]);
                if (!nan[a] && keys[a] != keys[b])
                    return largest ? keys[a] > keys[b] : keys[a] < keys[b];
                return x < y;
            };
            std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
            for (int64_t j = 0; j < k; ++j) {
                const int64_t source = order[static_cast<size_t>(j)];
                copyElements(in, base + source * inner, values, (o * k + j) * inner + i);
                indices.setInt((o * k + j) * inner + i, source);
            }
        }
}

void topKKernel(KernelContext& ctx)
{
    if (ctx.outputs.size() < 2)
        ctx.fail("TopK needs both outputs (values and indices)");
    if (isFloat(ctx.input(0).dtype()))
        topK<double>(ctx, [](const TensorData& t, int64_t i) { return t.getDouble(i); });
    else
        topK<int64_t>(ctx, [](const TensorData& t, int64_t i) { return t.getInt(i); });
}

void nonZeroKernel(KernelContext& ctx)
{
    const TensorData& in = ctx.input(0);
    TensorData& out = ctx.output(0);
    const Shape shape = in.rank() == 0 ? Shape{1} : in.shape();
    const int64_t count = out.shape()[1];
    std::vector<int64_t> coords;
    int64_t column = 0;
    for (int64_t i = 0; i < in.elements() && column < count; ++i) {
        if (in.getDouble(i) == 0.0)
            continue;
        unravel(i, shape, coords);
        for (size_t d = 0; d < coords.size(); ++d)
            out.setInt(static_cast<int64_t>(d) * count + column, coords[d]);
        ++column;
    }
}

} // namespace

void registerTensorIndexKernels(KernelTable& table)
{
    table["Gather"] = gatherKernel;
    table["GatherElements"] = gatherElementsKernel;
    table["GatherND"] = gatherNdKernel;
    table["ScatterND"] = scatterNdKernel;
    table["ScatterElements"] = scatterElementsKernel;
    table["Scatter"] = scatterElementsKernel;
    table["ArgMax"] = argKernel(true);
    table["ArgMin"] = argKernel(false);
    table["CumSum"] = cumSumKernel;
    table["Trilu"] = triluKernel;
    table["OneHot"] = oneHotKernel;
    table["Compress"] = compressKernel;
    table["TopK"] = topKKernel;
    table["NonZero"] = nonZeroKernel;
}

} // namespace tessera::tensor_kernels
