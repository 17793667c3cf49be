// Lowering of the element-wise operators: Add and Sub, the activations (and the gated products
// PyTorch writes for Hardswish and SiLU), squeeze-and-excitation gates, per-channel PRelu, and
// nearest Resize / Upsample.
#include "gap/compile/gap_lowering_pass.h"

#include "base/error.h"
#include "ir/op_shapes/resize_geometry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::gap::lowering {

void Lowering::lowerAdd(NodeId id)
{
    const Node& node = graph_.node(id);
    const Tensor& a = graph_.tensor(node.inputs.at(0));
    const Tensor& b = graph_.tensor(node.inputs.at(1));
    const bool subtract = node.opType == "Sub";
    if (a.isConstant() || b.isConstant())
        throw NodeProblem(subtract ? "a subtraction of a constant is not supported; fold it into the convolution "
                                     "bias before it, or into the input's preprocessing"
                                   : "an addition of a constant is a bias, which only a MatMul before it can take");
    if (a.shape != b.shape || a.shape.size() != 4)
        throw NodeProblem(fmt::format("the addition generator {} two NCHW tensors of the same shape, not {} and {}",
                                      subtract ? "subtracts" : "adds", shapeToString(a.shape),
                                      shapeToString(b.shape)));
    GapLayer& layer = addLayer(subtract ? GapLayerKind::Subtract : GapLayerKind::Add, node,
                               {activation(node.inputs[0]), activation(node.inputs[1])});
    layer.pool.features = int(a.shape[1]);
    layer.pool.height = int(a.shape[2]);
    layer.pool.width = int(a.shape[3]);
    TensorId current = node.outputs.at(0);
    layer.normalized = current;
    fuseRelu(layer, current, layer.relu);
    finishLayer(layer, current);
}

// The Mul of x * f(x) when f's output feeds only that: x * sigmoid(x) is Swish (SiLU, as PyTorch
// writes it), x * HardSigmoid(x) is HardSwish (as PyTorch writes it before opset 14).
std::optional<NodeId> Lowering::gatedProduct(const Node& gate) const
{
    const TensorId output = gate.outputs.at(0);
    const std::optional<NodeId> mul = soleConsumer(output);
    if (!mul || graph_.node(*mul).opType != "Mul" || graph_.node(*mul).inputs.size() != 2)
        return std::nullopt;
    const Node& product = graph_.node(*mul);
    const TensorId other = product.inputs[0] == output ? product.inputs[1] : product.inputs[0];
    return other == gate.inputs.at(0) ? mul : std::nullopt;
}

// Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, PRelu with one slope, and the gated
// products above: an activation layer.
void Lowering::lowerActivation(const Node& node)
{
    using fixed_point::ActivationKind;
    const std::string& op = node.opType;
    ActivationKind kind = ActivationKind::LeakyRelu;
    double alpha = 0.0, beta = 0.0;
    std::optional<NodeId> multiply;
    if (op == "Sigmoid") {
        multiply = gatedProduct(node);
        kind = multiply ? ActivationKind::Swish : ActivationKind::Sigmoid;
    } else if (op == "Tanh") {
        kind = ActivationKind::Tanh;
    } else if (op == "HardSwish") {
        kind = ActivationKind::HardSwish;
        alpha = 1.0 / 6.0;
        beta = 0.5;
    } else if (op == "HardSigmoid") {
        alpha = node.attrFloat("alpha", 0.2f);
        beta = node.attrFloat("beta", 0.5f);
        if (!(alpha >= 1.0 / 256 && alpha <= 16.0) || !(std::fabs(beta / alpha) <= 256.0))
            throw NodeProblem(fmt::format("alpha {} and beta {} are outside what the fixed-point HardSigmoid takes "
                                          "(alpha 1/256 to 16, |beta / alpha| at most 256)",
                                          alpha, beta));
        multiply = gatedProduct(node);
        kind = multiply ? ActivationKind::HardSwish : ActivationKind::HardSigmoid;
    } else if (op == "LeakyRelu") {
        alpha = node.attrFloat("alpha", 0.01f);
    } else {
        const TensorData& slope = constantInput(node, 1, "slope");
        if (slope.elements() != 1)
            return lowerChannelPRelu(node, slope);
        alpha = slope.getDouble(0);
    }
    if (kind == ActivationKind::LeakyRelu && !(std::fabs(alpha) < 1.0))
        throw NodeProblem(fmt::format("a negative slope of {} is outside (-1, 1), what the fixed-point LeakyRelu "
                                      "takes",
                                      alpha));
    GapLayer& layer = addLayer(GapLayerKind::Activation, node, {activation(node.inputs.at(0))});
    layer.activation.kind = kind;
    layer.activationAlpha = alpha;
    layer.activationBeta = beta;
    TensorId output = node.outputs.at(0);
    if (multiply) {
        fuse(layer, *multiply);
        output = graph_.node(*multiply).outputs.at(0);
    }
    finishLayer(layer, output);
}

// Resize or Upsample of an NCHW tensor in nearest mode by whole factors along H and W, where
// output position o copies input o / factor (PyTorch's Upsample(scale_factor=k, mode="nearest"),
// and ONNX's half_pixel modes, which pick the same pixels): a nearest upsampling layer.
void Lowering::lowerResize(const Node& node)
{
    const Tensor& x = graph_.tensor(node.inputs.at(0));
    if (x.shape.size() != 4)
        throw NodeProblem(fmt::format("the input has shape {}; the upsampling layer takes NCHW tensors",
                                      shapeToString(x.shape)));
    const ResizeInputs where = resizeInputs(node, graph_.opset);
    auto given = [&](int index) -> const TensorData* {
        if (index < 0 || size_t(index) >= node.inputs.size() || node.inputs[size_t(index)] == kNoTensor)
            return nullptr;
        return &constantInput(node, size_t(index),
                              index == where.roi ? "roi" : index == where.scales ? "scales" : "sizes");
    };
    const ResizeGeometry g =
        resizeGeometry(node, graph_.opset, x.shape, given(where.roi), given(where.scales), given(where.sizes));
    if (g.mode != "nearest")
        throw NodeProblem("only nearest-mode resizing maps onto a GAP layer (the upsampling layer copies values); "
                          "mode '" + g.mode + "' would need interpolation");
    if (g.output[0] != x.shape[0] || g.output[1] != x.shape[1])
        throw NodeProblem("only H and W can be resized; the batch and channel scales must be 1");
    int factors[2] = {1, 1};
    for (size_t axis = 2; axis < 4; ++axis) {
        const int64_t in = x.shape[axis], out = g.output[axis];
        const int64_t factor = out / in;
        bool whole = out == factor * in && factor >= 1;
        for (int64_t o = 0; whole && o < out; ++o)
            whole = g.nearestIndex(axis, o) == o / factor;
        if (!whole)
            throw NodeProblem(fmt::format(
                "{} from {} to {} is not an upsampling by a whole factor where position o copies o / factor "
                "(coordinate_transformation_mode '{}', nearest_mode '{}'); use scale factors of 1, 2, 3, ... with "
                "asymmetric coordinates and floor, or half_pixel coordinates, as PyTorch's nearest Upsample does",
                axis == 2 ? "H" : "W", in, out, g.coordinateMode, g.nearestMode));
        factors[axis - 2] = int(factor);
    }
    GapLayer& layer = addLayer(GapLayerKind::Upsample, node, {activation(node.inputs.at(0))});
    layer.pool.features = int(x.shape[1]);
    layer.pool.height = int(x.shape[2]);
    layer.pool.width = int(x.shape[3]);
    layer.factorY = factors[0];
    layer.factorX = factors[1];
    finishLayer(layer, node.outputs.at(0));
}

// PRelu with one slope per channel (PyTorch's nn.PReLU(num_parameters=C), its slope [C, 1, 1]):
// a per-channel PRelu layer, the slopes a constant of the layer.
void Lowering::lowerChannelPRelu(const Node& node, const TensorData& slope)
{
    const Shape& x = graph_.tensor(node.inputs.at(0)).shape;
    Shape slopeShape = slope.shape();
    while (slopeShape.size() < x.size())
        slopeShape.insert(slopeShape.begin(), 1);
    if (x.size() != 4 || slopeShape != Shape{1, x[1], 1, 1})
        throw NodeProblem(fmt::format("PRelu with slopes of shape {} on an input of shape {} is not supported; "
                                      "one slope for every channel, or one per channel ([C, 1, 1], PyTorch's "
                                      "nn.PReLU(num_parameters=C)) on an NCHW input map onto GAP layers",
                                      shapeToString(slope.shape()), shapeToString(x)));
    GapLayer& layer = addLayer(GapLayerKind::ChannelPRelu, node, {activation(node.inputs.at(0))});
    layer.plane = int(x[2] * x[3]);
    layer.channels = {int(x[1])};
    layer.weights = slope.toFloats();
    finishLayer(layer, node.outputs.at(0));
}

// Mul of an NCHW activation by a per-channel [N, C, 1, 1] one (a squeeze-and-excitation block's
// gate): a channel scaling layer.
void Lowering::lowerMul(const Node& node)
{
    if (node.inputs.size() != 2)
        throw NodeProblem("a Mul takes two inputs");
    TensorId x = node.inputs[0], gate = node.inputs[1];
    auto perChannel = [&](TensorId t) {
        const Shape& shape = graph_.tensor(t).shape;
        return shape.size() == 4 && shape[2] == 1 && shape[3] == 1;
    };
    if (perChannel(x) && !perChannel(gate))
        std::swap(x, gate);
    const Shape& shape = graph_.tensor(x).shape;
    const Shape& gateShape = graph_.tensor(gate).shape;
    if (graph_.tensor(x).isConstant() || graph_.tensor(gate).isConstant())
        throw NodeProblem("a Mul by a constant is not supported; fold it into the convolution before it");
    if (shape.size() != 4 || gateShape.size() != 4 || gateShape[0] != shape[0] || gateShape[1] != shape[1] ||
        gateShape[2] != 1 || gateShape[3] != 1)
        throw NodeProblem(fmt::format("only a Mul of an NCHW tensor by one value per channel ([N, C, 1, 1], as in "
                                      "squeeze-and-excitation blocks) is supported; this one multiplies {} by {}",
                                      shapeToString(shape), shapeToString(gateShape)));
    GapLayer& layer = addLayer(GapLayerKind::ChannelScale, node, {activation(x), activation(gate)});
    layer.plane = int(shape[2] * shape[3]);
    layer.channels = {int(shape[1])};
    finishLayer(layer, node.outputs.at(0));
}

}  // namespace tessera::gap::lowering
