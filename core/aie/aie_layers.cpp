#include "aie/aie_layers.h"

#include "base/error.h"

#include <set>

namespace tessera::aie {

namespace {

const std::set<std::string> kActivations = {"Relu", "Selu", "Elu", "LeakyRelu", "Sigmoid", "Tanh", "Clip",
                                            "Softmax", "HardSigmoid", "HardSwish", "PRelu"};
const std::set<std::string> kViews = {"Flatten", "Reshape", "Squeeze", "Unsqueeze", "Identity", "Dropout"};
const std::set<std::string> kElementwise = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum"};

[[noreturn]] void unsupported(const Node& node, const std::string& why)
{
    throw UnsupportedError("aie plan: " + node.describe() + " " + why +
                           "; the AI Engine split planner handles 1-D Conv, MaxPool/AveragePool, Gemm and "
                           "element-wise layers on batch 1");
}

// (nodes, samples) of a [1, C, L] tensor, or (features, 1) of [1, F].
std::pair<int64_t, int64_t> nodesSamples(const Node& node, const Shape& shape)
{
    if (shape.empty() || shape[0] != 1)
        unsupported(node, "has a batch other than 1 (" + shapeToString(shape) + ")");
    if (shape.size() == 3)
        return {shape[1], shape[2]};
    if (shape.size() == 2)
        return {shape[1], 1};
    unsupported(node, "works on " + shapeToString(shape) + ", not on 1-D (nodes, samples) data");
}

} // namespace

std::string layerKindName(LayerKind kind)
{
    switch (kind) {
    case LayerKind::Conv1D: return "conv1d";
    case LayerKind::Pool1D: return "pool1d";
    case LayerKind::Dense: return "dense";
    case LayerKind::Elementwise: return "elementwise";
    }
    return "?";
}

std::string AieLayer::inputShapeText() const
{
    return flat ? "(" + std::to_string(inNodes) + ")"
                : "(" + std::to_string(inNodes) + "," + std::to_string(inSamples) + ")";
}

std::string AieLayer::outputShapeText() const
{
    return flat ? "(" + std::to_string(outNodes) + ")"
                : "(" + std::to_string(outNodes) + "," + std::to_string(outSamples) + ")";
}

std::vector<AieLayer> extractLayers(const Graph& graph)
{
    std::vector<AieLayer> layers;
    std::vector<int> consumers(graph.tensorCount(), 0);
    for (const Node& node : graph.nodes())
        for (TensorId in : node.inputs)
            if (in != kNoTensor)
                ++consumers[size_t(in)];
    TensorId lastOutput = kNoTensor; // output of the previous layer, for fusing activations
    for (NodeId id = 0; id < NodeId(graph.nodeCount()); ++id) {
        const Node& node = graph.node(id);
        const Shape& in = graph.tensor(node.inputs.at(0)).shape;
        const Shape& out = graph.tensor(node.outputs.at(0)).shape;
        if (kViews.count(node.opType))
            continue;
        if (kActivations.count(node.opType) && !layers.empty() && node.inputs[0] == lastOutput &&
            consumers[size_t(lastOutput)] == 1) {
            layers.back().fused.push_back(id);
            lastOutput = node.outputs[0];
            continue;
        }
        AieLayer layer;
        layer.name = node.name;
        layer.node = id;
        std::tie(layer.inNodes, layer.inSamples) = nodesSamples(node, in);
        std::tie(layer.outNodes, layer.outSamples) = nodesSamples(node, out);
        if (node.opType == "Conv") {
            if (in.size() != 3)
                unsupported(node, "is a " + std::to_string(in.size() - 2) + "-D convolution");
            if (node.attrInt("group", 1) != 1)
                unsupported(node, "is a grouped convolution");
            const Shape& w = graph.tensor(node.inputs[1]).shape;
            layer.kind = LayerKind::Conv1D;
            layer.kernel = w[2];
            layer.weightElements = w[0] * w[1] * w[2];
        } else if (node.opType == "MaxPool" || node.opType == "AveragePool") {
            if (in.size() != 3)
                unsupported(node, "is not a 1-D pool");
            layer.kind = LayerKind::Pool1D;
            layer.kernel = node.attrInts("kernel_shape").at(0);
        } else if (node.opType == "Gemm" || node.opType == "MatMul") {
            layer.kind = LayerKind::Dense;
            layer.flat = true;
            const Shape& w = graph.tensor(node.inputs[1]).shape;
            layer.weightElements = w.size() == 2 ? w[0] * w[1] : 0;
        } else if (kElementwise.count(node.opType) || kActivations.count(node.opType)) {
            layer.kind = LayerKind::Elementwise;
            layer.flat = in.size() == 2;
        } else {
            unsupported(node, "is not supported");
        }
        if (layer.kind == LayerKind::Conv1D || layer.kind == LayerKind::Pool1D) {
            layer.stride = node.attrInts("strides", {1}).at(0);
            const std::vector<int64_t> pads = node.attrInts("pads", {0, 0});
            const int64_t span = layer.kernel; // dilation 1 in these templates
            if (node.attrInts("dilations", {1}).at(0) != 1)
                unsupported(node, "has a dilation");
            // Resolve 'same' auto padding into explicit zeros.
            const std::string autoPad = node.attrString("auto_pad", "NOTSET");
            if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
                const int64_t total = std::max<int64_t>(0, (layer.outSamples - 1) * layer.stride + span - layer.inSamples);
                layer.padBegin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
                layer.padEnd = total - layer.padBegin;
            } else if (pads.size() == 2) {
                layer.padBegin = pads[0];
                layer.padEnd = pads[1];
            }
        }
        layers.push_back(layer);
        lastOutput = node.outputs[0];
    }
    return layers;
}

} // namespace tessera::aie
