#include "ir/shape_inference.h"

#include "base/error.h"
#include "ir/op_shapes/op_shapes.h"
#include "ir/topology.h"

namespace tessera {

const InputInfo& InferContext::input(size_t index) const
{
    if (!hasInput(index))
        fail("input " + std::to_string(index) + " is required but missing");
    return inputs_[index];
}

const TensorData& InferContext::constant(size_t index, const std::string& what) const
{
    const InputInfo& info = input(index);
    if (!info.value)
        fail("input " + std::to_string(index) + " (" + what +
             ") must be a constant for Tessera's static shapes; fold it or make it an initializer");
    return *info.value;
}

std::vector<int64_t> InferContext::constantInts(size_t index, const std::string& what) const
{
    return constant(index, what).toInts();
}

void InferContext::fail(const std::string& message) const
{
    throw ShapeError(node_.describe() + ": " + message);
}

const ShapeRuleTable& shapeRules()
{
    static const ShapeRuleTable table = [] {
        ShapeRuleTable rules;
        registerElementwiseShapes(rules);
        registerNnShapes(rules);
        registerTensorShapes(rules);
        registerReductionShapes(rules);
        return rules;
    }();
    return table;
}

bool isKnownOperator(std::string_view opType) { return shapeRules().count(std::string(opType)) != 0; }

std::vector<TensorType> inferNode(const Node& node, const std::vector<InputInfo>& inputs,
                                  int64_t opset)
{
    if (!node.domain.empty() && node.domain != "ai.onnx")
        throw UnsupportedError("unsupported operator " + node.domain + "." + node.opType +
                               " (opset " + std::to_string(opset) + ") at node '" + node.name + "'");
    auto it = shapeRules().find(node.opType);
    if (it == shapeRules().end())
        throw UnsupportedError("unsupported operator " + node.opType + " (opset " +
                               std::to_string(opset) + ") at node '" + node.name + "'");
    InferContext context(node, inputs, opset);
    std::vector<TensorType> outputs = it->second(context);
    if (outputs.size() < node.outputs.size())
        context.fail("produces " + std::to_string(outputs.size()) + " outputs, the node lists " +
                     std::to_string(node.outputs.size()));
    for (const TensorType& type : outputs)
        elementCount(type.shape, node.describe() + " output");
    return outputs;
}

std::vector<InputInfo> graphInputInfos(const Graph& graph, const Node& node)
{
    std::vector<InputInfo> infos;
    infos.reserve(node.inputs.size());
    for (size_t k = 0; k < node.inputs.size(); ++k) {
        InputInfo info;
        const TensorId id = node.inputs[k];
        if (id != kNoTensor) {
            const Tensor& tensor = graph.tensor(id);
            if (!tensor.typed)
                throw ShapeError(node.describe() + ": input " + std::to_string(k) + " '" +
                                 tensor.name + "' has no known type or shape");
            info.present = true;
            info.dtype = tensor.dtype;
            info.shape = tensor.shape;
            info.value = tensor.constant.get();
        }
        infos.push_back(std::move(info));
    }
    return infos;
}

void inferShapes(Graph& graph)
{
    for (NodeId n : topologicalOrder(graph)) {
        const Node& node = graph.node(n);
        const std::vector<TensorType> types = inferNode(node, graphInputInfos(graph, node), graph.opset);
        for (size_t k = 0; k < node.outputs.size(); ++k) {
            Tensor& out = graph.tensor(node.outputs[k]);
            out.dtype = types[k].dtype;
            out.shape = types[k].shape;
            out.typed = true;
        }
    }
}

} // namespace tessera
