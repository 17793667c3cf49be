// Shape rules of the neural-network operators: convolutions, pools, Gemm and MatMul,
// normalizations and the softmax family.
#include "ir/op_shapes/op_shapes.h"
#include "ir/op_shapes/resize_geometry.h"
#include "ir/op_shapes/rule_helpers.h"
#include "ir/op_shapes/window_geometry.h"

#include "base/error.h"

#include <string>

namespace tessera {

namespace {

using namespace rules;

std::string dims(const Shape& shape) { return shapeToString(shape); }

void requireRank(const InferContext& ctx, size_t index, int64_t minimum, const std::string& what)
{
    ctx.require(ctx.rank(index) >= minimum, what + " has shape " + dims(ctx.shape(index)) + ", it needs rank " +
                                                std::to_string(minimum) + " or more");
}

// A per-channel parameter input of shape [channels].
void requireChannelVector(const InferContext& ctx, size_t index, int64_t channels, const std::string& what)
{
    ctx.require(ctx.shape(index) == Shape{channels},
                what + " has shape " + dims(ctx.shape(index)) + ", expected [" + std::to_string(channels) + "]");
}

// Kernel dims of a convolution: kernel_shape when given (it must agree with the weights).
std::vector<int64_t> convKernel(const InferContext& ctx)
{
    const Shape& w = ctx.shape(1);
    std::vector<int64_t> kernel(w.begin() + 2, w.end());
    if (ctx.node().hasAttr("kernel_shape"))
        ctx.require(ctx.node().attrInts("kernel_shape") == kernel,
                    "attribute kernel_shape disagrees with the weights " + dims(w));
    return kernel;
}

// Attribute group, between 1 and the input's channel count.
int64_t groupOf(const InferContext& ctx)
{
    const int64_t group = ctx.node().attrInt("group", 1);
    const int64_t channels = ctx.shape(0)[1];
    ctx.require(group >= 1 && group <= std::max<int64_t>(channels, 1),
                "attribute group is " + std::to_string(group) + ", it must be between 1 and the " +
                    std::to_string(channels) + " input channels");
    return group;
}

// Conv and ConvTranspose: float input X [N, C, spatial...] and weights W of the same rank and type.
void requireConvOperands(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    requireSameType(ctx, 0, 1);
    requireRank(ctx, 0, 3, "input X");
    ctx.require(ctx.rank(1) == ctx.rank(0), "weights W have shape " + dims(ctx.shape(1)) + ", input X " +
                                                dims(ctx.shape(0)) + ": both need the same rank");
}

std::vector<TensorType> convRule(const InferContext& ctx)
{
    requireConvOperands(ctx);
    const Shape& x = ctx.shape(0);
    const Shape& w = ctx.shape(1);
    const int64_t group = groupOf(ctx);
    ctx.require(x[1] % group == 0 && x[1] / group == w[1],
                "input has " + std::to_string(x[1]) + " channels, weights " + dims(w) + " with group " +
                    std::to_string(group) + " expect group x " + std::to_string(w[1]) + " channels");
    ctx.require(w[0] % group == 0, "output channels " + std::to_string(w[0]) + " are not a multiple of group " +
                                       std::to_string(group));
    if (ctx.hasInput(2)) {
        requireSameType(ctx, 0, 2);
        requireChannelVector(ctx, 2, w[0], "bias B");
    }
    const WindowGeometry g = forwardWindow(ctx.node(), x, convKernel(ctx), false);
    Shape out{x[0], w[0]};
    out.insert(out.end(), g.output.begin(), g.output.end());
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> convTransposeRule(const InferContext& ctx)
{
    requireConvOperands(ctx);
    const Shape& x = ctx.shape(0);
    const Shape& w = ctx.shape(1);
    const int64_t group = groupOf(ctx);
    ctx.require(w[1] <= kMaxElements / group, "weights " + dims(w) + " with group " + std::to_string(group) +
                                                  " give an absurd number of output channels");
    ctx.require(x[1] == w[0], "input has " + std::to_string(x[1]) + " channels, weights " + dims(w) +
                                  " expect " + std::to_string(w[0]));
    ctx.require(w[0] % group == 0, "input channels are not a multiple of group " + std::to_string(group));
    if (ctx.hasInput(2)) {
        requireSameType(ctx, 0, 2);
        requireChannelVector(ctx, 2, w[1] * group, "bias B");
    }
    const WindowGeometry g = transposedWindow(ctx.node(), x, convKernel(ctx));
    Shape out{x[0], w[1] * group};
    out.insert(out.end(), g.output.begin(), g.output.end());
    return {{ctx.dtype(0), out}};
}

// MaxPool, AveragePool and LpPool; MaxPool also gives the int64 indices of the maxima.
ShapeRule poolRule(bool withIndices)
{
    return [withIndices](const InferContext& ctx) -> std::vector<TensorType> {
        if (withIndices && ctx.opset() >= 12)
            requireType(ctx, 0, kFloats | kInts);
        else
            requireType(ctx, 0, kFloats);
        requireRank(ctx, 0, 3, "input X");
        ctx.require(ctx.node().hasAttr("kernel_shape"), "attribute kernel_shape is required");
        const bool ceilMode = ctx.node().attrInt("ceil_mode", 0) != 0;
        const WindowGeometry g = forwardWindow(ctx.node(), ctx.shape(0), ctx.node().attrInts("kernel_shape"), ceilMode);
        Shape out{ctx.shape(0)[0], ctx.shape(0)[1]};
        out.insert(out.end(), g.output.begin(), g.output.end());
        std::vector<TensorType> result{{ctx.dtype(0), out}};
        if (withIndices)
            result.push_back({DType::Int64, out});
        return result;
    };
}

std::vector<TensorType> globalPoolRule(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    requireRank(ctx, 0, 3, "input X");
    Shape out = ctx.shape(0);
    for (size_t d = 2; d < out.size(); ++d)
        out[d] = 1;
    return {{ctx.dtype(0), out}};
}

// Resize (opset 10 and later) and Upsample (7 and 9): the output size from constant scales or sizes.
std::vector<TensorType> resizeRule(const InferContext& ctx)
{
    if (ctx.node().opType == "Resize")
        requireOpset(ctx, 10);
    requireType(ctx, 0, kNumeric);
    const ResizeInputs where = resizeInputs(ctx.node(), ctx.opset());
    auto known = [&](int index, const char* what) -> const TensorData* {
        if (index < 0 || !ctx.hasInput(size_t(index)))
            return nullptr;
        ctx.require(ctx.isConstant(size_t(index)),
                    std::string(what) + " must be a constant (or computed from constants) to know the output shape");
        return &ctx.constant(size_t(index), what);
    };
    const ResizeGeometry g = resizeGeometry(ctx.node(), ctx.opset(), ctx.shape(0), known(where.roi, "roi"),
                                            known(where.scales, "scales"), known(where.sizes, "sizes"));
    return {{ctx.dtype(0), g.output}};
}

std::vector<TensorType> gemmRule(const InferContext& ctx)
{
    requireType(ctx, 0, ctx.opset() >= 11 ? kNumeric : kFloats);
    requireSameType(ctx, 0, 1);
    ctx.require(ctx.rank(0) == 2 && ctx.rank(1) == 2, "A " + dims(ctx.shape(0)) + " and B " + dims(ctx.shape(1)) +
                                                          " must be matrices (rank 2); insert a Flatten");
    const bool transA = ctx.node().attrInt("transA", 0) != 0;
    const bool transB = ctx.node().attrInt("transB", 0) != 0;
    const int64_t m = ctx.shape(0)[transA ? 1 : 0];
    const int64_t k = ctx.shape(0)[transA ? 0 : 1];
    const int64_t kb = ctx.shape(1)[transB ? 1 : 0];
    const int64_t n = ctx.shape(1)[transB ? 0 : 1];
    ctx.require(k == kb, "A " + dims(ctx.shape(0)) + (transA ? " (transposed)" : "") + " and B " +
                             dims(ctx.shape(1)) + (transB ? " (transposed)" : "") + " disagree on the inner dim (" +
                             std::to_string(k) + " vs " + std::to_string(kb) + ")");
    if (ctx.hasInput(2)) {
        requireSameType(ctx, 0, 2);
        const Shape out = broadcastShapes(ctx.shape(2), Shape{m, n}, ctx.node().describe() + " bias C");
        ctx.require(out == Shape{m, n}, "bias C " + dims(ctx.shape(2)) + " does not broadcast to [" +
                                            std::to_string(m) + ", " + std::to_string(n) + "]");
    } else {
        ctx.require(ctx.opset() >= 11, "input C is required before opset 11");
    }
    return {{ctx.dtype(0), {m, n}}};
}

std::vector<TensorType> matMulRule(const InferContext& ctx)
{
    requireType(ctx, 0, kNumeric);
    requireSameType(ctx, 0, 1);
    Shape a = ctx.shape(0);
    Shape b = ctx.shape(1);
    ctx.require(!a.empty() && !b.empty(), "MatMul inputs must have rank 1 or more");
    const bool vectorA = a.size() == 1;
    const bool vectorB = b.size() == 1;
    if (vectorA)
        a.insert(a.begin(), 1);
    if (vectorB)
        b.push_back(1);
    ctx.require(a.back() == b[b.size() - 2], "inner dims disagree: " + dims(ctx.shape(0)) + " x " + dims(ctx.shape(1)));
    const Shape batchA(a.begin(), a.end() - 2);
    const Shape batchB(b.begin(), b.end() - 2);
    Shape out = broadcastShapes(batchA, batchB, ctx.node().describe() + " batch dims");
    if (!vectorA)
        out.push_back(a[a.size() - 2]);
    if (!vectorB)
        out.push_back(b.back());
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> batchNormRule(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    requireRank(ctx, 0, 2, "input X");
    const int64_t channels = ctx.shape(0)[1];
    const char* names[] = {"", "scale", "B", "input_mean", "input_var"};
    for (size_t k = 1; k <= 4; ++k)
        requireChannelVector(ctx, k, channels, names[k]);
    std::vector<TensorType> result{{ctx.dtype(0), ctx.shape(0)}};
    if (ctx.opset() >= 14 && ctx.node().attrInt("training_mode", 0) != 0) {
        result.push_back({ctx.dtype(3), {channels}});
        result.push_back({ctx.dtype(4), {channels}});
    }
    return result;
}

std::vector<TensorType> instanceNormRule(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    requireRank(ctx, 0, 3, "input X");
    requireChannelVector(ctx, 1, ctx.shape(0)[1], "scale");
    requireChannelVector(ctx, 2, ctx.shape(0)[1], "B");
    return {{ctx.dtype(0), ctx.shape(0)}};
}

std::vector<TensorType> layerNormRule(const InferContext& ctx)
{
    requireOpset(ctx, 17);
    requireType(ctx, 0, kFloats);
    const Shape& x = ctx.shape(0);
    const int64_t axis = normalizeAxis(ctx.node().attrInt("axis", -1), ctx.rank(0), ctx.node().describe());
    const Shape normalized(x.begin() + axis, x.end());
    for (size_t k = 1; k <= 2; ++k)
        if (ctx.hasInput(k)) {
            const Shape b = broadcastShapes(ctx.shape(k), normalized, ctx.node().describe());
            ctx.require(b == normalized, std::string(k == 1 ? "Scale " : "B ") + dims(ctx.shape(k)) +
                                             " does not broadcast to the normalized dims " + dims(normalized));
        }
    Shape stats = x;
    for (size_t d = static_cast<size_t>(axis); d < stats.size(); ++d)
        stats[d] = 1;
    const DType statType = ctx.node().attrInt("stash_type", 1) == 1 ? DType::Float32 : ctx.dtype(0);
    return {{ctx.dtype(0), x}, {statType, stats}, {statType, stats}};
}

std::vector<TensorType> sameAsInput(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    return {{ctx.dtype(0), ctx.shape(0)}};
}

std::vector<TensorType> softmaxRule(const InferContext& ctx)
{
    const int64_t fallback = ctx.opset() >= 13 ? -1 : 1;
    normalizeAxis(ctx.node().attrInt("axis", fallback), std::max<int64_t>(ctx.rank(0), 1), ctx.node().describe());
    return sameAsInput(ctx);
}

std::vector<TensorType> lrnRule(const InferContext& ctx)
{
    requireRank(ctx, 0, 3, "input X");
    ctx.require(ctx.node().attrInt("size", 0) >= 1, "attribute size is required and must be at least 1");
    return sameAsInput(ctx);
}

std::vector<TensorType> lpNormRule(const InferContext& ctx)
{
    const int64_t p = ctx.node().attrInt("p", 2);
    ctx.require(p == 1 || p == 2, "attribute p must be 1 or 2, got " + std::to_string(p));
    normalizeAxis(ctx.node().attrInt("axis", -1), std::max<int64_t>(ctx.rank(0), 1), ctx.node().describe());
    return sameAsInput(ctx);
}

std::vector<TensorType> mvnRule(const InferContext& ctx)
{
    for (int64_t axis : ctx.node().attrInts("axes", {0, 2, 3}))
        normalizeAxis(axis, ctx.rank(0), ctx.node().describe() + " axes");
    return sameAsInput(ctx);
}

} // namespace

void registerNnShapes(ShapeRuleTable& rules)
{
    rules["Conv"] = convRule;
    rules["ConvTranspose"] = convTransposeRule;
    rules["MaxPool"] = poolRule(true);
    rules["AveragePool"] = poolRule(false);
    rules["LpPool"] = poolRule(false);
    rules["GlobalAveragePool"] = globalPoolRule;
    rules["GlobalMaxPool"] = globalPoolRule;
    rules["GlobalLpPool"] = globalPoolRule;
    rules["Resize"] = resizeRule;
    rules["Upsample"] = resizeRule;
    rules["Gemm"] = gemmRule;
    rules["MatMul"] = matMulRule;
    rules["BatchNormalization"] = batchNormRule;
    rules["InstanceNormalization"] = instanceNormRule;
    rules["LayerNormalization"] = layerNormRule;
    rules["LRN"] = lrnRule;
    rules["Softmax"] = softmaxRule;
    rules["LogSoftmax"] = softmaxRule;
    rules["Hardmax"] = softmaxRule;
    rules["LpNormalization"] = lpNormRule;
    rules["MeanVarianceNormalization"] = mvnRule;
}

} // namespace tessera
