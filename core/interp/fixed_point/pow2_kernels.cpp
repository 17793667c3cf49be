// Every formula below is docs/gap-fixed-point.md, step by step; the comments name the steps.
#include "interp/fixed_point/pow2_kernels.h"

#include "interp/fixed_point/conv_taps.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace tessera::fixed_point {

namespace {

constexpr int64_t int32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t int32Max = std::numeric_limits<int32_t>::max();
constexpr int maxQ = 31;

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

void requireQ(const std::string& kernel, const char* name, int q)
{
    if (q < 0 || q > maxQ)
        invalid(kernel, std::string(name) + " is " + std::to_string(q) + ", must be in [0, " + std::to_string(maxQ) +
                            "]");
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

void requireSize(const std::string& kernel, const char* what, size_t actual, int64_t expected,
                 const std::string& formula)
{
    if (static_cast<int64_t>(actual) != expected)
        invalid(kernel, std::string(what) + " has " + std::to_string(actual) + " values, expected " + formula +
                            " = " + std::to_string(expected));
}

// The accumulators are int32 in the document; the quantizer must keep them in range.
int64_t requireInt32(const std::string& kernel, const char* what, int64_t value)
{
    if (value < int32Min || value > int32Max)
        throw std::overflow_error(kernel + ": " + what + " " + std::to_string(value) +
                                  " does not fit int32 (the quantization lets it overflow)");
    return value;
}

// Number of window positions along one axis: (extent + 2*pad - window) / stride + 1, refused when
// the numerator is negative (C division would truncate it to 0 and claim one output). Ceil mode
// (ONNX ceil_mode, PyTorch's rule): the division rounds up, and a last window that would start
// past extent + pad (wholly in the padding) is dropped.
int64_t outputExtent(const std::string& kernel, const char* axis, int64_t extent, int64_t pad, int64_t window,
                     int64_t stride, bool ceilMode = false)
{
    const int64_t numerator = extent + 2 * pad - window;
    if (numerator < 0)
        invalid(kernel, std::string(axis) + ": a window of " + std::to_string(window) + " does not fit " +
                            std::to_string(extent) + " + 2*" + std::to_string(pad) +
                            " (padding) positions, the output would be empty");
    if (!ceilMode)
        return numerator / stride + 1;
    int64_t count = (numerator + stride - 1) / stride + 1;
    if ((count - 1) * stride >= extent + pad)
        --count;
    return count;
}

// ReLU when asked, capped at `cap` when cap > 0 (KOP_RELUN).
int16_t relu(int16_t v, bool apply, int cap = 0)
{
    if (!apply)
        return v;
    v = std::max<int16_t>(v, 0);
    return cap > 0 && v > cap ? int16_t(cap) : v;
}

const std::string convKernel = "convPoolRelu";
const std::string linearKernel = "linearRelu";
const std::string softmaxKernel = "softmaxQ15";

} // namespace

int64_t roundnorm(int64_t x, int shift)
{
    if (shift > 62 || shift < -62)
        throw std::invalid_argument("roundnorm: shift " + std::to_string(shift) + " is outside [-62, 62]");
    if (shift > 0) {
        const int64_t half = int64_t(1) << (shift - 1);
        if (x > std::numeric_limits<int64_t>::max() - half)
            throw std::overflow_error("roundnorm: " + std::to_string(x) + " + 2^" + std::to_string(shift - 1) +
                                      " overflows int64");
        return (x + half) >> shift; // arithmetic shift: floor
    }
    if (shift < 0) {
        const int left = -shift;
        if (x > (std::numeric_limits<int64_t>::max() >> left) || x < (std::numeric_limits<int64_t>::min() >> left))
            throw std::overflow_error("roundnorm: " + std::to_string(x) + " << " + std::to_string(left) +
                                      " overflows int64");
        return x * (int64_t(1) << left); // == x << left, without shifting a negative value
    }
    return x;
}

int16_t clip16(int64_t x) { return static_cast<int16_t>(std::clamp<int64_t>(x, -32768, 32767)); }

int64_t ndiv(int64_t a, int64_t b)
{
    if (b <= 0)
        throw std::invalid_argument("ndiv: divisor " + std::to_string(b) + " must be positive");
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

ConvPoolReluShape convPoolReluOutputShape(const ConvPoolReluParams& p)
{
    const std::string& k = convKernel;
    requireAtLeast(k, "inFeatures", p.inFeatures, 1);
    requireAtLeast(k, "outFeatures", p.outFeatures, 1);
    requireAtLeast(k, "width", p.width, 1);
    requireAtLeast(k, "height", p.height, 1);
    requireAtLeast(k, "filterWidth", p.filterWidth, 1);
    requireAtLeast(k, "filterHeight", p.filterHeight, 1);
    requireAtLeast(k, "dilationX", p.dilationX, 1);
    requireAtLeast(k, "dilationY", p.dilationY, 1);
    requireAtLeast(k, "strideX", p.strideX, 1);
    requireAtLeast(k, "strideY", p.strideY, 1);
    requireAtLeast(k, "pad", p.pad, 0);
    requireQ(k, "inQ", p.inQ);
    requireQ(k, "filterQ", p.filterQ);
    requireQ(k, "biasQ", p.biasQ);
    requireQ(k, "outQ", p.outQ);
    elementCount(k, "the input", {p.inFeatures, p.height, p.width});
    if (p.depthwise && p.inFeatures != p.outFeatures)
        throw std::invalid_argument(k + ": a depthwise convolution needs inFeatures == outFeatures, got " +
                                    std::to_string(p.inFeatures) + " and " + std::to_string(p.outFeatures));
    elementCount(k, "the filter", {p.outFeatures, p.depthwise ? 1 : p.inFeatures, p.filterHeight, p.filterWidth});

    // Hc = (H + 2*pad - Dcy*(Fcy - 1) - 1) / Scy + 1, the window spanning Dcy*(Fcy - 1) + 1 rows.
    const int64_t spanY = int64_t(p.dilationY) * (p.filterHeight - 1) + 1;
    const int64_t spanX = int64_t(p.dilationX) * (p.filterWidth - 1) + 1;
    const int64_t convHeight = outputExtent(k, "convolution height", p.height, p.pad, spanY, p.strideY);
    const int64_t convWidth = outputExtent(k, "convolution width", p.width, p.pad, spanX, p.strideX);
    elementCount(k, "the convolution output", {p.outFeatures, convHeight, convWidth});

    int64_t height = convHeight, width = convWidth;
    if (p.pool != ConvPoolReluParams::Pool::None) {
        requireAtLeast(k, "poolWidth", p.poolWidth, 1);
        requireAtLeast(k, "poolHeight", p.poolHeight, 1);
        requireAtLeast(k, "poolStrideX", p.poolStrideX, 1);
        requireAtLeast(k, "poolStrideY", p.poolStrideY, 1);
        requireAtLeast(k, "poolPad", p.poolPad, 0);
        // A pad of a whole window or more would allow windows holding no value at all.
        if (p.poolPad >= p.poolWidth || p.poolPad >= p.poolHeight)
            invalid(k, "poolPad " + std::to_string(p.poolPad) + " must be smaller than the pooling window " +
                           std::to_string(p.poolWidth) + "x" + std::to_string(p.poolHeight));
        height = outputExtent(k, "pooling height", convHeight, p.poolPad, p.poolHeight, p.poolStrideY, p.poolCeilMode);
        width = outputExtent(k, "pooling width", convWidth, p.poolPad, p.poolWidth, p.poolStrideX, p.poolCeilMode);
    }
    return {p.outFeatures, int(convHeight), int(convWidth), int(height), int(width)};
}

std::vector<int16_t> convPoolRelu(const ConvPoolReluParams& p, const std::vector<int16_t>& input,
                                  const std::vector<int16_t>& filter, const std::vector<int16_t>& bias)
{
    const std::string& k = convKernel;
    const ConvPoolReluShape shape = convPoolReluOutputShape(p);
    requireSize(k, "the input", input.size(), int64_t(p.inFeatures) * p.height * p.width,
                "inFeatures*height*width = " + std::to_string(p.inFeatures) + "*" + std::to_string(p.height) + "*" +
                    std::to_string(p.width));
    const int filterInputs = p.depthwise ? 1 : p.inFeatures;  // input features one filter reads
    requireSize(k, "the filter", filter.size(), int64_t(p.outFeatures) * filterInputs * p.filterHeight * p.filterWidth,
                "outFeatures*" + std::string(p.depthwise ? "1" : "inFeatures") + "*filterHeight*filterWidth = " +
                    std::to_string(p.outFeatures) + "*" + std::to_string(filterInputs) + "*" +
                    std::to_string(p.filterHeight) + "*" + std::to_string(p.filterWidth));
    requireSize(k, "the bias", bias.size(), p.outFeatures, "outFeatures");

    const int accQ = p.inQ + p.filterQ; // products of a Q inQ and a Q filterQ value
    const int64_t Hc = shape.convHeight, Wc = shape.convWidth;

    // Steps 1 and 2: accumulate in Q accQ (bias first, brought to that format), normalize to outQ.
    std::vector<int16_t> conv(size_t(p.outFeatures * Hc * Wc));
    std::vector<int64_t> acc(size_t(Hc * Wc));
    for (int64_t co = 0; co < p.outFeatures; ++co) {
        std::fill(acc.begin(), acc.end(), roundnorm(bias[size_t(co)], p.biasQ - accQ));
        accumulateConvTaps(p, input, filter, co, Hc, Wc, acc);
        for (int64_t i = 0; i < Hc * Wc; ++i) {
            // Only the final sum is checked: an int32 accumulator that wraps on the way but ends in
            // range gives the same value whatever the summation order.
            requireInt32(k, "the accumulator", acc[size_t(i)]);
            conv[size_t(co * Hc * Wc + i)] = clip16(roundnorm(acc[size_t(i)], accQ - p.outQ));
        }
    }

    // Step 3: pooling over the conv output; positions in the pooling padding are skipped.
    std::vector<int16_t> pooled;
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
                            const int16_t v = conv[size_t((c * Hc + cy) * Wc + cx)];
                            largest = std::max<int64_t>(largest, v);
                            sum += v;
                            ++count;
                        }
                    // count >= 1: poolPad < window guarantees every window meets the conv output.
                    const int64_t value = p.pool == ConvPoolReluParams::Pool::Max ? largest : ndiv(sum, count);
                    pooled[size_t((c * Hp + y) * Wp + x)] = int16_t(value);
                }
    }

    // Step 4: ReLU last.
    for (int16_t& v : pooled)
        v = relu(v, p.relu, p.reluCap);
    return pooled;
}

std::pair<int64_t, int64_t> poolOutputShape(const std::string& k, const PoolReluParams& p)
{
    requireAtLeast(k, "features", p.features, 1);
    requireAtLeast(k, "width", p.width, 1);
    requireAtLeast(k, "height", p.height, 1);
    requireAtLeast(k, "poolWidth", p.poolWidth, 1);
    requireAtLeast(k, "poolHeight", p.poolHeight, 1);
    requireAtLeast(k, "strideX", p.strideX, 1);
    requireAtLeast(k, "strideY", p.strideY, 1);
    requireAtLeast(k, "pad", p.pad, 0);
    if (p.pool == PoolReluParams::Pool::None)
        invalid(k, "the pooling must be Max or Average");
    // A pad of a whole window or more would allow windows holding no value at all.
    if (p.pad >= p.poolWidth || p.pad >= p.poolHeight)
        invalid(k, "pad " + std::to_string(p.pad) + " must be smaller than the pooling window " +
                       std::to_string(p.poolWidth) + "x" + std::to_string(p.poolHeight));
    return {outputExtent(k, "height", p.height, p.pad, p.poolHeight, p.strideY, p.ceilMode),
            outputExtent(k, "width", p.width, p.pad, p.poolWidth, p.strideX, p.ceilMode)};
}

std::vector<int16_t> poolRelu(const PoolReluParams& p, const std::vector<int16_t>& input)
{
    const std::string k = "poolRelu";
    const auto [Hp, Wp] = poolOutputShape(k, p);
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {p.features, p.height, p.width}),
                "features*height*width");
    std::vector<int16_t> out;
    out.reserve(size_t(p.features * Hp * Wp));
    for (int64_t c = 0; c < p.features; ++c)
        for (int64_t y = 0; y < Hp; ++y)
            for (int64_t x = 0; x < Wp; ++x)
                out.push_back(relu(int16_t(pooledValue(p, input, c, y, x)), p.relu));
    return out;
}

std::vector<int16_t> globalAveragePool(int features, int width, int height, const std::vector<int16_t>& input)
{
    const std::string k = "globalAveragePool";
    requireAtLeast(k, "features", features, 1);
    requireAtLeast(k, "width", width, 1);
    requireAtLeast(k, "height", height, 1);
    if (int64_t(width) * height > 65535)
        invalid(k, "a plane of " + std::to_string(width) + "x" + std::to_string(height) +
                       " has more than 65535 values; its sum could leave int32");
    const int64_t plane = int64_t(width) * height;
    requireSize(k, "the input", input.size(), elementCount(k, "the input", {features, plane}), "features*height*width");
    std::vector<int16_t> out;
    for (int64_t c = 0; c < features; ++c) {
        int64_t sum = 0;
        for (int64_t i = 0; i < plane; ++i)
            sum += input[size_t(c * plane + i)];
        out.push_back(int16_t(ndiv(sum, plane)));
    }
    return out;
}

std::vector<int16_t> matAdd(const std::vector<int16_t>& a, int aQ, const std::vector<int16_t>& b, int bQ, int outQ,
                            bool applyRelu, bool subtract)
{
    const std::string k = "matAdd";
    requireQ(k, "aQ", aQ);
    requireQ(k, "bQ", bQ);
    requireQ(k, "outQ", outQ);
    requireSize(k, "the second input", b.size(), int64_t(a.size()), "the size of the first");
    std::vector<int16_t> out(a.size());
    for (size_t i = 0; i < a.size(); ++i)
        out[i] = relu(clip16(roundnorm(a[i], aQ - outQ) + (subtract ? -roundnorm(b[i], bQ - outQ)
                                                                     : roundnorm(b[i], bQ - outQ))),
                      applyRelu);
    return out;
}

std::vector<int16_t> concatenate(const std::vector<std::vector<int16_t>>& inputs, const std::vector<int>& inQ,
                                 int outQ)
{
    const std::string k = "concatenate";
    requireQ(k, "outQ", outQ);
    requireSize(k, "the input formats", inQ.size(), int64_t(inputs.size()), "one per input");
    std::vector<int16_t> out;
    for (size_t input = 0; input < inputs.size(); ++input) {
        requireQ(k, "inQ", inQ[input]);
        for (int16_t v : inputs[input])
            out.push_back(clip16(roundnorm(v, inQ[input] - outQ)));
    }
    return out;
}

std::vector<int16_t> scaleChannels(const std::vector<int16_t>& x, const std::vector<int16_t>& gate, int64_t plane,
                                   int norm)
{
    const std::string k = "scaleChannels";
    requireAtLeast(k, "plane", plane, 1);
    if (norm < -31 || norm > 31)
        invalid(k, "norm is " + std::to_string(norm) + ", must be in [-31, 31]");
    requireSize(k, "the input", x.size(), int64_t(gate.size()) * plane, "channels*plane");
    std::vector<int16_t> out(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        out[i] = clip16(roundnorm(int64_t(x[i]) * gate[i / size_t(plane)], norm));
    return out;
}

std::vector<int16_t> preluChannels(const std::vector<int16_t>& x, const std::vector<int16_t>& slopes, int64_t plane,
                                   int slopeQ, int norm)
{
    const std::string k = "preluChannels";
    requireAtLeast(k, "plane", plane, 1);
    if (norm < -31 || norm > 31)
        invalid(k, "norm is " + std::to_string(norm) + ", must be in [-31, 31]");
    requireQ(k, "slopeQ", slopeQ);
    requireSize(k, "the input", x.size(), int64_t(slopes.size()) * plane, "channels*plane");
    std::vector<int16_t> out(x.size());
    for (size_t i = 0; i < x.size(); ++i)
        out[i] = clip16(x[i] >= 0 ? roundnorm(x[i], norm)
                                  : roundnorm(int64_t(x[i]) * slopes[i / size_t(plane)], slopeQ + norm));
    return out;
}

std::vector<int16_t> matMul(int lines, int inner, int columns, const std::vector<int16_t>& a, int aQ,
                            const std::vector<int16_t>& b, int bQ, const std::vector<int16_t>& bias, int biasQ,
                            int outQ, bool applyRelu)
{
    const std::string k = "matMul";
    requireAtLeast(k, "lines", lines, 1);
    requireAtLeast(k, "inner", inner, 1);
    requireAtLeast(k, "columns", columns, 1);
    for (const auto& [name, q] : {std::pair{"aQ", aQ}, {"bQ", bQ}, {"biasQ", biasQ}, {"outQ", outQ}})
        requireQ(k, name, q);
    requireSize(k, "the first matrix", a.size(), elementCount(k, "the first matrix", {lines, inner}), "lines*inner");
    requireSize(k, "the second matrix", b.size(), elementCount(k, "the second matrix", {inner, columns}),
                "inner*columns");
    requireSize(k, "the bias", bias.size(), lines, "lines");
    const int accQ = aQ + bQ;
    std::vector<int16_t> out;
    for (int64_t i = 0; i < lines; ++i)
        for (int64_t j = 0; j < columns; ++j) {
            int64_t acc = roundnorm(bias[size_t(i)], biasQ - accQ);
            for (int64_t n = 0; n < inner; ++n)
                acc += int32_t(a[size_t(i * inner + n)]) * int32_t(b[size_t(n * columns + j)]);
            requireInt32(k, "the accumulator", acc);
            out.push_back(relu(clip16(roundnorm(acc, accQ - outQ)), applyRelu));
        }
    return out;
}

std::vector<int16_t> linearRelu(int inDim, int outDim, bool applyRelu, int inQ, int filterQ, int biasQ, int outQ,
                                const std::vector<int16_t>& input, const std::vector<int16_t>& filter,
                                const std::vector<int16_t>& bias, int reluCap)
{
    const std::string& k = linearKernel;
    requireAtLeast(k, "inDim", inDim, 1);
    requireAtLeast(k, "outDim", outDim, 1);
    requireQ(k, "inQ", inQ);
    requireQ(k, "filterQ", filterQ);
    requireQ(k, "biasQ", biasQ);
    requireQ(k, "outQ", outQ);
    elementCount(k, "the filter", {outDim, inDim});
    requireSize(k, "the input", input.size(), inDim, "inDim");
    requireSize(k, "the filter", filter.size(), int64_t(outDim) * inDim,
                "outDim*inDim = " + std::to_string(outDim) + "*" + std::to_string(inDim));
    requireSize(k, "the bias", bias.size(), outDim, "outDim");

    const int accQ = inQ + filterQ;
    std::vector<int16_t> out(size_t(outDim), 0);
    for (int64_t o = 0; o < outDim; ++o) {
        int64_t acc = roundnorm(bias[size_t(o)], biasQ - accQ);
        for (int64_t i = 0; i < inDim; ++i)
            acc += int32_t(input[size_t(i)]) * int32_t(filter[size_t(o * inDim + i)]);
        requireInt32(k, "the accumulator", acc);
        out[size_t(o)] = relu(clip16(roundnorm(acc, accQ - outQ)), applyRelu, reluCap);
    }
    return out;
}

std::vector<int16_t> softmaxQ15(const std::vector<int16_t>& input, int inQ)
{
    const std::string& k = softmaxKernel;
    if (input.empty())
        invalid(k, "the input is empty");
    if (inQ < 0 || inQ > 30)
        invalid(k, "inQ is " + std::to_string(inQ) + ", must be in [0, 30]");
    elementCount(k, "the input", {int64_t(input.size())});

    constexpr int32_t log2eQ14 = 23637;
    const int32_t m = *std::max_element(input.begin(), input.end()); // step 1
    std::vector<int32_t> e(input.size());
    int64_t sum = 0;
    for (size_t i = 0; i < input.size(); ++i) {
        const int32_t d = int32_t(input[i]) - m;         // step 1: <= 0, >= -65535
        const int32_t t = (d * log2eQ14) >> 14;          // step 2: d * log2(e), in Q inQ
        const int32_t kInt = (-t) >> inQ;                // step 3: integer part of -t
        const int32_t f = (-t) - (kInt << inQ);          //         fractional part, Q inQ
        const int32_t f15 = inQ <= 15 ? f << (15 - inQ) : f >> (inQ - 15); // in Q15, [0, 32768)
        int32_t p = 315;                                 // step 4: 2^(-f15/2^15) in Q15
        p = -1819 + ((p * f15) >> 15);
        p = 7872 + ((p * f15) >> 15);
        p = -22713 + ((p * f15) >> 15);
        p = 32768 + ((p * f15) >> 15);
        e[i] = kInt >= 31 ? 0 : p >> kInt;               // step 5
        sum += e[i];                                     // step 6
    }
    requireInt32(k, "the sum of the exponentials", sum);
    std::vector<int16_t> out(input.size());
    for (size_t i = 0; i < input.size(); ++i)
        out[i] = clip16(ndiv(int64_t(e[i]) * 32768, sum));
    return out;
}

std::vector<int16_t> quantizeQ(const std::vector<float>& values, int q)
{
    std::vector<int16_t> out;
    out.reserve(values.size());
    for (float v : values) {
        if (std::isnan(v))
            throw std::invalid_argument("quantizeQ: cannot quantize NaN");
        // std::round rounds halves away from zero; clamp in double first so that the conversion
        // to an integer is defined for any magnitude (infinities included).
        const double scaled = std::round(std::ldexp(double(v), q));
        out.push_back(clip16(int64_t(std::clamp(scaled, -32768.0, 32767.0))));
    }
    return out;
}

std::vector<float> dequantizeQ(const std::vector<int16_t>& values, int q)
{
    std::vector<float> out;
    out.reserve(values.size());
    for (int16_t v : values)
        out.push_back(float(std::ldexp(double(v), -q)));
    return out;
}

} // namespace tessera::fixed_point
