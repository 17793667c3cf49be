#pragma once
// Reference fixed-point kernels of Tessera's GAP CNN layers (16-bit power-of-two Q formats),
// written straight from docs/gap-fixed-point.md as whole-tensor loops. They are the oracle the
// generated GAP code is checked against bit for bit, so they follow the document literally and are
// independent of the C basic kernels.
//
// Data that the document leaves out of contract is rejected rather than given some arbitrary
// meaning: inconsistent sizes and absurd parameters throw std::invalid_argument, and an int32
// accumulator (or softmax sum) whose value does not fit int32 throws std::overflow_error (the
// document requires the quantizer to keep them in range).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::fixed_point {

// --- Arithmetic helpers -----------------------------------------------------------------------

// shift > 0: (x + 2^(shift-1)) >> shift (arithmetic shift: rounds halves towards +infinity);
// shift == 0: x; shift < 0: x << -shift. Computed in int64. Throws std::invalid_argument when
// |shift| > 62 and std::overflow_error when the result (or the rounding sum) leaves int64.
int64_t roundnorm(int64_t x, int shift);

// x limited to [-32768, 32767].
int16_t clip16(int64_t x);

// a / b rounded to nearest, halves away from zero; b must be > 0 (std::invalid_argument otherwise).
int64_t ndiv(int64_t a, int64_t b);

// --- Convolution + pooling + ReLU (CNN_ConvolutionPoolReLU) -----------------------------------

struct ConvPoolReluParams {
    enum class Pool { None, Max, Average }; // KOP_NONE, KOP_MAXPOOL, KOP_AVGPOOL

    int inFeatures = 1;  // Cin
    int outFeatures = 1; // Cout
    int width = 1;       // W of the input planes
    int height = 1;      // H of the input planes

    int filterWidth = 1;  // Fcx
    int filterHeight = 1; // Fcy
    int dilationX = 1;    // Dcx
    int dilationY = 1;    // Dcy
    int strideX = 1;      // Scx
    int strideY = 1;      // Scy
    int pad = 0;          // ConvPad, zero padding on every side

    Pool pool = Pool::None; // the pooling fields below are ignored when pool is None
    int poolWidth = 1;      // Fpx
    int poolHeight = 1;     // Fpy
    int poolStrideX = 1;    // Spx
    int poolStrideY = 1;    // Spy
    int poolPad = 0;        // PoolPad; positions outside the conv output are skipped
    // ONNX ceil_mode: the output extent is rounded up, a last window reaching past the conv
    // output (and its bottom / right padding) still counts when it starts inside them.
    bool poolCeilMode = false;

    bool relu = false; // KOP_RELU after pooling
    int reluCap = 0;   // KOP_RELUN: the ReLU also caps values at reluCap (6 in Q outQ); 0: no cap

    // KOP_CONV_DW: output feature c reads input feature c only (inFeatures == outFeatures), with
    // the filter [C][Fcy][Fcx].
    bool depthwise = false;

    // Q formats (fractional bits), each in [0, 31].
    int inQ = 0;
    int filterQ = 0;
    int biasQ = 0;
    int outQ = 0;
};

struct ConvPoolReluShape {
    int features = 0;   // Cout
    int convHeight = 0; // Hc
    int convWidth = 0;  // Wc
    int height = 0;     // Hp (Hc without pooling)
    int width = 0;      // Wp (Wc without pooling)

    bool operator==(const ConvPoolReluShape&) const = default;
};

// Validates the parameters and returns the output shape; throws std::invalid_argument on absurd
// parameters or when the convolution or pooling output would be empty.
ConvPoolReluShape convPoolReluOutputShape(const ConvPoolReluParams& params);

// input CHW [Cin][H][W] in Q inQ, filter [Cout][Cin][Fcy][Fcx] (depthwise: [C][Fcy][Fcx]) in Q
// filterQ, bias [Cout] in Q biasQ; returns CHW [Cout][Hp][Wp] in Q outQ.
std::vector<int16_t> convPoolRelu(const ConvPoolReluParams& params, const std::vector<int16_t>& input,
                                  const std::vector<int16_t>& filter, const std::vector<int16_t>& bias);

// --- Pooling + ReLU alone (CNN_PoolReLU) ------------------------------------------------------

struct PoolReluParams {
    using Pool = ConvPoolReluParams::Pool;
    int features = 1;
    int width = 1;
    int height = 1;
    Pool pool = Pool::Max;
    int poolWidth = 1;
    int poolHeight = 1;
    int strideX = 1;
    int strideY = 1;
    int pad = 0;  // PoolPad on every side; window positions in the padding are skipped
    bool ceilMode = false;  // ONNX ceil_mode, as poolCeilMode of ConvPoolReluParams
    bool relu = false;
};

// Checks the parameters of pooling alone for `kernel` (std::invalid_argument naming it) and
// returns the output {Hp, Wp}: (H + 2*pad - poolHeight) / strideY + 1, the same across; in ceil mode
// the division rounds up, less one when the last window would start past H + pad.
std::pair<int64_t, int64_t> poolOutputShape(const std::string& kernel, const PoolReluParams& params);

// The pooled value of output (y, x) of plane c, over the window positions inside the plane: their
// maximum, or their sum divided by their count rounded to nearest (ndiv).
template <class T>
int64_t pooledValue(const PoolReluParams& p, const std::vector<T>& input, int64_t c, int64_t y, int64_t x);

// input CHW [C][H][W]; returns [C][Hp][Wp] in the same Q format.
std::vector<int16_t> poolRelu(const PoolReluParams& params, const std::vector<int16_t>& input);

// --- Global average pooling (CNN_GlobalPool) --------------------------------------------------

// input CHW [C][H][W] (H * W <= 65535); returns [C] in the same Q format.
std::vector<int16_t> globalAveragePool(int features, int width, int height, const std::vector<int16_t>& input);

// --- Element-wise addition and subtraction (CNN_MatAdd) ---------------------------------------

// a in Q aQ, b in Q bQ (same size); returns a + b in Q outQ (a - b when subtract: each input is
// brought to Q outQ first), then ReLU when asked.
std::vector<int16_t> matAdd(const std::vector<int16_t>& a, int aQ, const std::vector<int16_t>& b, int bQ, int outQ,
                            bool relu, bool subtract = false);

// --- Concatenation along channels (a copy layer) ----------------------------------------------

// The CHW inputs one after the other, each brought to Q outQ: clip16(roundnorm(v, inQ[k] - outQ)).
std::vector<int16_t> concatenate(const std::vector<std::vector<int16_t>>& inputs, const std::vector<int>& inQ,
                                 int outQ);

// --- Channel scaling (a squeeze-and-excitation gate) --------------------------------------------

// Each channel of x [C][plane] times its gate value: clip16(roundnorm(x * gate[c], norm)), with
// norm = xQ + gateQ - outQ (-31..31).
std::vector<int16_t> scaleChannels(const std::vector<int16_t>& x, const std::vector<int16_t>& gate, int64_t plane,
                                   int norm);

// PRelu with one slope per channel (KerPReluChannels): x [C][plane] in Q xQ, slopes [C] in Q
// slopeQ; out = clip16(x >= 0 ? roundnorm(x, norm) : roundnorm(x * slope[c], slopeQ + norm)) with
// norm = xQ - outQ (-31..31), slopeQ 0..15.
std::vector<int16_t> preluChannels(const std::vector<int16_t>& x, const std::vector<int16_t>& slopes, int64_t plane,
                                   int slopeQ, int norm);

// --- Channel runs and channel shuffle (copy layers, any item type, the format kept) ------------

// Channels [begin, begin + count) of a CHW tensor of `plane` values per channel (Split, Slice).
template <class T>
std::vector<T> sliceChannels(const std::vector<T>& input, int64_t plane, int64_t begin, int64_t count);

// ShuffleNet's shuffle of `groups` groups: output channel c is input channel
// (c mod groups) * (channels / groups) + c / groups.
template <class T>
std::vector<T> shuffleChannels(const std::vector<T>& input, int64_t channels, int64_t plane, int64_t groups);

// A concatenation along lines (KerCopyColumns): `blocks` holds the inputs one after the other,
// input k as `lines` lines of widths[k] values; line l of the result joins line l of each input.
template <class T>
std::vector<T> joinLines(const std::vector<T>& blocks, int64_t lines, const std::vector<int>& widths);

// Nearest upsampling (KerUpsampleNearest): each of the `lines` lines of `width` values becomes
// factorY lines of width * factorX values, out[l][r][x] = in[l][x / factorX].
template <class T>
std::vector<T> upsampleNearest(const std::vector<T>& input, int64_t lines, int64_t width, int64_t factorX,
                               int64_t factorY);

// --- Matrix product (CNN_MatMul) --------------------------------------------------------------

// a [lines][inner] in Q aQ, b [inner][columns] in Q bQ, bias [lines] in Q biasQ; returns
// [lines][columns] in Q outQ, then ReLU when asked.
std::vector<int16_t> matMul(int lines, int inner, int columns, const std::vector<int16_t>& a, int aQ,
                            const std::vector<int16_t>& b, int bQ, const std::vector<int16_t>& bias, int biasQ,
                            int outQ, bool relu);

// --- Linear + ReLU (CNN_LinearReLU) -----------------------------------------------------------

// input [inDim] (a CHW tensor in memory order), filter [outDim][inDim], bias [outDim]; returns
// [outDim] in Q outQ. Q formats in [0, 31].
// reluCap > 0 (with relu): KOP_RELUN, values also capped at reluCap.
std::vector<int16_t> linearRelu(int inDim, int outDim, bool relu, int inQ, int filterQ, int biasQ, int outQ,
                                const std::vector<int16_t>& input, const std::vector<int16_t>& filter,
                                const std::vector<int16_t>& bias, int reluCap = 0);

// --- Softmax (CNN_SoftMax) --------------------------------------------------------------------

// input [Dim] in Q inQ (0 <= inQ <= 30, Dim >= 1); returns [Dim] in Q15.
std::vector<int16_t> softmaxQ15(const std::vector<int16_t>& input, int inQ);

// --- Float <-> Q conversion (quantizing constants) --------------------------------------------

// clip16(round-half-away-from-zero(v * 2^q)); throws std::invalid_argument on NaN.
std::vector<int16_t> quantizeQ(const std::vector<float>& values, int q);

// v * 2^-q.
std::vector<float> dequantizeQ(const std::vector<int16_t>& values, int q);

// --- Templates ---------------------------------------------------------------------------------

template <class T>
int64_t pooledValue(const PoolReluParams& p, const std::vector<T>& input, int64_t c, int64_t y, int64_t x)
{
    const int64_t top = y * p.strideY - p.pad, left = x * p.strideX - p.pad;
    int64_t largest = std::numeric_limits<int64_t>::min(), sum = 0, count = 0;
    for (int64_t iy = std::max<int64_t>(top, 0); iy < std::min<int64_t>(top + p.poolHeight, p.height); ++iy)
        for (int64_t ix = std::max<int64_t>(left, 0); ix < std::min<int64_t>(left + p.poolWidth, p.width); ++ix) {
            const int64_t v = input[size_t((c * p.height + iy) * p.width + ix)];
            largest = std::max(largest, v);
            sum += v;
            ++count;
        }
    // count >= 1: poolOutputShape keeps the padding smaller than the window.
    return p.pool == PoolReluParams::Pool::Max ? largest : ndiv(sum, count);
}

template <class T>
std::vector<T> sliceChannels(const std::vector<T>& input, int64_t plane, int64_t begin, int64_t count)
{
    if (plane < 1 || begin < 0 || count < 1 || (begin + count) * plane > int64_t(input.size()))
        throw std::invalid_argument("sliceChannels: channels " + std::to_string(begin) + " to " +
                                    std::to_string(begin + count - 1) + " of planes of " + std::to_string(plane) +
                                    " values are not within the " + std::to_string(input.size()) + " values given");
    return {input.begin() + begin * plane, input.begin() + (begin + count) * plane};
}

template <class T>
std::vector<T> shuffleChannels(const std::vector<T>& input, int64_t channels, int64_t plane, int64_t groups)
{
    if (channels < 1 || plane < 1 || groups < 1 || channels % groups != 0 || channels * plane != int64_t(input.size()))
        throw std::invalid_argument("shuffleChannels: " + std::to_string(input.size()) + " values are not " +
                                    std::to_string(channels) + " channels of " + std::to_string(plane) +
                                    " values in groups of " + std::to_string(groups));
    const int64_t perGroup = channels / groups;
    std::vector<T> out(input.size());
    for (int64_t c = 0; c < channels; ++c) {
        const int64_t from = (c % groups) * perGroup + c / groups;
        std::copy(input.begin() + from * plane, input.begin() + (from + 1) * plane, out.begin() + c * plane);
    }
    return out;
}

template <class T>
std::vector<T> joinLines(const std::vector<T>& blocks, int64_t lines, const std::vector<int>& widths)
{
    int64_t outWidth = 0;
    for (int width : widths)
        outWidth += width;
    if (lines < 1 || lines * outWidth != int64_t(blocks.size()))
        throw std::invalid_argument("joinLines: " + std::to_string(blocks.size()) + " values are not " +
                                    std::to_string(lines) + " lines of " + std::to_string(outWidth));
    std::vector<T> out(blocks.size());
    int64_t block = 0, column = 0;
    for (int width : widths) {
        for (int64_t l = 0; l < lines; ++l)
            std::copy(blocks.begin() + block + l * width, blocks.begin() + block + (l + 1) * width,
                      out.begin() + l * outWidth + column);
        block += lines * width;
        column += width;
    }
    return out;
}

template <class T>
std::vector<T> upsampleNearest(const std::vector<T>& input, int64_t lines, int64_t width, int64_t factorX,
                               int64_t factorY)
{
    if (lines < 1 || width < 1 || factorX < 1 || factorY < 1 || lines * width != int64_t(input.size()))
        throw std::invalid_argument("upsampleNearest: " + std::to_string(input.size()) + " values are not " +
                                    std::to_string(lines) + " lines of " + std::to_string(width) +
                                    ", or a factor is below 1");
    const int64_t outWidth = width * factorX;
    std::vector<T> out(size_t(lines * factorY * outWidth));
    for (int64_t row = 0; row < lines * factorY; ++row)
        for (int64_t x = 0; x < outWidth; ++x)
            out[size_t(row * outWidth + x)] = input[size_t((row / factorY) * width + x / factorX)];
    return out;
}

} // namespace tessera::fixed_point
