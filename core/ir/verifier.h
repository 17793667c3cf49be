#pragma once
// Checks a graph is well formed: unique names, every input produced exactly once or given,
// no cycles, and every stored type equal to what the operator's shape rule gives.
#include "ir/graph.h"

#include <string>
#include <vector>

namespace tessera {

// Every problem found, one message each naming the node or tensor; empty when the graph is valid.
std::vector<std::string> verifyGraph(const Graph& graph);
// Throws ModelError with all the problems when verifyGraph finds any.
void requireValidGraph(const Graph& graph);

} // namespace tessera
