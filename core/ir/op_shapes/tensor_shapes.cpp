// Shape rules of the tensor operators that rearrange or create data: Reshape, Flatten, Transpose,
// Concat, Split, Squeeze, Unsqueeze, Shape, Size, Expand, Tile, ConstantOfShape, Range, Pad,
// DepthToSpace, SpaceToDepth and EyeLike. The indexing operators (Slice, Gather, Scatter, TopK,
// ...) live in tensor_index_shapes.cpp.
#include "ir/op_shapes/op_shapes.h"
#include "ir/op_shapes/rule_helpers.h"
#include "ir/op_shapes/tensor_shapes_parts.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace tessera {

namespace tensor_rules {

int64_t axisIn(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what)
{
    if (rank <= 0)
        ctx.fail(what + " " + std::to_string(axis) + " cannot apply to a scalar input (rank 0)");
    if (axis < -rank || axis >= rank)
        ctx.fail(what + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
                 " (valid: " + std::to_string(-rank) + " to " + std::to_string(rank - 1) + ")");
    return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> resolvePads(const std::string& where, int64_t rank, const std::vector<int64_t>& pads,
                                 const std::vector<int64_t>& axes)
{
    auto fail = [&](const std::string& message) { throw ShapeError(where + ": " + message); };
    std::vector<int64_t> full(static_cast<size_t>(2 * rank), 0);
    if (axes.empty()) {
        if (static_cast<int64_t>(pads.size()) != 2 * rank)
            fail("pads has " + std::to_string(pads.size()) + " values, an input of rank " + std::to_string(rank) +
                 " needs " + std::to_string(2 * rank) + " (all begins, then all ends)");
        return pads;
    }
    const int64_t n = static_cast<int64_t>(axes.size());
    if (static_cast<int64_t>(pads.size()) != 2 * n)
        fail("pads has " + std::to_string(pads.size()) + " values, " + std::to_string(n) + " axes need " +
             std::to_string(2 * n));
    std::set<int64_t> seen;
    for (int64_t i = 0; i < n; ++i) {
        int64_t axis = axes[static_cast<size_t>(i)];
        if (axis < -rank || axis >= rank)
            fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
        if (axis < 0)
            axis += rank;
        if (!seen.insert(axis).second)
            fail("axis " + std::to_string(axis) + " appears twice in axes");
        full[static_cast<size_t>(axis)] = pads[static_cast<size_t>(i)];
        full[static_cast<size_t>(rank + axis)] = pads[static_cast<size_t>(n + i)];
    }
    return full;
}

DType requireOnnxDtype(const std::string& where, int64_t code)
{
    if (const std::optional<DType> type = dtypeFromOnnxCode(code))
        return *type;
    throw UnsupportedError(where + ": ONNX element type " + std::to_string(code) +
                           " is not supported; Tessera types are float32, float16, bfloat16, int8, "
                           "uint8, int16, int32, int64 and bool");
}

} // namespace tensor_rules

namespace {

using namespace rules;
using namespace tensor_rules;

void requireIndexType(const InferContext& ctx, size_t index, const std::string& what)
{
    const DType type = ctx.dtype(index);
    if (type != DType::Int64 && type != DType::Int32)
        ctx.fail("input " + std::to_string(index) + " (" + what + ") has type " + std::string(dtypeName(type)) +
                 ", it must be int64 or int32");
}

// A list of integers from a constant 1-D (or scalar) input.
std::vector<int64_t> constantList(const InferContext& ctx, size_t index, const std::string& what)
{
    requireIndexType(ctx, index, what);
    ctx.require(ctx.rank(index) <= 1, "input " + std::to_string(index) + " (" + what + ") must be 1-D, got shape " +
                                          shapeToString(ctx.shape(index)));
    return ctx.constantInts(index, what);
}

// a * b for non-negative dimensions, failing instead of overflowing.
int64_t checkedProduct(const InferContext& ctx, int64_t a, int64_t b)
{
    if (a != 0 && b > kMaxElements / a)
        ctx.fail("dimension " + std::to_string(a) + " x " + std::to_string(b) +
                 " is larger than Tessera supports (2^40 elements)");
    return a * b;
}

std::vector<TensorType> reshapeRule(const InferContext& ctx)
{
    std::vector<int64_t> target;
    if (ctx.opset() < 5) {
        ctx.require(ctx.node().hasAttr("shape"), "attribute 'shape' is required before opset 5");
        target = ctx.node().attrInts("shape");
    } else {
        ctx.require(ctx.hasInput(1), "needs the target shape as input 1");
        target = constantList(ctx, 1, "shape");
    }
    const bool allowZero = ctx.opset() >= 14 && ctx.node().attrInt("allowzero", 0) == 1;
    const Shape& in = ctx.shape(0);
    const int64_t total = elementCount(in);
    const std::string cannot = "Reshape cannot turn " + shapeToString(in) + " (" + std::to_string(total) +
                               " elements) into " + shapeToString(target);
    Shape out(target.size());
    int64_t inferred = -1;
    int64_t known = 1;
    bool hasZero = false;
    for (size_t i = 0; i < target.size(); ++i) {
        int64_t dim = target[i];
        if (dim == -1) {
            ctx.require(inferred < 0, cannot + ": at most one dimension may be -1");
            inferred = static_cast<int64_t>(i);
            continue;
        }
        if (dim == 0 && !allowZero) {
            ctx.require(i < in.size(), cannot + ": 0 at position " + std::to_string(i) +
                                           " copies an input dimension the input does not have");
            dim = in[i];
        }
        ctx.require(dim >= 0, cannot + ": dimension " + std::to_string(dim) +
                                  " is invalid (use -1 to infer one dimension, 0 to copy one)");
        hasZero = hasZero || dim == 0;
        out[i] = dim;
        known = checkedProduct(ctx, known, dim);
    }
    if (inferred >= 0) {
        ctx.require(!(allowZero && hasZero), cannot + ": with allowzero=1 the shape cannot hold both 0 and -1");
        ctx.require(known != 0 && total % known == 0,
                    cannot + ": the other dimensions (" + std::to_string(known) + " elements) do not divide " +
                        std::to_string(total));
        out[static_cast<size_t>(inferred)] = total / known;
    } else {
        ctx.require(known == total, cannot + ": the element counts differ");
    }
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> flattenRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    const int64_t rank = ctx.rank(0);
    int64_t axis = ctx.node().attrInt("axis", 1);
    const int64_t low = ctx.opset() >= 11 ? -rank : 0;
    ctx.require(axis >= low && axis <= rank, "axis " + std::to_string(axis) + " is out of range for rank " +
                                                 std::to_string(rank) + " (valid: " + std::to_string(low) +
                                                 " to " + std::to_string(rank) + ")");
    if (axis < 0)
        axis += rank;
    int64_t outer = 1;
    int64_t inner = 1;
    for (int64_t d = 0; d < rank; ++d)
        (d < axis ? outer : inner) = checkedProduct(ctx, d < axis ? outer : inner, in[static_cast<size_t>(d)]);
    return {{ctx.dtype(0), {outer, inner}}};
}

std::vector<TensorType> transposeRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    const int64_t rank = ctx.rank(0);
    std::vector<int64_t> perm = ctx.node().attrInts("perm");
    if (!ctx.node().hasAttr("perm"))
        for (int64_t d = rank; d-- > 0;)
            perm.push_back(d);
    ctx.require(static_cast<int64_t>(perm.size()) == rank,
                "perm " + shapeToString(perm) + " has " + std::to_string(perm.size()) +
                    " entries, the input has rank " + std::to_string(rank));
    std::vector<bool> used(static_cast<size_t>(rank), false);
    Shape out;
    for (int64_t p : perm) {
        ctx.require(p >= 0 && p < rank && !used[static_cast<size_t>(p)],
                    "perm " + shapeToString(perm) + " is not a permutation of 0.." + std::to_string(rank - 1));
        used[static_cast<size_t>(p)] = true;
        out.push_back(in[static_cast<size_t>(p)]);
    }
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> concatRule(const InferContext& ctx)
{
    ctx.require(ctx.inputCount() >= 1, "needs at least one input");
    ctx.require(ctx.node().hasAttr("axis"), "attribute 'axis' is required");
    const int64_t rank = ctx.rank(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), rank);
    Shape out = ctx.shape(0);
    for (size_t k = 1; k < ctx.inputCount(); ++k) {
        requireSameType(ctx, 0, k);
        const Shape& shape = ctx.shape(k);
        ctx.require(ctx.rank(k) == rank, "input " + std::to_string(k) + " has shape " + shapeToString(shape) +
                                             ", input 0 has " + shapeToString(ctx.shape(0)) +
                                             "; Concat inputs need the same rank");
        for (int64_t d = 0; d < rank; ++d) {
            if (d == axis)
                continue;
            ctx.require(shape[static_cast<size_t>(d)] == out[static_cast<size_t>(d)],
                        "input " + std::to_string(k) + " has shape " + shapeToString(shape) + ", input 0 has " +
                            shapeToString(ctx.shape(0)) + "; they may differ only in axis " +
                            std::to_string(axis));
        }
        out[static_cast<size_t>(axis)] += shape[static_cast<size_t>(axis)];
    }
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> splitRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    const int64_t axis = axisIn(ctx, ctx.node().attrInt("axis", 0), ctx.rank(0));
    const int64_t dim = in[static_cast<size_t>(axis)];
    const int64_t listed = static_cast<int64_t>(ctx.node().outputs.size());
    std::vector<int64_t> sizes;
    if (ctx.opset() < 13 && ctx.node().hasAttr("split"))
        sizes = ctx.node().attrInts("split");
    else if (ctx.hasInput(1))
        sizes = constantList(ctx, 1, "split");
    const bool byCount = ctx.opset() >= 18 && ctx.node().hasAttr("num_outputs");
    if (byCount) {
        ctx.require(sizes.empty(), "give either the split input or the num_outputs attribute, not both");
        const int64_t n = ctx.node().attrInt("num_outputs", 0);
        ctx.require(n >= 1, "num_outputs must be at least 1, got " + std::to_string(n));
        const int64_t chunk = (dim + n - 1) / n;
        ctx.require(chunk * (n - 1) <= dim, "dimension " + std::to_string(dim) + " of axis " + std::to_string(axis) +
                                                " is too small for " + std::to_string(n) + " outputs");
        sizes.assign(static_cast<size_t>(n), chunk);
        sizes.back() = dim - chunk * (n - 1);
    } else if (sizes.empty()) {
        ctx.require(listed >= 1, "the number of outputs is unknown; give split sizes or (opset 18) num_outputs");
        ctx.require(dim % listed == 0, "dimension " + std::to_string(dim) + " of axis " + std::to_string(axis) +
                                           " does not split evenly into " + std::to_string(listed) +
                                           " outputs; give the split sizes");
        sizes.assign(static_cast<size_t>(listed), dim / listed);
    }
    int64_t sum = 0;
    for (int64_t size : sizes) {
        ctx.require(size >= 0, "split sizes " + shapeToString(sizes) + " must not be negative");
        sum += size;
        ctx.require(sum <= dim, "split sizes " + shapeToString(sizes) + " exceed dimension " + std::to_string(dim) +
                                    " of axis " + std::to_string(axis));
    }
    ctx.require(sum == dim, "split sizes " + shapeToString(sizes) + " add up to " + std::to_string(sum) +
                                ", dimension " + std::to_string(axis) + " is " + std::to_string(dim));
    ctx.require(listed == 0 || listed == static_cast<int64_t>(sizes.size()),
                "split gives " + std::to_string(sizes.size()) + " parts, the node lists " + std::to_string(listed) +
                    " outputs");
    std::vector<TensorType> outs;
    for (int64_t size : sizes) {
        Shape shape = in;
        shape[static_cast<size_t>(axis)] = size;
        outs.push_back({ctx.dtype(0), shape});
    }
    return outs;
}

// Axes of Squeeze/Unsqueeze: the attribute before opset 13, the optional input 1 from 13.
std::vector<int64_t> squeezeAxes(const InferContext& ctx, bool& given)
{
    given = false;
    if (ctx.opset() < 13) {
        given = ctx.node().hasAttr("axes");
        return ctx.node().attrInts("axes");
    }
    ctx.require(!ctx.node().hasAttr("axes"), "from opset 13 axes is input 1, not an attribute");
    if (!ctx.hasInput(1))
        return {};
    given = true;
    return constantList(ctx, 1, "axes");
}

std::vector<TensorType> squeezeRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    const int64_t rank = ctx.rank(0);
    bool given = false;
    const std::vector<int64_t> axes = squeezeAxes(ctx, given);
    std::vector<bool> drop(static_cast<size_t>(rank), false);
    if (!given) {
        for (int64_t d = 0; d < rank; ++d)
            drop[static_cast<size_t>(d)] = in[static_cast<size_t>(d)] == 1;
    }
    for (int64_t axis : axes) {
        const int64_t a = axisIn(ctx, axis, rank);
        ctx.require(!drop[static_cast<size_t>(a)], "axis " + std::to_string(a) + " appears twice in axes");
        ctx.require(in[static_cast<size_t>(a)] == 1, "cannot squeeze axis " + std::to_string(a) + " of shape " +
                                                         shapeToString(in) + ": its size is not 1");
        drop[static_cast<size_t>(a)] = true;
    }
    Shape out;
    for (int64_t d = 0; d < rank; ++d)
        if (!drop[static_cast<size_t>(d)])
            out.push_back(in[static_cast<size_t>(d)]);
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> unsqueezeRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    bool given = false;
    const std::vector<int64_t> axes = squeezeAxes(ctx, given);
    ctx.require(given, ctx.opset() < 13 ? "attribute 'axes' is required" : "input 1 (axes) is required");
    const int64_t outRank = ctx.rank(0) + static_cast<int64_t>(axes.size());
    std::vector<bool> inserted(static_cast<size_t>(outRank), false);
    for (int64_t axis : axes) {
        const int64_t a = axisIn(ctx, axis, outRank);
        ctx.require(!inserted[static_cast<size_t>(a)], "axis " + std::to_string(a) + " appears twice in axes");
        inserted[static_cast<size_t>(a)] = true;
    }
    Shape out;
    size_t next = 0;
    for (int64_t d = 0; d < outRank; ++d)
        out.push_back(inserted[static_cast<size_t>(d)] ? 1 : in[next++]);
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> shapeRule(const InferContext& ctx)
{
    const int64_t rank = ctx.rank(0);
    int64_t start = 0;
    int64_t end = rank;
    if (ctx.opset() >= 15) {
        auto clampAxis = [rank](int64_t axis) { return std::clamp(axis < 0 ? axis + rank : axis, int64_t{0}, rank); };
        start = clampAxis(ctx.node().attrInt("start", 0));
        end = std::max(start, clampAxis(ctx.node().attrInt("end", rank)));
    }
    return {{DType::Int64, {end - start}}};
}

std::vector<TensorType> sizeRule(const InferContext& ctx)
{
    ctx.input(0);
    return {{DType::Int64, {}}};
}

std::vector<TensorType> expandRule(const InferContext& ctx)
{
    requireOpset(ctx, 8);
    const std::vector<int64_t> target = constantList(ctx, 1, "shape");
    for (int64_t dim : target)
        ctx.require(dim >= 0, "target shape " + shapeToString(target) + " has a negative dimension");
    return {{ctx.dtype(0), broadcastShapes(ctx.shape(0), target, ctx.node().describe())}};
}

std::vector<TensorType> tileRule(const InferContext& ctx)
{
    const Shape& in = ctx.shape(0);
    const std::vector<int64_t> repeats = constantList(ctx, 1, "repeats");
    ctx.require(repeats.size() == in.size(), "repeats has " + std::to_string(repeats.size()) +
                                                 " values, the input has rank " + std::to_string(in.size()));
    Shape out;
    for (size_t d = 0; d < in.size(); ++d) {
        ctx.require(repeats[d] >= 0, "repeats " + shapeToString(repeats) + " must not be negative");
        out.push_back(checkedProduct(ctx, in[d], repeats[d]));
    }
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> constantOfShapeRule(const InferContext& ctx)
{
    requireOpset(ctx, 9);
    const std::vector<int64_t> shape = constantList(ctx, 0, "shape");
    for (int64_t dim : shape)
        ctx.require(dim >= 0, "shape " + shapeToString(shape) + " has a negative dimension");
    DType type = DType::Float32;
    if (const Attribute* value = ctx.node().attr("value")) {
        ctx.require(value->kind == Attribute::Kind::Tensor && value->tensor,
                    "attribute 'value' must be a tensor of one element");
        ctx.require(value->tensor->elements() == 1, "attribute 'value' must hold exactly one element, it has " +
                                                        std::to_string(value->tensor->elements()));
        type = value->tensor->dtype();
    }
    return {{type, shape}};
}

std::vector<TensorType> rangeRule(const InferContext& ctx)
{
    requireOpset(ctx, 11);
    ctx.require(ctx.inputCount() == 3, "needs 3 inputs (start, limit, delta)");
    requireType(ctx, 0, kFloats | kSignedInts);
    for (size_t k = 0; k < 3; ++k) {
        requireSameType(ctx, 0, k);
        ctx.require(elementCount(ctx.shape(k)) == 1, "input " + std::to_string(k) + " must be a scalar, got shape " +
                                                         shapeToString(ctx.shape(k)));
    }
    const TensorData& start = ctx.constant(0, "start");
    const TensorData& limit = ctx.constant(1, "limit");
    const TensorData& delta = ctx.constant(2, "delta");
    double count = 0;
    if (isFloat(ctx.dtype(0))) {
        const double step = delta.getDouble(0);
        ctx.require(step != 0 && std::isfinite(step), "delta must be a finite non-zero number");
        count = std::ceil((limit.getDouble(0) - start.getDouble(0)) / step);
        ctx.require(!std::isnan(count), "start and limit must be finite numbers");
    } else {
        const int64_t step = delta.getInt(0);
        ctx.require(step != 0, "delta must not be 0");
        // Differences of int64 values can overflow int64; long double holds them exactly enough.
        const long double span = static_cast<long double>(limit.getInt(0)) - static_cast<long double>(start.getInt(0));
        count = static_cast<double>(std::ceil(span / static_cast<long double>(step)));
    }
    count = std::max(count, 0.0);
    ctx.require(count <= static_cast<double>(kMaxElements),
                "the range has more elements than Tessera supports (2^40)");
    return {{ctx.dtype(0), {static_cast<int64_t>(count)}}};
}

std::vector<TensorType> padRule(const InferContext& ctx)
{
    const std::string mode = ctx.node().attrString("mode", "constant");
    ctx.require(mode == "constant" || mode == "reflect" || mode == "edge" || (mode == "wrap" && ctx.opset() >= 19),
                "mode '" + mode + "' is not supported (use constant, reflect or edge)");
    const int64_t rank = ctx.rank(0);
    std::vector<int64_t> pads;
    std::vector<int64_t> axes;
    if (ctx.opset() < 11) {
        const char* name = ctx.node().hasAttr("paddings") ? "paddings" : "pads";
        ctx.require(ctx.node().hasAttr(name), "attribute 'pads' is required before opset 11");
        pads = ctx.node().attrInts(name);
    } else {
        pads = constantList(ctx, 1, "pads");
        if (ctx.hasInput(2)) {
            requireSameType(ctx, 0, 2);
            ctx.require(elementCount(ctx.shape(2)) == 1, "constant_value must be a scalar, got shape " +
                                                             shapeToString(ctx.shape(2)));
        }
        if (ctx.hasInput(3)) {
            requireOpset(ctx, 18);
            axes = constantList(ctx, 3, "axes");
        }
    }
    const std::vector<int64_t> full = resolvePads(ctx.node().describe(), rank, pads, axes);
    Shape out = ctx.shape(0);
    for (int64_t d = 0; d < rank; ++d) {
        const int64_t begin = full[static_cast<size_t>(d)];
        const int64_t end = full[static_cast<size_t>(rank + d)];
        const int64_t dim = out[static_cast<size_t>(d)];
        ctx.require(begin >= -kMaxElements && begin <= kMaxElements && end >= -kMaxElements && end <= kMaxElements,
                    "pads " + shapeToString(pads) + " are out of range");
        const int64_t size = dim + begin + end;
        ctx.require(size >= 0, "pads " + shapeToString(pads) + " remove more than dimension " + std::to_string(d) +
                                   " (size " + std::to_string(dim) + ") holds");
        const int64_t kept = dim - std::max<int64_t>(0, -begin) - std::max<int64_t>(0, -end);
        ctx.require(mode == "constant" || kept > 0 || (begin <= 0 && end <= 0),
                    "mode '" + mode + "' cannot pad dimension " + std::to_string(d) + ", it has no elements left");
        out[static_cast<size_t>(d)] = size;
    }
    return {{ctx.dtype(0), out}};
}

int64_t blockSize(const InferContext& ctx)
{
    ctx.require(ctx.node().hasAttr("blocksize"), "attribute 'blocksize' is required");
    const int64_t block = ctx.node().attrInt("blocksize", 0);
    ctx.require(block >= 1 && block <= 65536, "blocksize must be positive, got " + std::to_string(block));
    ctx.require(ctx.rank(0) == 4, "input must be 4-D [N, C, H, W], got shape " + shapeToString(ctx.shape(0)));
    return block;
}

std::vector<TensorType> depthToSpaceRule(const InferContext& ctx)
{
    const int64_t b = blockSize(ctx);
    const std::string mode = ctx.node().attrString("mode", "DCR");
    ctx.require(mode == "DCR" || mode == "CRD", "mode must be 'DCR' or 'CRD', got '" + mode + "'");
    const Shape& in = ctx.shape(0);
    ctx.require(in[1] % (b * b) == 0, "channels " + std::to_string(in[1]) + " are not a multiple of blocksize^2 = " +
                                          std::to_string(b * b));
    return {{ctx.dtype(0), {in[0], in[1] / (b * b), checkedProduct(ctx, in[2], b), checkedProduct(ctx, in[3], b)}}};
}

std::vector<TensorType> spaceToDepthRule(const InferContext& ctx)
{
    const int64_t b = blockSize(ctx);
    const Shape& in = ctx.shape(0);
    ctx.require(in[2] % b == 0 && in[3] % b == 0, "height " + std::to_string(in[2]) + " and width " +
                                                      std::to_string(in[3]) + " must be multiples of blocksize " +
                                                      std::to_string(b));
    return {{ctx.dtype(0), {in[0], checkedProduct(ctx, in[1], b * b), in[2] / b, in[3] / b}}};
}

std::vector<TensorType> eyeLikeRule(const InferContext& ctx)
{
    requireOpset(ctx, 9);
    ctx.require(ctx.rank(0) == 2, "input must be 2-D, got shape " + shapeToString(ctx.shape(0)));
    DType type = ctx.dtype(0);
    if (ctx.node().hasAttr("dtype"))
        type = requireOnnxDtype(ctx.node().describe(), ctx.node().attrInt("dtype", 1));
    return {{type, ctx.shape(0)}};
}

} // namespace

void registerTensorShapes(ShapeRuleTable& rules)
{
    rules["Reshape"] = reshapeRule;
    rules["Flatten"] = flattenRule;
    rules["Transpose"] = transposeRule;
    rules["Concat"] = concatRule;
    rules["Split"] = splitRule;
    rules["Squeeze"] = squeezeRule;
    rules["Unsqueeze"] = unsqueezeRule;
    rules["Shape"] = shapeRule;
    rules["Size"] = sizeRule;
    rules["Expand"] = expandRule;
    rules["Tile"] = tileRule;
    rules["ConstantOfShape"] = constantOfShapeRule;
    rules["Range"] = rangeRule;
    rules["Pad"] = padRule;
    rules["DepthToSpace"] = depthToSpaceRule;
    rules["SpaceToDepth"] = spaceToDepthRule;
    rules["EyeLike"] = eyeLikeRule;
    tensor_rules::registerTensorIndexShapes(rules);
}

} // namespace tessera
