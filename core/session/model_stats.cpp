#include "session/model_stats.h"

#include "ir/node_cost.h"
#include "ir/topology.h"

#include <unordered_set>

namespace tessera {

ModelStats computeModelStats(const Graph& graph)
{
    ModelStats stats;
    const std::vector<NodeId> order = topologicalOrder(graph);
    const TensorUses uses = computeUses(graph);

    // Step after which each activation is no longer needed; graph outputs live to the end.
    std::vector<size_t> position(graph.nodeCount(), 0);
    for (size_t step = 0; step < order.size(); ++step)
        position[static_cast<size_t>(order[step])] = step;
    const size_t end = order.size();
    std::vector<size_t> lastUse(graph.tensorCount(), 0);
    std::vector<size_t> firstLive(graph.tensorCount(), 0);
    for (size_t t = 0; t < graph.tensorCount(); ++t) {
        const NodeId producer = uses.producer[t];
        firstLive[t] = producer < 0 ? 0 : position[static_cast<size_t>(producer)];
        lastUse[t] = firstLive[t];
        for (NodeId consumer : uses.consumers[t])
            lastUse[t] = std::max(lastUse[t], position[static_cast<size_t>(consumer)]);
    }
    for (TensorId id : graph.outputs)
        lastUse[static_cast<size_t>(id)] = end;

    // Live bytes per step by a sweep over tensor lifetimes.
    std::vector<int64_t> delta(end + 2, 0);
    for (size_t t = 0; t < graph.tensorCount(); ++t) {
        const Tensor& tensor = graph.tensors()[t];
        if (tensor.constant || !tensor.typed)
            continue;
        const bool referenced = uses.producer[t] >= 0 || !uses.consumers[t].empty() || lastUse[t] == end;
        if (!referenced)
            continue;
        delta[firstLive[t]] += tensor.bytes();
        delta[lastUse[t] + 1] -= tensor.bytes();
    }

    int64_t live = 0;
    for (size_t step = 0; step < end; ++step) {
        live += delta[step];
        const Node& node = graph.node(order[step]);
        NodeStats entry;
        entry.name = node.name;
        entry.opType = node.opType;
        std::unordered_set<TensorId> seen;
        for (TensorId id : node.inputs) {
            if (id == kNoTensor)
                continue;
            const Tensor& tensor = graph.tensor(id);
            entry.inputShapes.push_back(tensor.shape);
            if (tensor.constant && seen.insert(id).second) {
                entry.parameters += tensor.elements();
                entry.parameterBytes += tensor.bytes();
            }
        }
        for (TensorId id : node.outputs)
            entry.outputShapes.push_back(graph.tensor(id).shape);
        entry.macs = nodeMacs(graph, node);
        entry.liveActivationBytes = live;
        stats.macs += entry.macs;
        stats.peakActivationBytes = std::max(stats.peakActivationBytes, live);
        stats.nodes.push_back(std::move(entry));
    }
    for (const Tensor& tensor : graph.tensors()) {
        if (!tensor.constant)
            continue;
        stats.parameters += tensor.elements();
        stats.parameterBytes += tensor.bytes();
    }
    return stats;
}

} // namespace tessera
