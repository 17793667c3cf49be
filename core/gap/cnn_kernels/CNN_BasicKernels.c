/* Tessera's CNN basic kernels (see CNN_BasicKernels.h). The arithmetic follows
 * docs/gap-fixed-point.md to the bit: roundnorm in int64, products int32, accumulator sums int32
 * (the quantizer keeps them in range), arithmetic right shifts.
 *
 * Parallel split: every output element is computed by exactly one core and from the same inputs
 * whatever the split, so the result does not depend on the number of cores. Planar kernels split
 * the Feat x rows space (so a single feature plane still uses every core), KerLinear splits its
 * outputs, KerSoftMax runs on core 0. All end on a team barrier. */
#include "CNN_BasicKernels.h"
#include "CNN_KernelHelpers.h" /* apply_relu, roundnorm, clip16, ndiv, core_range, softmax_q15 */

/* ---- KerSetBias32 ---- */

void KerSetBias32(KerSetBias32_Arg_T *Arg)
{
    int * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W, H = Arg->H;
    unsigned int First, Last;

    core_range(Arg->Feat * H, &First, &Last); /* rows of all planes: row r is plane r / H */
    for (unsigned int r = First; r < Last; r++) {
        int Value = (int) roundnorm(Arg->Bias[r / H], Arg->NormBias);
        int * __restrict__ Row = Out + r * W;
        for (unsigned int x = 0; x < W; x++)
            Row[x] = Value;
    }
    rt_team_barrier();
}

/* ---- KerConv32 ---- */

void KerConv32(KerConv32_Arg_T *Arg)
{
    short int * __restrict__ In = Arg->In;
    short int * __restrict__ Filter = Arg->Filter;
    int * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W;
    unsigned int Wo = Arg->Wo, Ho = Arg->Ho;
    unsigned int Fx = Arg->Fx, Fy = Arg->Fy;
    unsigned int Sx = Arg->Sx, Sy = Arg->Sy;
    unsigned int Dx = Arg->Dx, Dy = Arg->Dy;
    int PadL = (int) Arg->PadL;
    unsigned int First, Last;

    core_range(Arg->Feat * Ho, &First, &Last); /* output rows of all planes */
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        short int * __restrict__ Filt = Filter + f * Fy * Fx;
        int * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int32_t Acc = 0;
            const int Column = (int) (x * Sx) - PadL;
            /* The filter taps that fall on real columns: kx in [KxFirst, KxEnd). */
            unsigned int KxFirst = 0, KxEnd = Fx;
            while (KxFirst < Fx && Column + (int) (KxFirst * Dx) < 0)
                KxFirst++;
            while (KxEnd > KxFirst && Column + (int) ((KxEnd - 1) * Dx) >= (int) W)
                KxEnd--;
            for (unsigned int ky = 0; ky < Fy; ky++) {
                const short int *Line = In + (y * Sy + ky * Dy) * W;
                const short int *FLine = Filt + ky * Fx;
                for (unsigned int kx = KxFirst; kx < KxEnd; kx++)
                    Acc += (int32_t) Line[Column + (int) (kx * Dx)] * (int32_t) FLine[kx];
            }
            Row[x] += Acc;
        }
    }
    rt_team_barrier();
}

/* ---- KerNormPoolReLU ---- */

static inline int32_t norm_value(const int * __restrict__ In, unsigned int i, int Norm)
{
    return clip16(roundnorm(In[i], Norm));
}

void KerNormPoolReLU(KerNormPoolReLU_Arg_T *Arg)
{
    int * __restrict__ In = Arg->In;
    short int * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W, H = Arg->H;
    unsigned int Wo = Arg->Wo, Ho = Arg->Ho;
    unsigned int Oper = Arg->PoolOper;
    unsigned int Fx = Arg->Fx, Fy = Arg->Fy;
    unsigned int Sx = Arg->Sx, Sy = Arg->Sy;
    int Norm = Arg->Norm;
    unsigned int ReLU = Arg->ReLU;
    unsigned int First, Last;
    const PoolPlane P = pool_plane(Arg->PadL, Arg->PadT, Arg->TileOffset, Arg->PlaneH, W, H, Oper == CNN_POOL_NONE);

    if (Oper == CNN_POOL_NONE) /* Wo = W, Ho = H */
        Fx = Fy = Sx = Sy = 1;
    core_range(Arg->Feat * Ho, &First, &Last); /* output rows of all planes */
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        const int * __restrict__ Plane = In + f * W * H;
        short int * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int Line0, Column0, Ky0, Ky1, Kx0, Kx1;
            int32_t v, Sum = 0;
            pool_window(&P, y, x, Fy, Fx, Sy, Sx, &Line0, &Column0, &Ky0, &Ky1, &Kx0, &Kx1);
            v = -32768;
            for (int ky = Ky0; ky < Ky1; ky++)
                for (int kx = Kx0; kx < Kx1; kx++) {
                    int32_t u = norm_value(Plane, (unsigned int) ((Line0 + ky) * (int) W + Column0 + kx), Norm);
                    Sum += u;
                    if (u > v)
                        v = u;
                }
            /* The average divides by the positions inside the plane (at least one: padding < window). */
            if (Oper == CNN_POOL_AVG)
                v = (int32_t) ndiv(Sum, (int64_t) ((Ky1 - Ky0) * (Kx1 - Kx0)));
            v = apply_relu(v, ReLU);
            Row[x] = (short int) v;
        }
    }
    rt_team_barrier();
}

/* ---- KerPoolReLU ---- */

void KerPoolReLU(KerPoolReLU_Arg_T *Arg)
{
    short int * __restrict__ In = Arg->In;
    short int * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W, H = Arg->H;
    unsigned int Wo = Arg->Wo, Ho = Arg->Ho;
    unsigned int Oper = Arg->PoolOper;
    unsigned int Fx = Arg->Fx, Fy = Arg->Fy, Sx = Arg->Sx, Sy = Arg->Sy;
    unsigned int ReLU = Arg->ReLU;
    unsigned int First, Last;
    /* Padding: see pool_window. A 1 x 1 copy has none. */
    const PoolPlane P = pool_plane(Arg->PadL, Arg->PadT, Arg->TileOffset, Arg->PlaneH, W, H, Oper == CNN_POOL_NONE);

    if (Oper == CNN_POOL_NONE)
        Fx = Fy = Sx = Sy = 1;
    core_range(Arg->Feat * Ho, &First, &Last);
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        const short int * __restrict__ Plane = In + f * W * H;
        short int * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int Line0, Column0, Ky0, Ky1, Kx0, Kx1;
            int32_t v = -32768, Sum = 0;
            pool_window(&P, y, x, Fy, Fx, Sy, Sx, &Line0, &Column0, &Ky0, &Ky1, &Kx0, &Kx1);
            for (int ky = Ky0; ky < Ky1; ky++)
                for (int kx = Kx0; kx < Kx1; kx++) {
                    const int32_t u = Plane[(Line0 + ky) * (int) W + Column0 + kx];
                    Sum += u;
                    if (u > v)
                        v = u;
                }
            /* The average divides by the values met (max: the value itself for a 1 x 1 window). */
            if (Oper == CNN_POOL_AVG)
                v = (int32_t) ndiv(Sum, (int64_t) ((Ky1 - Ky0) * (Kx1 - Kx0)));
            Row[x] = (short int) apply_relu(v, ReLU);
        }
    }
    rt_team_barrier();
}

/* ---- Global average pooling ---- */

void KerGlobalSumInit(int * __restrict__ Sum)
{
    *Sum = 0;
}

void KerGlobalSum(KerGlobalSum_Arg_T *Arg)
{
    unsigned int First, Last;
    int32_t Sum = 0;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Sum += Arg->In[i];
    Arg->Partial[gap_coreid()] = Sum;
    rt_team_barrier();
    if (gap_coreid() == 0) /* the partial sums in core order: the same total on any core count */
        for (int c = 0; c < gap_ncore(); c++)
            *Arg->Sum += Arg->Partial[c];
    rt_team_barrier();
}

void KerGlobalAvgFinish(int * __restrict__ Sum, unsigned int Count, short int * __restrict__ Out)
{
    *Out = (short int) ndiv(*Sum, (int64_t) Count);
}

/* ---- KerMatAdd ---- */

void KerMatAdd(KerMatAdd_Arg_T *Arg)
{
    unsigned int First, Last;
    unsigned int ReLU = Arg->ReLU;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int32_t v = clip16(roundnorm(Arg->In1[i], Arg->Norm1) + roundnorm(Arg->In2[i], Arg->Norm2));
        v = apply_relu(v, ReLU);
        Arg->Out[i] = (short int) v;
    }
    rt_team_barrier();
}

void KerMatSub(KerMatAdd_Arg_T *Arg)
{
    unsigned int First, Last;
    unsigned int ReLU = Arg->ReLU;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int32_t v = clip16(roundnorm(Arg->In1[i], Arg->Norm1) - roundnorm(Arg->In2[i], Arg->Norm2));
        Arg->Out[i] = (short int) apply_relu(v, ReLU);
    }
    rt_team_barrier();
}

/* ---- KerMatMul ---- */

void KerMatMul(KerMatMul_Arg_T *Arg)
{
    unsigned int Cols1 = Arg->Cols1, Cols2 = Arg->Cols2;
    unsigned int First, Last;
    unsigned int ReLU = Arg->ReLU;

    core_range(Arg->Lines * Cols2, &First, &Last); /* output elements */
    for (unsigned int o = First; o < Last; o++) {
        unsigned int i = o / Cols2, j = o % Cols2;
        int32_t Acc = (int32_t) roundnorm(Arg->Bias[i], Arg->NormBias);
        for (unsigned int k = 0; k < Cols1; k++)
            Acc += (int32_t) Arg->In1[i * Cols1 + k] * (int32_t) Arg->In2[k * Cols2 + j];
        int32_t v = clip16(roundnorm(Acc, Arg->Norm));
        v = apply_relu(v, ReLU);
        Arg->Out[o] = (short int) v;
    }
    rt_team_barrier();
}

/* ---- KerLinear ---- */

void KerLinear(KerLinear_Arg_T *Arg)
{
    short int * __restrict__ In = Arg->In;
    short int * __restrict__ Filter = Arg->Filter;
    short int * __restrict__ Bias = Arg->Bias;
    short int * __restrict__ Out = Arg->Out;
    unsigned int InDim = Arg->InDim;
    unsigned int First, Last;

    core_range(Arg->OutDim, &First, &Last);
    for (unsigned int o = First; o < Last; o++) {
        const short int *Row = Filter + o * InDim;
        int32_t Acc = (int32_t) roundnorm(Bias[o], Arg->NormBias);
        int32_t v;
        for (unsigned int i = 0; i < InDim; i++)
            Acc += (int32_t) In[i] * (int32_t) Row[i];
        v = clip16(roundnorm(Acc, Arg->Norm));
        v = apply_relu(v, Arg->ReLU);
        Out[o] = (short int) v;
    }
    rt_team_barrier();
}

/* ---- KerSoftMax ---- */

void KerSoftMax(KerSoftMax_Arg_T *Arg)
{
    if (gap_coreid() == 0 && Arg->N > 0)
        softmax_q15(Arg->In, 0, 0, 0, Arg->N, Arg->InQ, Arg->Out);
    rt_team_barrier();
}

/* ---- KerCopyRows ---- */

void KerCopyRows(KerCopyRows_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;
    short int * __restrict__ Out = Arg->Out + Arg->RowOffset * W;
    const int Norm = Arg->Norm;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Out[i] = (short int) clip16(roundnorm(Arg->In[i], Norm));
    rt_team_barrier();
}

/* ---- KerSliceRows ---- */

void KerSliceRows(KerSliceRows_Arg_T *Arg)
{
    unsigned int First, Last;
    const short int * __restrict__ In = Arg->In + Arg->InRowOffset * Arg->W;

    core_range(Arg->W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Arg->Out[i] = In[i];
    rt_team_barrier();
}

/* ---- KerShuffleRows ---- */

void KerShuffleRows(KerShuffleRows_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W, Groups = Arg->Groups, PerGroup = Arg->Rows / Arg->Groups;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        const unsigned int r = i / W, x = i % W;
        Arg->Out[i] = Arg->In[((r % Groups) * PerGroup + r / Groups) * W + x];
    }
    rt_team_barrier();
}

/* ---- KerActivation ---- */

void KerActivation(KerActivation_Arg_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int64_t x12 = roundnorm((int64_t) Arg->In[i] * Arg->InScale, Arg->InShift);
        int64_t v = activation_value(Arg->Kind, x12, Arg->Offset, Arg->Cap, Arg->Alpha);
        Arg->Out[i] = (short int) clip16(roundnorm(v * Arg->OutScale, Arg->OutShift));
    }
    rt_team_barrier();
}

/* ---- KerScaleChannels ---- */

void KerScaleChannels(KerScaleChannels_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Arg->Out[i] = (short int) clip16(roundnorm((int64_t) Arg->In[i] * Arg->Gate[i / W], Arg->Norm));
    rt_team_barrier();
}

/* ---- KerUpsampleNearest ---- */

void KerUpsampleNearest(KerUpsampleNearest_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W, FactorX = Arg->FactorX, FactorY = Arg->FactorY;
    const unsigned int OutW = W * FactorX;

    core_range(Arg->Lines * FactorY, &First, &Last); /* output rows */
    for (unsigned int Row = First; Row < Last; Row++) {
        const short int * __restrict__ In = Arg->In + (Row / FactorY) * W;
        short int * __restrict__ Out = Arg->Out + Row * OutW;
        for (unsigned int x = 0; x < OutW; x++)
            Out[x] = In[x / FactorX];
    }
    rt_team_barrier();
}

/* ---- KerPReluChannels ---- */

void KerPReluChannels(KerPReluChannels_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        const int64_t x = Arg->In[i];
        Arg->Out[i] = (short int) clip16(x >= 0 ? roundnorm(x, Arg->Norm)
                                                : roundnorm(x * Arg->Slopes[i / W], Arg->SlopeQ + Arg->Norm));
    }
    rt_team_barrier();
}

/* ---- KerCopyColumns ---- */

void KerCopyColumns(KerCopyColumns_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(Arg->Lines, &First, &Last);
    for (unsigned int Line = First; Line < Last; Line++) {
        const short int * __restrict__ In = Arg->In + Line * W;
        short int * __restrict__ Out = Arg->Out + Line * Arg->OutW + Arg->ColOffset;
        for (unsigned int x = 0; x < W; x++)
            Out[x] = (short int) clip16(roundnorm(In[x], Arg->Norm));
    }
    rt_team_barrier();
}
