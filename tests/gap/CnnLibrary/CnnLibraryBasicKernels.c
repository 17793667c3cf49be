/* Basic kernels of the CnnLibrary example (CnnLibraryBasicKernels.h). */
#include "CnnLibraryBasicKernels.h"

/* This core's share [*First, *Last) of Count items. */
static void CoreShare(unsigned int Count, unsigned int *First, unsigned int *Last)
{
    unsigned int Cores = gap_ncore(), Chunk = (Count + Cores - 1) / Cores;
    *First = gap_coreid() * Chunk;
    *Last = *First + Chunk < Count ? *First + Chunk : Count;
    if (*First > *Last)
        *First = *Last;
}

void KerParSetBias_fp(KerSetBias_fp_T *Arg)
{
    unsigned int First, Last, Size = (unsigned int) Arg->W * Arg->H;
    CoreShare(Arg->OutFeatures, &First, &Last);
    for (unsigned int f = First; f < Last; f++)
        for (unsigned int i = 0; i < Size; i++)
            Arg->Out[f * Size + i] = Arg->Bias[f];
    gap_waitbarrier(0);
}

static void ConvFeatures(KerConv_fp_T *Arg, int N, int S)
{
    const int PadL = Arg->Pad[0], PadR = Arg->Pad[1], PadT = Arg->Pad[2], PadB = Arg->Pad[3];
    const int Wo = ((int) Arg->UsedW - N + PadL + PadR) / S + 1, Ho = ((int) Arg->UsedH - N + PadT + PadB) / S + 1;
    unsigned int First, Last;
    CoreShare(Arg->OutFeatures, &First, &Last);
    for (unsigned int o = First; o < Last; o++)
        for (unsigned int i = 0; i < Arg->InFeatures; i++) {
            const short int *In = Arg->In + (unsigned int) Arg->W * Arg->H * i;
            const short int *Filter = Arg->Filter + N * N * (Arg->TotalInFeatures * o + i);
            short int *Out = Arg->Out + Wo * Ho * o;
            for (int y = 0; y < Ho; y++)
                for (int x = 0; x < Wo; x++) {
                    int Acc = Out[y * Wo + x] * (1 << Arg->Norm);
                    for (int fy = 0; fy < N; fy++)
                        for (int fx = 0; fx < N; fx++) {
                            const int Y = y * S - PadT + fy, X = x * S - PadL + fx;
                            if (Y >= 0 && Y < Arg->UsedH && X >= 0 && X < Arg->UsedW)
                                Acc += In[Y * Arg->W + X] * Filter[fy * N + fx];
                        }
                    Out[y * Wo + x] = (short int) CnnClip16(CnnRoundNorm(Acc, Arg->Norm));
                }
        }
    gap_waitbarrier(0);
}

void KerParConv5x5Stride1_fp(KerConv_fp_T *Arg) { ConvFeatures(Arg, 5, 1); }

void KerParConvNxNStrideS_fp(KerConv_fp_T *Arg) { ConvFeatures(Arg, Arg->N, Arg->S); }

void KerParPool2x2Stride2_fp(KerPool_fp_T *Arg)
{
    const int PadL = Arg->Pad[0], PadT = Arg->Pad[2];
    const int Wo = ((int) Arg->UsedW + PadL + Arg->Pad[1]) / 2, Ho = ((int) Arg->UsedH + PadT + Arg->Pad[3]) / 2;
    const int Average = Arg->Oper & 1, ReLU = (Arg->Oper >> 1) & 1;
    unsigned int First, Last;
    CoreShare(Arg->OutFeatures, &First, &Last);
    for (unsigned int f = First; f < Last; f++) {
        const short int *In = Arg->In + (unsigned int) Arg->W * Arg->H * f;
        short int *Out = Arg->Out + Wo * Ho * f;
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int Max = -32768, Sum = 0;
                for (int k = 0; k < 4; k++) {
                    const int Y = 2 * y - PadT + k / 2, X = 2 * x - PadL + k % 2;
                    const int V = Y >= 0 && Y < Arg->UsedH && X >= 0 && X < Arg->UsedW ? In[Y * Arg->W + X] : 0;
                    Max = V > Max ? V : Max;
                    Sum += V;
                }
                int V = Average ? CnnRoundNorm(Sum, 2) : Max;
                Out[y * Wo + x] = (short int) (ReLU && V < 0 ? 0 : V);
            }
    }
    gap_waitbarrier(0);
}

void KerParLinearPartial_fp(KerLinearPartial_fp_T *Arg)
{
    if (gap_coreid() == 0) {
        int Acc = Arg->TileIndex == 0 ? 0 : *Arg->Reduct;
        for (unsigned int i = 0; i < Arg->InSize; i++)
            Acc += Arg->In[i] * Arg->Filter[i];
        *Arg->Reduct = Acc;
    }
    gap_waitbarrier(0);
}

void KerParLinearPartialFirst_fp(KerLinearPartialFirst_fp_T *Arg)
{
    if (gap_coreid() == 0) {
        int Acc = Arg->FirstTile ? 0 : *Arg->Reduct;
        for (unsigned int i = 0; i < Arg->InSize; i++)
            Acc += Arg->In[i] * Arg->Filter[i];
        *Arg->Reduct = Acc;
    }
    gap_waitbarrier(0);
}

void KerParLinearReduct_fp(KerLinearReduct_fp_T *Arg)
{
    if (gap_coreid() == 0) {
        int V = CnnClip16(CnnRoundNorm(*Arg->Reduct + Arg->Bias[0] * (1 << Arg->Norm), Arg->Norm));
        Arg->Out[0] = (short int) (Arg->ReLU && V < 0 ? 0 : V);
    }
    gap_waitbarrier(0);
}

/* The HWC kernels split their output lines over the cores. */
void KerParConvNxNStride1_HWC_fp(KerConv_HWC_fp_T *Arg)
{
    const int N = Arg->N, W = Arg->W, H = Arg->H, InF = Arg->InFeatures, OutF = Arg->OutFeatures;
    const int PadL = Arg->Pad[0], PadT = Arg->Pad[2];
    const int Wo = W + PadL + Arg->Pad[1] - N + 1, Ho = H + PadT + Arg->Pad[3] - N + 1;
    unsigned int First, Last;
    CoreShare((unsigned int) Ho, &First, &Last);
    for (int y = (int) First; y < (int) Last; y++)
        for (int x = 0; x < Wo; x++)
            for (int o = 0; o < OutF; o++) {
                const short int *Filter = Arg->Filter + o * N * N * InF;
                int Acc = Arg->Bias[o] * (1 << Arg->Norm);
                for (int fy = 0; fy < N; fy++)
                    for (int fx = 0; fx < N; fx++) {
                        const int Y = y - PadT + fy, X = x - PadL + fx;
                        if (Y < 0 || Y >= H || X < 0 || X >= W)
                            continue;
                        for (int i = 0; i < InF; i++)
                            Acc += Arg->In[(Y * W + X) * InF + i] * Filter[(fy * N + fx) * InF + i];
                    }
                Arg->Out[(y * Wo + x) * OutF + o] = (short int) CnnClip16(CnnRoundNorm(Acc, Arg->Norm));
            }
    gap_waitbarrier(0);
}

void KerParReLU_HWC_fp(KerReLU_HWC_fp_T *Arg)
{
    const unsigned int Line = (unsigned int) Arg->W * Arg->Features;
    unsigned int First, Last;
    CoreShare(Arg->H, &First, &Last);
    for (unsigned int i = First * Line; i < Last * Line; i++)
        if (Arg->InOut[i] < 0)
            Arg->InOut[i] = 0;
    gap_waitbarrier(0);
}

void KerParMaxPool2x2Stride2_HWC_fp(KerPool_HWC_fp_T *Arg)
{
    const int W = Arg->W, F = Arg->Features, Wo = Arg->W / 2;
    unsigned int First, Last;
    CoreShare(Arg->H / 2u, &First, &Last);
    for (int y = (int) First; y < (int) Last; y++)
        for (int x = 0; x < Wo; x++)
            for (int f = 0; f < F; f++) {
                int V = -32768;
                for (int k = 0; k < 4; k++) {
                    const int C = Arg->In[((2 * y + k / 2) * W + 2 * x + k % 2) * F + f];
                    V = C > V ? C : V;
                }
                Arg->Out[(y * Wo + x) * F + f] = (short int) V;
            }
    gap_waitbarrier(0);
}
