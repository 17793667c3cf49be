// The CNN layers with their padding given per side. The SDK-named generators (CNN_Generators.h)
// take ConvPad / PoolPad as flags and derive the padding from the filter, stride and dilation, as
// GreenWaves' generators do; Tessera's own flows (ONNX import) know the exact padding of every
// side and declare their layers through these functions instead.
#pragma once

#include "CNN_Generators.h"

#include <string>
#include <vector>

namespace tessera::gap {

// Zero padding around a plane: lines above and below, columns left and right.
struct Padding {
    int top = 0, bottom = 0, left = 0, right = 0;

    static Padding uniform(int amount) { return {amount, amount, amount, amount}; }
    bool none() const { return top == 0 && bottom == 0 && left == 0 && right == 0; }
};

// The "same" zero padding of the SDK's generators for a window of Fx x Fy, stride Sx/Sy and
// dilation Dx/Dy over a Width x Height plane (flag 1): in each dimension, the total that keeps
// ceil(Dim / S) outputs, split by `type` (by default the larger half first, above and left).
Padding sdkSamePadding(int Width, int Height, int Fx, int Fy, int Sx, int Sy, int Dx, int Dy,
                       AT_PadType type = PAD_BALANCED_LEFT);

// The geometry of a convolution layer with optional pooling after it.
struct ConvLayerShape {
    int inFeat = 1, outFeat = 1, width = 1, height = 1;
    KernelOper_T convOper = KOP_CONV;
    int fcx = 1, fcy = 1, dcx = 1, dcy = 1, scx = 1, scy = 1;
    Padding convPad;
    KernelOper_T poolOper = KOP_NONE;
    int fpx = 1, fpy = 1, dpx = 1, dpy = 1, spx = 1, spy = 1;
    Padding poolPad;  // around the convolution's output
};

// The geometry of a pooling layer alone.
struct PoolLayerShape {
    int features = 1, width = 1, height = 1;
    KernelOper_T poolOper = KOP_MAXPOOL;
    int fpx = 1, fpy = 1, dpx = 1, dpy = 1, spx = 1, spy = 1;
    Padding pad;
};

// CNN_ConvolutionPoolReLU with every data size 2 (16-bit).
int convolutionPoolReLU(const char* Name, const ConvLayerShape& shape, int In_Q, int Filter_Q, int Bias_Q, int Out_Q,
                        KernelOper_T ReLUOper);
// CNN_PoolReLU with every data size 2; the format is kept.
int poolReLU(const char* Name, const PoolLayerShape& shape, int Q, KernelOper_T ReLUOper);
// CNN_ConvolutionPoolAct_SQ8 (int32 biases, 8-bit scales).
int convolutionPoolAct_SQ8(const char* Name, const ConvLayerShape& shape, KernelOper_T ActOper, int ActCap);
// Tessera's own SQ8 pooling (KerPoolAct_SQ8): window positions in the padding are skipped, as ONNX
// pools; ActCap the KOP_RELUN bound in the output's int8 units.
int poolAct_SQ8(const char* Name, const PoolLayerShape& shape, KernelOper_T ActOper, int ActCap);
// CNN_PoolAct_SQ8 on the SDK's contract (KerParPool*_SQ8, C arguments In, Out, Infos): zero padding,
// the average over the whole window (docs/gap-fixed-point.md, "Pooling + activation").
int sdkPoolAct_SQ8(const char* Name, const PoolLayerShape& shape, KernelOper_T ActOper);
// The SDK's pooling kernel for a Fpx x Fpy window of stride Spx x Spy with ActOper (KOP_NONE, KOP_RELU
// or KOP_RELUN): KerParPool{2x2Stride2,NxNStrideS,NxMStrideSxSy}[_ReLU|_ReLUN]_SQ8, and which of the
// window's sizes and strides it takes as arguments (its FS, S, FSy, Sy fields).
std::string sdkPoolKernel(const char* Name, int Fpx, int Fpy, int Spx, int Spy, KernelOper_T ActOper, int* needFx,
                          int* needSx, int* needFy, int* needSy);
// CNN_ConvolutionPoolAct_SQ8 on the SDK's contract (CNN_BasicKernels_SQ8.h's KerParSetBiasB32_SQ8,
// KerParConv*_SQ8 and KerParReduct[IO]_CC*_SQ8, or KerParConvDWRedAct*_SQ8 for KOP_CONV_DW, then the
// pooling and activation kernels; C arguments In, Filter, Bias, Out, Scale, ScaleN, Infos;
// docs/gap-fixed-point.md, "Convolution on the SDK's contract").
int sdkConvolutionPoolAct_SQ8(const char* Name, const ConvLayerShape& shape, KernelOper_T ActOper);
// The basic kernels sdkConvolutionPoolAct_SQ8 matches, declared with their CNN_Match (LoadCNN_SQ8_Library).
void loadSdkConvolutionKernels_SQ8();
// The AT_INF_DIM Infos bytes of an SQ8 layer on the SDK's contract, whole in L1, as its generators declare them.
Object_T* sdkInfosArg();
// CNN_GlobalPoolAct_SQ8 on the SDK's contract (KerParGlobal{Avg,Max}Pool*_SQ8, C arguments In, Out,
// Infos; docs/gap-fixed-point.md, "Global pooling").
int sdkGlobalPoolAct_SQ8(const char* Name, int Feat, int Width, int Height, KernelOper_T PoolOper,
                         KernelOper_T ActOper);
// Tessera's own softmax of Dim int8 values to Q15 (KerSoftMax_SQ8, C arguments In, Out): each input
// brought to Q(In_Q) by In_Scale / 2^In_ScaleN, then the 16-bit softmax (docs/gap-fixed-point.md,
// "Softmax (Tessera's own)"); any input scale.
int scaledSoftMax_SQ8(const char* Name, int Dim, int In_Scale, int In_ScaleN, int In_Q);
// CNN_GlobalPool_SQ8 with the average brought to the output's scale by Scale / 2^ScaleN (1, 0 keep
// the input's scale, as CNN_GlobalPool_SQ8 does).
int globalAveragePool_SQ8(const char* Name, int Feat, int Width, int Height, int Scale, int ScaleN);

// One input of a concatenation along channels: its channel count and how its values reach the
// output's format (16-bit: Norm = In_Q - Out_Q; SQ8: Scale, ScaleN as docs/gap-fixed-point.md).
struct ConcatInput {
    int channels = 0;
    int norm = 0;
    int scale = 1, scaleN = 0;
};

// The concatenation along channels of CHW tensors of Plane (H x W) values per channel: a copy layer
// with DataSize 2 (KerCopyRows, LoadCNNLibrary) or 1 (KerCopyRows_SQ8, LoadCNN_SQ8_Library). Its C
// arguments are In0, In1, ..., Out.
int concatChannels(const char* Name, int DataSize, int Plane, const std::vector<ConcatInput>& inputs);

// The concatenation along H (Lines = C, widths H_k x W) or W (Lines = C x H, widths W_k) of CHW
// tensors: each input is Lines lines of its width (ConcatInput::channels holds the width), and
// line l of the output joins line l of every input. KerCopyColumns (DataSize 2) or
// KerCopyColumns_SQ8 (DataSize 1), tiled horizontally by runs of lines. C arguments In0, ..., Out.
int concatLines(const char* Name, int DataSize, int Lines, const std::vector<ConcatInput>& inputs);

// Channels [Begin, Begin + Count) of a CHW tensor of InChannels channels of Plane values (Split,
// Slice): a copy layer, KerSliceRows or KerSliceRows_SQ8. C arguments In, Out.
int sliceChannels(const char* Name, int DataSize, int Plane, int InChannels, int Begin, int Count);

// ShuffleNet's channel shuffle of Groups groups (KerShuffleRows or KerShuffleRows_SQ8). C arguments
// In, Out.
int shuffleChannels(const char* Name, int DataSize, int Plane, int Channels, int Groups);

// The integer arguments of an activation layer (docs/gap-fixed-point.md, "Activations"): Kind is
// AT_ACT_SIGMOID (0), AT_ACT_TANH, AT_ACT_HSIGMOID, AT_ACT_HSWISH, AT_ACT_LEAKYRELU or AT_ACT_SWISH (5).
struct ActivationArguments {
    int kind = 0;
    int inScale = 1, inShift = 0;
    int offset = 0, cap = 0, alpha = 0;
    int outScale = 1, outShift = 0;
};

// An element-wise activation of Items values (KerActivation with DataSize 2, KerActivation_SQ8
// with DataSize 1). C arguments In, Out.
int activationLayer(const char* Name, int DataSize, int Items, const ActivationArguments& arguments);

// Each channel of a CHW tensor (Channels x Plane) times one value of a gate vector (a
// squeeze-and-excitation block): KerScaleChannels (DataSize 2, Norm = In_Q + Gate_Q - Out_Q) or
// KerScaleChannels_SQ8 (DataSize 1, Scale / 2^ScaleN from In times Gate to Out). C arguments In,
// Gate, Out.
int scaleChannels(const char* Name, int DataSize, int Plane, int Channels, int Norm, int Scale, int ScaleN);

// PRelu with one slope per channel of a CHW tensor (Channels x Plane), the slopes int16 in Q
// SlopeQ: KerPReluChannels (DataSize 2, Norm = In_Q - Out_Q) or KerPReluChannels_SQ8 (DataSize 1,
// Scale / 2^ScaleN from In's scale to Out's). C arguments In, Slopes, Out.
int preluChannels(const char* Name, int DataSize, int Plane, int Channels, int SlopeQ, int Norm, int Scale,
                  int ScaleN);

// Nearest-neighbour upsampling of a CHW tensor of Channels x Height x Width values by FactorX and
// FactorY (KerUpsampleNearest with DataSize 2, KerUpsampleNearest_SQ8 with DataSize 1): the input
// as Channels x Height lines tiled horizontally, each line giving FactorY output lines. C arguments
// In, Out.
int upsampleNearest(const char* Name, int DataSize, int Channels, int Width, int Height, int FactorX, int FactorY);

}  // namespace tessera::gap
