/* Basic kernels of the CnnLibrary example, in 16-bit fixed point, named and shaped as GreenWaves'
 * CNN basic kernels are: a model finds them by what they compute (CNN_Match, CNN_FindMatchingKernel).
 *
 * Convolutions run one input feature at a time into 16-bit outputs: for each input feature,
 *   Out = clip16(roundnorm(Out * 2^Norm + sum of In * Filter, Norm))
 * with the output first set to the bias (in the output's format). Positions outside the used part of
 * the input (UsedW x UsedH) or in its padding (Pad: left, right, top, bottom) contribute 0.
 * Parallel kernels split their features (or, for the linear layer, nothing) over the cores and end on
 * a team barrier. */
#ifndef CNN_LIBRARY_BASIC_KERNELS_H
#define CNN_LIBRARY_BASIC_KERNELS_H

#include "Gap.h"

/* OutFeatures planes of W x H set to Bias[feature]. */
typedef struct {
    short int * __restrict__ Out;
    unsigned short int W;
    unsigned short int H;
    unsigned short int OutFeatures;
    short int * __restrict__ Bias;
} KerSetBias_fp_T;
void KerParSetBias_fp(KerSetBias_fp_T *Arg);

/* Adds InFeatures input planes (W x H apart) convolved with N x N filters at stride S into
 * OutFeatures output planes; the filter of (out o, in i) is at Filter + N*N*(TotalInFeatures*o + i).
 * KerParConv5x5Stride1_fp has N = 5, S = 1 and ignores those fields. */
typedef struct {
    short int * __restrict__ In;
    unsigned short int W;
    unsigned short int UsedW;
    unsigned short int H;
    unsigned short int UsedH;
    unsigned short int InFeatures;
    unsigned short int OutFeatures;
    unsigned short int TotalInFeatures;
    short int * __restrict__ Filter;
    short int * __restrict__ Out;
    unsigned char Norm;
    v4s Pad;
    unsigned char N;
    unsigned char S;
} KerConv_fp_T;
void KerParConv5x5Stride1_fp(KerConv_fp_T *Arg);
void KerParConvNxNStrideS_fp(KerConv_fp_T *Arg);

/* 2 x 2 pooling at stride 2 of OutFeatures planes; Oper: bit 0 average (rounded) instead of
 * maximum, bit 1 ReLU after. */
typedef struct {
    short int * __restrict__ In;
    unsigned short int W;
    unsigned short int UsedW;
    unsigned short int H;
    unsigned short int UsedH;
    unsigned short int OutFeatures;
    short int * __restrict__ Out;
    v4s Pad;
    unsigned char Oper;
} KerPool_fp_T;
void KerParPool2x2Stride2_fp(KerPool_fp_T *Arg);

/* One output of a linear layer, a tile of its inputs at a time: *Reduct is cleared at tile 0 and
 * gets the InSize products of the tile. */
typedef struct {
    short int * __restrict__ In;
    short int * __restrict__ Filter;
    int * __restrict__ Reduct;
    unsigned short int InSize;
    unsigned short int TileIndex;
} KerLinearPartial_fp_T;
void KerParLinearPartial_fp(KerLinearPartial_fp_T *Arg);

/* The same, told by a predicate (K_ArgPred KER_ARG_TILEFIRST) whether this is the first tile. */
typedef struct {
    short int * __restrict__ In;
    short int * __restrict__ Filter;
    int * __restrict__ Reduct;
    unsigned short int InSize;
    unsigned char FirstTile;
} KerLinearPartialFirst_fp_T;
void KerParLinearPartialFirst_fp(KerLinearPartialFirst_fp_T *Arg);

/* Out[0] = clip16(roundnorm(*Reduct + Bias[0] * 2^Norm, Norm)), then ReLU if asked. */
typedef struct {
    int * __restrict__ Reduct;
    short int * __restrict__ Bias;
    short int * __restrict__ Out;
    unsigned char Norm;
    unsigned char ReLU;
} KerLinearReduct_fp_T;
void KerParLinearReduct_fp(KerLinearReduct_fp_T *Arg);

/* HWC kernels (features side by side in each pixel, CALL_HWC_KER), as GreenWaves' HWC kernels are:
 * an N x N convolution at stride 1 of H lines of W pixels of InFeatures into OutFeatures, the filter
 * of output feature o at Filter + o*N*N*InFeatures as [Fy][Fx][InFeatures], each output
 * clip16(roundnorm(Bias[o] * 2^Norm + sum of In * Filter, Norm)); Pad as for KerConv_fp_T. */
typedef struct {
    short int * __restrict__ In;
    unsigned short int W;
    unsigned short int H;
    v4s Pad;
    unsigned short int InFeatures;
    unsigned short int OutFeatures;
    short int * __restrict__ Filter;
    short int * __restrict__ Bias;
    short int * __restrict__ Out;
    unsigned char Norm;
    unsigned char N;
} KerConv_HWC_fp_T;
void KerParConvNxNStride1_HWC_fp(KerConv_HWC_fp_T *Arg);

/* ReLU of H lines of W pixels of Features, in place. */
typedef struct {
    short int * __restrict__ InOut;
    unsigned short int W;
    unsigned short int H;
    unsigned short int Features;
} KerReLU_HWC_fp_T;
void KerParReLU_HWC_fp(KerReLU_HWC_fp_T *Arg);

/* 2 x 2 max pooling at stride 2 of H lines of W pixels of Features (W and H even). */
typedef struct {
    short int * __restrict__ In;
    unsigned short int W;
    unsigned short int H;
    unsigned short int Features;
    short int * __restrict__ Out;
} KerPool_HWC_fp_T;
void KerParMaxPool2x2Stride2_HWC_fp(KerPool_HWC_fp_T *Arg);

/* The arithmetic the kernels and the harness's reference share. */
static inline int CnnRoundNorm(int Value, int Norm) { return Norm > 0 ? (Value + (1 << (Norm - 1))) >> Norm : Value; }
static inline int CnnClip16(int Value) { return Value < -32768 ? -32768 : Value > 32767 ? 32767 : Value; }

#endif
