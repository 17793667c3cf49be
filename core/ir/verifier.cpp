#include "ir/verifier.h"

#include "base/error.h"
#include "ir/shape_inference.h"
#include "ir/topology.h"

#include <set>

namespace tessera {

std::vector<std::string> verifyGraph(const Graph& graph)
{
    std::vector<std::string> problems;

    std::set<std::string> nodeNames;
    for (const Node& node : graph.nodes())
        if (!node.name.empty() && !nodeNames.insert(node.name).second)
            problems.push_back("duplicate node name '" + node.name + "'");

    // Tensor names are unique by construction (Graph::addTensor); producers must be unique too.
    std::vector<int> producers(graph.tensorCount(), 0);
    std::vector<bool> isInput(graph.tensorCount(), false);
    for (TensorId id : graph.inputs) {
        isInput[static_cast<size_t>(id)] = true;
        if (graph.tensor(id).isConstant())
            problems.push_back("graph input '" + graph.tensor(id).name + "' is also a constant");
    }
    for (const Node& node : graph.nodes())
        for (TensorId id : node.outputs) {
            if (++producers[static_cast<size_t>(id)] == 2)
                problems.push_back("tensor '" + graph.tensor(id).name + "' is produced by more than one node");
            if (isInput[static_cast<size_t>(id)])
                problems.push_back(node.describe() + " writes graph input '" + graph.tensor(id).name + "'");
            if (graph.tensor(id).isConstant())
                problems.push_back(node.describe() + " writes constant '" + graph.tensor(id).name + "'");
        }

    auto available = [&](TensorId id) {
        const auto t = static_cast<size_t>(id);
        return producers[t] > 0 || isInput[t] || graph.tensor(id).isConstant();
    };
    for (const Node& node : graph.nodes())
        for (TensorId id : node.inputs)
            if (id != kNoTensor && !available(id))
                problems.push_back(node.describe() + ": input '" + graph.tensor(id).name +
                                   "' is dangling (no producer, not a graph input, not a constant)");
    for (TensorId id : graph.outputs)
        if (!available(id))
            problems.push_back("graph output '" + graph.tensor(id).name + "' is never produced");

    std::vector<NodeId> order;
    try {
        order = topologicalOrder(graph);
    } catch (const Error& e) {
        problems.push_back(e.what());
        return problems;
    }
    if (!problems.empty())
        return problems;

    for (NodeId n : order) {
        const Node& node = graph.node(n);
        try {
            const std::vector<TensorType> types = inferNode(node, graphInputInfos(graph, node), graph.opset);
            for (size_t k = 0; k < node.outputs.size(); ++k) {
                const Tensor& out = graph.tensor(node.outputs[k]);
                if (!out.typed)
                    continue;
                if (out.dtype != types[k].dtype || out.shape != types[k].shape)
                    problems.push_back(node.describe() + ": output '" + out.name + "' is recorded as " +
                                       std::string(dtypeName(out.dtype)) + " " + shapeToString(out.shape) +
                                       " but the operator gives " + std::string(dtypeName(types[k].dtype)) +
                                       " " + shapeToString(types[k].shape));
            }
        } catch (const Error& e) {
            problems.push_back(e.what());
        }
    }
    return problems;
}

void requireValidGraph(const Graph& graph)
{
    const std::vector<std::string> problems = verifyGraph(graph);
    if (problems.empty())
        return;
    std::string message = "graph '" + graph.name + "' is not valid:";
    for (const std::string& problem : problems)
        message += "\n  " + problem;
    throw ModelError(message);
}

} // namespace tessera
