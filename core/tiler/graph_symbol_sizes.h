// How big each graph symbol is and which nodes use it, as the nodes' kernels and kernel groups
// imply it: the first step of placing a graph (graph_allocation.cpp).
#pragma once

#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <unordered_map>

namespace tessera::tiler {

// Where each graph symbol is used and its size, from one pass over the nodes (a model of 10^5
// layers has as many symbols: looking each one up across all nodes would be quadratic).
struct SymbolUse {
    int firstNode = -1, lastNode = -1;
    std::uint64_t bytes = 0;
    std::string decidedBy;
    std::string error;  // the first disagreement on its size
};

// Every symbol bound to a node of the graph, by name.
std::unordered_map<std::string, SymbolUse> graphSymbolUses(const KernelModel& model, const GraphModel& graph);

// The bytes of a symbol bound to nodes, implied by the C arguments it is bound to; ModelError when
// the nodes disagree or no kernel argument tells.
std::uint64_t symbolBytes(const GraphModel& graph, const std::string& name, const SymbolUse& use);

}  // namespace tessera::tiler
