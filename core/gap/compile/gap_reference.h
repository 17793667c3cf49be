// The fixed-point reference run of a quantized GAP network: every layer computed by the reference
// kernels of docs/gap-fixed-point.md (interp/fixed_point). Generated code must equal it bit for bit.
#pragma once

#include "gap/compile/gap_network.h"
#include "ir/tensor_data.h"

#include <cstdint>
#include <vector>

namespace tessera::gap {

// The values of every network tensor for inputs already converted (network-input order): int16 in
// its Q format for 16-bit networks, the int8 items (widened to int16) of SQ8 networks.
std::vector<std::vector<int16_t>> runFixedPoint(const GapNetwork& network,
                                                const std::vector<std::vector<int16_t>>& inputs);

// One layer on the values of its inputs in `values` (indexed by network tensor; the others are
// not read): its output's values.
std::vector<int16_t> runLayer(const GapNetwork& network, const GapLayer& layer,
                              const std::vector<std::vector<int16_t>>& values);

// A float tensor in the format of network tensor `tensor` (its Q format, or its int8 scale: the
// conversion generated code applies to its inputs), and back.
std::vector<int16_t> quantizeInput(const GapNetwork& network, int tensor, const TensorData& value);
std::vector<float> dequantizeTensor(const GapNetwork& network, int tensor, const std::vector<int16_t>& values);

// Signal-to-quantization-noise ratio in dB of `approximation` against `signal`; +infinity when equal.
double sqnrDb(const std::vector<float>& signal, const std::vector<float>& approximation);

}  // namespace tessera::gap
