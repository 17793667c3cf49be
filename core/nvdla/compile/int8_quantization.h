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
    std::vector<std::int16_t> bias, scale;  // per output channel
    unsigned biasShift = 0, shift = 0;
};

// An element-wise operation in INT8, done by SDP's x1 stage and output converter. With a constant
// operand (one value, or one per channel): x1 compares with or adds `alu` << aluShift (the constant
// in the input's units), or multiplies, then multiplies by `mul` and shifts right by mulShift, so
// its result is in the output's scale. PRelu and LeakyRelu use `mul` and mulShift for their slopes.
// With a second tensor, read per point: Add, Max and Min take
// it in the same scale as the first (the quantizer joins them), Mul multiplies by it; the output
// converter then brings the result to the output's scale.
struct Int8Elementwise {
    std::vector<std::int16_t> alu, mul;  // constant operand: per channel, or one value; else empty
    std::vector<std::int8_t> pointMultipliers;  // a Mul by a constant per element: int8, c, y, x order
    unsigned aluShift = 0, mulShift = 0;
    dla::OutputConverter output;
    bool constantOperand() const { return !mul.empty() || !pointMultipliers.empty(); }
};

struct Int8Quantization {
    std::map<std::string, double> scales;  // by tensor name
    std::map<std::string, Int8Convolution> convolutions;  // by node name
    std::map<std::string, Int8Elementwise> elementwise;    // by node name

    double scaleOf(const Graph& graph, TensorId tensor) const;
    // The scale of the data an SDP's stages after x1 see for element-wise `node`: the output's when
    // x1 rescales (a constant operand), else the first input's (Add, Max, Min) or the product of
    // both inputs' scales (Mul of two tensors).
    double stageScale(const Graph& graph, const Node& node) const;
};

// `value` in int16 units of `scale`, rounded and saturated.
std::int16_t int16Units(double value, double scale);

// The negative slopes of PRelu (per channel or one) or LeakyRelu (its alpha).
std::vector<double> preluSlopes(const Graph& graph, const Node& node);

// The ranges come by tensor name from a calibration of the graph before fuse-activation (a fused
// convolution's output takes the range of the activation's output, whose tensor it takes over).
// Throws tessera::UnsupportedError naming the node when a value cannot be represented.
Int8Quantization quantizeForNvdla(const Graph& legalized, const std::map<std::string, float>& maxAbsByName);

}  // namespace tessera::nvdla
