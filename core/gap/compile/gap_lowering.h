// From an ONNX graph to the layers of the GAP CNN generators. What one generator call can do is
// fused into one layer: batch normalization folded into the convolution before it, zero Pad nodes
// into the convolution's padding, ReLU and pooling after a convolution, ReLU after a linear layer
// or an addition; Flatten, Reshape, Identity and Dropout are views of their input.
#pragma once

#include "gap/compile/gap_network.h"
#include "ir/graph.h"

namespace tessera::gap {

// The network for the graph (typed, batch 1, float32). Throws UnsupportedError listing every node
// that has no place in a layer, each with what it would need.
GapNetwork lowerForGap(const Graph& graph);

}  // namespace tessera::gap
