/* Tessera's CNN generators for GAP: each call declares one layer as a user kernel through the
 * Autotiler model API (AutoTilerLib.h), tiled by the same solver as any other user kernel. The
 * generated layer functions call the basic kernels of CNN_BasicKernels.h; their arithmetic (16-bit
 * power-of-two Q formats) is defined in Tessera's docs/gap-fixed-point.md.
 *
 * Call LoadCNNLibrary() once before the generators. Layer functions have the C arguments
 *   convolution: (short int *In, short int *Filter, short int *Bias, short int *Out)
 *   linear:      (short int *In, short int *Filter, short int *Bias, short int *Out)
 *   softmax:     (short int *In, short int *Out)
 * with activations in CHW order, linear filters [OutDim][InDim] and convolution filters
 * [OutFeat][InFeat][Fcy][Fcx] (depthwise: [InFeat][Fcy][Fcx]), as GreenWaves' generators take them.
 * ConvPad and PoolPad are flags as in GreenWaves' generators: 0 no padding, 1 "same" zero padding,
 * whose total in each dimension keeps ceil(Dim / Stride) outputs (the window's span less the
 * stride, or less the remainder when the stride does not divide Dim), the larger half above and
 * left. Pooling padding is skipped by the windows (not counted in averages). */
#ifndef TESSERA_CNN_GENERATORS_H
#define TESSERA_CNN_GENERATORS_H

#include "AutoTilerLib.h"

#ifdef __cplusplus
extern "C" {
#endif

/* KernelOper_T, AT_PadType and CNN_GenControl_T are in AutoTilerLibTypes.h, and CNN_InitGenCtrl /
 * CNN_SetGenCtrl in AutoTilerLib.h, as in the SDK. */

void LoadCNNLibrary(void);

/* Convolution (Fcx x Fcy, dilation Dcx/Dcy, stride Scx/Scy, ConvPad: "same" zero padding or none)
 * of InFeat planes of Width x Height into OutFeat planes, then optional pooling
 * (KOP_MAXPOOL/KOP_AVGPOOL, Fpx x Fpy, stride Spx/Spy) and optional KOP_RELU or KOP_RELUN (ReLU6). ConvOper KOP_CONV or
 * KOP_CONV_DP: every output feature reads every input feature, filters [OutFeat][InFeat][Fcy][Fcx];
 * KOP_CONV_DW: depthwise, InFeat == OutFeat, filters [InFeat][Fcy][Fcx]. Data sizes must be 2
 * (16-bit). A non-zero *_InL3 flag homes that argument in the L3 RAM: the layer streams it through
 * L2 staging buffers (the L2 symbol, _L2_Memory_SIZE). In a graph the graph decides where tensors
 * live and the flags are ignored, as in GreenWaves' graphs. Pooling dilation must be 1; with PoolPad, the "same" padding around the convolution's
 * output is skipped by the windows, as in CNN_PoolReLU. Returns 1 when the layer was generated; errors stop generation with a message.
 * Every generator here returns 0, and adds nothing, when AT_KERNEL_NOSOLUTION_ERROR is off and its
 * layer has no tiling in the L1 budget: the model may then try another generator. */
int CNN_ConvolutionPoolReLU(const char *Name, CNN_GenControl_T *Ctrl,
                            int In_DataSize, int Filter_DataSize, int Bias_DataSize, int Out_DataSize,
                            int In_Q, int Filter_Q, int Bias_Q, int Out_Q,
                            int In_InL3, int Filter_InL3, int Bias_InL3, int Out_InL3,
                            int InFeat, int OutFeat, int Width, int Height,
                            KernelOper_T ConvOper, int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy, int ConvPad,
                            KernelOper_T PoolOper, int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, int PoolPad,
                            KernelOper_T ReLUOper);

/* Fully connected layer InDim -> OutDim (KOP_LINEAR), then optional KOP_RELU or KOP_RELUN (ReLU6). */
int CNN_LinearReLU(const char *Name, CNN_GenControl_T *Ctrl,
                   int In_DataSize, int Filter_DataSize, int Bias_DataSize, int Out_DataSize,
                   int In_Q, int Filter_Q, int Bias_Q, int Out_Q,
                   int In_InL3, int Filter_InL3, int Bias_InL3, int Out_InL3,
                   int InDim, int OutDim, KernelOper_T LinearOper, KernelOper_T ReLUOper);

/* Pooling alone (KOP_MAXPOOL / KOP_AVGPOOL, Fpx x Fpy, stride Spx/Spy) of Feat planes of
 * Width x Height, then optional KOP_RELU; the Q format is kept (Out_Q == In_Q). With PoolPad, the
 * "same" padding lines and columns around the plane are skipped by the windows: the maximum of
 * the values they cover, or their average. Dilation must be 1. */
int CNN_PoolReLU(const char *Name, CNN_GenControl_T *Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                 int In_InL3, int Out_InL3, int Feat, int Width, int Height, KernelOper_T PoolOper, int Fpx, int Fpy,
                 int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ReLUOper);

/* Global average pooling (KOP_GLOBAL_AVGPOOL) of Feat planes of Width x Height into Feat values,
 * in the same Q format (Out_Q == In_Q); Width x Height at most 65535. */
int CNN_GlobalPool(const char *Name, CNN_GenControl_T *Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                   int In_InL3, int Out_InL3, int Feat, int Width, int Height, KernelOper_T PoolOper);

/* Element-wise sum of two tensors of Feat planes of Width x Height (residual connections), each
 * input brought to Out_Q first; KOP_MATADD, or KOP_MATADD_RELU with a ReLU after. KOP_MATSUB and
 * KOP_MATSUB_RELU compute the difference In1 - In2 alike. InFeat == OutFeat. */
int CNN_MatAdd(const char *Name, CNN_GenControl_T *Ctrl, int In1_DataSize, int In2_DataSize, int Out_DataSize,
               int In1_Q, int In2_Q, int Out_Q, int In1_InL3, int In2_InL3, int Out_InL3, int InFeat, int OutFeat,
               int Width, int Height, KernelOper_T AddMatOper);

/* Matrix product Out[LineM1][ColM2] = In1[LineM1][ColM1] x In2[LineM2][ColM2] + Bias[LineM1]
 * (KOP_MATMUL, ColM1 == LineM2), then optional KOP_RELU. Tiles are groups of lines of In1 and Out;
 * In2 is read whole. Width, Height must be 0 and Scx, Scy 1 (no strided forms). */
int CNN_MatMul(const char *Name, CNN_GenControl_T *Ctrl, int In1_DataSize, int In2_DataSize, int Bias_DataSize,
               int Out_DataSize, int In1_Q, int In2_Q, int Bias_Q, int Out_Q, int In1_InL3, int In2_InL3,
               int Bias_InL3, int Out_InL3, int ColM1, int LineM1, int ColM2, int LineM2, int Width, int Height,
               int Scx, int Scy, KernelOper_T MatMulOper, KernelOper_T ReLUOper);

/* Softmax of Dim values in Q(In_Q) to Q15 (Out_Q must be 15). */
int CNN_SoftMax(const char *Name, CNN_GenControl_T *Ctrl, int In_DataSize, int Out_DataSize, int In_Q, int Out_Q,
                int In_InL3, int Out_InL3, int Dim, KernelOper_T SoftMaxOper);

/* Tessera's SQ8 generators have GreenWaves' names, signatures and contract: after the SDK's
 * CNN_Generators_SQ8.h, as NNTool's model programs include it before this header, its declarations
 * are the ones kept (and the SDK's CNN_Generators_SQ8.c compiled with the model defines them). */
#ifndef __CNN_GENERATORS_SQ8_H__

/* ---- SQ8: 8-bit symmetric layers (CNN_BasicKernels_SQ8.h; docs/gap-fixed-point.md, "SQ8") ----
 *
 * Call LoadCNN_SQ8_Library() once before these generators (with LoadCNNLibrary() too when a model
 * mixes both). Activations are int8 with one scale per tensor; filters int8 with one scale per
 * output feature; biases int32 in the accumulator's scale (Bias_DataSize 4); the per-feature
 * requantization multipliers Scale[] and shifts ScaleN[] are 8-bit constants (Scale_DataSize 1).
 * Layer functions have the C arguments
 *   convolution, linear: (signed char *In, signed char *Filter, int *Bias, signed char *Out,
 *                         unsigned char *Scale, unsigned char *ScaleN, signed char *Infos)
 *   pooling, CNN_GlobalPoolAct_SQ8, CNN_Act_SQ8: (signed char *In, signed char *Out, signed char *Infos)
 *   CNN_GlobalPool_SQ8: (signed char *In, signed char *Out)
 *   addition: (signed char *In1, signed char *In2, signed char *Out, signed char *Infos)
 *   softmax: (signed char *In, short int *Out, signed char *Infos)   (Q15 output)
 * The Infos are the layer's AT_INF_DIM bytes (CNN_Infos_SQ8.h): activation bounds and scaling,
 * bias shift and the other constants its basic kernels read. Filters are [OutFeat][InFeat][Fy][Fx]
 * ([Feat][Fy][Fx] depthwise). */
void LoadCNN_SQ8_Library(void);

/* Convolution (KOP_CONV, or KOP_CONV_DW with InFeat == OutFeat) + optional pooling (KOP_MAXPOOL,
 * KOP_AVGPOOL; PoolPad a flag) + activation (KOP_NONE, KOP_RELU, KOP_RELUN, KOP_RELUM, KOP_RELUMN,
 * KOP_HSIGMOID, KOP_HSWISH, KOP_LEAKYRELU), ConvPad a flag, on the SDK's contract: its signature, the
 * C arguments above and its basic kernels (Tessera's own or the SDK's) found by CNN_Match as the SDK
 * finds them: KerParSetBiasB32_SQ8, KerParConv<shape>_SQ8 over chunks of input features and
 * KerParReduct[IO]_CC<act>_SQ8 (Bias_DataSize 4), or KerParConvDWRedAct<shape>B32[_act]_SQ8 for a
 * depthwise one; then KerParPool*_SQ8 and, for an activation no kernel before fuses, Ker_<act>_SQ8.
 * The bias is shifted by Infos[AT_INF_BIASN], the sums by Infos[AT_INF_PRENORM], each output feature
 * scaled by Scale[f] / 2^ScaleN[f], the activation's parameters and scaling read from the Infos
 * (docs/gap-fixed-point.md, "Convolution on the SDK's contract"). A 1x1 convolution of a 1x1 plane
 * is CNN_LinearAct_SQ8, as in the SDK. */
int CNN_ConvolutionPoolAct_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Bias_DataSize, int Scale_DataSize,
                               int InFeat, int OutFeat, int Width, int Height,
                               KernelOper_T ConvOper, int Fcx, int Fcy, int Dcx, int Dcy, int Scx, int Scy,
                               int ConvPad, KernelOper_T PoolOper, int Fpx, int Fpy, int Dpx, int Dpy, int Spx,
                               int Spy, int PoolPad, KernelOper_T ActOper);

/* Fully connected layer InDim -> OutDim (KOP_LINEAR) + activation, on the SDK's contract: the
 * SDK's signature, the C arguments (In, Filter, Bias, Out, Scale, ScaleN, Infos) with the layer's
 * AT_INF_DIM Infos bytes last (CNN_Infos_SQ8.h: the KOP_RELUN bound at AT_INF_A0, the post-activation
 * multiplier at AT_INF_ACTSCALE / AT_INF_ACTSCALEN, the bias shift at AT_INF_BIASN), and the SDK's
 * basic kernels KerParLinearLayerFullFeatB32[_ReLU|_ReLUN]_SQ8, Tessera's own or the SDK's. */
int CNN_LinearAct_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Bias_DataSize, int Scale_DataSize, int InDim,
                      int OutDim, KernelOper_T LinearOper, KernelOper_T ActOper);

/* Pooling alone (KOP_MAXPOOL / KOP_AVGPOOL, PoolPad a flag as CNN_PoolReLU, dilation 1) + activation
 * (KOP_NONE, KOP_RELU, KOP_RELUN), the scale kept, on the SDK's contract: the SDK's signature, the C
 * arguments (In, Out, Infos) and the SDK's basic kernels KerParPool{2x2Stride2,NxNStrideS,
 * NxMStrideSxSy}[_ReLU|_ReLUN]_SQ8 (Tessera's own or the SDK's). As the SDK pools: the padding
 * counts as zeros (for the maximum too) and the average divides by the whole window, truncated
 * (1 << 16) / (Fpx * Fpy) then roundnorm 16; the KOP_RELUN bound is Infos[AT_INF_A0], and when
 * Infos[AT_INF_ACTSCALE] is not 0 the result is scaled by it / 2^[AT_INF_ACTSCALEN];
 * docs/gap-fixed-point.md, "Pooling + activation". */
int CNN_PoolAct_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height, KernelOper_T PoolOper,
                    int Fpx, int Fpy, int Dpx, int Dpy, int Spx, int Spy, int PoolPad, KernelOper_T ActOper);

/* Global pooling (KOP_GLOBAL_AVGPOOL or KOP_GLOBAL_MAXPOOL) + activation (KOP_NONE, KOP_RELU,
 * KOP_RELUN) on the SDK's contract: the SDK's signature, the C arguments (In, Out, Infos) and the
 * SDK's basic kernels: KerParGlobal{Avg,Max}PoolFullFeat[_ReLU|_ReLUN]_SQ8 on whole planes when one
 * fits in L1, else KerParGlobal{Avg,Max}Pool_SQ8 on tiles of lines then
 * KerParGlobal{Avg,Max}Pool_Reduct[_ReLU|_ReLUN]_SQ8. The average is ((sum * 128) / (W * H)) scaled
 * by Infos[AT_INF_GLOBAL_SUM_SCALE] / 2^[AT_INF_GLOBAL_SUM_SCALEN] (a scale 0 gives 0); the KOP_RELUN
 * bound is Infos[AT_INF_A0]; Infos[AT_INF_ACTSCALE], when not 0, scales the result (after the
 * activation on whole planes, before it on tiles, as the SDK's kernels do); W x H at most 131071.
 * docs/gap-fixed-point.md, "Global pooling". */
int CNN_GlobalPoolAct_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height,
                          KernelOper_T PoolOper, KernelOper_T ActOper);

/* Tessera's own global average pooling (KOP_GLOBAL_AVGPOOL); the scale is kept; Width x Height at most 65535. */
int CNN_GlobalPool_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height,
                       KernelOper_T PoolOper);

/* Tessera's own element-wise sum or difference into the output's scale, 15-bit multipliers given
 * here: clip8((In1 * In1_Scale + In2 * In2_Scale) >> ScaleN,
 * rounded), KOP_MATADD or KOP_MATADD_RELU; KOP_MATSUB and KOP_MATSUB_RELU subtract In2 * In2_Scale
 * instead. Scales 0 to 32767, ScaleN 0 to 62. */
int CNN_MatAdd_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height,
                   KernelOper_T AddMatOper, int In1_Scale, int In2_Scale, int ScaleN);

/* Element-wise sum on the SDK's contract (KOP_MATADD; ActOper KOP_NONE, KOP_RELU or KOP_RELUN): the
 * SDK's signature, the C arguments (signed char *In1, signed char *In2, signed char *Out,
 * signed char *Infos), the SDK's basic kernels KerMatAdd[_ReLU|_ReLUN]_SQ8 (Tessera's own or the
 * SDK's). In1 is brought to In2's scale by Infos[AT_INF_IN1SCALE] / 2^[AT_INF_IN1SCALEN], the sum to
 * the output's by [AT_INF_OUTSCALE] / 2^[AT_INF_OUTSCALEN] (a scale 0: none), then the activation
 * (bound Infos[AT_INF_A0]); docs/gap-fixed-point.md, "Element-wise addition". */
int CNN_MatAddAct_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height,
                      KernelOper_T AddMatOper, KernelOper_T ActOper);

/* A standalone activation on the SDK's contract: the SDK's signature, the C arguments (In, Out, Infos)
 * and the SDK's basic kernels Ker_{ActNone,ReLU,ReLUN,ReLUM,ReLUMN,HSigmoid,HSwish,LeakyReLU}_SQ8 for
 * ActOper KOP_ACT_NONE, KOP_RELU, KOP_RELUN, KOP_RELUM, KOP_RELUMN, KOP_HSIGMOID, KOP_HSWISH,
 * KOP_LEAKYRELU (Tessera's own or the SDK's), their parameters and scaling from the Infos
 * (docs/gap-fixed-point.md, "Standalone activations"); CNN_PoolAct_SQ8 with KOP_NONE pooling and an
 * activation comes here, as in the SDK. */
int CNN_Act_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Width, int Height, KernelOper_T ActOper);

/* Softmax on the SDK's contract (KOP_SOFTMAX): the SDK's signature, the C arguments (In, Out, Infos)
 * and the SDK's basic kernels KerParSoftMax_SQ8 (Q15 output, short int; the default) or, with
 * Ctrl->OutDataSize 1, KerParSoftMax8Bits_SQ8 (Q7, signed char), Tessera's own or the SDK's. The
 * input's scale is 2^(Infos[AT_INF_BIASL_SM] - 15); the exponential is the SDK's (a table of e^n and
 * a Taylor polynomial); docs/gap-fixed-point.md, "Softmax on the SDK's contract". CNN_SoftMax2D_SQ8
 * normalizes Feat vectors of Dim values, each on its own. */
int CNN_SoftMax_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Dim, KernelOper_T SoftMaxOper);
int CNN_SoftMax2D_SQ8(const char *Name, CNN_GenControl_T *Ctrl, int Feat, int Dim, KernelOper_T SoftMaxOper);

#endif /* __CNN_GENERATORS_SQ8_H__ */

#ifdef __cplusplus
}
#endif

#endif
