#pragma once
// Who produces and who consumes each tensor, and an execution order.
#include "ir/graph.h"

#include <vector>

namespace tessera {

struct TensorUses {
    std::vector<NodeId> producer;               // per tensor; -1 for inputs and constants
    std::vector<std::vector<NodeId>> consumers; // per tensor, in node order
};

TensorUses computeUses(const Graph& graph);

// Nodes ordered so that every node comes after the producers of its inputs; among ready nodes
// the one listed first in the graph goes first, so an already sorted graph keeps its order.
// Throws ModelError naming the nodes on a cycle.
std::vector<NodeId> topologicalOrder(const Graph& graph);

} // namespace tessera
