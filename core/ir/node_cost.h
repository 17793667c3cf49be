#pragma once
// Work estimates of one node, shared by statistics, cycle models and the memory planner.
#include "ir/graph.h"

namespace tessera {

// Multiply-accumulates of one node from its (typed) tensors: Conv, ConvTranspose, Gemm and MatMul;
// 0 for operators without products.
int64_t nodeMacs(const Graph& graph, const Node& node);

} // namespace tessera
