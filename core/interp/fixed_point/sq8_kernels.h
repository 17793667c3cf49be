#pragma once
// Reference kernels of Tessera's 8-bit symmetric (SQ8) GAP CNN layers, written straight from
// docs/gap-fixed-point.md ("SQ8") as whole-tensor loops: the oracle the generated GAP code and the
// SQ8 basic kernels (CNN_BasicKernels_SQ8.c) are checked against bit for bit.
//
// As in pow2_kernels.h, inconsistent sizes and absurd parameters throw std::invalid_argument and
// an int32 accumulator that leaves int32 throws std::overflow_error.
#include "interp/fixed_point/pow2_kernels.h"

#include <cstdint>
#include <vector>

namespace tessera::fixed_point::sq8 {

// x limited to [-128, 127].
int8_t clip8(int64_t x);

// clip8(roundnorm(acc * scale, shift)): an int32 accumulator brought back to int8 (scale 0..255,
// shift 0..62).
int8_t requantize(int64_t acc, int scale, int shift);

// A positive real factor as scale / 2^shift with scale in [128, 255] when the factor allows it
// (8 significant bits), shift in [0, 62]; factors too small give scale 0, too large throw
// std::invalid_argument (the quantizer never asks for factors >= 256).
struct Multiplier {
    int scale = 0;
    int shift = 0;
};
Multiplier multiplierFor(double factor);

// The same with a 15-bit multiplier (scale in [16384, 32767] when the factor allows it): used by
// the element-wise addition and the softmax input conversion.
Multiplier multiplier15For(double factor);

// Per-output-feature requantization of convolution and linear layers.
struct ChannelScales {
    std::vector<uint8_t> scale;  // [Cout]
    std::vector<uint8_t> shift;  // [Cout]
};

// Convolution + pooling + activation (CNN_ConvolutionPoolAct_SQ8). The geometry fields of params
// are those of the 16-bit layer (convPoolReluOutputShape checks them); its Q fields are ignored.
// params.relu / params.reluCap: the activation, the cap in the output's int8 units (KOP_RELUN).
// input [Cin][H][W], filter [Cout][Cin][Fcy][Fcx] (depthwise [C][Fcy][Fcx]), bias [Cout] int32;
// returns [Cout][Hp][Wp].
std::vector<int8_t> convPoolAct(const ConvPoolReluParams& params, const std::vector<int8_t>& input,
                                const std::vector<int8_t>& filter, const std::vector<int32_t>& bias,
                                const ChannelScales& scales);

// Tessera's own pooling + activation (KerPoolAct_SQ8, padding skipped); same scale in and out.
// reluCap > 0 caps (with relu).
std::vector<int8_t> poolAct(const PoolReluParams& params, const std::vector<int8_t>& input, int reluCap = 0);

// Tessera's own global average pooling (CNN_GlobalPool_SQ8): input [C][H][W] (H * W <= 65535); returns [C],
// clip8(roundnorm(ndiv(sum * scale, H * W), shift)): the mean brought to the output's scale by the
// multiplier ({1, 0}, the default, keeps the input's scale).
std::vector<int8_t> globalAveragePool(int features, int width, int height, const std::vector<int8_t>& input,
                                      Multiplier multiplier = {1, 0});

// The per-layer "Infos" bytes of the layers on the SDK's contract (CNN_Infos_SQ8.h): what their
// basic kernels read besides the tensors.
struct LayerInfos {
    int actScale = 1;   // AT_INF_ACTSCALE: multiplier after the activation, 0..255 (1 with actScaleN 0 keeps the value)
    int actScaleN = 0;  // AT_INF_ACTSCALEN: its shift, 0..31
    int a0 = 0;         // AT_INF_A0: the bound of ReLU-N, -128..127
    int b0 = 0, c0 = 0; // AT_INF_B0, AT_INF_C0: the standalone activations' other parameters, -128..127
    int biasNorm = 0;   // AT_INF_BIASN: left shift of the biases, 0..31
    // Additions (the bias shift's byte holds in1Scale: a layer has one or the other); a scale 0
    // means no scaling.
    int in1Scale = 0;   // AT_INF_IN1SCALE: multiplier of the first input, 0..255
    int in1ScaleN = 0;  // AT_INF_IN1SCALEN: 0..31
    int outScale = 0;   // AT_INF_OUTSCALE: multiplier of the sum, 0..255
    int outScaleN = 0;  // AT_INF_OUTSCALEN: 0..31
    // Global average pooling (the same bytes again): the multiplier of the mean times 128.
    int sumScale = 0;   // AT_INF_GLOBAL_SUM_SCALE: 0..255
    int sumScaleN = 0;  // AT_INF_GLOBAL_SUM_SCALEN: 0..31
    // Softmax: AT_INF_BIASL_SM, the input's shift into Q15 (0..15), written in actScale's byte; -1: none.
    int softmaxNorm = -1;
    int prenorm = 0;    // AT_INF_PRENORM: the convolutions' sums rounded down by it before scaling, 0..31
};
constexpr int kInfosBytes = 13;  // AT_INF_DIM
// The AT_INF_DIM bytes of `infos` as the generated code reads them (unused bytes 0).
std::vector<int8_t> infosBytes(const LayerInfos& infos);

enum class Activation { None, ReLU, ReLUN };

// Linear + activation (CNN_LinearAct_SQ8) on the SDK's contract, in GAP's wrapping 32-bit
// arithmetic: acc = (bias[o] << biasNorm) + sum_i input[i] * filter[o][i]; v = roundnorm(acc *
// scale[o], shift[o]); for ReLU max(v, 0), for ReLU-N min(max(v, 0), a0), each then roundnorm(v *
// actScale, actScaleN); out = clip8(v). Shifts 0..31. input [inDim] (at most 65535), filter
// [outDim][inDim], bias [outDim] int32; returns [outDim].
std::vector<int8_t> linearAct(int inDim, int outDim, Activation activation, const LayerInfos& infos,
                              const std::vector<int8_t>& input, const std::vector<int8_t>& filter,
                              const std::vector<int32_t>& bias, const ChannelScales& scales);

// Element-wise addition (CNN_MatAddAct_SQ8) on the SDK's contract, in 32 bits, with scale_if(x, S,
// N) = S ? roundnorm32(x * S, N) : x: v = scale_if(a, in1Scale, in1ScaleN) + b; v = scale_if(v,
// outScale, outScaleN); ReLU max(v, 0) or ReLU-N min(max(v, 0), a0), then scale_if(v, actScale,
// actScaleN); out = clip8(v).
std::vector<int8_t> matAddAct(const std::vector<int8_t>& a, const std::vector<int8_t>& b, Activation activation,
                              const LayerInfos& infos);

// Pooling + activation (CNN_PoolAct_SQ8) on the SDK's contract: window positions in the padding
// count as 0 (for the maximum too); the maximum, or the average over the whole window,
// clip8(roundnorm32(sum * ((1 << 16) / (Fx * Fy)), 16)); then ReLU max(v, 0) or ReLU-N min(max(v, 0),
// a0), and out = clip8(scale_if(v, actScale, actScaleN)) (a scale 0: none). No ceil mode.
std::vector<int8_t> sdkPoolAct(const PoolReluParams& params, Activation activation, const LayerInfos& infos,
                               const std::vector<int8_t>& input);

// Global pooling + activation (CNN_GlobalPoolAct_SQ8) on the SDK's contract, input [C][H][W]
// (H * W <= 131071), returns [C]. A plane's value: its maximum, or roundnorm32(((S * 128) / (H * W))
// * sumScale, sumScaleN) with S its sum and the division truncating towards zero. On whole planes
// (wholePlanes, the kernels the generator takes when a plane fits in L1): v = clip8(value), then ReLU
// or ReLU-N (a0 >= 0), then clip8(scale_if(v, actScale, actScaleN)); on tiles of lines: the scaling
// first, then the activation, then clip8 (the same results when actScale is 0).
std::vector<int8_t> sdkGlobalPoolAct(int features, int width, int height, bool maximum, Activation activation,
                                     const LayerInfos& infos, const std::vector<int8_t>& input,
                                     bool wholePlanes = true);

// Element-wise addition (Tessera's CNN_MatAdd_SQ8): clip8(roundnorm(a * scaleA + b * scaleB, shift)), then
// ReLU when asked (scaleA 0..32767, shift 0..62; scaleB -32767..32767, negative for a subtraction).
std::vector<int8_t> matAdd(const std::vector<int8_t>& a, int scaleA, const std::vector<int8_t>& b, int scaleB,
                           int shift, bool relu);

// Concatenation along channels (a copy layer): the inputs one after the other, each brought to the
// output's scale, clip8(roundnorm(v * scales[k].scale, scales[k].shift)) (scale 0..32767).
std::vector<int8_t> concatenate(const std::vector<std::vector<int8_t>>& inputs, const std::vector<Multiplier>& scales);

// Each channel of x [C][plane] times its gate value, to the output's scale:
// clip8(roundnorm(x * gate[c] * scale, shift)) (scale 0..32767).
std::vector<int8_t> scaleChannels(const std::vector<int8_t>& x, const std::vector<int8_t>& gate, int64_t plane,
                                  Multiplier multiplier);

// PRelu with one slope per channel (KerPReluChannels_SQ8): x [C][plane], slopes [C] as int16 in Q
// slopeQ (0..15), the multiplier from x's scale to the output's: clip8(roundnorm(x * scale, shift))
// where x >= 0, clip8(roundnorm(x * slope[c] * scale, shift + slopeQ)) elsewhere.
std::vector<int8_t> preluChannels(const std::vector<int8_t>& x, const std::vector<int16_t>& slopes, int64_t plane,
                                  int slopeQ, Multiplier multiplier);

// Tessera's own softmax (KerSoftMax_SQ8): t = clip16(roundnorm(in * scale, shift)) in Q inQ, then the 16-bit
// softmaxQ15 of t. Returns [Dim] in Q15.
std::vector<int16_t> softmaxQ15(const std::vector<int8_t>& input, int scale, int shift, int inQ);

// The standalone activations of CNN_Act_SQ8 (Ker_<name>_SQ8).
enum class StandaloneActivation { None, ReLU, ReLUN, ReLUM, ReLUMN, HSigmoid, HSwish, LeakyReLU };

// A standalone activation (CNN_Act_SQ8) on the SDK's contract, each value v in GAP's 32 bits, with
// S(x) = roundnorm32(x * actScale, actScaleN) always applied: None v; ReLU S(max(v, 0)); ReLUN
// S(min(max(v, 0), a0)); ReLUM S(max(v, a0)); ReLUMN S(max(min(v, b0), a0)); HSigmoid
// S(min(max(v + b0, 0), a0)) + c0; HSwish S(min(max(v + b0, 0), a0) * v) + c0; LeakyReLU
// S(v < 0 ? roundnorm(v * a0, 7) : v) + b0; then clip8.
std::vector<int8_t> sdkStandaloneAct(StandaloneActivation activation, const LayerInfos& infos,
                                     const std::vector<int8_t>& input);
// The same formula on one 32-bit value, before the clip8 (the convolutions' reductions apply it to
// their scaled sums).
int32_t sdkActivation(StandaloneActivation activation, const LayerInfos& infos, int32_t v);

// A convolution layer on the SDK's contract (CNN_ConvolutionPoolAct_SQ8), with its padding per side.
struct SdkConvParams {
    int inFeatures = 1, outFeatures = 1, width = 1, height = 1;
    int filterWidth = 1, filterHeight = 1, strideX = 1, strideY = 1, dilationX = 1, dilationY = 1;
    int padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
    bool depthwise = false;  // KOP_CONV_DW: outFeatures == inFeatures, filter [C][Fy][Fx]
    // Pooling after the convolution (sdkPoolAct's: its padding on every side); None: none.
    PoolReluParams::Pool pool = PoolReluParams::Pool::None;
    int poolWidth = 1, poolHeight = 1, poolStrideX = 1, poolStrideY = 1, poolPad = 0;
};

// CNN_ConvolutionPoolAct_SQ8 on the SDK's contract, in GAP's wrapping 32-bit arithmetic. Each output:
// acc = (bias[o] << biasNorm) + its taps (those in the padding skipped); a full convolution's acc =
// roundnorm32(acc, prenorm); v = roundnorm32(acc * scale[o], shift[o]). Without pooling, the
// activation on v then clip8, except for a depthwise one whose activation its kernel does not fuse
// (other than None, ReLU, ReLUN, ReLUM): clip8 first, then the standalone activation. With pooling:
// clip8(v), pooled as sdkPoolAct with its ReLU / ReLU-N and scaling (no activation: the scaling
// alone), any other activation then standalone on the pooled int8. input [Cin][H][W], filter
// [Cout][Cin][Fy][Fx], bias [Cout]; returns [Cout][Ho][Wo].
std::vector<int8_t> sdkConvPoolAct(const SdkConvParams& params, StandaloneActivation activation,
                                   const LayerInfos& infos, const std::vector<int8_t>& input,
                                   const std::vector<int8_t>& filter, const std::vector<int32_t>& bias,
                                   const ChannelScales& scales);

// The SDK's exponential (its softmax kernels): e^(-y / 2^15) in Q15 for y >= 0, y = n + r (Q15) with
// n an integer and r in [-1/2, 1/2): p = 32767 + roundnorm(sum_k=1..8 z_k * c_k, 15), z_1 = r,
// z_k+1 = roundnorm(z_k * r, 15), c_k = min(round(2^15 / k!), 32767); e = roundnorm(p * f_n, 15) +
// p * i_n with i_n + f_n / 2^15 = e^n (i_n its integer part, f_n the fraction rounded, n <= 11);
// returns ((2^31 - 1) / e) >> 1, 32768 for y = 0 and 0 for n >= 12 (docs/gap-fixed-point.md,
// "Softmax on the SDK's contract").
uint32_t sdkExpQ15(uint32_t y);

// Softmax (CNN_SoftMax2D_SQ8) on the SDK's contract: input [features][dim] int8 of scale
// 2^(norm - 15) (norm 0..15), each vector on its own: e[i] = sdkExpQ15((max - in[i]) << norm), S the
// sum, I = (32767 * 2^15) / S, out[i] = min((e[i] * I + 2^(b - 1)) >> b, 2^(23 - b) - 1) with b = 15
// (Q15 outputs, outBits 15) or 23 (Q7, outBits 7). dim at most 65535.
std::vector<int16_t> sdkSoftmax(const std::vector<int8_t>& input, int features, int norm, int outBits);

// clip8(round-half-away-from-zero(v / scale)); scale > 0. Throws std::invalid_argument on NaN.
std::vector<int8_t> quantize(const std::vector<float>& values, double scale);

// v * scale.
std::vector<float> dequantize(const std::vector<int8_t>& values, double scale);

} // namespace tessera::fixed_point::sq8
