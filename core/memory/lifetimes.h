#pragma once
// Tensor lifetimes from a schedule of an IR graph: the buffers the planner packs.
#include "ir/graph.h"
#include "memory/buffer.h"

#include <string>
#include <vector>

namespace tessera {

struct TensorLifetime {
    TensorId tensor = kNoTensor;
    int64_t firstStep = 0;      // producer step (0 for graph inputs)
    int64_t endStep = 0;        // one past the last consumer step (the schedule's end for outputs)
    std::vector<int64_t> uses;  // steps of the nodes reading it, ascending
    int64_t bytes = 0;
};

// An element-wise node may write its output over an input that dies at that node.
struct InPlaceCandidate {
    NodeId node = -1;
    TensorId input = kNoTensor;
    TensorId output = kNoTensor;
};

struct GraphLifetimes {
    std::vector<NodeId> schedule;            // execution order; step k runs schedule[k]
    std::vector<TensorLifetime> activations; // graph inputs, intermediates and outputs
    std::vector<TensorLifetime> constants;   // weights and other constant inputs
    std::vector<InPlaceCandidate> inPlace;
};

// Lifetimes of the typed `graph` in topological order.
GraphLifetimes computeLifetimes(const Graph& graph);

struct ActivationBuffer {
    Buffer buffer;                 // id: the tensor names joined by '+'
    std::vector<TensorId> members; // the tensors sharing it, in schedule order
};

// Buffers of the activations, one per tensor (`mergeInPlace`: an in-place output shares its
// input's buffer, whose lifetime then covers both).
std::vector<ActivationBuffer> activationBuffers(const Graph& graph, const GraphLifetimes& lifetimes, int64_t alignment,
                                                bool mergeInPlace = false);

} // namespace tessera
