#pragma once
// Reference of the activation layers of Tessera's GAP networks (Sigmoid, Tanh, HardSigmoid,
// HardSwish, LeakyRelu, Swish), 16-bit and SQ8 alike: docs/gap-fixed-point.md, "Activations". The input
// is brought to Q12 by a 15-bit multiplier, the function is evaluated in integers (the sigmoid from
// a table of 513 values with linear interpolation), and the result goes to the output's format by
// a second multiplier. The C kernels (KerActivation, KerActivation_SQ8) are checked against it bit
// for bit.
#include <cstdint>
#include <vector>

namespace tessera::fixed_point {

// In the order of the C kernels' Kind argument (AT_ACT_SIGMOID 0 to AT_ACT_SWISH 5). Swish is
// x * sigmoid(x) (SiLU).
enum class ActivationKind { Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Swish };

struct ActivationParams {
    ActivationKind kind = ActivationKind::Sigmoid;
    int inScale = 1, inShift = 0;    // x12 = roundnorm(x * inScale, inShift): the input in Q12
    int offset = 0, cap = 0;         // HardSigmoid, HardSwish: h = clip(x12 + offset, 0, cap) in Q12
    int alpha = 0;                   // LeakyRelu: the slope of negative values in Q15
    int outScale = 1, outShift = 0;  // out = clip(roundnorm(v * outScale, outShift))
};

// The fractional bits of the value v an activation computes before its output multiplier: 15
// for Sigmoid and Tanh, 12 for HardSigmoid (v = h) and LeakyRelu, 24 for HardSwish (v = x12 * h),
// 27 for Swish (v = x12 * sigmoidQ15(x12)).
int activationValueQ(ActivationKind kind);

// sigmoid(x12 / 4096) in Q15, 0 to 32768: the table entry T[i] = round(32768 * sigmoid(i / 32)),
// i = |x12| >> 7, plus the linear interpolation to T[i + 1] of the low 7 bits; 32768 from |x| = 16;
// 32768 - sigmoid(-x) for negative x.
int32_t sigmoidQ15(int64_t x12);

// The 513 table values (i / 32 for i in 0..512).
const std::vector<uint16_t>& sigmoidTable();

// The value v of one item already in Q12.
int64_t activationValue(const ActivationParams& params, int64_t x12);

// The layer on int16 (16-bit networks) or int8 (SQ8) items, clipped to the item type. Throws
// std::invalid_argument on parameters out of the document's ranges (scales 0..32767, shifts 0..62,
// cap 0..2^20, alpha -32767..32767).
std::vector<int16_t> activate(const ActivationParams& params, const std::vector<int16_t>& input);
std::vector<int8_t> activate(const ActivationParams& params, const std::vector<int8_t>& input);

}  // namespace tessera::fixed_point
