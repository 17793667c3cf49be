/* Tessera's CNN basic kernels in 8-bit symmetric quantization (SQ8), called by the code the SQ8
 * CNN generators produce (CNN_Generators.h, the *_SQ8 generators). The arithmetic is defined in
 * docs/gap-fixed-point.md ("SQ8") and is bit-exact with the reference interpreter's SQ8 kernels.
 *
 * Activations are int8 with one scale per tensor, filters int8 with one scale per output feature,
 * biases int32 in the accumulator's scale. An int32 accumulator goes back to int8 through a
 * per-feature multiplier and shift:
 *   requant(acc, Scale, ScaleN) = clip8(roundnorm((int64) acc * Scale, ScaleN))
 * (Scale 0..255, ScaleN 0..62; roundnorm as in the 16-bit kernels: halves rounded up).
 *
 * Like the 16-bit kernels, all kernels are parallel (split with gap_coreid()/gap_ncore(), end on a
 * team barrier), tiles are compact in L1, and the ReLU argument is 0 none, 1 max(v, 0), N > 1
 * min(max(v, 0), N). The pooling operations are the CNN_POOL_* of CNN_BasicKernels.h. */
#ifndef TESSERA_CNN_BASIC_KERNELS_SQ8_H
#define TESSERA_CNN_BASIC_KERNELS_SQ8_H

#include "CNN_BasicKernels.h"
#include "CNN_Copy.h"
#include "CNN_Infos_SQ8.h"

/* Sets every value of Feat planes of W x H int32 accumulators to Bias[f] (already in the
 * accumulator's scale). */
typedef struct {
    int * __restrict__ Out;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    int * __restrict__ Bias;
} KerSetBias_SQ8_Arg_T;
void KerSetBias_SQ8(KerSetBias_SQ8_Arg_T *Arg);

/* KerConv32 on int8 data: adds one input feature's contribution to Feat int32 output planes,
 * with the same geometry and padding rules as KerConv32. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int H;
    signed char * __restrict__ Filter;
    int * __restrict__ Out;
    unsigned int Wo;
    unsigned int Ho;
    unsigned int Feat;
    unsigned int Fx;
    unsigned int Fy;
    unsigned int Sx;
    unsigned int Sy;
    unsigned int Dx;
    unsigned int Dy;
    unsigned int PadL;
} KerConv_SQ8_Arg_T;
void KerConv_SQ8(KerConv_SQ8_Arg_T *Arg);

/* From Feat planes of W x H int32 accumulators to Feat planes of Wo x Ho int8 outputs:
 * v = requant(acc, Scale[f], ScaleN[f]), then pooling (as KerNormPoolReLU: CNN_POOL_*, window
 * Fx x Fy, stride Sx, Sy, padding PadL / PadT with the tile at TileOffset in a plane of PlaneH lines;
 * average = ndiv(sum, positions inside the plane)), then ReLU. */
typedef struct {
    int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    signed char * __restrict__ Out;
    unsigned int Wo;
    unsigned int Ho;
    unsigned char * __restrict__ Scale;
    unsigned char * __restrict__ ScaleN;
    unsigned int PoolOper;
    unsigned int Fx;
    unsigned int Fy;
    unsigned int Sx;
    unsigned int Sy;
    unsigned int ReLU;
    unsigned int PadL;  /* padding columns left of the plane */
    unsigned int PadT;  /* padding lines above the plane */
    unsigned int TileOffset;
    unsigned int PlaneH;
} KerScalePoolAct_SQ8_Arg_T;
void KerScalePoolAct_SQ8(KerScalePoolAct_SQ8_Arg_T *Arg);

/* Linear layer on the SDK's contract (GreenWaves' KerLinear_SQ8_T and kernel names, so the code
 * Tessera generates links with the SDK's CNN_Libraries_SQ8 too), for OutDim outputs (one tile of
 * them) of the whole InDim inputs, all 32-bit arithmetic wrapping as on GAP:
 *   acc = (Bias[o] << Infos[AT_INF_BIASN]) + sum_i In[i] * Weights[o*InDim + i]
 *   v = roundnorm(acc * Scale[o], ScaleN[o])
 * then the activation of the kernel's name: none; ReLU max(v, 0); ReLUN min(max(v, 0), A0) (A0 =
 * Infos[AT_INF_A0], a signed byte), the last two followed by roundnorm(v * ActScale, ActScaleN)
 * (Infos[AT_INF_ACTSCALE], [AT_INF_ACTSCALEN], unsigned bytes; 1 and 0 keep v); and Out[o] =
 * clip8(v). TotalInDim is InDim here. */
typedef struct {
    signed char * __restrict__ In;
    signed char * __restrict__ Weights;
    void * __restrict__ Bias;
    int * __restrict__ Out;        /* int8 outputs, written through a signed char pointer */
    unsigned short int InDim;
    unsigned short int TotalInDim;
    unsigned short int OutDim;
    unsigned char * __restrict__ Scale;
    unsigned char * __restrict__ ScaleN;
    signed char * __restrict__ Infos;
} KerLinear_SQ8_T;
void KerParLinearLayerFullFeatB32_SQ8(KerLinear_SQ8_T *Arg);
void KerParLinearLayerFullFeatB32_ReLU_SQ8(KerLinear_SQ8_T *Arg);
void KerParLinearLayerFullFeatB32_ReLUN_SQ8(KerLinear_SQ8_T *Arg);

/* Pooling alone on Feat planes of W x H int8 values (as KerPoolReLU, padding included; the scale
 * does not change), then ReLU. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    signed char * __restrict__ Out;
    unsigned int Wo;
    unsigned int Ho;
    unsigned int PoolOper;
    unsigned int Fx;
    unsigned int Fy;
    unsigned int Sx;
    unsigned int Sy;
    unsigned int ReLU;
    unsigned int PadL;  /* padding columns left of the plane */
    unsigned int PadT;  /* padding lines above the plane */
    unsigned int TileOffset;
    unsigned int PlaneH;
} KerPoolAct_SQ8_Arg_T;
void KerPoolAct_SQ8(KerPoolAct_SQ8_Arg_T *Arg);

/* Pooling on the SDK's contract (GreenWaves' KerPool_SQ8_T and kernel names), on Feat planes of a
 * W x H tile: Wo = (UsedW - FS + Pad[0] + Pad[1]) / S + 1 outputs across, Ho = (UsedH - FSy + Pad[2]
 * + Pad[3]) / Sy + 1 down (Pad: left, right, top, bottom). The window of output (y, x) starts at
 * line y * Sy - Pad[2], column x * S - Pad[0]; positions outside the tile count as 0 (the SDK's
 * zero padding, for the maximum too). PoolMax: its maximum; else the average over the whole window,
 * clip8(roundnorm(sum * ((1 << 16) / (FS * FSy)), 16)). Then, with ActScale = Infos[AT_INF_ACTSCALE]
 * (unsigned), ActScaleN = Infos[AT_INF_ACTSCALEN] and A0 = Infos[AT_INF_A0]: ReLU max(v, 0) or ReLUN
 * min(max(v, 0), A0) as the name says, and when ActScale is not 0 (and, for the kernel without an
 * activation, DoScale is set) v = clip8(roundnorm32(v * ActScale, ActScaleN)). The 2x2Stride2 kernels
 * take FS = FSy = S = Sy = 2, the NxNStrideS ones FSy = FS and Sy = S; D, Dy and Orientation are not
 * read. */
typedef struct {
    signed char * __restrict__ In;
    signed char * __restrict__ Out;
    unsigned short int Feat;
    unsigned short int W;
    unsigned short int UsedW;
    unsigned short int H;
    unsigned short int UsedH;
    unsigned char PoolMax;
    unsigned short FS;
    unsigned short FSy;
    unsigned char S;
    unsigned char Sy;
    unsigned char D;
    unsigned char Dy;
    unsigned char Orientation;
    unsigned char DoScale;
    v4s Pad;
    signed char * __restrict__ Infos;
} KerPool_SQ8_T;
void KerParPool2x2Stride2_SQ8(KerPool_SQ8_T *Arg);
void KerParPool2x2Stride2_ReLU_SQ8(KerPool_SQ8_T *Arg);
void KerParPool2x2Stride2_ReLUN_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxNStrideS_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxNStrideS_ReLU_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxNStrideS_ReLUN_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxMStrideSxSy_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxMStrideSxSy_ReLU_SQ8(KerPool_SQ8_T *Arg);
void KerParPoolNxMStrideSxSy_ReLUN_SQ8(KerPool_SQ8_T *Arg);

/* Global pooling on the SDK's contract (GreenWaves' KerGlobalPool_SQ8_T and kernel names), Feat
 * planes of W x H int8 values, their count WH = W * H. With Scale = Infos[AT_INF_GLOBAL_SUM_SCALE],
 * ScaleN = Infos[AT_INF_GLOBAL_SUM_SCALEN], ActScale = Infos[AT_INF_ACTSCALE], ActScaleN =
 * Infos[AT_INF_ACTSCALEN] (unsigned) and A0 = Infos[AT_INF_A0] (0..127), a plane's value is
 *   average: roundnorm32(((S * 128) / WH) * Scale, ScaleN) (S its sum, / truncating towards 0);
 *   maximum: its largest value;
 * and "scaled" means ActScale is not 0 and the kernel has an activation or DoScale is set.
 * FullFeat kernels take whole planes (Out: Feat int8 values): v = clip8(value), then ReLU max(v, 0) or
 * ReLUN min(max(v, 0), A0) as the name says, then, scaled, v = clip8(roundnorm32(v * ActScale,
 * ActScaleN)). KerParGlobalAvgPool_SQ8 / KerParGlobalMaxPool_SQ8 take a tile of the planes' lines
 * and carry each plane's int32 sum / maximum in Out (started over when FirstTile is set); the
 * _Reduct kernels then turn those (In, int32) into Out (int8), with W x H the whole planes':
 * v = value, then, scaled, v = roundnorm32(v * ActScale, ActScaleN), the activation, clip8. */
typedef struct {
    void * __restrict__ In;
    unsigned short int W;
    unsigned short int H;
    unsigned short int Feat;
    unsigned char FirstTile;
    unsigned char DoScale;
    void * __restrict__ Out;
    signed char * __restrict__ Infos;
} KerGlobalPool_SQ8_T;
void KerParGlobalAvgPoolFullFeat_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPoolFullFeat_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPoolFullFeat_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPoolFullFeat_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPoolFullFeat_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPoolFullFeat_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPool_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPool_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPool_Reduct_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPool_Reduct_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalAvgPool_Reduct_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPool_Reduct_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPool_Reduct_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg);
void KerParGlobalMaxPool_Reduct_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg);

/* Global average pooling of one int8 plane, tile by tile (the sum is cleared by KerGlobalSumInit):
 * KerGlobalSum_SQ8 adds the W x H values of a tile (Partial: one int32 per core, at most 8 cores),
 * KerGlobalAvgFinish_SQ8 writes clip8(roundnorm(ndiv(sum * Scale, Count), ScaleN)) (Count = W x H of
 * the whole plane; Scale / 2^ScaleN the multiplier from the input's scale to the output's, 1 / 2^0
 * to keep the scale). */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int H;
    int * __restrict__ Sum;
    int * __restrict__ Partial;
} KerGlobalSum_SQ8_Arg_T;
void KerGlobalSum_SQ8(KerGlobalSum_SQ8_Arg_T *Arg);
void KerGlobalAvgFinish_SQ8(int * __restrict__ Sum, unsigned int Count, int Scale, int ScaleN,
                            signed char * __restrict__ Out);

/* Element-wise sum (or difference) of W x H int8 values of two scales into the output's scale, with
 * 15-bit multipliers and one rounding (Tessera's own CNN_MatAdd_SQ8):
 *   Out = clip8(roundnorm(In1 * Scale1 + In2 * Scale2, ScaleN))   (int64; Scale1 0..32767, Scale2
 * -32767..32767, negative for a difference) then ReLU. */
typedef struct {
    signed char * __restrict__ In1;
    signed char * __restrict__ In2;
    signed char * __restrict__ Out;
    unsigned int W;
    unsigned int H;
    int Scale1;
    int Scale2;
    int ScaleN;
    unsigned int ReLU;
} KerMatAddScaled_SQ8_Arg_T;
void KerMatAddScaled_SQ8(KerMatAddScaled_SQ8_Arg_T *Arg);

/* Element-wise addition on the SDK's contract (GreenWaves' KerMat3_SQ8_T and kernel names), on Feat
 * values (a tile of the tensors taken as one line of items; DoScale is not read). With
 * scale_if(x, S, N) = S ? roundnorm32(x * S, N) : x (a scale 0 means none), in 32 bits:
 *   v = scale_if(In1, In1Scale, In1ScaleN) + In2;  v = scale_if(v, OutScale, OutScaleN)
 * then the activation of the kernel's name: none; ReLU max(v, 0); ReLUN min(max(v, 0), A0); the last
 * two followed by scale_if(v, ActScale, ActScaleN); and Out = clip8(v). The scales and shifts are
 * the unsigned bytes Infos[AT_INF_IN1SCALE], [AT_INF_IN1SCALEN], [AT_INF_OUTSCALE],
 * [AT_INF_OUTSCALEN], [AT_INF_ACTSCALE], [AT_INF_ACTSCALEN]; A0 the signed byte Infos[AT_INF_A0]. */
typedef struct {
    signed char * __restrict__ In1;
    signed char * __restrict__ In2;
    signed char * __restrict__ Out;
    unsigned short int Feat;
    unsigned short int W;
    unsigned short int H;
    unsigned char DoScale;
    signed char * __restrict__ Infos;
} KerMat3_SQ8_T;
void KerMatAdd_SQ8(KerMat3_SQ8_T *Arg);
void KerMatAdd_ReLU_SQ8(KerMat3_SQ8_T *Arg);
void KerMatAdd_ReLUN_SQ8(KerMat3_SQ8_T *Arg);

/* Tessera's own softmax of N int8 values to Q15: each value is first brought to Q(InQ) in 16 bits,
 *   t = clip16(roundnorm(In[i] * Scale, ScaleN))
 * then the 16-bit softmax (KerSoftMax) of t in Q(InQ) gives Out. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int N;
    int Scale;
    int ScaleN;
    int InQ;
    short int * __restrict__ Out;
} KerSoftMax_SQ8_Arg_T;
void KerSoftMax_SQ8(KerSoftMax_SQ8_Arg_T *Arg);

/* Standalone activations on the SDK's contract (GreenWaves' KerActivation_SQ8_T and kernel names,
 * CNN_Act_SQ8): the Feat x W x H int8 values of In, each v through its activation into Out,
 * clip8. With A0, B0, C0 the signed bytes Infos[AT_INF_A0], [AT_INF_B0], [AT_INF_C0] and
 * S(x) = roundnorm32(x * Infos[AT_INF_ACTSCALE], Infos[AT_INF_ACTSCALEN]) (always applied, a scale 0
 * gives 0): ActNone v; ReLU S(max(v, 0)); ReLUN S(min(max(v, 0), A0)); ReLUM S(max(v, A0)); ReLUMN
 * S(max(min(v, B0), A0)); HSigmoid S(min(max(v + B0, 0), A0)) + C0; HSwish S(min(max(v + B0, 0), A0) *
 * v) + C0; LeakyReLU S(v < 0 ? roundnorm(v * A0, 7) : v) + B0 (docs/gap-fixed-point.md,
 * "Standalone activations"). */
typedef struct {
    signed char * __restrict__ In;
    signed char * __restrict__ Out;
    unsigned short int Feat;
    unsigned short int W;
    unsigned short int H;
    signed char * __restrict__ Infos;
} KerActivation_SQ8_T;
void Ker_ActNone_SQ8(KerActivation_SQ8_T *Arg);
void Ker_ReLU_SQ8(KerActivation_SQ8_T *Arg);
void Ker_ReLUN_SQ8(KerActivation_SQ8_T *Arg);
void Ker_ReLUM_SQ8(KerActivation_SQ8_T *Arg);
void Ker_ReLUMN_SQ8(KerActivation_SQ8_T *Arg);
void Ker_HSigmoid_SQ8(KerActivation_SQ8_T *Arg);
void Ker_HSwish_SQ8(KerActivation_SQ8_T *Arg);
void Ker_LeakyReLU_SQ8(KerActivation_SQ8_T *Arg);

/* Convolutions on the SDK's contract (GreenWaves' KerSetBias_SQ8_T, KerConv_SQ8_T and
 * KerConvLinReduct_SQ8_T and their kernel names, CNN_ConvolutionPoolAct_SQ8): 32-bit sums set to the
 * biases, the input planes' contributions added to them, then brought to int8.
 * KerParSetBiasB32_SQ8: the W x H sums of each of Feat planes set to Bias[f] << NormBias (int biases).
 * KerParConv<shape>_SQ8: for each of OutFeatures planes of Wo x Ho sums (Wo, Ho as for the depthwise
 * kernels below) and each of InFeatures W x H int8 input planes (the first UsedW columns and UsedH
 * lines read), the convolution with filter Filter + Fx*Fy*(TotalInFeatures*of + if) (zero padding
 * Pad: its taps skipped) added to the sums, 32 bits wrapping. The fields read as for the depthwise
 * kernels; 1D_NStrideS and Nx1StrideSxS1 read N and S (Fy 1, Sy 1), 3x3DxDy* D and Dy (and S, Sy for
 * StrideSxSy), 3x3DxD2 D. Output planes are split over the cores.
 * KerParReduct_CC<act>_SQ8: each of the Feat x W x H sums v = roundnorm32(v, Infos[AT_INF_PRENORM]),
 * v = roundnorm32(v * Scale[f], ScaleN[f]), then the activation of the name as the standalone ones
 * (Ker_<act>_SQ8 above, on the 32-bit v), clip8, into Out, plane after plane. KerParReductIO_CC<act>_SQ8
 * does the same in place: the int8 planes end at the start of In, one after the other. */
typedef struct {
    int * __restrict__ Out;
    unsigned short int W;
    unsigned short int H;
    unsigned short int Feat;
    void * __restrict__ Bias;
    unsigned char NormBias;
} KerSetBias_SQ8_T;
void KerParSetBiasB32_SQ8(KerSetBias_SQ8_T *Arg);

typedef struct {
    signed char * __restrict__ In;
    unsigned short int W;
    unsigned short int UsedW;
    unsigned short int H;
    unsigned short int UsedH;
    unsigned short int InFeatures;
    unsigned short int OutFeatures;
    unsigned short int TotalInFeatures;
    signed char * __restrict__ Filter;
    signed char * __restrict__ Bias;
    int * __restrict__ Out;
    v4s Pad;
    unsigned char NormBias;
    unsigned char Orientation;
    unsigned short N;
    unsigned char S;
    unsigned char D;
    unsigned short Ny;
    unsigned char Sy;
    unsigned char Dy;
} KerConv_SQ8_T;
void KerParConv1x1Stride1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x1Stride2_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x1StrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x1Stride2x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x3Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x3Stride1x2_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3Stride1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3Stride2_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3StrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConv4x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x4Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv5x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv5x1Stride2x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x5Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1x5Stride1x2_SQ8(KerConv_SQ8_T *Arg);
void KerParConv5x5Stride1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv5x5Stride2_SQ8(KerConv_SQ8_T *Arg);
void KerParConv5x5StrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConv7x7StrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConv13x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv1D_NStrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConvNx1StrideSxS1_SQ8(KerConv_SQ8_T *Arg);
void KerParConvNxNStrideS_SQ8(KerConv_SQ8_T *Arg);
void KerParConvNxMStrideSxSy_SQ8(KerConv_SQ8_T *Arg);
void KerParConvNxMDxDyStrideSxSy_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3DxDyStrideSxSy_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3DxDyStride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D2x2Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D4x4Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D8x8Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D2x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D4x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3D8x1Stride1x1_SQ8(KerConv_SQ8_T *Arg);
void KerParConv3x3DxD2Stride1x1_SQ8(KerConv_SQ8_T *Arg);

typedef struct {
    int * __restrict__ In;
    void * __restrict__ Out;
    unsigned short int Feat;
    unsigned short int W;
    unsigned short int H;
    unsigned char * __restrict__ Scale;
    unsigned char * __restrict__ ScaleN;
    signed char * __restrict__ Infos;
} KerConvLinReduct_SQ8_T;
#define TESSERA_REDUCT_KERNELS(Suffix)                                    \
    void KerParReduct_CC##Suffix##_SQ8(KerConvLinReduct_SQ8_T *Arg); \
    void KerParReductIO_CC##Suffix##_SQ8(KerConvLinReduct_SQ8_T *Arg);
TESSERA_REDUCT_KERNELS()
TESSERA_REDUCT_KERNELS(_ReLU)
TESSERA_REDUCT_KERNELS(_ReLUN)
TESSERA_REDUCT_KERNELS(_ReLUM)
TESSERA_REDUCT_KERNELS(_ReLUMN)
TESSERA_REDUCT_KERNELS(_HSigmoid)
TESSERA_REDUCT_KERNELS(_HSwish)
TESSERA_REDUCT_KERNELS(_LeakyReLU)
#undef TESSERA_REDUCT_KERNELS

/* Depthwise convolutions on the SDK's contract (GreenWaves' KerConvRedAct_SQ8_T and kernel names,
 * CNN_ConvolutionPoolAct_SQ8 with KOP_CONV_DW): OutFeatures planes, each W x H int8 input plane (of
 * which the first UsedW columns and UsedH lines are read) convolved with its own Fx x Fy int8 filter,
 * stride Sx x Sy, dilation Dx x Dy, zero padding Pad (left, right, top, bottom; the taps that fall
 * in it are skipped), into Wo x Ho int8 outputs, Wo = (UsedW - (Dx(Fx-1)+1) + PadL + PadR) / Sx + 1
 * (Ho likewise), planes one after the other. Each output: Acc = (Bias[f] << NormBias) + the sum of
 * its taps, 32 bits wrapping; v = roundnorm32(Acc * Scale[f], ScaleN[f]); then the activation of the
 * name, with A0 the signed byte Infos[AT_INF_A0] and S(x) = roundnorm32(x * Infos[AT_INF_ACTSCALE],
 * Infos[AT_INF_ACTSCALEN]): none v, _ReLU S(max(v, 0)), _ReLUN S(min(max(v, 0), A0)), _ReLUM
 * S(max(v, A0)); clip8 (docs/gap-fixed-point.md, "Depthwise convolution on the SDK's contract").
 * Fixed shapes read no size, stride or dilation fields; StrideS reads S, NxN N and S, NxM N, Ny, S
 * and Sy, NxMDxDy D and Dy as well. Planes are split over the cores. */
typedef struct {
    signed char * __restrict__ In;
    signed char * __restrict__ Filter;
    signed char * __restrict__ Bias;
    signed char * __restrict__ Scale;
    signed char * __restrict__ ScaleN;
    signed char * __restrict__ Infos;
    signed char * __restrict__ Out;
    unsigned short int W;
    unsigned short int UsedW;
    unsigned short int H;
    unsigned short int UsedH;
    unsigned short int InFeatures;
    unsigned short int OutFeatures;
    unsigned short int TotalInFeatures;
    v4s Pad;
    unsigned char NormBias;
    unsigned char Orientation;
    unsigned short N;
    unsigned char S;
    unsigned char D;
    unsigned short Ny;
    unsigned char Sy;
    unsigned char Dy;
} KerConvRedAct_SQ8_T;
#define TESSERA_DW_RED_ACT_KERNELS(Shape)                                 \
    void KerParConvDWRedAct##Shape##B32_SQ8(KerConvRedAct_SQ8_T *Arg);       \
    void KerParConvDWRedAct##Shape##B32_ReLU_SQ8(KerConvRedAct_SQ8_T *Arg);  \
    void KerParConvDWRedAct##Shape##B32_ReLUM_SQ8(KerConvRedAct_SQ8_T *Arg); \
    void KerParConvDWRedAct##Shape##B32_ReLUN_SQ8(KerConvRedAct_SQ8_T *Arg);
TESSERA_DW_RED_ACT_KERNELS(1x1Stride1)
TESSERA_DW_RED_ACT_KERNELS(1x1Stride2)
TESSERA_DW_RED_ACT_KERNELS(1x1StrideS)
TESSERA_DW_RED_ACT_KERNELS(3x1Stride1x1)
TESSERA_DW_RED_ACT_KERNELS(3x1Stride2x1)
TESSERA_DW_RED_ACT_KERNELS(1x3Stride1x1)
TESSERA_DW_RED_ACT_KERNELS(1x3Stride1x2)
TESSERA_DW_RED_ACT_KERNELS(3x3Stride1)
TESSERA_DW_RED_ACT_KERNELS(3x3Stride2)
TESSERA_DW_RED_ACT_KERNELS(3x3StrideS)
TESSERA_DW_RED_ACT_KERNELS(5x1Stride1x1)
TESSERA_DW_RED_ACT_KERNELS(5x1Stride2x1)
TESSERA_DW_RED_ACT_KERNELS(1x5Stride1x1)
TESSERA_DW_RED_ACT_KERNELS(1x5Stride1x2)
TESSERA_DW_RED_ACT_KERNELS(5x5Stride1)
TESSERA_DW_RED_ACT_KERNELS(5x5Stride2)
TESSERA_DW_RED_ACT_KERNELS(5x5StrideS)
TESSERA_DW_RED_ACT_KERNELS(7x7StrideS)
TESSERA_DW_RED_ACT_KERNELS(NxNStrideS)
TESSERA_DW_RED_ACT_KERNELS(NxMStrideSxSy)
TESSERA_DW_RED_ACT_KERNELS(NxMDxDyStrideSxSy)
#undef TESSERA_DW_RED_ACT_KERNELS

/* Softmax on the SDK's contract (GreenWaves' KerSoftMax_SQ8_T and kernel names): Feat vectors of N
 * int8 values one after the other, each normalized on its own, the input's scale 2^(Norm - 15) with
 * Norm = Infos[AT_INF_BIASL_SM] (0 to 15; the Norm field is not read, as in the SDK). With M a
 * vector's maximum, e[i] = the SDK's exponential of -((M - In[i]) << Norm) in Q15 (a table of e^n
 * and a degree-8 Taylor polynomial, docs/gap-fixed-point.md, "Softmax on the SDK's contract"),
 * S = sum e[i] and I = (32767 * 2^15) / S, then Out[i] = (e[i] * I + 2^14) >> 15 in Q15 (short
 * int) for KerParSoftMax_SQ8, min((e[i] * I + 2^22) >> 23, 127) in Q7 (signed char) for
 * KerParSoftMax8Bits_SQ8. */
typedef struct {
    signed char * __restrict__ In;
    unsigned short int Feat;
    unsigned short int N;
    unsigned short int Norm;
    void * __restrict__ Out;
    signed char * __restrict__ Infos;
} KerSoftMax_SQ8_T;
void KerParSoftMax_SQ8(KerSoftMax_SQ8_T *Arg);
void KerParSoftMax8Bits_SQ8(KerSoftMax_SQ8_T *Arg);

/* One input of a concatenation along channels (see KerCopyRows): Rows lines of W int8 values of In
 * brought to the output's scale, clip8(roundnorm(In * Scale, ScaleN)) (Scale 0..32767), written to
 * lines RowOffset.. of Out. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    signed char * __restrict__ Out;
    unsigned int RowOffset;
    int Scale;
    int ScaleN;
} KerCopyRows_SQ8_Arg_T;
void KerCopyRows_SQ8(KerCopyRows_SQ8_Arg_T *Arg);

/* One input of a concatenation along H or W, tile by tile: each of the Lines lines of W values of
 * In (a horizontal tile) is brought to the output's format, clip8(roundnorm(In * Scale, ScaleN)), and written to
 * columns ColOffset to ColOffset + W - 1 of the same line of Out, whose lines are OutW wide. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Lines;
    signed char * __restrict__ Out;
    unsigned int OutW;
    unsigned int ColOffset;
    int Scale;
    int ScaleN;
} KerCopyColumns_SQ8_Arg_T;
void KerCopyColumns_SQ8(KerCopyColumns_SQ8_Arg_T *Arg);

/* A run of channels (Split, Slice along channels), tile by tile: lines InRowOffset to
 * InRowOffset + Rows - 1 of In (a vertical tile, W columns of each channel) copied to Out. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    unsigned int InRowOffset;
    signed char * __restrict__ Out;
} KerSliceRows_SQ8_Arg_T;
void KerSliceRows_SQ8(KerSliceRows_SQ8_Arg_T *Arg);

/* The channel shuffle of ShuffleNet (Reshape to [Groups][Rows / Groups], Transpose, Reshape),
 * tile by tile: line r of Out is line (r % Groups) * (Rows / Groups) + r / Groups of In. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    unsigned int Groups;
    signed char * __restrict__ Out;
} KerShuffleRows_SQ8_Arg_T;
void KerShuffleRows_SQ8(KerShuffleRows_SQ8_Arg_T *Arg);

/* An activation of int8 items (docs/gap-fixed-point.md, "Activations") on the W x H items of a tile: Kind is
 * AT_ACT_SIGMOID, AT_ACT_TANH, AT_ACT_HSIGMOID, AT_ACT_HSWISH, AT_ACT_LEAKYRELU or AT_ACT_SWISH
 * (CNN_KernelHelpers.h);
 * the input reaches Q12 by InScale / 2^InShift, the result the output's scale by OutScale / 2^OutShift. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int H;
    signed char * __restrict__ Out;
    int Kind;
    int InScale;
    int InShift;
    int Offset;
    int Cap;
    int Alpha;
    int OutScale;
    int OutShift;
} KerActivation_SQ8_Arg_T;
void KerActivation_SQ8(KerActivation_SQ8_Arg_T *Arg);

/* Channel scaling (a squeeze-and-excitation gate), tile by tile: line r of In (a vertical tile, W
 * columns of each of Rows channels) times Gate[r] to the output's scale,
 * out = clip8(roundnorm(In * Gate[r] * Scale, ScaleN)). */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    signed char * __restrict__ Gate;
    signed char * __restrict__ Out;
    int Scale;
    int ScaleN;
} KerScaleChannels_SQ8_Arg_T;
void KerScaleChannels_SQ8(KerScaleChannels_SQ8_Arg_T *Arg);

/* Nearest-neighbour upsampling by whole factors (ONNX Resize in nearest mode, PyTorch's Upsample):
 * each of the Lines input lines of W values (a tile of the C x H lines of a CHW tensor) becomes
 * FactorY output lines of W * FactorX values, consecutive in CHW order:
 * Out[l][r][x] = In[l][x / FactorX] for r < FactorY. The values are copied, the format kept. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Lines;
    unsigned int FactorX;
    unsigned int FactorY;
    signed char * __restrict__ Out;
} KerUpsampleNearest_SQ8_Arg_T;
void KerUpsampleNearest_SQ8(KerUpsampleNearest_SQ8_Arg_T *Arg);

/* PRelu with one slope per channel, tile by tile: line r of In (a vertical tile, W columns of each
 * of Rows channels) with Slopes[r] (int16 in Q SlopeQ): out = clip8(roundnorm(x * Scale, ScaleN))
 * where x >= 0, clip8(roundnorm(x * Slopes[r] * Scale, ScaleN + SlopeQ)) elsewhere. */
typedef struct {
    signed char * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    short int * __restrict__ Slopes;
    signed char * __restrict__ Out;
    int SlopeQ;
    int Scale;
    int ScaleN;
} KerPReluChannels_SQ8_Arg_T;
void KerPReluChannels_SQ8(KerPReluChannels_SQ8_Arg_T *Arg);

#endif
