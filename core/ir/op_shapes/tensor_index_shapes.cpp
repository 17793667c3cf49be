// Shape rules of the tensor operators that index or select: Slice, Gather, GatherElements,
// GatherND, ScatterND, ScatterElements (and the older Scatter), ArgMax, ArgMin, CumSum, Trilu,
// OneHot, Compress, TopK and NonZero.
#include "ir/op_shapes/rule_helpers.h"
#include "ir/op_shapes/tensor_shapes_parts.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace tessera::tensor_rules {

std::vector<SliceDim> resolveSlice(const std::string& where, const Shape& shape, const std::vector<int64_t>& starts,
                                   const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                                   const std::vector<int64_t>& steps)
{
    auto fail = [&](const std::string& message) { throw ShapeError(where + ": " + message); };
    const int64_t rank = static_cast<int64_t>(shape.size());
    const size_t n = starts.size();
    if (ends.size() != n)
        fail("starts has " + std::to_string(n) + " values, ends has " + std::to_string(ends.size()) +
             "; they need one value per sliced axis");
    if (!axes.empty() && axes.size() != n)
        fail("axes has " + std::to_string(axes.size()) + " values, starts has " + std::to_string(n));
    if (!steps.empty() && steps.size() != n)
        fail("steps has " + std::to_string(steps.size()) + " values, starts has " + std::to_string(n));
    if (axes.empty() && static_cast<int64_t>(n) > rank)
        fail("starts has " + std::to_string(n) + " values, more than the input rank " + std::to_string(rank));

    std::vector<SliceDim> dims(shape.size());
    for (size_t d = 0; d < shape.size(); ++d)
        dims[d] = {0, 1, shape[d]};
    std::vector<bool> seen(shape.size(), false);
    for (size_t i = 0; i < n; ++i) {
        int64_t axis = axes.empty() ? static_cast<int64_t>(i) : axes[i];
        if (axis < -rank || axis >= rank)
            fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
        if (axis < 0)
            axis += rank;
        if (seen[static_cast<size_t>(axis)])
            fail("axis " + std::to_string(axis) + " appears twice in axes");
        seen[static_cast<size_t>(axis)] = true;
        const int64_t step = steps.empty() ? 1 : steps[i];
        if (step == 0)
            fail("steps must not be 0");
        const int64_t dim = shape[static_cast<size_t>(axis)];
        int64_t start = starts[i];
        int64_t end = ends[i];
        if (start < 0)
            start += dim;
        if (end < 0)
            end += dim;
        SliceDim& out = dims[static_cast<size_t>(axis)];
        out.step = step;
        if (step > 0) {
            start = std::clamp<int64_t>(start, 0, dim);
            end = std::clamp<int64_t>(end, 0, dim);
            out.start = start;
            out.count = end > start ? (end - start - 1) / step + 1 : 0;
        } else if (dim == 0) {
            out.start = 0;
            out.count = 0;
        } else {
            start = std::clamp<int64_t>(start, 0, dim - 1);
            end = std::clamp<int64_t>(end, -1, dim - 1);
            // |step| in unsigned arithmetic: -INT64_MIN does not fit int64.
            const uint64_t stride = uint64_t{0} - static_cast<uint64_t>(step);
            out.start = start;
            out.count = start > end ? static_cast<int64_t>(static_cast<uint64_t>(start - end - 1) / stride) + 1 : 0;
        }
    }
    return dims;
}

namespace {

using namespace rules;

void requireIndices(const InferContext& ctx, size_t index, const std::string& what)
{
    const DType type = ctx.dtype(index);
    if (type != DType::Int64 && type != DType::Int32)
        ctx.fail("input " + std::to_string(index) + " (" + what + ") has type " + std::string(dtypeName(type)) +
                 ", it must be int64 or int32");
}

std::vector<int64_t> constantList(const InferContext& ctx, size_t index, const std::string& what)
{
    requireIndices(ctx, index, what);
    ctx.require(ctx.rank(index) <= 1, "input " + std::to_string(index) + " (" + what + ") must be 1-D, got shape " +
                                          shapeToString(ctx.shape(index)));
    return ctx.constantInts(index, what);
}

std::vector<TensorType> sliceRule(const InferContext& ctx)
{
    std::vector<int64_t> starts, ends, axes, steps;
    if (ctx.opset() < 10) {
        ctx.require(ctx.node().hasAttr("starts") && ctx.node().hasAttr("ends"),
                    "attributes 'starts' and 'ends' are required before opset 10");
        starts = ctx.node().attrInts("starts");
        ends = ctx.node().attrInts("ends");
        axes = ctx.node().attrInts("axes");
    } else {
        ctx.require(!ctx.node().hasAttr("starts"), "from opset 10 starts and ends are inputs, not attributes");
        starts = constantList(ctx, 1, "starts");
        ends = constantList(ctx, 2, "ends");
        if (ctx.hasInput(3))
            axes = constantList(ctx, 3, "axes");
        if (ctx.hasInput(4))
            steps = constantList(ctx, 4, "steps");
    }
    const std::vector<SliceDim> dims = resolveSlice(ctx.node().describe(), ctx.shape(0), starts, ends, axes, steps);
    Shape out;
    for (const SliceDim& dim : dims)
        out.push_back(dim.count);
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> gatherRule(const InferContext& ctx)
{
    const Shape& data = ctx.shape(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), ctx.rank(0));
    requireIndices(ctx, 1, "indices");
    Shape out(data.begin(), data.begin() + axis);
    out.insert(out.end(), ctx.shape(1).begin(), ctx.shape(1).end());
    out.insert(out.end(), data.begin() + axis + 1, data.end());
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> gatherElementsRule(const InferContext& ctx)
{
    requireOpset(ctx, 11);
    const int64_t rank = ctx.rank(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), rank);
    requireIndices(ctx, 1, "indices");
    const Shape& data = ctx.shape(0);
    const Shape& indices = ctx.shape(1);
    ctx.require(ctx.rank(1) == rank, "indices of shape " + shapeToString(indices) + " must have the rank of data " +
                                         shapeToString(data));
    for (int64_t d = 0; d < rank; ++d)
        ctx.require(d == axis || indices[static_cast<size_t>(d)] <= data[static_cast<size_t>(d)],
                    "indices of shape " + shapeToString(indices) + " exceed data " + shapeToString(data) +
                        " in dimension " + std::to_string(d));
    return {{ctx.dtype(0), indices}};
}

std::vector<TensorType> gatherNdRule(const InferContext& ctx)
{
    requireOpset(ctx, 11);
    requireIndices(ctx, 1, "indices");
    const Shape& data = ctx.shape(0);
    const Shape& indices = ctx.shape(1);
    const int64_t r = ctx.rank(0);
    const int64_t q = ctx.rank(1);
    const int64_t batch = ctx.opset() >= 12 ? ctx.node().attrInt("batch_dims", 0) : 0;
    ctx.require(r >= 1 && q >= 1, "data and indices must have rank 1 or more");
    ctx.require(batch >= 0 && batch < std::min(r, q),
                "batch_dims " + std::to_string(batch) + " must be below the ranks of data and indices");
    for (int64_t d = 0; d < batch; ++d)
        ctx.require(data[static_cast<size_t>(d)] == indices[static_cast<size_t>(d)],
                    "batch dimension " + std::to_string(d) + " differs: data " + shapeToString(data) + ", indices " +
                        shapeToString(indices));
    const int64_t k = indices.back();
    ctx.require(k >= 1 && k <= r - batch, "the last dimension of indices (" + std::to_string(k) +
                                              ") must be between 1 and " + std::to_string(r - batch));
    Shape out(indices.begin(), indices.end() - 1);
    out.insert(out.end(), data.begin() + batch + k, data.end());
    return {{ctx.dtype(0), out}};
}

void requireReduction(const InferContext& ctx)
{
    const std::string reduction = ctx.node().attrString("reduction", "none");
    if (reduction == "none")
        return;
    if ((reduction == "add" || reduction == "mul") && ctx.opset() >= 16)
        return;
    if ((reduction == "max" || reduction == "min") && ctx.opset() >= 18)
        return;
    ctx.fail("reduction '" + reduction + "' is not supported at opset " + std::to_string(ctx.opset()) +
             " (none; add and mul from opset 16; max and min from opset 18)");
}

std::vector<TensorType> scatterNdRule(const InferContext& ctx)
{
    requireOpset(ctx, 11);
    requireIndices(ctx, 1, "indices");
    requireSameType(ctx, 0, 2);
    requireReduction(ctx);
    const Shape& data = ctx.shape(0);
    const Shape& indices = ctx.shape(1);
    ctx.require(ctx.rank(0) >= 1 && ctx.rank(1) >= 1, "data and indices must have rank 1 or more");
    const int64_t k = indices.back();
    ctx.require(k >= 1 && k <= ctx.rank(0), "the last dimension of indices (" + std::to_string(k) +
                                                ") must be between 1 and the data rank " +
                                                std::to_string(ctx.rank(0)));
    Shape expected(indices.begin(), indices.end() - 1);
    expected.insert(expected.end(), data.begin() + k, data.end());
    ctx.require(ctx.shape(2) == expected, "updates of shape " + shapeToString(ctx.shape(2)) + " must have shape " +
                                              shapeToString(expected));
    return {{ctx.dtype(0), data}};
}

std::vector<TensorType> scatterElementsRule(const InferContext& ctx)
{
    if (ctx.node().opType == "ScatterElements")
        requireOpset(ctx, 11);
    requireIndices(ctx, 1, "indices");
    requireSameType(ctx, 0, 2);
    if (ctx.node().opType == "ScatterElements")
        requireReduction(ctx);
    const int64_t rank = ctx.rank(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), rank);
    const Shape& data = ctx.shape(0);
    const Shape& indices = ctx.shape(1);
    ctx.require(ctx.rank(1) == rank, "indices of shape " + shapeToString(indices) + " must have the rank of data " +
                                         shapeToString(data));
    ctx.require(ctx.shape(2) == indices, "updates of shape " + shapeToString(ctx.shape(2)) +
                                             " must have the shape of indices " + shapeToString(indices));
    for (int64_t d = 0; d < rank; ++d)
        ctx.require(d == axis || indices[static_cast<size_t>(d)] <= data[static_cast<size_t>(d)],
                    "indices of shape " + shapeToString(indices) + " exceed data " + shapeToString(data) +
                        " in dimension " + std::to_string(d));
    return {{ctx.dtype(0), data}};
}

std::vector<TensorType> argRule(const InferContext& ctx)
{
    requireType(ctx, 0, kNumeric);
    Shape out = ctx.shape(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), ctx.rank(0));
    ctx.require(out[static_cast<size_t>(axis)] > 0, "axis " + std::to_string(axis) + " of shape " +
                                                        shapeToString(out) + " is empty, it has no extreme");
    if (ctx.node().attrInt("keepdims", 1) != 0)
        out[static_cast<size_t>(axis)] = 1;
    else
        out.erase(out.begin() + axis);
    return {{DType::Int64, out}};
}

std::vector<TensorType> cumSumRule(const InferContext& ctx)
{
    requireOpset(ctx, 11);
    requireType(ctx, 0, kNumeric);
    requireIndices(ctx, 1, "axis");
    ctx.require(elementCount(ctx.shape(1)) == 1, "axis must be a scalar, got shape " + shapeToString(ctx.shape(1)));
    if (ctx.isConstant(1))
        axisIn(ctx, ctx.constant(1, "axis").getInt(0), ctx.rank(0));
    return {{ctx.dtype(0), ctx.shape(0)}};
}

std::vector<TensorType> triluRule(const InferContext& ctx)
{
    requireOpset(ctx, 14);
    ctx.require(ctx.rank(0) >= 2, "input must have rank 2 or more, got shape " + shapeToString(ctx.shape(0)));
    if (ctx.hasInput(1)) {
        requireIndices(ctx, 1, "k");
        ctx.require(elementCount(ctx.shape(1)) == 1, "k must be a scalar, got shape " + shapeToString(ctx.shape(1)));
    }
    return {{ctx.dtype(0), ctx.shape(0)}};
}

std::vector<TensorType> oneHotRule(const InferContext& ctx)
{
    requireOpset(ctx, 9);
    requireType(ctx, 0, kNumeric);
    requireType(ctx, 1, kNumeric);
    ctx.require(elementCount(ctx.shape(1)) == 1, "depth must be a scalar, got shape " + shapeToString(ctx.shape(1)));
    ctx.require(ctx.rank(2) == 1 && ctx.shape(2)[0] == 2,
                "values must be 1-D with two elements [off, on], got shape " + shapeToString(ctx.shape(2)));
    const double depthValue = ctx.constant(1, "depth").getDouble(0);
    ctx.require(depthValue >= 1 && depthValue <= static_cast<double>(kMaxElements),
                "depth must be a positive count, got " + std::to_string(depthValue));
    const int64_t depth = static_cast<int64_t>(depthValue);
    Shape out = ctx.shape(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", -1), ctx.rank(0) + 1);
    out.insert(out.begin() + axis, depth);
    return {{ctx.dtype(2), out}};
}

std::vector<TensorType> compressRule(const InferContext& ctx)
{
    requireOpset(ctx, 9);
    requireType(ctx, 1, kBool);
    ctx.require(ctx.rank(1) == 1, "condition must be 1-D, got shape " + shapeToString(ctx.shape(1)));
    const TensorData& condition = ctx.constant(1, "condition");
    const Shape& in = ctx.shape(0);
    const bool hasAxis = ctx.node().hasAttr("axis");
    const int64_t axis = hasAxis ? axisIn(ctx, ctx.node().attrInt("axis", 0), ctx.rank(0)) : 0;
    const int64_t dim = hasAxis ? in[static_cast<size_t>(axis)] : elementCount(in);
    int64_t selected = 0;
    for (int64_t i = 0; i < condition.elements(); ++i) {
        if (condition.getInt(i) == 0)
            continue;
        ctx.require(i < dim, "condition selects entry " + std::to_string(i) + " but the axis has only " +
                                 std::to_string(dim));
        ++selected;
    }
    if (!hasAxis)
        return {{ctx.dtype(0), {selected}}};
    Shape out = in;
    out[static_cast<size_t>(axis)] = selected;
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> topKRule(const InferContext& ctx)
{
    requireType(ctx, 0, kNumeric);
    int64_t k = 0;
    if (ctx.opset() < 10) {
        ctx.require(ctx.node().hasAttr("k"), "attribute 'k' is required before opset 10");
        k = ctx.node().attrInt("k", 0);
    } else {
        requireIndices(ctx, 1, "k");
        ctx.require(elementCount(ctx.shape(1)) == 1, "k must hold one value, got shape " + shapeToString(ctx.shape(1)));
        k = ctx.constant(1, "k").getInt(0);
    }
    Shape out = ctx.shape(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", -1), ctx.rank(0));
    const int64_t dim = out[static_cast<size_t>(axis)];
    ctx.require(k >= 0 && k <= dim, "k = " + std::to_string(k) + " must be between 0 and the size " +
                                        std::to_string(dim) + " of axis " + std::to_string(axis));
    out[static_cast<size_t>(axis)] = k;
    return {{ctx.dtype(0), out}, {DType::Int64, out}};
}

std::vector<TensorType> nonZeroRule(const InferContext& ctx)
{
    requireOpset(ctx, 9);
    const TensorData& value = ctx.constant(0, "input");
    int64_t count = 0;
    for (int64_t i = 0; i < value.elements(); ++i)
        count += value.getDouble(i) != 0.0 ? 1 : 0;
    // A scalar counts as a 1-D tensor of one element, as numpy does.
    return {{DType::Int64, {std::max<int64_t>(ctx.rank(0), 1), count}}};
}

} // namespace

void registerTensorIndexShapes(ShapeRuleTable& rules)
{
    rules["Slice"] = sliceRule;
    rules["Gather"] = gatherRule;
    rules["GatherElements"] = gatherElementsRule;
    rules["GatherND"] = gatherNdRule;
    rules["ScatterND"] = scatterNdRule;
    rules["ScatterElements"] = scatterElementsRule;
    rules["Scatter"] = scatterElementsRule;
    rules["ArgMax"] = argRule;
    rules["ArgMin"] = argRule;
    rules["CumSum"] = cumSumRule;
    rules["Trilu"] = triluRule;
    rules["OneHot"] = oneHotRule;
    rules["Compress"] = compressRule;
    rules["TopK"] = topKRule;
    rules["NonZero"] = nonZeroRule;
}

} // namespace tessera::tensor_rules
