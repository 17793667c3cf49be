/* Tessera's convolution basic kernels on the SDK's contract (CNN_ConvolutionPoolAct_SQ8; their
 * interface in CNN_BasicKernels_SQ8.h, their arithmetic in docs/gap-fixed-point.md, "Convolution on
 * the SDK's contract"): the full convolution's set bias, convolutions and reductions, and the
 * depthwise convolutions with their reduction, all in GAP's wrapping 32-bit arithmetic. Plain C on
 * Gap.h; each kernel splits its planes over the cores and ends with a barrier. */
#include "CNN_BasicKernels_SQ8.h"
#include "CNN_KernelHelpers.h"
#include "CNN_SdkArithmetic_SQ8.h"

#include <string.h>

/* ---- KerParSetBiasB32_SQ8, KerParConv*_SQ8, KerParReduct[IO]_CC*_SQ8 (the SDK's contract) ---- */

/* Acc plus the taps of the Fx x Fy window (dilation Dx x Dy) whose top left is at (Line0, Column0)
 * of a W-wide plane, in 32 bits wrapping; taps outside the first UsedW columns and UsedH lines (the
 * padding) are skipped. */
static inline int32_t window_sum(int32_t Acc, const signed char * __restrict__ Plane, int W, int UsedW, int UsedH,
                                 const signed char * __restrict__ Filter, int Fx, int Fy, int Dx, int Dy, int Line0,
                                 int Column0)
{
    for (int i = 0; i < Fy; i++) {
        const int Line = Line0 + i * Dy;
        if (Line < 0 || Line >= UsedH)
            continue;
        for (int j = 0; j < Fx; j++) {
            const int Column = Column0 + j * Dx;
            if (Column >= 0 && Column < UsedW)
                Acc = wrap_add(Acc, (int32_t) Plane[Line * W + Column] * Filter[i * Fx + j]);
        }
    }
    return Acc;
}

void KerParSetBiasB32_SQ8(KerSetBias_SQ8_T *Arg)
{
    const unsigned int Size = (unsigned int) Arg->W * Arg->H;
    const int * __restrict__ Bias = (const int *) Arg->Bias;
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    for (unsigned int f = First; f < Last; f++) {
        const int32_t B = (int32_t) ((uint32_t) Bias[f] << (Arg->NormBias & 31));
        for (unsigned int i = 0; i < Size; i++)
            Arg->Out[f * Size + i] = B;
    }
    gap_waitbarrier(0);
}

/* The convolution of CNN_BasicKernels_SQ8.h added into the 32-bit outputs, each core its share of the
 * output planes. */
static void conv_accumulate(KerConv_SQ8_T *Arg, int Fx, int Fy, int Sx, int Sy, int Dx, int Dy)
{
    const int W = Arg->W, H = Arg->H, UsedW = Arg->UsedW, UsedH = Arg->UsedH;
    const int PadL = Arg->Pad[0], PadR = Arg->Pad[1], PadT = Arg->Pad[2], PadB = Arg->Pad[3];
    const int Wo = (UsedW - (Dx * (Fx - 1) + 1) + PadL + PadR) / Sx + 1;
    const int Ho = (UsedH - (Dy * (Fy - 1) + 1) + PadT + PadB) / Sy + 1;
    const unsigned int InFeatures = Arg->InFeatures, TotalInFeatures = Arg->TotalInFeatures;
    unsigned int First, Last;

    core_range(Arg->OutFeatures, &First, &Last);
    for (unsigned int of = First; of < Last; of++) {
        int * __restrict__ Out = Arg->Out + (size_t) Wo * Ho * of;
        for (unsigned int If = 0; If < InFeatures; If++) {
            const signed char * __restrict__ Plane = Arg->In + (size_t) W * H * If;
            const signed char * __restrict__ Filter = Arg->Filter + (size_t) Fx * Fy * (TotalInFeatures * of + If);
            for (int y = 0; y < Ho; y++)
                for (int x = 0; x < Wo; x++)
                    Out[y * Wo + x] = window_sum(Out[y * Wo + x], Plane, W, UsedW, UsedH, Filter, Fx, Fy, Dx, Dy,
                                                 y * Sy - PadT, x * Sx - PadL);
        }
    }
    gap_waitbarrier(0);
}

#define CONV_KERNEL(Shape, Fx, Fy, Sx, Sy, Dx, Dy) \
    void KerParConv##Shape##_SQ8(KerConv_SQ8_T *Arg) { conv_accumulate(Arg, Fx, Fy, Sx, Sy, Dx, Dy); }

CONV_KERNEL(1x1Stride1, 1, 1, 1, 1, 1, 1)
CONV_KERNEL(1x1Stride2, 1, 1, 2, 2, 1, 1)
CONV_KERNEL(1x1StrideS, 1, 1, Arg->S, Arg->S, 1, 1)
CONV_KERNEL(3x1Stride1x1, 3, 1, 1, 1, 1, 1)
CONV_KERNEL(3x1Stride2x1, 3, 1, 2, 1, 1, 1)
CONV_KERNEL(1x3Stride1x1, 1, 3, 1, 1, 1, 1)
CONV_KERNEL(1x3Stride1x2, 1, 3, 1, 2, 1, 1)
CONV_KERNEL(3x3Stride1, 3, 3, 1, 1, 1, 1)
CONV_KERNEL(3x3Stride2, 3, 3, 2, 2, 1, 1)
CONV_KERNEL(3x3StrideS, 3, 3, Arg->S, Arg->S, 1, 1)
CONV_KERNEL(4x1Stride1x1, 4, 1, 1, 1, 1, 1)
CONV_KERNEL(1x4Stride1x1, 1, 4, 1, 1, 1, 1)
CONV_KERNEL(5x1Stride1x1, 5, 1, 1, 1, 1, 1)
CONV_KERNEL(5x1Stride2x1, 5, 1, 2, 1, 1, 1)
CONV_KERNEL(1x5Stride1x1, 1, 5, 1, 1, 1, 1)
CONV_KERNEL(1x5Stride1x2, 1, 5, 1, 2, 1, 1)
CONV_KERNEL(5x5Stride1, 5, 5, 1, 1, 1, 1)
CONV_KERNEL(5x5Stride2, 5, 5, 2, 2, 1, 1)
CONV_KERNEL(5x5StrideS, 5, 5, Arg->S, Arg->S, 1, 1)
CONV_KERNEL(7x7StrideS, 7, 7, Arg->S, Arg->S, 1, 1)
CONV_KERNEL(13x1Stride1x1, 13, 1, 1, 1, 1, 1)
CONV_KERNEL(1D_NStrideS, Arg->N, 1, Arg->S, 1, 1, 1)
CONV_KERNEL(Nx1StrideSxS1, Arg->N, 1, Arg->S, 1, 1, 1)
CONV_KERNEL(NxNStrideS, Arg->N, Arg->N, Arg->S, Arg->S, 1, 1)
CONV_KERNEL(NxMStrideSxSy, Arg->N, Arg->Ny, Arg->S, Arg->Sy, 1, 1)
CONV_KERNEL(NxMDxDyStrideSxSy, Arg->N, Arg->Ny, Arg->S, Arg->Sy, Arg->D, Arg->Dy)
CONV_KERNEL(3x3DxDyStrideSxSy, 3, 3, Arg->S, Arg->Sy, Arg->D, Arg->Dy)
CONV_KERNEL(3x3DxDyStride1x1, 3, 3, 1, 1, Arg->D, Arg->Dy)
CONV_KERNEL(3x3D2x2Stride1x1, 3, 3, 1, 1, 2, 2)
CONV_KERNEL(3x3D4x4Stride1x1, 3, 3, 1, 1, 4, 4)
CONV_KERNEL(3x3D8x8Stride1x1, 3, 3, 1, 1, 8, 8)
CONV_KERNEL(3x3D2x1Stride1x1, 3, 3, 1, 1, 2, 1)
CONV_KERNEL(3x3D4x1Stride1x1, 3, 3, 1, 1, 4, 1)
CONV_KERNEL(3x3D8x1Stride1x1, 3, 3, 1, 1, 8, 1)
CONV_KERNEL(3x3DxD2Stride1x1, 3, 3, 1, 1, Arg->D, 2)
#undef CONV_KERNEL

/* Feat planes of W x H 32-bit sums to int8 (CNN_BasicKernels_SQ8.h), each core its share of the planes.
 * In place, each core first writes its planes' bytes at the start of its own sums (byte i of a plane
 * never lands on a sum not yet read), then the shares are moved down one after the other. */
static void reduct_cc(KerConvLinReduct_SQ8_T *Arg, int Activation, int InPlace)
{
    const unsigned int Size = (unsigned int) Arg->W * Arg->H, Feat = Arg->Feat;
    const int * __restrict__ In = Arg->In;
    const unsigned char * __restrict__ Infos = (const unsigned char *) Arg->Infos;
    const int Prenorm = Infos[AT_INF_PRENORM];
    unsigned int First, Last;

    core_range(Feat, &First, &Last);
    {
        signed char *Out = InPlace ? (signed char *) (Arg->In + (size_t) First * Size) - (size_t) First * Size
                                   : (signed char *) Arg->Out;
        for (unsigned int c = First; c < Last; c++)
            for (unsigned int i = 0; i < Size; i++) {
                int32_t v = gap_roundnorm_reg(In[(size_t) c * Size + i], Prenorm);
                v = gap_roundnorm_reg(wrap_mul(v, Arg->Scale[c]), Arg->ScaleN[c]);
                Out[(size_t) c * Size + i] = (signed char) gap_clip(sdk_standalone_act(v, Activation, Infos), 7);
            }
    }
    gap_waitbarrier(0);
    if (InPlace) {
        if (gap_coreid() == 0) {
            const unsigned int Cores = (unsigned int) gap_ncore(), Chunk = (Feat + Cores - 1) / Cores;
            signed char *Bytes = (signed char *) Arg->In;
            for (unsigned int k = 1; k * Chunk < Feat; k++) {
                const unsigned int Planes = Feat - k * Chunk < Chunk ? Feat - k * Chunk : Chunk;
                memmove(Bytes + (size_t) k * Chunk * Size, Bytes + (size_t) 4 * k * Chunk * Size,
                        (size_t) Planes * Size);
            }
        }
        gap_waitbarrier(0);
    }
}

#define REDUCT_KERNELS(Suffix, Activation)                                                                     \
    void KerParReduct_CC##Suffix##_SQ8(KerConvLinReduct_SQ8_T *Arg) { reduct_cc(Arg, Activation, 0); }         \
    void KerParReductIO_CC##Suffix##_SQ8(KerConvLinReduct_SQ8_T *Arg) { reduct_cc(Arg, Activation, 1); }

REDUCT_KERNELS(, SDK_STANDALONE_NONE)
REDUCT_KERNELS(_ReLU, SDK_STANDALONE_RELU)
REDUCT_KERNELS(_ReLUN, SDK_STANDALONE_RELUN)
REDUCT_KERNELS(_ReLUM, SDK_STANDALONE_RELUM)
REDUCT_KERNELS(_ReLUMN, SDK_STANDALONE_RELUMN)
REDUCT_KERNELS(_HSigmoid, SDK_STANDALONE_HSIGMOID)
REDUCT_KERNELS(_HSwish, SDK_STANDALONE_HSWISH)
REDUCT_KERNELS(_LeakyReLU, SDK_STANDALONE_LEAKYRELU)
#undef REDUCT_KERNELS

/* ---- KerParConvDWRedAct*_SQ8 (the SDK's contract) ---- */

/* The depthwise convolution of CNN_BasicKernels_SQ8.h, its scaling and its activation (one of
 * SDK_STANDALONE_NONE, _RELU, _RELUN, _RELUM), each core its share of the planes. */
static void conv_dw_red_act(KerConvRedAct_SQ8_T *Arg, int Fx, int Fy, int Sx, int Sy, int Dx, int Dy, int Activation)
{
    const int W = Arg->W, H = Arg->H, UsedW = Arg->UsedW, UsedH = Arg->UsedH;
    const int PadL = Arg->Pad[0], PadR = Arg->Pad[1], PadT = Arg->Pad[2], PadB = Arg->Pad[3];
    const int Wo = (UsedW - (Dx * (Fx - 1) + 1) + PadL + PadR) / Sx + 1;
    const int Ho = (UsedH - (Dy * (Fy - 1) + 1) + PadT + PadB) / Sy + 1;
    const int * __restrict__ Bias = (const int *) Arg->Bias;
    const unsigned char * __restrict__ Scale = (const unsigned char *) Arg->Scale;
    const unsigned char * __restrict__ ScaleN = (const unsigned char *) Arg->ScaleN;
    const unsigned char * __restrict__ Infos = (const unsigned char *) Arg->Infos;
    unsigned int First, Last;

    core_range(Arg->OutFeatures, &First, &Last);
    for (unsigned int f = First; f < Last; f++) {
        const signed char * __restrict__ Plane = Arg->In + (size_t) W * H * f;
        const signed char * __restrict__ Filter = Arg->Filter + (size_t) Fx * Fy * f;
        signed char * __restrict__ Out = Arg->Out + (size_t) Wo * Ho * f;
        const int32_t B = (int32_t) ((uint32_t) Bias[f] << (Arg->NormBias & 31));
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int32_t Acc = window_sum(B, Plane, W, UsedW, UsedH, Filter, Fx, Fy, Dx, Dy, y * Sy - PadT, x * Sx - PadL);
                Acc = gap_roundnorm_reg(wrap_mul(Acc, Scale[f]), ScaleN[f]);
                Out[y * Wo + x] = (signed char) gap_clip(sdk_standalone_act(Acc, Activation, Infos), 7);
            }
    }
    gap_waitbarrier(0);
}

/* The four kernels of one filter shape: Fx, Fy, Sx, Sy, Dx, Dy are constants or fields of Arg. */
#define DW_RED_ACT_KERNELS(Shape, Fx, Fy, Sx, Sy, Dx, Dy)                                                       \
    void KerParConvDWRedAct##Shape##B32_SQ8(KerConvRedAct_SQ8_T *Arg)                                          \
    {                                                                                                           \
        conv_dw_red_act(Arg, Fx, Fy, Sx, Sy, Dx, Dy, SDK_STANDALONE_NONE);                                     \
    }                                                                                                           \
    void KerParConvDWRedAct##Shape##B32_ReLU_SQ8(KerConvRedAct_SQ8_T *Arg)                                     \
    {                                                                                                           \
        conv_dw_red_act(Arg, Fx, Fy, Sx, Sy, Dx, Dy, SDK_STANDALONE_RELU);                                     \
    }                                                                                                           \
    void KerParConvDWRedAct##Shape##B32_ReLUM_SQ8(KerConvRedAct_SQ8_T *Arg)                                    \
    {                                                                                                           \
        conv_dw_red_act(Arg, Fx, Fy, Sx, Sy, Dx, Dy, SDK_STANDALONE_RELUM);                                    \
    }                                                                                                           \
    void KerParConvDWRedAct##Shape##B32_ReLUN_SQ8(KerConvRedAct_SQ8_T *Arg)                                    \
    {                                                                                                           \
        conv_dw_red_act(Arg, Fx, Fy, Sx, Sy, Dx, Dy, SDK_STANDALONE_RELUN);                                    \
    }

DW_RED_ACT_KERNELS(1x1Stride1, 1, 1, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(1x1Stride2, 1, 1, 2, 2, 1, 1)
DW_RED_ACT_KERNELS(1x1StrideS, 1, 1, Arg->S, Arg->S, 1, 1)
DW_RED_ACT_KERNELS(3x1Stride1x1, 3, 1, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(3x1Stride2x1, 3, 1, 2, 1, 1, 1)
DW_RED_ACT_KERNELS(1x3Stride1x1, 1, 3, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(1x3Stride1x2, 1, 3, 1, 2, 1, 1)
DW_RED_ACT_KERNELS(3x3Stride1, 3, 3, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(3x3Stride2, 3, 3, 2, 2, 1, 1)
DW_RED_ACT_KERNELS(3x3StrideS, 3, 3, Arg->S, Arg->S, 1, 1)
DW_RED_ACT_KERNELS(5x1Stride1x1, 5, 1, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(5x1Stride2x1, 5, 1, 2, 1, 1, 1)
DW_RED_ACT_KERNELS(1x5Stride1x1, 1, 5, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(1x5Stride1x2, 1, 5, 1, 2, 1, 1)
DW_RED_ACT_KERNELS(5x5Stride1, 5, 5, 1, 1, 1, 1)
DW_RED_ACT_KERNELS(5x5Stride2, 5, 5, 2, 2, 1, 1)
DW_RED_ACT_KERNELS(5x5StrideS, 5, 5, Arg->S, Arg->S, 1, 1)
DW_RED_ACT_KERNELS(7x7StrideS, 7, 7, Arg->S, Arg->S, 1, 1)
DW_RED_ACT_KERNELS(NxNStrideS, Arg->N, Arg->N, Arg->S, Arg->S, 1, 1)
DW_RED_ACT_KERNELS(NxMStrideSxSy, Arg->N, Arg->Ny, Arg->S, Arg->Sy, 1, 1)
DW_RED_ACT_KERNELS(NxMDxDyStrideSxSy, Arg->N, Arg->Ny, Arg->S, Arg->Sy, Arg->D, Arg->Dy)
#undef DW_RED_ACT_KERNELS
