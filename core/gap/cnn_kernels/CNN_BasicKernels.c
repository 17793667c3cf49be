/* Tessera's CNN basic kernels (see CNN_BasicKernels.h). The arithmetic follows
 * docs/gap-fixed-point.md to the bit: roundnorm in int64, products int32, accumulator sums int32
 * (the quantizer keeps them in range), arithmetic right shifts.
 *
 * Parallel split: every output element is computed by exactly one core and from the same inputs
 * whatever the split, so the result does not depend on the number of cores. Planar kernels split
 * the Feat x rows space (so a single feature plane still uses every core), KerLinear splits its
 * outputs, KerSoftMax runs on core 0. All end on a team barrier. */
#include "CNN_BasicKernels.h"

/* The ReLU argument of the kernels: 0 none, 1 max(v, 0), a larger N min(max(v, 0), N) (ReLU6 passes 6
 * in the output's Q format). */
static inline int32_t apply_relu(int32_t v, unsigned int ReLU)
{
    if (ReLU && v < 0)
        v = 0;
    if (ReLU > 1 && v > (int32_t) ReLU)
        v = (int32_t) ReLU;
    return v;
}

/* ---- Fixed-point helpers (docs/gap-fixed-point.md, "Numbers") ---- */

/* roundnorm(x, s): s > 0 rounds half up then shifts right (arithmetic), s == 0 is x, s < 0 shifts
 * left; all in int64. The left shift is written as a multiplication by 2^-s, which is the same
 * value and avoids C's undefined left shift of a negative number. */
static inline int64_t roundnorm(int64_t x, int s)
{
    if (s > 0)
        return (x + ((int64_t) 1 << (s - 1))) >> s;
    if (s < 0)
        return x * ((int64_t) 1 << -s);
    return x;
}

static inline int32_t clip16(int64_t x)
{
    return x < -32768 ? -32768 : (x > 32767 ? 32767 : (int32_t) x);
}

/* Quotient rounded to nearest, halves away from zero; b > 0. */
static inline int64_t ndiv(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* This core's share [*First, *Last) of Count items, in contiguous chunks. */
static inline void core_range(unsigned int Count, unsigned int *First, unsigned int *Last)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    unsigned int Chunk = (Count + Cores - 1) / Cores;
    unsigned int Begin = (unsigned int) gap_coreid() * Chunk;
    unsigned int End;

    if (Begin > Count)
        Begin = Count;
    End = Count - Begin < Chunk ? Count : Begin + Chunk;
    *First = Begin;
    *Last = End;
}

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

    if (Oper == CNN_POOL_NONE) { /* Wo = W, Ho = H */
        Fx = Fy = Sx = Sy = 1;
    }
    core_range(Arg->Feat * Ho, &First, &Last); /* output rows of all planes */
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        const int * __restrict__ Plane = In + f * W * H;
        short int * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int32_t v;
            if (Oper == CNN_POOL_NONE) {
                v = norm_value(Plane, y * W + x, Norm);
            } else if (Oper == CNN_POOL_MAX) {
                v = -32768;
                for (unsigned int ky = 0; ky < Fy; ky++)
                    for (unsigned int kx = 0; kx < Fx; kx++) {
                        int32_t u = norm_value(Plane, (y * Sy + ky) * W + x * Sx + kx, Norm);
                        if (u > v)
                            v = u;
                    }
            } else { /* CNN_POOL_AVG: every window position is inside (no padding) */
                int32_t Sum = 0;
                for (unsigned int ky = 0; ky < Fy; ky++)
                    for (unsigned int kx = 0; kx < Fx; kx++)
                        Sum += norm_value(Plane, (y * Sy + ky) * W + x * Sx + kx, Norm);
                v = (int32_t) ndiv(Sum, (int64_t) (Fx * Fy));
            }
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

    if (Oper == CNN_POOL_NONE)
        Fx = Fy = Sx = Sy = 1;
    core_range(Arg->Feat * Ho, &First, &Last);
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        const short int * __restrict__ Plane = In + f * W * H;
        short int * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int32_t v;
            if (Oper == CNN_POOL_AVG) {
                int32_t Sum = 0;
                for (unsigned int ky = 0; ky < Fy; ky++)
                    for (unsigned int kx = 0; kx < Fx; kx++)
                        Sum += Plane[(y * Sy + ky) * W + x * Sx + kx];
                v = (int32_t) ndiv(Sum, (int64_t) (Fx * Fy));
            } else { /* max, or the value itself for a 1 x 1 window */
                v = -32768;
                for (unsigned int ky = 0; ky < Fy; ky++)
                    for (unsigned int kx = 0; kx < Fx; kx++)
                        if (Plane[(y * Sy + ky) * W + x * Sx + kx] > v)
                            v = Plane[(y * Sy + ky) * W + x * Sx + kx];
            }
            v = apply_relu(v, ReLU);
            Row[x] = (short int) v;
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

/* e = 2^(d * log2(e)) in Q15 for d = in - max <= 0 in Q(InQ), steps 2 to 5 of the doc.
 * Needs 0 <= InQ <= 31 (the doc's shifts by InQ are not defined for InQ < 0). */
static inline int32_t softmax_exp(int32_t d, int InQ)
{
    int32_t t = (d * 23637) >> 14;
    int32_t k = (-t) >> InQ;
    int32_t f = (-t) - (k << InQ);
    int32_t f15 = InQ <= 15 ? f << (15 - InQ) : f >> (InQ - 15);
    int32_t p = 315;

    p = -1819 + ((p * f15) >> 15);
    p = 7872 + ((p * f15) >> 15);
    p = -22713 + ((p * f15) >> 15);
    p = 32768 + ((p * f15) >> 15);
    return k >= 31 ? 0 : p >> k;
}

void KerSoftMax(KerSoftMax_Arg_T *Arg)
{
    if (gap_coreid() == 0 && Arg->N > 0) {
        short int * __restrict__ In = Arg->In;
        short int * __restrict__ Out = Arg->Out;
        unsigned int N = Arg->N;
        int InQ = Arg->InQ;
        int32_t m = In[0];
        int32_t Sum = 0;

        for (unsigned int i = 1; i < N; i++)
            if (In[i] > m)
                m = In[i];
        /* The e[i] are recomputed in the second pass rather than stored: no scratch buffer is
         * needed (an e[i] may be 32768, which does not fit in Out). */
        for (unsigned int i = 0; i < N; i++)
            Sum += softmax_exp((int32_t) In[i] - m, InQ);
        for (unsigned int i = 0; i < N; i++) {
            int32_t e = softmax_exp((int32_t) In[i] - m, InQ);
            Out[i] = (short int) clip16(ndiv((int64_t) e * 32768, Sum));
        }
    }
    rt_team_barrier();
}
