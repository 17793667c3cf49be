#include "ir/builder.h"

#include "base/error.h"
#include "ir/shape_inference.h"
#include "ir/verifier.h"

namespace tessera {

GraphBuilder::GraphBuilder(std::string graphName, int64_t opset)
{
    graph_.name = std::move(graphName);
    graph_.opset = opset;
}

TensorId GraphBuilder::input(const std::string& name, DType type, Shape shape)
{
    Tensor tensor;
    tensor.name = name;
    tensor.dtype = type;
    tensor.shape = std::move(shape);
    tensor.typed = true;
    elementCount(tensor.shape, "input '" + name + "'");
    const TensorId id = graph_.addTensor(std::move(tensor));
    graph_.inputs.push_back(id);
    return id;
}

TensorId GraphBuilder::constant(const std::string& name, TensorData value)
{
    Tensor tensor;
    tensor.name = name;
    tensor.dtype = value.dtype();
    tensor.shape = value.shape();
    tensor.typed = true;
    tensor.constant = std::make_shared<const TensorData>(std::move(value));
    return graph_.addTensor(std::move(tensor));
}

std::vector<TensorId> GraphBuilder::node(const std::string& opType, const std::vector<TensorId>& inputs,
                                         AttributeMap attributes, size_t outputCount,
                                         const std::string& nodeName)
{
    Node node;
    node.opType = opType;
    node.name = nodeName.empty() ? opType + "_" + std::to_string(graph_.nodeCount()) : nodeName;
    node.inputs = inputs;
    node.attributes = std::move(attributes);
    const std::vector<TensorType> types = inferNode(node, graphInputInfos(graph_, node), graph_.opset);
    for (size_t k = 0; k < outputCount; ++k) {
        Tensor out;
        out.name = graph_.uniqueTensorName(outputCount == 1 ? node.name : node.name + "_" + std::to_string(k));
        out.dtype = k < types.size() ? types[k].dtype : DType::Float32;
        out.shape = k < types.size() ? types[k].shape : Shape{};
        out.typed = k < types.size();
        node.outputs.push_back(graph_.addTensor(std::move(out)));
    }
    if (types.size() < outputCount)
        throw ShapeError(node.describe() + ": asked for " + std::to_string(outputCount) +
                         " outputs, the operator gives " + std::to_string(types.size()));
    std::vector<TensorId> outputs = node.outputs;
    graph_.addNode(std::move(node));
    return outputs;
}

void GraphBuilder::output(TensorId id) { graph_.outputs.push_back(id); }

Graph GraphBuilder::finish()
{
    requireValidGraph(graph_);
    return std::move(graph_);
}

} // namespace tessera
