// 16-bit power-of-two quantization of a GAP network: each activation, filter and bias gets the Q
// format that holds the range seen on calibration inputs, with headroom for the 32-bit
// accumulators of convolution and linear layers (docs/gap-fixed-point.md).
#pragma once

#include "gap/compile/gap_network.h"
#include "ir/graph.h"
#include "interp/calibration.h"
#include "ir/tensor_data.h"

#include <vector>

namespace tessera::gap {

using tessera::CalibrationRanges;

// Sets every tensor's Q format and every layer's constant formats and fixed-point constants.
// Throws UnsupportedError naming the layer when its range cannot be held in 16 bits with an
// accumulator that fits 32 bits.
void quantizeNetwork(GapNetwork& network, const CalibrationRanges& ranges);

// SQ8: every tensor's scale (symmetric int8, the calibrated range over 127), per-output-feature
// filter scales, int32 biases and the requantization multipliers of every layer. Throws
// UnsupportedError naming the layer when a value cannot be represented.
void quantizeNetworkSq8(GapNetwork& network, const CalibrationRanges& ranges);

// The integer parameters of an activation layer whose input and output items are worth
// inputScale and outputScale (2^-Q in 16-bit networks): docs/gap-fixed-point.md, "Activations".
// Throws UnsupportedError naming the layer when a multiplier cannot be represented.
void quantizeActivation(GapLayer& layer, double inputScale, double outputScale);

// The largest Q format in [0, limit] that holds values up to maxAbs in int16.
int qFormatFor(double maxAbs, int limit);

}  // namespace tessera::gap
