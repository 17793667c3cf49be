// Lowering of convolutions (with the Pad, batch normalization, ReLU, ReLU6 and pooling fused into
// them), standalone and global pooling, Gemm and MatMul, and Softmax.
#include "gap/compile/gap_lowering_pass.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::gap::lowering {

// A zero Pad of the spatial dimensions only feeds the convolution after it.
void Lowering::lowerPad(NodeId id)
{
    const Node& node = graph_.node(id);
    if (node.attrString("mode", "constant") != "constant")
        throw NodeProblem("only constant (zero) padding folds into a convolution");
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
        const TensorData& value = constantInput(node, 2, "pad value");
        if (value.elements() != 1 || value.getDouble(0) != 0.0)
            throw NodeProblem("only zero padding folds into a convolution");
    }
    const std::vector<int64_t> pads = constantInput(node, 1, "pads").toInts();
    if (pads.size() != 8 || pads[0] || pads[1] || pads[4] || pads[5])
        throw NodeProblem("only padding of the two spatial dimensions of an NCHW tensor folds into a convolution");
    const std::optional<NodeId> conv = soleConsumerOfType(node.outputs.at(0), {"Conv"});
    if (!conv)
        throw NodeProblem("a Pad folds into the convolution it feeds alone; this one feeds something else");
    activation(node.inputs.at(0));
    pendingPads_[node.outputs.at(0)] = {node.inputs.at(0), {pads[2], pads[3], pads[6], pads[7]}, node.name};
}

void Lowering::lowerConv(NodeId id)
{
    const Node& node = graph_.node(id);
    const TensorData& weights = constantInput(node, 1, "weights");
    if (weights.rank() != 4)
        throw NodeProblem("only 2-D convolutions (4-D weights) are supported");
    TensorId input = node.inputs.at(0);
    std::vector<int64_t> pads = node.attrInts("pads", {0, 0, 0, 0});
    std::string padNode;
    if (const auto pending = pendingPads_.find(input); pending != pendingPads_.end()) {
        for (size_t k = 0; k < 4; ++k)
            pads[k] += pending->second.pads[k];
        padNode = pending->second.node;
        input = pending->second.source;
    }
    const std::string autoPad = node.attrString("auto_pad", "NOTSET");
    const Shape& weightShape = weights.shape();
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
        // Symmetric whenever the filter is odd and the stride 1; otherwise refused below.
        for (size_t axis = 0; axis < 2; ++axis) {
            const int64_t total = weightShape[2 + axis] - 1;
            pads[axis] = total / 2;
            pads[axis + 2] = total - total / 2;
        }
    }
    if (pads.size() != 4 || pads[0] != pads[1] || pads[0] != pads[2] || pads[0] != pads[3])
        throw NodeProblem(fmt::format("padding [{}] is not the same on every side, which is the only padding the "
                                      "GAP convolution generator has",
                                      fmt::join(pads, ", ")));
    const Tensor& x = graph_.tensor(input);
    const int64_t group = node.attrInt("group", 1);
    const int64_t inFeatures = x.shape.at(1);
    const int64_t outFeatures = weightShape[0];
    const bool depthwise = group > 1 && group == inFeatures && group == outFeatures && weightShape[1] == 1;
    if (group != 1 && !depthwise)
        throw NodeProblem(fmt::format("group {} is neither 1 nor depthwise (group = input channels = output "
                                      "channels); the generators have only those two",
                                      group));
    const std::vector<int64_t> strides = node.attrInts("strides", {1, 1});
    const std::vector<int64_t> dilations = node.attrInts("dilations", {1, 1});

    GapLayer& layer = addLayer(GapLayerKind::Convolution, node, {activation(input)});
    if (!padNode.empty())
        layer.nodes.insert(layer.nodes.begin(), padNode);
    fixed_point::ConvPoolReluParams& conv = layer.conv;
    conv.inFeatures = int(inFeatures);
    conv.outFeatures = int(outFeatures);
    conv.height = int(x.shape.at(2));
    conv.width = int(x.shape.at(3));
    conv.filterHeight = int(weightShape[2]);
    conv.filterWidth = int(weightShape[3]);
    conv.strideY = int(strides.at(0));
    conv.strideX = int(strides.at(1));
    conv.dilationY = int(dilations.at(0));
    conv.dilationX = int(dilations.at(1));
    conv.pad = int(pads[0]);
    conv.depthwise = depthwise;
    layer.weights = weights.toFloats();
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor)
        layer.bias = constantInput(node, 2, "bias").toFloats();
    else
        layer.bias.assign(size_t(outFeatures), 0.0f);

    TensorId current = node.outputs.at(0);
    if (const auto norm = soleConsumerOfType(current, {"BatchNormalization"})) {
        foldBatchNormalization(layer, graph_.node(*norm));
        fuse(layer, *norm);
        current = graph_.node(*norm).outputs.at(0);
    }
    layer.normalized = current;
    bool pooled = false;
    while (const auto next = soleConsumerOfType(current, {"Relu", "Clip", "MaxPool", "AveragePool"})) {
        const Node& follower = graph_.node(*next);
        if (follower.opType == "Relu" || follower.opType == "Clip") {
            if (layer.conv.relu || (follower.opType == "Clip" && !isRelu6(follower)))
                break;
            layer.conv.relu = true;
            layer.relu6 = follower.opType == "Clip";
        } else {
            // Pooling then ReLU is what the generator computes; ReLU then average pooling is not.
            const bool average = follower.opType == "AveragePool";
            if (pooled || (average && layer.conv.relu) || !poolFitsStandalone(follower))
                break;
            setPooling(follower, layer.conv.pool, layer.conv.poolWidth, layer.conv.poolHeight,
                       layer.conv.poolStrideX, layer.conv.poolStrideY);
            layer.conv.poolPad = int(follower.attrInts("pads", {0, 0, 0, 0}).at(0));
            layer.conv.poolCeilMode = follower.attrInt("ceil_mode", 0) != 0;
            layer.poolNode = follower.name;
            layer.poolInput = current;
            pooled = true;
        }
        fuse(layer, *next);
        current = follower.outputs.at(0);
    }
    finishLayer(layer, current);
}

void Lowering::foldBatchNormalization(GapLayer& layer, const Node& norm) const
{
    // y = scale * (x - mean) / sqrt(var + epsilon) + B, with x = W * in + b: each output channel's
    // filter and bias are multiplied by s = scale / sqrt(var + epsilon), then B - s * mean added.
    const std::vector<float> scale = constantInput(norm, 1, "scale").toFloats();
    const std::vector<float> shift = constantInput(norm, 2, "bias").toFloats();
    const std::vector<float> mean = constantInput(norm, 3, "mean").toFloats();
    const std::vector<float> variance = constantInput(norm, 4, "variance").toFloats();
    const size_t channels = layer.bias.size();
    if (scale.size() != channels || shift.size() != channels || mean.size() != channels || variance.size() != channels)
        throw NodeProblem(fmt::format("batch normalization '{}' has parameters for other than {} channels", norm.name,
                                      channels));
    const double epsilon = norm.attrFloat("epsilon", 1e-5f);
    const size_t perChannel = layer.weights.size() / channels;
    for (size_t c = 0; c < channels; ++c) {
        const double s = scale[c] / std::sqrt(double(variance[c]) + epsilon);
        for (size_t k = 0; k < perChannel; ++k)
            layer.weights[c * perChannel + k] = float(layer.weights[c * perChannel + k] * s);
        layer.bias[c] = float((layer.bias[c] - mean[c]) * s + shift[c]);
    }
}

// Pooling, alone or fused into the convolution before it, may pad, as long as every side has
// the same padding, smaller than the window. The padding is skipped, as ONNX does: MaxPool
// ignores it, AveragePool divides by the values it covers (count_include_pad = 0, the default).
bool Lowering::poolFitsStandalone(const Node& pool) const
{
    const std::vector<int64_t> pads = pool.attrInts("pads", {0, 0, 0, 0});
    const std::vector<int64_t> kernel = pool.attrInts("kernel_shape");
    if (pads.size() != 4 || kernel.size() != 2 || std::adjacent_find(pads.begin(), pads.end(), std::not_equal_to<>()) != pads.end() ||
        pads[0] < 0 || pads[0] >= kernel[0] || pads[0] >= kernel[1])
        return false;
    const bool ceilMode = pool.attrInt("ceil_mode", 0) != 0;
    if ((pads[0] > 0 || ceilMode) && pool.opType == "AveragePool" && pool.attrInt("count_include_pad", 0) != 0)
        return false;
    for (int64_t dilation : pool.attrInts("dilations", {1, 1}))
        if (dilation != 1)
            return false;
    return pool.attrInts("kernel_shape").size() == 2 &&
           pool.attrString("auto_pad", "NOTSET") != "SAME_UPPER" &&
           pool.attrString("auto_pad", "NOTSET") != "SAME_LOWER";
}

void Lowering::setPooling(const Node& pool, fixed_point::ConvPoolReluParams::Pool& kind, int& width, int& height,
                       int& strideX, int& strideY)
{
    const std::vector<int64_t> kernel = pool.attrInts("kernel_shape");
    const std::vector<int64_t> strides = pool.attrInts("strides", {1, 1}); // ONNX: 1 when absent
    kind = pool.opType == "MaxPool" ? fixed_point::ConvPoolReluParams::Pool::Max
                                    : fixed_point::ConvPoolReluParams::Pool::Average;
    height = int(kernel.at(0));
    width = int(kernel.at(1));
    strideY = int(strides.at(0));
    strideX = int(strides.at(1));
}

// Clip(x, 0, 6): bounds from inputs (opset 11 and later) or attributes (earlier).
bool Lowering::isRelu6(const Node& clip) const
{
    auto bound = [&](size_t input, const char* attribute, float fallback) -> std::optional<float> {
        if (input < clip.inputs.size() && clip.inputs[input] != kNoTensor) {
            const Tensor& tensor = graph_.tensor(clip.inputs[input]);
            if (!tensor.isConstant() || tensor.constant->elements() != 1)
                return std::nullopt;
            return float(tensor.constant->getDouble(0));
        }
        return clip.attrFloat(attribute, fallback);
    };
    const std::optional<float> low = bound(1, "min", -3.4e38f);
    const std::optional<float> high = bound(2, "max", 3.4e38f);
    return low && high && *low == 0.0f && *high == 6.0f;
}

void Lowering::fuseRelu6(GapLayer& layer, TensorId& current)
{
    if (const auto next = soleConsumerOfType(current, {"Clip"}); next && isRelu6(graph_.node(*next))) {
        layer.relu = layer.relu6 = true;
        fuse(layer, *next);
        current = graph_.node(*next).outputs.at(0);
    }
}

void Lowering::fuseRelu(GapLayer& layer, TensorId& current, bool& relu)
{
    if (const auto next = soleConsumerOfType(current, {"Relu"})) {
        relu = true;
        fuse(layer, *next);
        current = graph_.node(*next).outputs.at(0);
    }
}

void Lowering::lowerPool(NodeId id)
{
    const Node& node = graph_.node(id);
    if (!poolFitsStandalone(node))
        throw NodeProblem("the pooling generator takes 2-D windows without dilation, and padding only when it is "
                          "the same on every side and smaller than the window; an AveragePool with padding or "
                          "ceil_mode must leave the padding out of the average (count_include_pad = 0)");
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    GapLayer& layer = addLayer(GapLayerKind::Pooling, node, {activation(node.inputs.at(0))});
    layer.pool.features = int(x.shape.at(1));
    layer.pool.height = int(x.shape.at(2));
    layer.pool.width = int(x.shape.at(3));
    setPooling(node, layer.pool.pool, layer.pool.poolWidth, layer.pool.poolHeight, layer.pool.strideX,
               layer.pool.strideY);
    layer.pool.pad = int(node.attrInts("pads", {0, 0, 0, 0}).at(0));
    layer.pool.ceilMode = node.attrInt("ceil_mode", 0) != 0;
    TensorId current = node.outputs.at(0);
    fuseRelu(layer, current, layer.pool.relu);
    finishLayer(layer, current);
}

void Lowering::lowerGlobalAveragePool(const Node& node)
{
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    if (x.shape.size() != 4)
        throw NodeProblem("only NCHW inputs are supported");
    if (x.shape[2] * x.shape[3] > 65535)
        throw NodeProblem("planes of more than 65535 pixels exceed the global pooling generator");
    GapLayer& layer = addLayer(GapLayerKind::GlobalAveragePool, node, {activation(node.inputs.at(0))});
    layer.pool.features = int(x.shape[1]);
    layer.pool.height = int(x.shape[2]);
    layer.pool.width = int(x.shape[3]);
    finishLayer(layer, node.outputs.at(0));
}

// GlobalMaxPool: a pooling layer whose one window is the whole plane.
void Lowering::lowerGlobalMaxPool(const Node& node)
{
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    if (x.shape.size() != 4)
        throw NodeProblem("only NCHW inputs are supported");
    GapLayer& layer = addLayer(GapLayerKind::Pooling, node, {activation(node.inputs.at(0))});
    layer.pool.features = int(x.shape[1]);
    layer.pool.height = layer.pool.poolHeight = int(x.shape[2]);
    layer.pool.width = layer.pool.poolWidth = int(x.shape[3]);
    layer.pool.pool = fixed_point::PoolReluParams::Pool::Max;
    TensorId current = node.outputs.at(0);
    fuseRelu(layer, current, layer.pool.relu);
    finishLayer(layer, current);
}

// ReduceMean / ReduceMax over H and W of an NCHW tensor, as PyTorch writes x.mean((2, 3)):
// global average or max pooling. The axes come from the attribute (opset < 18) or the input.
void Lowering::lowerSpatialReduction(const Node& node)
{
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    if (x.shape.size() != 4)
        throw NodeProblem("only the H and W axes of an NCHW input reduce as global pooling");
    std::vector<int64_t> axes = node.attrInts("axes", {});
    if (node.inputs.size() > 1 && node.inputs[1] != kNoTensor)
        axes = constantInput(node, 1, "axes").toInts();
    for (int64_t& axis : axes)
        if (axis < 0)
            axis += 4;
    std::sort(axes.begin(), axes.end());
    if (axes != std::vector<int64_t>{2, 3})
        throw NodeProblem(fmt::format("only a reduction over the axes H and W ([2, 3]) is global pooling; this one "
                                      "reduces [{}]",
                                      fmt::join(axes, ", ")));
    if (node.opType == "ReduceMax")
        return lowerGlobalMaxPool(node);
    lowerGlobalAveragePool(node);
}

void Lowering::lowerLinear(NodeId id)
{
    const Node& node = graph_.node(id);
    const bool gemm = node.opType == "Gemm";
    if (gemm && (node.attrInt("transA", 0) != 0 || node.attrFloat("alpha", 1.0f) != 1.0f ||
                 node.attrFloat("beta", 1.0f) != 1.0f))
        throw NodeProblem("only Gemm with transA = 0, alpha = 1 and beta = 1 maps onto a linear layer");
    const Tensor& a = graph_.tensor(node.inputs.at(0));
    if (a.shape.size() != 2 || a.shape[0] != 1)
        throw NodeProblem(fmt::format("the input has shape {}; a linear layer takes [1, N] (add a Flatten)",
                                      shapeToString(a.shape)));
    const TensorData& b = constantInput(node, 1, "weights");
    if (b.rank() != 2)
        throw NodeProblem("the weights must be a matrix");
    const bool transposed = gemm && node.attrInt("transB", 0) != 0;
    const int64_t inDim = a.shape[1];
    const int64_t outDim = transposed ? b.shape()[0] : b.shape()[1];
    GapLayer& layer = addLayer(GapLayerKind::Linear, node, {activation(node.inputs.at(0))});
    layer.inDim = int(inDim);
    layer.outDim = int(outDim);
    const std::vector<float> values = b.toFloats();
    layer.weights.resize(values.size());
    for (int64_t o = 0; o < outDim; ++o)
        for (int64_t i = 0; i < inDim; ++i)
            layer.weights[size_t(o * inDim + i)] =
                transposed ? values[size_t(o * inDim + i)] : values[size_t(i * outDim + o)];
    layer.bias.assign(size_t(outDim), 0.0f);
    TensorId current = node.outputs.at(0);
    if (gemm && node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
        addBias(layer, constantInput(node, 2, "bias"));
    } else if (!gemm) {
        if (const auto add = soleConsumerOfType(current, {"Add"})) {
            const Node& addNode = graph_.node(*add);
            const TensorId other = addNode.inputs.at(1);
            if (graph_.tensor(other).isConstant()) {
                addBias(layer, *graph_.tensor(other).constant);
                fuse(layer, *add);
                current = addNode.outputs.at(0);
            }
        }
    }
    layer.normalized = current;
    fuseRelu(layer, current, layer.relu);
    if (!layer.relu)
        fuseRelu6(layer, current);
    finishLayer(layer, current);
}

void Lowering::addBias(GapLayer& layer, const TensorData& bias)
{
    const std::vector<float> values = bias.toFloats();
    if (values.size() == 1)
        for (float& b : layer.bias)
            b += values[0];
    else if (values.size() == layer.bias.size())
        for (size_t k = 0; k < values.size(); ++k)
            layer.bias[k] += values[k];
    else
        throw NodeProblem(fmt::format("the bias has {} values for {} outputs", values.size(), layer.bias.size()));
}

void Lowering::lowerSoftmax(const Node& node)
{
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    const int64_t rank = int64_t(x.shape.size());
    int64_t axis = node.attrInt("axis", -1);
    if (axis < 0)
        axis += rank;
    if (axis != rank - 1 || x.elements() != x.shape.back())
        throw NodeProblem("the softmax generator normalizes one vector; the input must be [1, N] with axis -1 or 1");
    GapLayer& layer = addLayer(GapLayerKind::Softmax, node, {activation(node.inputs.at(0))});
    finishLayer(layer, node.outputs.at(0));
}

}  // namespace tessera::gap::lowering
