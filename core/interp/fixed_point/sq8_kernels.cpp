// Every formula below is the "SQ8" section of docs/gap-fixed-point.md, step by step; the comments
// name the steps. The helpers roundnorm, clip16, ndiv, the geometry checks of
// convPoolReluOutputShape and the 16-bit softmax are those of pow2_kernels.
#include "interp/fixed_point/sq8_kernels.h"

#include "interp/fixed_point/conv_taps.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace tessera::fixed_point::sq8 {

namespace {

constexpr int64_t int32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t int32Max = std::numeric_limits<int32_t>::max();
constexpr int maxShift = 62;

[[noreturn]] void invalid(const std::string& kernel, const std::string& message)
{
    throw std::invalid_argument(kernel + ": " + message);
}

void requireAtLeast(const std::string& kernel, const char* name, int64_t value, int64_t minimum)
{
    if (value < minimum)
        invalid(kernel, std::string(name) + " is " + std::to_string(value) + ", must be at least " +
                            std::to_string(minimum));
}

void requireRange(const std::string& kernel, const char* name, int64_t value, int64_t minimum, int64_t maximum)
{
    if (value < minimum || value > maximum)
        invalid(kernel, std::string(name) + " is " + std::to_string(value) + ", must be in [" +
                            std::to_string(minimum) + ", " + std::to_string(maximum) + "]");
}

void requireSize(const std::string& kernel, const char* what, size_t actual, int64_t expected)
{
    if (static_cast<int64_t>(actual) != expected)
        invalid(kernel, std::string(what) + " has " + std::to_string(actual) + " values, expected " +
                            std::to_string(expected));
}

// The product of `factors` (each >= 1), refused beyond int32 so that sizes and indices stay small.
int64_t elementCount(const std::string& kernel, const char* what, std::initializer_list<int64_t> factors)
{
    int64_t count = 1;
    for (int64_t factor : factors) {
        count *= factor;
        if (count > int32Max)
            invalid(kernel, std::string(what) + " would have more than 2^31 - 1 values");
    }
    return count;
}

// The accumulators are int32 in the document; the quantizer must keep them in range.
int64_t requireInt32(const std::string& kernel, const char* what, int64_t value)
{
    if (value < int32Min || value > int32Max)
        throw std::overflow_error(kernel + ": " + what + " " + std::to_string(value) +
                                  " does not fit int32 (the quantization lets it overflow)");
    return value;
}

void requireScales(const std::string& kernel, const ChannelScales& scales, int64_t channels)
{
    requireSize(kernel, "the scales", scales.scale.size(), channels);
    requireSize(kernel, "the shifts", scales.shift.size(), channels);
    for (uint8_t shift : scales.shift)
        requireRange(kernel, "a shift", shift, 0, maxShift);
}

// The activation: ReLU when asked, capped at `cap` (int8 units) when cap > 0 (KOP_RELUN).
int8_t activation(int8_t v, bool apply, int cap)
{
    if (!apply)
        return v;
    v = std::max<int8_t>(v, 0);
    return cap > 0 && v > cap ? int8_t(cap) : v;
}

// The multiplier closest to `factor` with `bits` significant bits: scale / 2^shift with scale in
// [2^(bits-1), 2^bits) when the factor allows it. See the document ("Deriving the multipliers").
Multiplier multiplierWithBits(const char* name, double factor, int bits)
{
    if (!std::isfinite(factor) || factor < 0)
        throw std::invalid_argument(std::string(name) + ": the factor " + std::to_string(factor) +
                                    " is not a finite non-negative number");
    const double limit = std::ldexp(1.0, bits);
    if (factor >= limit)
        throw std::invalid_argument(std::string(name) + ": the factor " + std::to_string(factor) + " is not below " +
                                    std::to_string(int64_t(limit)));
    if (factor == 0)
        return {0, 0};
    int exponent = 0;
    std::frexp(factor, &exponent); // factor = m * 2^exponent, m in [0.5, 1)
    // factor * 2^shift = m * 2^bits, in [2^(bits-1), 2^bits); shift >= 0 since factor < 2^bits.
    int shift = std::min(bits - exponent, maxShift);
    int64_t scale = int64_t(std::round(std::ldexp(factor, shift)));
    if (scale == int64_t(limit)) {
        // Rounded up to 2^bits: the same value with one bit less of shift, or the largest scale
        // when there is no shift left (factor in [2^bits - 0.5, 2^bits)).
        if (shift > 0) {
            scale /= 2;
            --shift;
        } else {
            scale = int64_t(limit) - 1;
        }
    }
    return {int(scale), shift};
}

const std::string convKernel = "sq8::convPoolAct";

} // namespace

int8_t clip8(int64_t x) { return static_cast<int8_t>(std::clamp<int64_t>(x, -128, 127)); }

int8_t requantize(int64_t acc, int scale, int shift)
{
    const std::string k = "sq8::requantize";
    requireRange(k, "scale", scale, 0, 255);
    requireRange(k, "shift", shift, 0, maxShift);
    requireInt32(k, "the accumulator", acc);
    return clip8(roundnorm(acc * scale, shift)); // |acc * scale| < 2^39
}

Multiplier multiplierFor(double factor) { return multiplierWithBits("sq8::multiplierFor", factor, 8); }

Multiplier multiplier15For(double factor) { return multiplierWithBits("sq8::multiplier15For", factor, 15); }

std::vector<int8_t> convPoolAct(const ConvPoolReluParams& params, const std::vector<int8_t>& input,
                                const std::vector<int8_t>& filter, const std::vector<int32_t>& bias,
                                const ChannelScales& scales)
{
    const std::string& k = convKernel;
    ConvPoolReluParams p = params;
    p.inQ = p.filterQ = p.biasQ = p.outQ = 0; // the Q formats do not apply to SQ8
    const ConvPoolReluShape shape = convPoolReluOutputShape(p);
    requireAtLeast(k, "reluCap", p.reluCap, 0);
    requireSize(k, "the input", input.size(), int64_t(p.inFeatures) * p.height * p.width);
    const int filterInputs = p.depthwise ? 1 : p.inFeatures; // input features one filter reads
    requireSize(k, "the filter", filter.size(), int64_t(p.outFeatures) * filterInputs * p.filterHeight * p.filterWidth);
    requireSize(k, "the bias", bias.size(), p.outFeatures);
    requireScales(k, scales, p.outFeatures);

    const int64_t Hc = shape.convHeight, Wc = shape.convWidth;

    // Steps 1 and 2: the int32 accumulator (bias first, already in the accumulator's scale), then
    // requantization with the output feature's multiplier.
    std::vector<int8_t> conv(size_t(p.outFeatures * Hc * Wc));
    std::vector<int64_t> acc(size_t(Hc * Wc));
    for (int64_t co = 0; co < p.outFeatures; ++co) {
        std::fill(acc.begin(), acc.end(), int64_t(bias[size_t(co)]));
        accumulateConvTaps(p, input, filter, co, Hc, Wc, acc);
        for (int64_t i = 0; i < Hc * Wc; ++i) {
            // Only the final sum is checked: an int32 accumulator that wraps on the way but ends in
            // range gives the same value whatever the summation order.
            requireInt32(k, "the accumulator", acc[size_t(i)]);
            conv[size_t(co * Hc * Wc + i)] =
                clip8(roundnorm(acc[size_t(i)] * scales.scale[size_t(co)], scales.shift[size_t(co)]));
        }
    }

    // Step 3: pooling of the int8 values; positions in the pooling padding are skipped.
    std::vector<int8_t> pooled;
    if (p.pool == ConvPoolReluParams::Pool::None) {
        pooled = std::move(conv);
    } else {
        const int64_t Hp = shape.height, Wp = shape.width;
        pooled.resize(size_t(p.outFeatures * Hp * Wp));
        for (int64_t c = 0; c < p.outFeatures; ++c)
            for (int64_t y = 0; y < Hp; ++y)
                for (int64_t x = 0; x < Wp; ++x) {
                    const int64_t top = y * p.poolStrideY - p.poolPad, left = x * p.poolStrideX - p.poolPad;
                    int64_t largest = std::numeric_limits<int64_t>::min(), sum = 0, count = 0;
                    for (int64_t cy = std::max<int64_t>(top, 0); cy < std::min(top + p.poolHeight, Hc); ++cy)
                        for (int64_t cx = std::max<int64_t>(left, 0); cx < std::min(left + p.poolWidth, Wc); ++cx) {
                            const int8_t v = conv[size_t((c * Hc + cy) * Wc + cx)];
                            largest = std::max<int64_t>(largest, v);
                            sum += v;
                            ++count;
                        }
                    const int64_t value = p.pool == ConvPoolReluParams::Pool::Max ? largest : ndiv(sum, count);
                    pooled[size_t((c * Hp + y) * Wp + x)] = int8_t(value);
                }
    }

    // Step 4: the activation last.
    for (int8_t& v : pooled)
        v = activation(v, p.relu, p.reluCap);
    return pooled;
}

std::vector<int8_t> poolAct(const PoolReluParams& p, const std::vector<int8_t>& input, int reluCap)
{
    const std::string k = "sq8::poolAct";
    requireAtLeast(k, "reluCap", reluCap, 0);
    const auto [Hp, Wp] = poolOutputShape(k, p);
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {p.features, p.height, p.width}));
    std::vector<int8_t> out;
    out.reserve(size_t(p.features * Hp * Wp));
    for (int64_t c = 0; c < p.features; ++c)
        for (int64_t y = 0; y < Hp; ++y)
            for (int64_t x = 0; x < Wp; ++x)
                out.push_back(activation(int8_t(pooledValue(p, input, c, y, x)), p.relu, reluCap));
    return out;
}

std::vector<int8_t> globalAveragePool(int features, int width, int height, const std::vector<int8_t>& input,
                                      Multiplier multiplier)
{
    const std::string k = "sq8::globalAveragePool";
    requireRange(k, "scale", multiplier.scale, 0, 32767);
    requireRange(k, "shift", multiplier.shift, 0, maxShift);
    requireAtLeast(k, "features", features, 1);
    requireAtLeast(k, "width", width, 1);
    requireAtLeast(k, "height", height, 1);
    const int64_t plane = int64_t(width) * height;
    if (plane > 65535)
        invalid(k, "a plane of " + std::to_string(width) + "x" + std::to_string(height) + " has more than 65535 values");
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {features, plane}));
    std::vector<int8_t> out;
    for (int64_t c = 0; c < features; ++c) {
        int64_t sum = 0;
        for (int64_t i = 0; i < plane; ++i)
            sum += input[size_t(c * plane + i)];
        out.push_back(clip8(roundnorm(ndiv(sum * multiplier.scale, plane), multiplier.shift)));
    }
    return out;
}

std::vector<int8_t> infosBytes(const LayerInfos& infos)
{
    const std::string k = "sq8::infosBytes";
    requireRange(k, "actScale", infos.actScale, 0, 255);
    requireRange(k, "actScaleN", infos.actScaleN, 0, 31);
    requireRange(k, "a0", infos.a0, -128, 127);
    requireRange(k, "b0", infos.b0, -128, 127);
    requireRange(k, "c0", infos.c0, -128, 127);
    requireRange(k, "biasNorm", infos.biasNorm, 0, 31);
    requireRange(k, "in1Scale", infos.in1Scale, 0, 255);
    requireRange(k, "in1ScaleN", infos.in1ScaleN, 0, 31);
    requireRange(k, "outScale", infos.outScale, 0, 255);
    requireRange(k, "outScaleN", infos.outScaleN, 0, 31);
    requireRange(k, "sumScale", infos.sumScale, 0, 255);
    requireRange(k, "sumScaleN", infos.sumScaleN, 0, 31);
    requireRange(k, "softmaxNorm", infos.softmaxNorm, -1, 15);
    requireRange(k, "prenorm", infos.prenorm, 0, 31);
    const int sharers = int(infos.biasNorm != 0) + int(infos.in1Scale != 0 || infos.in1ScaleN != 0) +
                        int(infos.sumScale != 0 || infos.sumScaleN != 0);
    if (sharers > 1)
        throw std::invalid_argument(k + ": biasNorm, in1Scale / in1ScaleN and sumScale / sumScaleN share their bytes; "
                                        "give one of them");
    std::vector<int8_t> bytes(size_t(kInfosBytes), 0);
    // AT_INF_ACTSCALE, or AT_INF_BIASL_SM for a softmax
    bytes[0] = int8_t(uint8_t(infos.softmaxNorm >= 0 ? infos.softmaxNorm : infos.actScale));
    bytes[1] = int8_t(infos.actScaleN);          // AT_INF_ACTSCALEN
    bytes[2] = int8_t(infos.a0);                 // AT_INF_A0, low byte (the kernels read one signed byte)
    bytes[3] = infos.a0 < 0 ? int8_t(-1) : int8_t(0);
    bytes[4] = int8_t(infos.b0);                 // AT_INF_B0, likewise
    bytes[5] = infos.b0 < 0 ? int8_t(-1) : int8_t(0);
    bytes[6] = int8_t(infos.c0);                 // AT_INF_C0
    bytes[7] = infos.c0 < 0 ? int8_t(-1) : int8_t(0);
    // AT_INF_BIASN / IN1SCALE / GLOBAL_SUM_SCALE (one of them at most is set)
    bytes[8] = int8_t(uint8_t(infos.biasNorm + infos.in1Scale + infos.sumScale));
    bytes[9] = int8_t(infos.in1ScaleN + infos.sumScaleN);  // AT_INF_IN1SCALEN / GLOBAL_SUM_SCALEN
    bytes[10] = int8_t(uint8_t(infos.outScale)); // AT_INF_OUTSCALE
    bytes[11] = int8_t(infos.outScaleN);         // AT_INF_OUTSCALEN
    bytes[12] = int8_t(infos.prenorm);           // AT_INF_PRENORM
    return bytes;
}

namespace {

// GAP's 32-bit arithmetic: values wrap modulo 2^32, roundnorm adds its half in 32 bits too.
int32_t wrap32(int64_t x)
{
    return int32_t(uint32_t(uint64_t(x)));
}

int32_t roundnorm32(int32_t x, int shift)
{
    return wrap32(int64_t(x) + (shift > 0 ? int64_t(1) << (shift - 1) : 0)) >> shift;
}

// x times scale / 2^shift in 32 bits, the product wrapping.
int32_t scale32(int32_t x, int scale, int shift)
{
    return roundnorm32(wrap32(int64_t(x) * scale), shift);
}

// The SDK's additions' scaling: a scale 0 leaves x.
int32_t scaleIf(int32_t x, int scale, int shift)
{
    return scale != 0 ? scale32(x, scale, shift) : x;
}

// ReLU or ReLU-N (gap_clipur: a negative bound gives itself for v >= 0).
int32_t rectify(int32_t v, Activation activation, int a0)
{
    if (v < 0)
        return 0;
    return activation == Activation::ReLUN && v > a0 ? a0 : v;
}

}  // namespace

std::vector<int8_t> linearAct(int inDim, int outDim, Activation activation, const LayerInfos& infos,
                              const std::vector<int8_t>& input, const std::vector<int8_t>& filter,
                              const std::vector<int32_t>& bias, const ChannelScales& scales)
{
    const std::string k = "sq8::linearAct";
    requireRange(k, "inDim", inDim, 1, 65535);
    requireAtLeast(k, "outDim", outDim, 1);
    (void) infosBytes(infos);  // the ranges of its fields
    requireSize(k, "the input", input.size(), inDim);
    requireSize(k, "the filter", filter.size(), elementCount(k, "the filter", {outDim, inDim}));
    requireSize(k, "the bias", bias.size(), outDim);
    requireScales(k, scales, outDim);
    for (uint8_t shift : scales.shift)
        requireRange(k, "a shift", shift, 0, 31);
    std::vector<int8_t> out(size_t(outDim), 0);
    for (int64_t o = 0; o < outDim; ++o) {
        int32_t acc = wrap32(int64_t(uint32_t(bias[size_t(o)])) << infos.biasNorm);
        for (int64_t i = 0; i < inDim; ++i)
            acc = wrap32(int64_t(acc) + int32_t(input[size_t(i)]) * filter[size_t(o * inDim + i)]);
        int32_t v = scale32(acc, scales.scale[size_t(o)], scales.shift[size_t(o)]);
        if (activation != Activation::None)
            v = scale32(rectify(v, activation, infos.a0), infos.actScale, infos.actScaleN);
        out[size_t(o)] = clip8(v);
    }
    return out;
}

std::vector<int8_t> matAddAct(const std::vector<int8_t>& a, const std::vector<int8_t>& b, Activation activation,
                              const LayerInfos& infos)
{
    const std::string k = "sq8::matAddAct";
    (void) infosBytes(infos);  // the ranges of its fields
    requireSize(k, "the second input", b.size(), int64_t(a.size()));
    std::vector<int8_t> out(a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        int32_t v = scaleIf(scaleIf(a[i], infos.in1Scale, infos.in1ScaleN) + b[i], infos.outScale, infos.outScaleN);
        if (activation != Activation::None)
            v = scaleIf(rectify(v, activation, infos.a0), infos.actScale, infos.actScaleN);
        out[i] = clip8(v);
    }
    return out;
}

std::vector<int8_t> sdkPoolAct(const PoolReluParams& p, Activation activation, const LayerInfos& infos,
                               const std::vector<int8_t>& input)
{
    const std::string k = "sq8::sdkPoolAct";
    (void) infosBytes(infos);  // the ranges of its fields
    if (p.ceilMode)
        throw std::invalid_argument(k + ": the SDK's pooling has no ceil mode");
    const auto [Hp, Wp] = poolOutputShape(k, p);
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {p.features, p.height, p.width}));
    const int32_t poolFactor = (1 << 16) / (p.poolWidth * p.poolHeight);
    std::vector<int8_t> out;
    out.reserve(size_t(p.features * Hp * Wp));
    for (int64_t c = 0; c < p.features; ++c)
        for (int64_t y = 0; y < Hp; ++y)
            for (int64_t x = 0; x < Wp; ++x) {
                int32_t largest = -128, sum = 0;
                for (int64_t i = 0; i < p.poolHeight; ++i)
                    for (int64_t j = 0; j < p.poolWidth; ++j) {
                        const int64_t line = y * p.strideY - p.pad + i, column = x * p.strideX - p.pad + j;
                        const bool inside = line >= 0 && line < p.height && column >= 0 && column < p.width;
                        const int32_t v = inside ? input[size_t((c * p.height + line) * p.width + column)] : 0;
                        sum += v;
                        largest = std::max(largest, v);
                    }
                int32_t v = p.pool == PoolReluParams::Pool::Max ? largest : clip8(roundnorm32(sum * poolFactor, 16));
                if (activation != Activation::None)
                    v = rectify(v, activation, infos.a0);
                out.push_back(clip8(scaleIf(v, infos.actScale, infos.actScaleN)));
            }
    return out;
}

std::vector<int8_t> sdkGlobalPoolAct(int features, int width, int height, bool maximum, Activation activation,
                                     const LayerInfos& infos, const std::vector<int8_t>& input, bool wholePlanes)
{
    const std::string k = "sq8::sdkGlobalPoolAct";
    (void) infosBytes(infos);  // the ranges of its fields
    requireAtLeast(k, "features", features, 1);
    requireRange(k, "width", width, 1, 65535);
    requireRange(k, "height", height, 1, 65535);
    const int64_t plane = int64_t(width) * height;
    requireRange(k, "width x height", plane, 1, 131071);
    if (activation == Activation::ReLUN)
        requireRange(k, "a0", infos.a0, 0, 127);
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {features, height, width}));
    std::vector<int8_t> out(static_cast<size_t>(features), 0);
    for (int64_t c = 0; c < features; ++c) {
        const auto first = input.begin() + c * plane, last = first + plane;
        int32_t v = maximum ? int32_t(*std::max_element(first, last))
                            : scale32(int32_t(int64_t(std::accumulate(first, last, int32_t(0))) * 128 / plane),
                                      infos.sumScale, infos.sumScaleN);
        if (wholePlanes) {
            v = clip8(v);
            if (activation != Activation::None)
                v = rectify(v, activation, infos.a0);
            v = scaleIf(v, infos.actScale, infos.actScaleN);
        } else {
            v = scaleIf(v, infos.actScale, infos.actScaleN);
            if (activation != Activation::None)
                v = rectify(v, activation, infos.a0);
        }
        out[size_t(c)] = clip8(v);
    }
    return out;
}

std::vector<int8_t> matAdd(const std::vector<int8_t>& a, int scaleA, const std::vector<int8_t>& b, int scaleB,
                           int shift, bool relu)
{
    const std::string k = "sq8::matAdd";
    requireRange(k, "scaleA", scaleA, 0, 32767);
    requireRange(k, "scaleB", scaleB, -32767, 32767);
    requireRange(k, "shift", shift, 0, maxShift);
    requireSize(k, "the second input", b.size(), int64_t(a.size()));
    std::vector<int8_t> out(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        out[i] = activation(clip8(roundnorm(int64_t(a[i]) * scaleA + int64_t(b[i]) * scaleB, shift)), relu, 0);
    return out;
}

std::vector<int8_t> concatenate(const std::vector<std::vector<int8_t>>& inputs, const std::vector<Multiplier>& scales)
{
    const std::string k = "sq8::concatenate";
    requireSize(k, "the input scales", scales.size(), int64_t(inputs.size()));
    std::vector<int8_t> out;
    for (size_t input = 0; input < inputs.size(); ++input) {
        requireRange(k, "scale", scales[input].scale, 0, 32767);
        requireRange(k, "shift", scales[input].shift, 0, maxShift);
        for (int8_t v : inputs[input])
            out.push_back(clip8(roundnorm(int64_t(v) * scales[input].scale, scales[input].shift)));
    }
    return out;
}

std::vector<int8_t> scaleChannels(const std::vector<int8_t>& x, const std::vector<int8_t>& gate, int64_t plane,
                                  Multiplier multiplier)
{
    const std::string k = "sq8::scaleChannels";
    requireAtLeast(k, "plane", plane, 1);
    requireRange(k, "scale", multiplier.scale, 0, 32767);
    requireRange(k, "shift", multiplier.shift, 0, maxShift);
    requireSize(k, "the input", x.size(), int64_t(gate.size()) * plane);
    std::vector<int8_t> out(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        out[i] = clip8(roundnorm(int64_t(x[i]) * gate[i / size_t(plane)] * multiplier.scale, multiplier.shift));
    return out;
}

std::vector<int8_t> preluChannels(const std::vector<int8_t>& x, const std::vector<int16_t>& slopes, int64_t plane,
                                  int slopeQ, Multiplier multiplier)
{
    const std::string k = "sq8::preluChannels";
    requireAtLeast(k, "plane", plane, 1);
    requireRange(k, "slopeQ", slopeQ, 0, 15);
    requireRange(k, "scale", multiplier.scale, 0, 32767);
    requireRange(k, "shift", multiplier.shift, 0, maxShift - 15);
    requireSize(k, "the input", x.size(), int64_t(slopes.size()) * plane);
    std::vector<int8_t> out(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        out[i] = clip8(x[i] >= 0 ? roundnorm(int64_t(x[i]) * multiplier.scale, multiplier.shift)
                                 : roundnorm(int64_t(x[i]) * slopes[i / size_t(plane)] * multiplier.scale,
                                             multiplier.shift + slopeQ));
    return out;
}

std::vector<int16_t> softmaxQ15(const std::vector<int8_t>& input, int scale, int shift, int inQ)
{
    const std::string k = "sq8::softmaxQ15";
    requireRange(k, "scale", scale, 0, 32767);
    requireRange(k, "shift", shift, 0, maxShift);
    // Step 0: each value in Q inQ and 16 bits; then the 16-bit softmax (which checks inQ and size).
    std::vector<int16_t> t(input.size());
    for (size_t i = 0; i < input.size(); ++i)
        t[i] = clip16(roundnorm(int64_t(input[i]) * scale, shift));
    return fixed_point::softmaxQ15(t, inQ);
}

int32_t sdkActivation(StandaloneActivation activation, const LayerInfos& infos, int32_t v)
{
    const auto s = [&](int32_t x) { return scale32(x, infos.actScale, infos.actScaleN); };
    const int a0 = infos.a0, b0 = infos.b0, c0 = infos.c0;
    const auto clipur = [&](int32_t x) { return rectify(x, Activation::ReLUN, a0); };  // gap_clipur(x, a0)
    switch (activation) {
    case StandaloneActivation::None: return v;
    case StandaloneActivation::ReLU: return s(rectify(v, Activation::ReLU, a0));
    case StandaloneActivation::ReLUN: return s(clipur(v));
    case StandaloneActivation::ReLUM: return s(std::max(v, a0));
    case StandaloneActivation::ReLUMN: return s(std::max(std::min(v, b0), a0));
    case StandaloneActivation::HSigmoid: return s(clipur(wrap32(int64_t(v) + b0))) + c0;
    case StandaloneActivation::HSwish: return s(wrap32(int64_t(clipur(wrap32(int64_t(v) + b0))) * v)) + c0;
    case StandaloneActivation::LeakyReLU: return s(v < 0 ? roundnorm32(wrap32(int64_t(v) * a0), 7) : v) + b0;
    }
    return v;
}

std::vector<int8_t> sdkStandaloneAct(StandaloneActivation activation, const LayerInfos& infos,
                                     const std::vector<int8_t>& input)
{
    (void) infosBytes(infos);  // the ranges of its fields
    std::vector<int8_t> out(input.size());
    for (size_t i = 0; i < input.size(); ++i)
        out[i] = int8_t(clip8(sdkActivation(activation, infos, input[i])));
    return out;
}

std::vector<int8_t> sdkConvPoolAct(const SdkConvParams& p, StandaloneActivation activation, const LayerInfos& infos,
                                   const std::vector<int8_t>& input, const std::vector<int8_t>& filter,
                                   const std::vector<int32_t>& bias, const ChannelScales& scales)
{
    const std::string k = "sq8::sdkConvPoolAct";
    (void) infosBytes(infos);  // the ranges of its fields
    for (const auto& [name, value] : {std::pair{"inFeatures", p.inFeatures}, {"outFeatures", p.outFeatures},
                                      {"width", p.width}, {"height", p.height}, {"filterWidth", p.filterWidth},
                                      {"filterHeight", p.filterHeight}, {"strideX", p.strideX},
                                      {"strideY", p.strideY}, {"dilationX", p.dilationX}, {"dilationY", p.dilationY}})
        requireRange(k, name, value, 1, 65535);
    for (const auto& [name, value] : {std::pair{"padLeft", p.padLeft}, {"padRight", p.padRight},
                                      {"padTop", p.padTop}, {"padBottom", p.padBottom}})
        requireRange(k, name, value, 0, 127);
    if (p.depthwise && p.inFeatures != p.outFeatures)
        throw std::invalid_argument(k + ": a depthwise convolution has as many output features as input ones");
    const int64_t spanX = int64_t(p.dilationX) * (p.filterWidth - 1) + 1;
    const int64_t spanY = int64_t(p.dilationY) * (p.filterHeight - 1) + 1;
    const int64_t Wc = (p.width + p.padLeft + p.padRight - spanX) / p.strideX + 1;
    const int64_t Hc = (p.height + p.padTop + p.padBottom - spanY) / p.strideY + 1;
    if (p.width + p.padLeft + p.padRight < spanX || p.height + p.padTop + p.padBottom < spanY)
        throw std::invalid_argument(k + ": the filter window is larger than the padded input");
    const int64_t perOutput = p.depthwise ? 1 : p.inFeatures;
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {p.inFeatures, p.height, p.width}));
    requireSize(k, "the filter", filter.size(),
                elementCount(k, "the filter", {p.outFeatures, perOutput, p.filterHeight, p.filterWidth}));
    requireSize(k, "the bias", bias.size(), p.outFeatures);
    requireScales(k, scales, p.outFeatures);
    for (uint8_t shift : scales.shift)
        requireRange(k, "a shift", shift, 0, 31);
    const bool pooled = p.pool != PoolReluParams::Pool::None;
    const bool fused = p.depthwise ? (activation == StandaloneActivation::None ||
                                      activation == StandaloneActivation::ReLU ||
                                      activation == StandaloneActivation::ReLUN ||
                                      activation == StandaloneActivation::ReLUM)
                                   : true;
    std::vector<int8_t> conv(size_t(p.outFeatures * Hc * Wc));
    for (int64_t o = 0; o < p.outFeatures; ++o)
        for (int64_t y = 0; y < Hc; ++y)
            for (int64_t x = 0; x < Wc; ++x) {
                int32_t acc = wrap32(int64_t(uint32_t(bias[size_t(o)])) << infos.biasNorm);
                for (int64_t c = 0; c < perOutput; ++c) {
                    const int64_t plane = p.depthwise ? o : c;
                    for (int64_t i = 0; i < p.filterHeight; ++i)
                        for (int64_t j = 0; j < p.filterWidth; ++j) {
                            const int64_t line = y * p.strideY - p.padTop + i * p.dilationY;
                            const int64_t column = x * p.strideX - p.padLeft + j * p.dilationX;
                            if (line < 0 || line >= p.height || column < 0 || column >= p.width)
                                continue;
                            const int32_t tap = int32_t(input[size_t((plane * p.height + line) * p.width + column)]) *
                                                filter[size_t(((o * perOutput + c) * p.filterHeight + i) * p.filterWidth + j)];
                            acc = wrap32(int64_t(acc) + tap);
                        }
                }
                if (!p.depthwise)
                    acc = roundnorm32(acc, infos.prenorm);
                int32_t v = scale32(acc, scales.scale[size_t(o)], scales.shift[size_t(o)]);
                if (!pooled && fused)
                    v = sdkActivation(activation, infos, v);
                conv[size_t((o * Hc + y) * Wc + x)] = clip8(v);
            }
    if (!pooled)
        return fused ? conv : sdkStandaloneAct(activation, infos, conv);
    PoolReluParams pool;
    pool.features = p.outFeatures, pool.width = int(Wc), pool.height = int(Hc), pool.pool = p.pool;
    pool.poolWidth = p.poolWidth, pool.poolHeight = p.poolHeight, pool.strideX = p.poolStrideX;
    pool.strideY = p.poolStrideY, pool.pad = p.poolPad;
    const bool poolFuses = activation == StandaloneActivation::ReLU || activation == StandaloneActivation::ReLUN;
    if (poolFuses || activation == StandaloneActivation::None)
        return sdkPoolAct(pool,
                          activation == StandaloneActivation::ReLU    ? Activation::ReLU
                          : activation == StandaloneActivation::ReLUN ? Activation::ReLUN
                                                                      : Activation::None,
                          infos, conv);
    LayerInfos unscaled = infos;  // the pooling kernel is told not to scale, the activation scales
    unscaled.actScale = 0;
    return sdkStandaloneAct(activation, infos, sdkPoolAct(pool, Activation::None, unscaled, conv));
}

namespace {

// e^n (n = 0..11) as the SDK's exponential holds it: the integer part and the fraction in Q15.
struct ExpTable {
    std::array<uint32_t, 12> integer{}, fraction{};
    std::array<uint32_t, 8> taylor{};  // 1/k!, k = 1..8, in Q15
    ExpTable()
    {
        for (size_t n = 0; n < integer.size(); ++n) {
            const double e = std::exp(double(n));
            integer[n] = uint32_t(std::floor(e));
            fraction[n] = uint32_t(std::lround((e - std::floor(e)) * 32768.0));
        }
        double factorial = 1.0;
        for (size_t k = 0; k < taylor.size(); ++k) {
            factorial *= double(k + 1);
            taylor[k] = uint32_t(std::min(std::lround(32768.0 / factorial), 32767L));
        }
    }
};

}  // namespace

uint32_t sdkExpQ15(uint32_t y)
{
    static const ExpTable table;
    if (y == 0)
        return 32768;
    int64_t n = y >> 15, r = y & 0x7FFF;
    if (r >= 0x4000) {  // r in [-1/2, 1/2), where the polynomial converges fast
        r -= 0x8000;
        ++n;
    }
    if (n >= int64_t(table.integer.size()))
        return 0;
    int64_t power = r, sum = 0;
    for (uint32_t c : table.taylor) {
        sum += power * c;
        power = roundnorm(power * r, 15);
    }
    const uint64_t p = uint64_t(roundnorm(sum, 15) + 32767) & 0xFFFF;
    const uint64_t e = uint64_t(roundnorm(int64_t(p * table.fraction[size_t(n)]), 15)) + p * table.integer[size_t(n)];
    return uint32_t((uint64_t(0x7FFFFFFF) / e) >> 1);
}

std::vector<int16_t> sdkSoftmax(const std::vector<int8_t>& input, int features, int norm, int outBits)
{
    const std::string k = "sq8::sdkSoftmax";
    requireRange(k, "norm", norm, 0, 15);
    if (outBits != 15 && outBits != 7)
        throw std::invalid_argument(k + ": outBits is " + std::to_string(outBits) + "; give 15 (Q15) or 7 (Q7)");
    if (features <= 0 || input.empty() || input.size() % size_t(features) != 0)
        throw std::invalid_argument(k + ": " + std::to_string(input.size()) + " values are not " +
                                    std::to_string(features) + " non-empty vectors");
    const size_t dim = input.size() / size_t(features);
    if (dim > 65535)
        throw std::invalid_argument(k + ": vectors of " + std::to_string(dim) + " values; at most 65535");
    const int shift = 30 - outBits;  // 15 for Q15, 23 for Q7
    const int64_t largest = (int64_t(1) << outBits) - 1;
    std::vector<int16_t> out(input.size());
    for (size_t f = 0; f < size_t(features); ++f) {
        const auto begin = input.begin() + std::ptrdiff_t(f * dim);
        const int m = *std::max_element(begin, begin + std::ptrdiff_t(dim));
        std::vector<uint32_t> e(dim);
        int64_t sum = 0;
        for (size_t i = 0; i < dim; ++i) {
            e[i] = sdkExpQ15(uint32_t(m - begin[std::ptrdiff_t(i)]) << norm);
            sum += e[i];
        }
        const int64_t inverse = (int64_t(32767) << 15) / sum;  // sum >= 32768: the maximum's e is 1
        for (size_t i = 0; i < dim; ++i)
            out[f * dim + i] = int16_t(std::min(roundnorm(int64_t(e[i]) * inverse, shift), largest));
    }
    return out;
}

std::vector<int8_t> quantize(const std::vector<float>& values, double scale)
{
    if (!std::isfinite(scale) || scale <= 0)
        throw std::invalid_argument("sq8::quantize: the scale " + std::to_string(scale) +
                                    " is not a finite positive number");
    std::vector<int8_t> out;
    out.reserve(values.size());
    for (float v : values) {
        if (std::isnan(v))
            throw std::invalid_argument("sq8::quantize: cannot quantize NaN");
        // std::round rounds halves away from zero; clamp in double first so that the conversion to
        // an integer is defined for any magnitude (infinities included).
        const double q = std::round(double(v) / scale);
        out.push_back(clip8(int64_t(std::clamp(q, -128.0, 127.0))));
    }
    return out;
}

std::vector<float> dequantize(const std::vector<int8_t>& values, double scale)
{
    std::vector<float> out;
    out.reserve(values.size());
    for (int8_t v : values)
        out.push_back(float(double(v) * scale));
    return out;
}

} // namespace tessera::fixed_point::sq8
