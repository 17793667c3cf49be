#include "ir/topology.h"

#include "base/error.h"

#include <queue>

namespace tessera {

TensorUses computeUses(const Graph& graph)
{
    TensorUses uses;
    uses.producer.assign(graph.tensorCount(), -1);
    uses.consumers.resize(graph.tensorCount());
    for (size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(static_cast<NodeId>(n));
        for (TensorId id : node.outputs)
            uses.producer[static_cast<size_t>(id)] = static_cast<NodeId>(n);
        for (TensorId id : node.inputs)
            if (id != kNoTensor) {
                auto& list = uses.consumers[static_cast<size_t>(id)];
                if (list.empty() || list.back() != static_cast<NodeId>(n))
                    list.push_back(static_cast<NodeId>(n));
            }
    }
    return uses;
}

std::vector<NodeId> topologicalOrder(const Graph& graph)
{
    const TensorUses uses = computeUses(graph);
    const size_t count = graph.nodeCount();
    std::vector<int> pending(count, 0);
    for (size_t n = 0; n < count; ++n)
        for (TensorId id : graph.node(static_cast<NodeId>(n)).inputs)
            if (id != kNoTensor && uses.producer[static_cast<size_t>(id)] >= 0)
                ++pending[n];

    std::priority_queue<NodeId, std::vector<NodeId>, std::greater<>> ready;
    for (size_t n = 0; n < count; ++n)
        if (pending[n] == 0)
            ready.push(static_cast<NodeId>(n));

    std::vector<NodeId> order;
    order.reserve(count);
    while (!ready.empty()) {
        const NodeId n = ready.top();
        ready.pop();
        order.push_back(n);
        for (TensorId out : graph.node(n).outputs)
            for (NodeId consumer : uses.consumers[static_cast<size_t>(out)])
                for (TensorId in : graph.node(consumer).inputs)
                    if (in == out && --pending[static_cast<size_t>(consumer)] == 0)
                        ready.push(consumer);
    }
    if (order.size() != count) {
        std::string names;
        for (size_t n = 0, shown = 0; n < count && shown < 5; ++n)
            if (pending[n] > 0) {
                names += (shown++ ? ", '" : "'") + graph.node(static_cast<NodeId>(n)).name + "'";
            }
        throw ModelError("graph '" + graph.name + "' has a cycle through nodes " + names);
    }
    return order;
}

} // namespace tessera
