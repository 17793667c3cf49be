#pragma once
// The integer arithmetic of NVIDIA's deep-learning accelerator (NVDLA v1) in INT8 mode, written
// from NVIDIA's hardware documentation and the C model the hardware is verified against. It is the
// oracle INT8 loadables are checked against bit for bit: Tessera's NVDLA quantizer chooses the
// integers, this file says what the units compute with them, and the descriptor simulator runs
// the same functions on what it decodes from the loadable.
//
// The rules that matter everywhere: every right shift rounds to nearest with halves away from
// zero and then saturates to the stage's width; products are exact; operands read as int8 are
// sign-extended.
//
//   CMAC/CACC  int8 x int8 summed exactly; CACC shifts right by its truncate (0..31) and
//              saturates to int32 for SDP.
//   SDP X      (BS = x1, BN = x2): ALU (operand int16 << shift, saturated to int32; max, min or
//              sum in 33 bits), multiplier (int16 operand, exact), then the stage's right shift
//              (applied also when the multiplier is off) saturated to int32, then ReLU. In PReLU
//              mode values >= 0 pass the multiplier and the shift untouched.
//   SDP Y      (EW, used here with a register operand only): ALU max/min/sum, saturated to int32.
//   SDP out    ((x - offset) * scale) >> shift, saturated to int17 then int8.
//   PDP        max/min over the valid window; average = sum (padding counts 0) times the
//              firmware's reciprocal of the window width, rounded, then of its height, rounded.
//   EMU        Softmax on the CPU: in FP16 from int8 x input scale, out int8 = truncate(y / scale).
#include <cstdint>
#include <vector>

namespace tessera::dla {

// x / 2^shift rounded to nearest, halves away from zero (shift 0: x).
std::int64_t roundShiftRight(std::int64_t x, unsigned shift);

// x limited to a signed `bits`-wide integer (2..63).
std::int64_t saturate(std::int64_t x, unsigned bits);

// CDMA's input converter (in_cvt) on one int8 feature element.
std::int8_t inputConvert(std::int8_t x, std::int32_t offset, std::int16_t scale, unsigned truncate);

// What CACC hands to SDP for one output element.
std::int32_t accumulatorOutput(std::int64_t sum, unsigned truncate);

enum class Alu { Max = 0, Min = 1, Sum = 2 };

// One X stage of SDP (BS or BN), as the descriptor's x1_op / x2_op configures it.
struct XStage {
    bool alu = false;
    Alu algorithm = Alu::Sum;
    unsigned aluShift = 0;  // left shift of the ALU operand (shift_value)
    bool mul = false;
    unsigned mulShift = 0;  // right shift after the multiplier (truncate)
    bool prelu = false;     // the multiplier (and its shift) for negative values only
    bool relu = false;
};
std::int32_t sdpXStage(std::int32_t x, const XStage& stage, std::int16_t aluOperand, std::int16_t mulOperand);

// The Y stage's ALU with a register operand.
std::int32_t sdpYAlu(std::int32_t x, Alu algorithm, std::int32_t operand);

// The output converter of SDP (dla_cvt_param out_cvt): int32 to int8.
struct OutputConverter {
    std::int32_t offset = 0;
    std::int16_t scale = 1;
    unsigned shift = 0;
};
std::int8_t sdpOutput(std::int32_t x, const OutputConverter& converter);

// The firmware's reciprocal of a pooling window side of 1..8 (16-bit fraction).
std::uint32_t pdpReciprocal(unsigned side);

// PDP's average of a window whose (padding-free) sum is `sum`.
std::int8_t pdpAverage(std::int32_t sum, unsigned windowWidth, unsigned windowHeight);

// A real factor as scale / 2^shift with an int16 scale: the shift gives the largest factor 15
// significant bits (when it is below 2^15), capped at 63. Per-channel factors share the shift of
// the largest. Throws std::invalid_argument for factors of 2^15 or more, or not finite.
struct Rescale {
    std::int16_t scale = 1;
    unsigned shift = 0;
};
unsigned rescaleShiftFor(double largestFactor);
std::int16_t rescaleScaleFor(double factor, unsigned shift);

// --- The lookup table (SDP's Y stage; the same registers as dla_lut_param) --------------------
//
// Two tables: LE (65 entries, exponential or linear spacing) and LO (257 entries, linear). An
// input hits a table when it lies in its range: exponential, index log2(x - start) - offset;
// linear, index (x - start) >> fracBits (a negative value shifts left), the bits shifted out the
// fraction between two entries. Below or above a table's range, its first or last entry plus
// (x - start or end) x slope. The priorities choose between the tables when both or neither hit.
// In INT mode values are int32 and the interpolation keeps a 35-bit fraction.
struct LutSlope {
    std::int16_t scale = 0;
    std::int8_t shift = 0;  // 5-bit signed: a negative value shifts left
};
struct Lut {
    std::int16_t le[65] = {};
    std::int16_t lo[257] = {};
    bool exponential = false;     // method: LE spacing
    std::int8_t leIndex = 0;      // LE: exponent offset (exponential) or fraction bits (linear)
    std::int8_t loFracBits = 0;
    std::int64_t leStart = 0, leEnd = 0, loStart = 0, loEnd = 0;
    LutSlope leUnderflow, leOverflow, loUnderflow, loOverflow;
    bool hybridLo = false, underflowLo = false, overflowLo = false;  // priorities: LO (else LE)
};
std::int32_t sdpLut(std::int32_t x, const Lut& lut);
// Which table gives the value (true: LO) when LE and LO see the input as they do.
bool lutUsesLo(bool leUnderflow, bool leOverflow, bool loUnderflow, bool loOverflow, const Lut& lut);

// CDP's LUT in INT mode: the same tables, but a 16-bit fraction, the value rounded from the
// difference of two entries, an int16 result, and the exponential underflow measured from
// start + 2^offset even for offset 0.
std::int16_t cdpLut(std::int64_t x, const Lut& lut);

// CDP's local response normalization in INT8 over a cube (c, y, x order): each element x times
// LUT(the sum of the squares of the `localSize` channels around it, out-of-range channels 0), then
// the output converter (offset, int16 scale, right shift; saturated to int8). The input converter
// is the identity.
std::vector<std::int8_t> cdpLocalResponse(const std::vector<std::int8_t>& input, unsigned channels, std::size_t plane,
                                          unsigned localSize, const Lut& lut, const OutputConverter& converter);

// --- Cube kernels (channels x height x width, row-major) -------------------------------------

struct ConvolutionGeometry {
    unsigned channels = 0, height = 0, width = 0;        // input
    unsigned kernels = 0, kernelHeight = 0, kernelWidth = 0, groups = 1;
    unsigned strideY = 1, strideX = 1, dilationY = 1, dilationX = 1;
    unsigned padTop = 0, padLeft = 0;
    unsigned outHeight = 0, outWidth = 0;
    std::int8_t padValue = 0;  // what padding reads (pad_val)
};

// The int32 each output element's SDP receives (CACC truncate `truncate`): weights
// [K][C/groups][R][S]. Throws std::invalid_argument on inconsistent sizes.
std::vector<std::int32_t> convolutionAccumulators(const ConvolutionGeometry& geometry, const std::vector<std::int8_t>& input,
                                                  const std::vector<std::int8_t>& weights, unsigned truncate = 0);

struct PoolingGeometry {
    unsigned channels = 0, height = 0, width = 0;
    unsigned windowHeight = 1, windowWidth = 1, strideY = 1, strideX = 1, padTop = 0, padLeft = 0;
    unsigned outHeight = 0, outWidth = 0;
};
enum class Pooling { Average = 0, Max = 1, Min = 2 };
std::vector<std::int8_t> pooling(const PoolingGeometry& geometry, Pooling mode, const std::vector<std::int8_t>& input);

// The runtime's CPU Softmax over `values` (one vector).
std::vector<std::int8_t> emulatorSoftmax(const std::vector<std::int8_t>& values, float inputScale, float outputScale);

}  // namespace tessera::dla
