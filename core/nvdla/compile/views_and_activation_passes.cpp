// views: Identity and Dropout (inference) copy nothing: their readers read the input instead.
// Flatten, Reshape, Squeeze and Unsqueeze stay in the graph (it must stay valid ONNX); the mapping
// treats those that keep the cube (cubeOf) as views of their input.
//
// fuse-activation: a Relu or a Clip with constant bounds (ReLU6) that is the only reader of a
// convolution's or an element-wise operation's output (also through a view that keeps the cube, as
// a fully connected layer's [1,K] output is) is done by that operation's SDP: ReLU in its x1 stage as
// NVIDIA's compiler fuses it, a Clip as a maximum and a minimum in its x2 and y stages.
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace tessera::nvdla {

void removeViewsPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    std::vector<bool> remove(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node node = graph.node(NodeId(n));
        if ((node.opType != "Identity" && node.opType != "Dropout") || node.inputs.empty() || node.outputs.empty())
            continue;
        const TensorId input = node.inputs[0], output = node.outputs[0];
        const bool outputIsGraphOutput =
            std::find(graph.outputs.begin(), graph.outputs.end(), output) != graph.outputs.end();
        if (!outputIsGraphOutput) {
            replaceUses(graph, output, input);
        } else if (const auto producer = producerOf(graph, input);
                   producer && std::find(graph.outputs.begin(), graph.outputs.end(), input) == graph.outputs.end()) {
            takeOverOutput(graph, *producer, input, output);
        } else {
            continue;  // a graph input passed straight through: nothing to run, left to the mapping
        }
        remove[n] = true;
        log.addRemoved("views", node.name, {}, node.opType + " removed: its readers read its input");
    }
    graph.removeNodes(remove);
}

std::optional<std::pair<float, float>> clipBounds(const Graph& graph, const Node& clip)
{
    float low = clip.attrFloat("min", -std::numeric_limits<float>::infinity());
    float high = clip.attrFloat("max", std::numeric_limits<float>::infinity());
    for (std::size_t k = 1; k < 3 && k < clip.inputs.size(); ++k) {
        if (clip.inputs[k] == kNoTensor)
            continue;
        const Tensor& bound = graph.tensor(clip.inputs[k]);
        if (!bound.isConstant() || bound.elements() != 1)
            return std::nullopt;
        (k == 1 ? low : high) = float(bound.constant->getDouble(0));
    }
    if (!std::isfinite(low) || !std::isfinite(high) || low > high)
        return std::nullopt;
    return std::make_pair(low, high);
}

bool isCubeView(const Graph& graph, const Node& node)
{
    if (node.opType != "Flatten" && node.opType != "Reshape" && node.opType != "Squeeze" && node.opType != "Unsqueeze")
        return false;
    if (node.inputs.empty() || node.outputs.size() != 1)
        return false;
    const auto in = cubeOf(graph.tensor(node.inputs[0]).shape);
    return in && in == cubeOf(graph.tensor(node.outputs[0]).shape);
}

void fuseActivationPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    std::vector<bool> remove(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node relu = graph.node(NodeId(n));
        const bool isRelu = relu.opType == "Relu" && relu.inputs.size() == 1;
        const auto bounds = relu.opType == "Clip" ? clipBounds(graph, relu) : std::nullopt;
        if ((!isRelu && !bounds) || relu.outputs.size() != 1)
            continue;
        auto producer = producerOf(graph, relu.inputs[0]);
        if (!producer || soleConsumer(graph, relu.inputs[0]) != NodeId(n))
            continue;
        // A view between the layer and the Relu: the Relu moves before it.
        std::optional<NodeId> view;
        if (isCubeView(graph, graph.node(*producer))) {
            view = producer;
            const TensorId viewInput = graph.node(*view).inputs[0];
            producer = producerOf(graph, viewInput);
            if (!producer || soleConsumer(graph, viewInput) != *view)
                continue;
        }
        Node& layer = graph.node(*producer);
        static const std::set<std::string> fusible = {"Conv", "Add", "Mul", "Sub", "Max", "Min"};
        if (!fusible.count(layer.opType) || layer.hasAttr(kFusedActivation))
            continue;
        layer.attributes[kFusedActivation] = Attribute::ofString(isRelu ? "Relu" : "Clip");
        if (bounds) {
            layer.attributes[kClipMin] = Attribute::ofFloat(bounds->first);
            layer.attributes[kClipMax] = Attribute::ofFloat(bounds->second);
        }
        const std::string layerName = layer.name;
        takeOverOutput(graph, view ? *view : *producer, relu.inputs[0], relu.outputs[0]);
        remove[n] = true;
        log.add("fuse-activation", layerName, relu.opType + " '" + relu.name + "' done by this operation's SDP");
        log.addRemoved("fuse-activation", relu.name, layerName, "fused into '" + layerName + "'");
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
