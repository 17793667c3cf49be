/* Tessera's CNN basic kernels in 16-bit power-of-two fixed point, called by the code the CNN
 * generators produce (CNN_Generators.h). The arithmetic is defined in docs/gap-fixed-point.md and
 * is bit-exact with the reference interpreter's fixed-point kernels.
 *
 * All kernels are parallel: every core of the team calls them with the same argument block, each
 * does its share of the work (split with gap_coreid()/gap_ncore()) and they end on a team barrier,
 * so the result is the same on one core or eight.
 *
 * Tiles are compact in L1: a multi-feature tile stores feature planes one after the other, each
 * plane H rows of W values (so the plane stride is W*H of the tile being processed). */
#ifndef TESSERA_CNN_BASIC_KERNELS_H
#define TESSERA_CNN_BASIC_KERNELS_H

#include "Gap.h"

/* Pooling operations of KerNormPoolReLU. */
#define CNN_POOL_NONE 0
#define CNN_POOL_MAX 1
#define CNN_POOL_AVG 2

/* Sets every value of Feat planes of W x H int32 accumulators to roundnorm(Bias[f], NormBias): the
 * bias brought to the accumulator's Q format (NormBias = Bias_Q - (In_Q + Filter_Q), may be < 0). */
typedef struct {
    int * __restrict__ Out;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    short int * __restrict__ Bias;
    int NormBias;
} KerSetBias32_Arg_T;
void KerSetBias32(KerSetBias32_Arg_T *Arg);

/* Adds one input feature's contribution to Feat output planes:
 *   Out[f][y][x] += sum over ky < Fy, kx < Fx of
 *       In[(y*Sy + ky*Dy) * W + x*Sx + kx*Dx - PadL] * Filter[(f*Fy + ky)*Fx + kx]
 * for y < Ho, x < Wo, where columns outside 0..W-1 contribute 0 (PadL zero columns on the left;
 * Wo says how many on the right). In is one input plane's tile (W x H; padding lines above and
 * below are already zero lines of the tile), Filter the Feat filters of this input feature, Out the
 * int32 accumulator tile (Feat planes of Wo x Ho). */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    short int * __restrict__ Filter;
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
} KerConv32_Arg_T;
void KerConv32(KerConv32_Arg_T *Arg);

/* From Feat planes of W x H int32 accumulators to Feat planes of Wo x Ho int16 outputs:
 * v = clip16(roundnorm(acc, Norm)), then pooling (PoolOper: CNN_POOL_*, window Fx x Fy, stride
 * Sx, Sy; for CNN_POOL_NONE Wo = W, Ho = H), then ReLU when ReLU is non-zero (ReLU > 1: capped at ReLU).
 * Pooling padding as in KerPoolReLU: the tile's first line is line TileOffset - PadT of the plane of
 * PlaneH real lines (the tile's lines outside it are never read), the windows start PadL columns
 * left of the tile, and only positions inside the plane count (PadL = PadT = 0, TileOffset = 0,
 * PlaneH = H: no padding). */
typedef struct {
    int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    short int * __restrict__ Out;
    unsigned int Wo;
    unsigned int Ho;
    int Norm;
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
} KerNormPoolReLU_Arg_T;
void KerNormPoolReLU(KerNormPoolReLU_Arg_T *Arg);

/* Linear layer on OutDim outputs (one tile of them):
 *   Out[o] = clip16(roundnorm(roundnorm(Bias[o], NormBias) + sum_i In[i] * Filter[o*InDim + i], Norm))
 * then ReLU when ReLU is non-zero (ReLU > 1: capped at ReLU). */
typedef struct {
    short int * __restrict__ In;
    unsigned int InDim;
    short int * __restrict__ Filter;
    short int * __restrict__ Bias;
    short int * __restrict__ Out;
    unsigned int OutDim;
    int NormBias;
    int Norm;
    unsigned int ReLU;
} KerLinear_Arg_T;
void KerLinear(KerLinear_Arg_T *Arg);

/* Pooling alone on Feat planes of W x H int16 values to Wo x Ho (PoolOper CNN_POOL_MAX / _AVG,
 * window Fx x Fy, stride Sx, Sy; CNN_POOL_NONE copies), then ReLU when ReLU is non-zero (ReLU > 1:
 * capped at ReLU). The format does not change. With padding, the tile's first line is line
 * TileOffset - PadT of the plane (lines before it and from PlaneH on are padding) and the windows
 * start PadL columns left of the tile; window positions outside the plane are skipped (the average
 * divides by the values met). */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    unsigned int Feat;
    short int * __restrict__ Out;
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
} KerPoolReLU_Arg_T;
void KerPoolReLU(KerPoolReLU_Arg_T *Arg);

/* Global average pooling of one plane, tile by tile: KerGlobalSumInit clears the int32 sum,
 * KerGlobalSum adds the W x H values of a tile (Partial: one int32 per core, at most 8 cores),
 * KerGlobalAvgFinish writes ndiv(sum, Count) (Count = W x H of the whole plane). */
void KerGlobalSumInit(int * __restrict__ Sum);
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    int * __restrict__ Sum;
    int * __restrict__ Partial;
} KerGlobalSum_Arg_T;
void KerGlobalSum(KerGlobalSum_Arg_T *Arg);
void KerGlobalAvgFinish(int * __restrict__ Sum, unsigned int Count, short int * __restrict__ Out);

/* Element-wise sum of W x H values: Out = clip16(roundnorm(In1, Norm1) + roundnorm(In2, Norm2)),
 * the inputs brought to the output's format first; then ReLU when ReLU is non-zero (ReLU > 1: capped at ReLU). */
typedef struct {
    short int * __restrict__ In1;
    short int * __restrict__ In2;
    short int * __restrict__ Out;
    unsigned int W;
    unsigned int H;
    int Norm1;
    int Norm2;
    unsigned int ReLU;
} KerMatAdd_Arg_T;
void KerMatAdd(KerMatAdd_Arg_T *Arg);
/* The difference: Out = clip16(roundnorm(In1, Norm1) - roundnorm(In2, Norm2)), then ReLU. */
void KerMatSub(KerMatAdd_Arg_T *Arg);

/* Matrix product of Lines lines of In1 (each Cols1 values) with In2 (Cols1 lines of Cols2 values):
 *   Out[i][j] = clip16(roundnorm(roundnorm(Bias[i], NormBias) + sum_k In1[i][k] * In2[k][j], Norm))
 * then ReLU when ReLU is non-zero (ReLU > 1: capped at ReLU). */
typedef struct {
    short int * __restrict__ In1;
    short int * __restrict__ In2;
    short int * __restrict__ Bias;
    short int * __restrict__ Out;
    unsigned int Lines;
    unsigned int Cols1;
    unsigned int Cols2;
    int NormBias;
    int Norm;
    unsigned int ReLU;
} KerMatMul_Arg_T;
void KerMatMul(KerMatMul_Arg_T *Arg);

/* Softmax of N values in Q(InQ) to Q15, as docs/gap-fixed-point.md defines it. */
typedef struct {
    short int * __restrict__ In;
    unsigned int N;
    int InQ;
    short int * __restrict__ Out;
} KerSoftMax_Arg_T;
void KerSoftMax(KerSoftMax_Arg_T *Arg);

/* One input of a concatenation along channels, tile by tile: Rows lines of W values of In (a vertical
 * tile: W columns of each of the input's channels) are brought to the output's format,
 * clip16(roundnorm(In, Norm)), and written to lines RowOffset.. of Out, whose lines are W wide too. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    short int * __restrict__ Out;
    unsigned int RowOffset;
    int Norm;
} KerCopyRows_Arg_T;
void KerCopyRows(KerCopyRows_Arg_T *Arg);

/* One input of a concatenation along H or W, tile by tile: each of the Lines lines of W values of
 * In (a horizontal tile) is brought to the output's format, clip16(roundnorm(In, Norm)), and written to
 * columns ColOffset to ColOffset + W - 1 of the same line of Out, whose lines are OutW wide. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Lines;
    short int * __restrict__ Out;
    unsigned int OutW;
    unsigned int ColOffset;
    int Norm;
} KerCopyColumns_Arg_T;
void KerCopyColumns(KerCopyColumns_Arg_T *Arg);

/* A run of channels (Split, Slice along channels), tile by tile: lines InRowOffset to
 * InRowOffset + Rows - 1 of In (a vertical tile, W columns of each channel) copied to Out. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    unsigned int InRowOffset;
    short int * __restrict__ Out;
} KerSliceRows_Arg_T;
void KerSliceRows(KerSliceRows_Arg_T *Arg);

/* The channel shuffle of ShuffleNet (Reshape to [Groups][Rows / Groups], Transpose, Reshape),
 * tile by tile: line r of Out is line (r % Groups) * (Rows / Groups) + r / Groups of In. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    unsigned int Groups;
    short int * __restrict__ Out;
} KerShuffleRows_Arg_T;
void KerShuffleRows(KerShuffleRows_Arg_T *Arg);

/* An activation (docs/gap-fixed-point.md, "Activations") on the W x H items of a tile: Kind is
 * AT_ACT_SIGMOID, AT_ACT_TANH, AT_ACT_HSIGMOID, AT_ACT_HSWISH, AT_ACT_LEAKYRELU or AT_ACT_SWISH
 * (CNN_KernelHelpers.h);
 * the input reaches Q12 by InScale / 2^InShift, the result the output's Q by OutScale / 2^OutShift. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int H;
    short int * __restrict__ Out;
    int Kind;
    int InScale;
    int InShift;
    int Offset;
    int Cap;
    int Alpha;
    int OutScale;
    int OutShift;
} KerActivation_Arg_T;
void KerActivation(KerActivation_Arg_T *Arg);

/* Channel scaling (a squeeze-and-excitation gate), tile by tile: line r of In (a vertical tile, W
 * columns of each of Rows channels) times Gate[r], out = clip16(roundnorm(In * Gate[r], Norm)). */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    short int * __restrict__ Gate;
    short int * __restrict__ Out;
    int Norm;
} KerScaleChannels_Arg_T;
void KerScaleChannels(KerScaleChannels_Arg_T *Arg);

/* Nearest-neighbour upsampling by whole factors (ONNX Resize in nearest mode, PyTorch's Upsample):
 * each of the Lines input lines of W values (a tile of the C x H lines of a CHW tensor) becomes
 * FactorY output lines of W * FactorX values, consecutive in CHW order:
 * Out[l][r][x] = In[l][x / FactorX] for r < FactorY. The values are copied, the format kept. */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Lines;
    unsigned int FactorX;
    unsigned int FactorY;
    short int * __restrict__ Out;
} KerUpsampleNearest_Arg_T;
void KerUpsampleNearest(KerUpsampleNearest_Arg_T *Arg);

/* PRelu with one slope per channel, tile by tile: line r of In (a vertical tile, W columns of each
 * of Rows channels) with Slopes[r] in Q SlopeQ: out = clip16(roundnorm(x, Norm)) where x >= 0,
 * clip16(roundnorm(x * Slopes[r], SlopeQ + Norm)) elsewhere (Norm = In_Q - Out_Q). */
typedef struct {
    short int * __restrict__ In;
    unsigned int W;
    unsigned int Rows;
    short int * __restrict__ Slopes;
    short int * __restrict__ Out;
    int SlopeQ;
    int Norm;
} KerPReluChannels_Arg_T;
void KerPReluChannels(KerPReluChannels_Arg_T *Arg);

#endif
