#include "interp/fixed_point/dla_arithmetic.h"

#include "ir/dtype.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tessera::dla {

std::int64_t roundShiftRight(std::int64_t x, unsigned shift)
{
    if (shift == 0)
        return x;
    if (shift > 64)
        return 0;  // |x| < 2^63 <= half of 2^shift
    const __int128 wide = x;
    const __int128 quotient = wide >> shift;  // floor
    const __int128 remainder = wide - (quotient << shift);
    const __int128 half = __int128(1) << (shift - 1);
    // Halves away from zero: a positive half rounds up; a negative exact half stays at the floor
    // (which is away from zero for negatives).
    if (remainder > half || (remainder == half && x > 0))
        return std::int64_t(quotient + 1);
    return std::int64_t(quotient);
}

std::int64_t saturate(std::int64_t x, unsigned bits)
{
    if (bits < 2 || bits > 63)
        throw std::invalid_argument("saturate: width of " + std::to_string(bits) + " bits");
    const std::int64_t most = (std::int64_t(1) << (bits - 1)) - 1;
    return std::clamp(x, -most - 1, most);
}

std::int8_t inputConvert(std::int8_t x, std::int32_t offset, std::int16_t scale, unsigned truncate)
{
    if (truncate > 63)
        throw std::invalid_argument("CDMA input converter: the truncate is a 6-bit field");
    const std::int64_t product = (std::int64_t(x) - offset) * scale;
    return std::int8_t(saturate(saturate(roundShiftRight(product, truncate), 17), 8));
}

std::int32_t accumulatorOutput(std::int64_t sum, unsigned truncate)
{
    return std::int32_t(saturate(roundShiftRight(sum, truncate), 32));
}

namespace {
std::int64_t aluApply(std::int64_t x, Alu algorithm, std::int64_t operand)
{
    switch (algorithm) {
    case Alu::Max: return std::max(x, operand);
    case Alu::Min: return std::min(x, operand);
    case Alu::Sum: return x + operand;
    }
    throw std::invalid_argument("SDP ALU algorithm " + std::to_string(int(algorithm)));
}
}  // namespace

std::int32_t sdpXStage(std::int32_t in, const XStage& stage, std::int16_t aluOperand, std::int16_t mulOperand)
{
    if (stage.aluShift > 63 || stage.mulShift > 63)
        throw std::invalid_argument("SDP X stage: shifts are 6-bit fields");
    std::int64_t x = in;
    if (stage.alu) {
        // The operand shifted left and saturated to int32; the sum itself is 33-bit, not saturated.
        const std::int64_t operand =
            stage.aluShift >= 32 ? (aluOperand == 0 ? 0 : aluOperand > 0 ? INT32_MAX : INT32_MIN)
                                 : saturate(std::int64_t(aluOperand) * (std::int64_t(1) << stage.aluShift), 32);
        x = aluApply(x, stage.algorithm, operand);
    }
    if (stage.mul && stage.prelu && x >= 0) {
        x = std::int32_t(std::uint32_t(std::uint64_t(x)));  // passed through, kept to 32 bits
    } else {
        if (stage.mul)
            x *= mulOperand;  // at most 49 bits
        // The stage's right shift applies whether or not the multiplier is on.
        x = saturate(roundShiftRight(x, stage.mulShift), 32);
    }
    if (stage.relu)
        x = std::max<std::int64_t>(x, 0);
    return std::int32_t(x);
}

std::int32_t sdpYAlu(std::int32_t x, Alu algorithm, std::int32_t operand)
{
    return std::int32_t(saturate(aluApply(x, algorithm, operand), 32));
}

std::int8_t sdpOutput(std::int32_t x, const OutputConverter& converter)
{
    if (converter.shift > 63)
        throw std::invalid_argument("SDP output converter: the shift is a 6-bit field");
    const std::int64_t product = (std::int64_t(x) - converter.offset) * converter.scale;  // at most 49 bits
    return std::int8_t(saturate(saturate(roundShiftRight(product, converter.shift), 17), 8));
}

std::uint32_t pdpReciprocal(unsigned side)
{
    static const std::uint32_t table[8] = {0x10000, 0x8000, 0x5555, 0x4000, 0x3333, 0x2aaa, 0x2492, 0x2000};
    if (side < 1 || side > 8)
        throw std::invalid_argument("PDP: a window side of " + std::to_string(side) + " (1..8)");
    return table[side - 1];
}

std::int8_t pdpAverage(std::int32_t sum, unsigned windowWidth, unsigned windowHeight)
{
    // Two multiplications by a 16-bit reciprocal, each rounded halves away from zero. The hardware
    // keeps the low 8 bits (an average of int8 values stays in range).
    const std::int64_t across = roundShiftRight(std::int64_t(sum) * pdpReciprocal(windowWidth), 16);
    const std::int64_t down = roundShiftRight(across * pdpReciprocal(windowHeight), 16);
    return std::int8_t(std::uint8_t(down & 0xff));
}

unsigned rescaleShiftFor(double largestFactor)
{
    if (!std::isfinite(largestFactor) || largestFactor >= 32768.0 || largestFactor < 0.0)
        throw std::invalid_argument("a rescale factor of " + std::to_string(largestFactor) +
                                    " is not below 2^15 (an int16 scale with a right shift)");
    if (largestFactor == 0.0)
        return 0;
    // The factor has `bits` integer bits; the scale keeps 15 significant bits.
    const int bits = int(std::floor(std::log2(largestFactor))) + 1;
    return unsigned(std::clamp(15 - bits, 0, 63));
}

std::int16_t rescaleScaleFor(double factor, unsigned shift)
{
    const double scaled = std::round(std::ldexp(factor, int(shift)));
    return std::int16_t(std::clamp(scaled, -32768.0, 32767.0));
}

std::vector<std::int32_t> convolutionAccumulators(const ConvolutionGeometry& g, const std::vector<std::int8_t>& input,
                                                  const std::vector<std::int8_t>& weights, unsigned truncate)
{
    if (g.groups == 0 || g.channels % g.groups || g.kernels % g.groups || g.strideX == 0 || g.strideY == 0 ||
        g.dilationX == 0 || g.dilationY == 0)
        throw std::invalid_argument("DLA convolution: inconsistent groups, strides or dilations");
    const unsigned perGroupIn = g.channels / g.groups, perGroupOut = g.kernels / g.groups;
    if (input.size() != std::size_t(g.channels) * g.height * g.width ||
        weights.size() != std::size_t(g.kernels) * perGroupIn * g.kernelHeight * g.kernelWidth)
        throw std::invalid_argument("DLA convolution: input or weights of the wrong size");
    std::vector<std::int32_t> out(std::size_t(g.kernels) * g.outHeight * g.outWidth);
    for (unsigned k = 0; k < g.kernels; ++k) {
        const unsigned firstChannel = (k / perGroupOut) * perGroupIn;
        for (unsigned y = 0; y < g.outHeight; ++y)
            for (unsigned x = 0; x < g.outWidth; ++x) {
                std::int64_t sum = 0;
                for (unsigned c = 0; c < perGroupIn; ++c)
                    for (unsigned r = 0; r < g.kernelHeight; ++r) {
                        const long iy = long(y) * g.strideY - long(g.padTop) + long(r) * g.dilationY;
                        for (unsigned s = 0; s < g.kernelWidth; ++s) {
                            const long ix = long(x) * g.strideX - long(g.padLeft) + long(s) * g.dilationX;
                            const bool inside = iy >= 0 && iy < long(g.height) && ix >= 0 && ix < long(g.width);
                            const std::int32_t value =
                                inside ? input[(std::size_t(firstChannel + c) * g.height + std::size_t(iy)) * g.width +
                                               std::size_t(ix)]
                                       : g.padValue;
                            sum += value * weights[((std::size_t(k) * perGroupIn + c) * g.kernelHeight + r) * g.kernelWidth + s];
                        }
                    }
                out[(std::size_t(k) * g.outHeight + y) * g.outWidth + x] = accumulatorOutput(sum, truncate);
            }
    }
    return out;
}

std::vector<std::int8_t> pooling(const PoolingGeometry& g, Pooling mode, const std::vector<std::int8_t>& input)
{
    if (input.size() != std::size_t(g.channels) * g.height * g.width || g.strideX == 0 || g.strideY == 0)
        throw std::invalid_argument("DLA pooling: input of the wrong size or a zero stride");
    std::vector<std::int8_t> out(std::size_t(g.channels) * g.outHeight * g.outWidth);
    for (unsigned c = 0; c < g.channels; ++c)
        for (unsigned y = 0; y < g.outHeight; ++y)
            for (unsigned x = 0; x < g.outWidth; ++x) {
                std::int32_t sum = 0;
                int best = mode == Pooling::Max ? -129 : 128;
                for (unsigned r = 0; r < g.windowHeight; ++r)
                    for (unsigned s = 0; s < g.windowWidth; ++s) {
                        const long iy = long(y) * g.strideY - long(g.padTop) + long(r);
                        const long ix = long(x) * g.strideX - long(g.padLeft) + long(s);
                        // Max and min look at the valid elements only; padding adds 0 to the sum.
                        if (iy < 0 || ix < 0 || iy >= long(g.height) || ix >= long(g.width))
                            continue;
                        const int v = input[(std::size_t(c) * g.height + std::size_t(iy)) * g.width + std::size_t(ix)];
                        sum += v;
                        best = mode == Pooling::Max ? std::max(best, v) : std::min(best, v);
                    }
                std::int8_t& o = out[(std::size_t(c) * g.outHeight + y) * g.outWidth + x];
                if (mode == Pooling::Average)
                    o = pdpAverage(sum, g.windowWidth, g.windowHeight);
                else
                    o = std::int8_t(std::clamp(best, -128, 127));
            }
    return out;
}

std::vector<std::int8_t> emulatorSoftmax(const std::vector<std::int8_t>& values, float inputScale, float outputScale)
{
    std::vector<float> halves(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        halves[i] = halfToFloat(floatToHalf(float(values[i]) * inputScale));
    const float most = values.empty() ? 0.0f : *std::max_element(halves.begin(), halves.end());
    float sum = 0.0f;
    for (float v : halves)
        sum += std::exp(v - most);
    std::vector<std::int8_t> out(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const float y = halfToFloat(floatToHalf(std::exp(halves[i] - most) / sum));
        // The emulator clamps and then truncates toward zero.
        out[i] = std::int8_t(std::clamp(y / outputScale, -128.0f, 127.0f));
    }
    return out;
}

}  // namespace tessera::dla
