#include "interp/constant_folding.h"

#include "interp/kernel.h"
#include "ir/shape_inference.h"
#include "ir/topology.h"

#include <algorithm>

namespace tessera {

namespace {

// Shape and Size depend only on the type of their input, not on its contents.
bool needsOnlyTypes(const Node& node) { return node.opType == "Shape" || node.opType == "Size"; }

bool foldable(const Graph& graph, const Node& node, const std::vector<TensorType>& types)
{
    if (!hasKernel(node.opType) || node.outputs.empty())
        return false;
    int64_t elements = 0;
    for (size_t k = 0; k < node.outputs.size(); ++k)
        elements += elementCount(types[k].shape);
    if (elements > kMaxFoldedElements)
        return false;
    if (needsOnlyTypes(node))
        return true;
    for (TensorId id : node.inputs)
        if (id != kNoTensor && !graph.tensor(id).constant)
            return false;
    return true;
}

// Value of Shape (with its opset-15 start/end) or Size from the input's shape alone.
TensorData typeOnlyValue(const Node& node, const Shape& shape)
{
    if (node.opType == "Size")
        return TensorData::scalarInt64(elementCount(shape));
    const int64_t rank = static_cast<int64_t>(shape.size());
    auto clampAxis = [rank](int64_t axis) { return std::clamp(axis < 0 ? axis + rank : axis, int64_t{0}, rank); };
    const int64_t start = clampAxis(node.attrInt("start", 0));
    const int64_t end = std::max(start, clampAxis(node.attrInt("end", rank)));
    std::vector<int64_t> dims(shape.begin() + start, shape.begin() + end);
    return TensorData::fromInts(DType::Int64, {static_cast<int64_t>(dims.size())}, dims);
}

} // namespace

FoldingReport inferAndFoldConstants(Graph& graph)
{
    FoldingReport report;
    std::vector<bool> folded(graph.nodeCount(), false);
    for (NodeId n : topologicalOrder(graph)) {
        const Node& node = graph.node(n);
        const std::vector<InputInfo> infos = graphInputInfos(graph, node);
        const std::vector<TensorType> types = inferNode(node, infos, graph.opset);
        for (size_t k = 0; k < node.outputs.size(); ++k) {
            Tensor& out = graph.tensor(node.outputs[k]);
            out.dtype = types[k].dtype;
            out.shape = types[k].shape;
            out.typed = true;
        }
        if (!foldable(graph, node, types))
            continue;

        std::vector<TensorData> outputs;
        if (needsOnlyTypes(node)) {
            outputs.push_back(typeOnlyValue(node, graph.tensor(node.inputs.at(0)).shape));
        } else {
            std::vector<const TensorData*> inputs;
            for (TensorId id : node.inputs)
                inputs.push_back(id == kNoTensor ? nullptr : graph.tensor(id).constant.get());
            for (size_t k = 0; k < node.outputs.size(); ++k)
                outputs.emplace_back(types[k].dtype, types[k].shape);
            KernelContext context{node, graph.opset, inputs, outputs};
            kernels().at(node.opType)(context);
        }
        for (size_t k = 0; k < node.outputs.size(); ++k)
            graph.tensor(node.outputs[k]).constant = std::make_shared<const TensorData>(std::move(outputs[k]));
        folded[static_cast<size_t>(n)] = true;
        ++report.foldedNodes;
    }
    if (report.foldedNodes > 0)
        graph.removeNodes(folded);
    return report;
}

} // namespace tessera
