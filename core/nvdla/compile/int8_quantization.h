// INT8 for NVDLA: every feature tensor gets one symmetric scale (real value = int8 × scale) from
// the calibrated range, every convolution int8 weights with a scale per output channel, and the SDP
// parameters that bring its int32 accumulators to the output's scale: an int16 bias added after a
// left shift, an int16 multiplier per channel and a common right shift (as NVIDIA's compiler
// rescales per channel). Operations that only move or compare values (ReLU, Clip, MaxPool,
// AveragePool, Concat) keep their input's scale: the tensors they join share one scale, the
// largest their ranges need.
#pragma once

#include "interp/fixed_point/dla_arithmetic.h"
#include "ir/graph.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::nvdla {

// A convolution in INT8: weights [K][C/groups][R][S] as the node's weight tensor, and per output
// channel what its SDP x1 stage does with the int32 accumulator: add bias << biasShift, multiply by
// scale, shift right by `shift` (rounded, saturated); the result is already in the output's scale.
struct Int8Convolution {
    std::vector<std::int8_t> weights;
    std::vector<double> weightScales;  // per output channel
    std::vector<std::int16_t> bias, scale;  // per output channel
    unsigned biasShift = 0, shift = 0;
};

struct Int8Quantization {
    std::map<std::string, double> scales;  // by tensor name
    std::map<std::string, Int8Convolution> convolutions;  // by node name
    // Element-wise operations of two tensors (whose inputs share a scale): the output converter
    // from that scale to the output's.
    std::map<std::string, dla::OutputConverter> elementwise;  // by node name

    double scaleOf(const Graph& graph, TensorId tensor) const;
    // A real value in the int16 units of `tensor`'s scale (a clip bound), rounded and saturated.
    std::int16_t inUnitsOf(const Graph& graph, TensorId tensor, double value) const;
};

// The ranges come by tensor name from a calibration of the graph before fuse-activation (a fused
// convolution's output takes the range of the activation's output, whose tensor it takes over).
// Throws tessera::UnsupportedError naming the node when a value cannot be represented.
Int8Quantization quantizeForNvdla(const Graph& legalized, const std::map<std::string, float>& maxAbsByName);

}  // namespace tessera::nvdla
