#pragma once
// The layers of a 1-D convolutional network as the AI Engine split planner sees them: Conv1D,
// pooling, Dense and element-wise layers on (nodes, samples) data, with the activations that
// follow a layer fused into it and reshapes treated as views.
#include "ir/graph.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::aie {

enum class LayerKind { Conv1D, Pool1D, Dense, Elementwise };

std::string layerKindName(LayerKind kind);

struct AieLayer {
    std::string name;        // the node's name (conv1d_w3, max_pool1d_w4, dense_w16, ...)
    LayerKind kind = LayerKind::Conv1D;
    NodeId node = 0;         // the main node; fused activations follow it
    std::vector<NodeId> fused;
    int64_t inNodes = 1, inSamples = 1;   // Dense: inNodes = features, inSamples = 1
    int64_t outNodes = 1, outSamples = 1;
    int64_t kernel = 1, stride = 1, padBegin = 0, padEnd = 0; // along samples
    int64_t weightElements = 0;
    bool flat = false;       // Dense layers: shapes print as (features)

    std::string inputShapeText() const;
    std::string outputShapeText() const;
};

// Layers of `graph` (typed, batch 1) in execution order. Throws UnsupportedError naming the node
// for operators the planner does not handle, and for 2-D convolutions or batches above 1.
std::vector<AieLayer> extractLayers(const Graph& graph);

} // namespace tessera::aie
