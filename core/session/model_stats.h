#pragma once
// Per-node figures of a typed graph as `tessera inspect` prints them: shapes, parameters, MACs
// and the activation memory live while each node runs.
#include "ir/graph.h"

#include <string>
#include <vector>

namespace tessera {

struct NodeStats {
    std::string name;
    std::string opType;
    std::vector<Shape> inputShapes;  // of every present input, constants included
    std::vector<Shape> outputShapes;
    int64_t parameters = 0;          // elements of the node's constant inputs
    int64_t parameterBytes = 0;
    int64_t macs = 0;                // multiply-accumulates (Conv, ConvTranspose, Gemm, MatMul)
    int64_t liveActivationBytes = 0; // non-constant tensors held while the node runs (its inputs,
                                     // its outputs and everything still needed later)
};

struct ModelStats {
    std::vector<NodeStats> nodes;    // in execution order
    int64_t parameters = 0;          // every constant tensor of the graph, counted once
    int64_t parameterBytes = 0;
    int64_t macs = 0;
    int64_t peakActivationBytes = 0;
};

// `graph` must be typed (loadModel or inferShapes).
ModelStats computeModelStats(const Graph& graph);

} // namespace tessera
