#include "nvdla/compile/legalization_passes.h"

#include <algorithm>

namespace tessera::nvdla {

void replaceUses(Graph& graph, TensorId from, TensorId to)
{
    for (std::size_t n = 0; n < graph.nodeCount(); ++n)
        for (TensorId& input : graph.node(NodeId(n)).inputs)
            if (input == from)
                input = to;
    for (TensorId& output : graph.outputs)
        if (output == from)
            output = to;
}

std::optional<NodeId> soleConsumer(const Graph& graph, TensorId tensor)
{
    if (std::find(graph.outputs.begin(), graph.outputs.end(), tensor) != graph.outputs.end())
        return std::nullopt;
    std::optional<NodeId> found;
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(NodeId(n));
        const auto uses = std::count(node.inputs.begin(), node.inputs.end(), tensor);
        if (uses == 0)
            continue;
        if (found || uses > 1)
            return std::nullopt;
        found = NodeId(n);
    }
    return found;
}

std::optional<NodeId> producerOf(const Graph& graph, TensorId tensor)
{
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(NodeId(n));
        if (std::find(node.outputs.begin(), node.outputs.end(), tensor) != node.outputs.end())
            return NodeId(n);
    }
    return std::nullopt;
}

void takeOverOutput(Graph& graph, NodeId node, TensorId oldOutput, TensorId newOutput)
{
    for (TensorId& output : graph.node(node).outputs)
        if (output == oldOutput)
            output = newOutput;
    replaceUses(graph, oldOutput, newOutput);
}

TensorId addConstant(Graph& graph, const std::string& base, TensorData value)
{
    Tensor tensor;
    tensor.name = graph.uniqueTensorName(base);
    tensor.dtype = value.dtype();
    tensor.shape = value.shape();
    tensor.typed = true;
    tensor.constant = std::make_shared<const TensorData>(std::move(value));
    return graph.addTensor(std::move(tensor));
}

TensorId addTensor(Graph& graph, const std::string& base)
{
    Tensor tensor;
    tensor.name = graph.uniqueTensorName(base);
    return graph.addTensor(std::move(tensor));
}

TensorId addReshape(Graph& graph, const std::string& name, TensorId input, const std::vector<std::int64_t>& shape,
                    TensorId output)
{
    const TensorId shapeId =
        addConstant(graph, name + "_shape", TensorData::fromInts(DType::Int64, {std::int64_t(shape.size())}, shape));
    if (output == kNoTensor)
        output = addTensor(graph, name);
    Node reshape;
    reshape.name = name;
    reshape.opType = "Reshape";
    reshape.inputs = {input, shapeId};
    reshape.outputs = {output};
    graph.addNode(reshape);
    return output;
}

}  // namespace tessera::nvdla
