#pragma once
// Networks the NVDLA tests compile: NVIDIA's LeNet, a block that exercises every SDP stage, and
// the lookup-table activations.
#include "ir/graph.h"

#include <string>

namespace tessera::test {

// A zoo model as the NVDLA acceptance takes it (MobileNet v1 at width 0.25 and 128 pixels), prepared.
Graph zooNetwork(const std::string& name);

// The LeNet of NVIDIA's MNIST sample (Caffe's): conv 20 5x5, max pool 2, conv 50 5x5, max pool 2,
// inner product 500, ReLU, inner product 10, softmax; input 1x1x28x28.
Graph caffeLenet();

// A residual block with the SDP's other work: conv 3x3 + ReLU6 (Clip 0..6), conv 3x3, the skip
// connection added (+ ReLU), a per-channel scale (Mul by [C,1,1]), a scalar subtracted, the
// element-wise maximum with the block's input, a Clip -1..1 and average pooling.
Graph residualBlock();

// Sigmoid and Tanh through the SDP's lookup table, between convolutions (a gated unit: x * sigmoid(x)).
Graph lookupNetwork();

// PRelu with a slope per channel and LeakyRelu, after convolutions.
Graph preluNetwork();

// Average pooling 3x3 with padding that leaves the padding out of its count (ONNX's default), and
// 2x2/2 with padding on one side, between convolutions.
Graph borderPoolNetwork();

// Poolings wider than PDP's line buffer: max 2x2/2 over 300 columns, average 3x3 over 150.
Graph widePoolNetwork();

// AlexNet's pattern: conv + ReLU, LRN over 5 channels (a strong one: alpha 0.5), max pooling, conv.
Graph lrnNetwork();

// Rearranging channels, as super-resolution and ShuffleNet do: conv + ReLU, DepthToSpace 2 in CRD
// order (PyTorch's PixelShuffle), a channel shuffle of 2 groups as PyTorch exports it (Reshape,
// Transpose, Reshape), conv + ReLU, a shuffle of 3 groups of 16, conv.
Graph rearrangeNetwork();

// ShuffleNet v2's unit with its 58-channel branches: a stem of 96 channels split at a memory atom
// ([32, 64], views), two convolutions concatenated to 116 channels (22 + 94: a copy), split in
// halves of 58 (a copy), one branch through conv + BatchNormalization + ReLU, depthwise 3x3, conv
// + ReLU, the halves concatenated again and shuffled in 2 groups, then a classifier conv of 10.
Graph shuffleUnitNetwork();

// Layers whose one kernel group does not fit the CBUF (split over input channels): from a
// 1x2048x4x4 input, a 3x3 convolution of 16 kernels + ReLU then a classifier of 10, and beside it a
// fully connected layer of 16 over all 32768 values + ReLU then one of 10.
Graph wideChannelsNetwork();

}  // namespace tessera::test
