/* Tessera's SQ8 CNN basic kernels (see CNN_BasicKernels_SQ8.h). The arithmetic follows the "SQ8"
 * section of docs/gap-fixed-point.md to the bit: products of int8 values and accumulator sums in
 * int32 (the quantizer keeps them in range), requantization products and roundnorm in int64;
 * the kernels on the SDK's contract (KerParLinearLayerFullFeatB32_*_SQ8, KerMatAdd*_SQ8,
 * KerParPool*_SQ8, KerParGlobal*Pool*_SQ8, KerParSoftMax*_SQ8) compute all in 32 bits, wrapping, as the SDK's
 * own do on GAP.
 *
 * Parallel split as in CNN_BasicKernels.c: every output element is computed by exactly one core
 * from the same inputs whatever the split, so the result does not depend on the number of cores.
 * Planar kernels split the Feat x rows space, the linear kernels their outputs, KerMatAddScaled_SQ8 and
 * KerGlobalSum_SQ8 the elements, KerParSoftMax*_SQ8 each vector's elements (its maximum and sum reduced
 * across the cores), KerSoftMax_SQ8 runs on core 0. All end on a team barrier. */
#include "CNN_BasicKernels_SQ8.h"
#include "CNN_KernelHelpers.h"
#include "CNN_SdkArithmetic_SQ8.h"

/* requant(acc, Scale, ScaleN) = clip8(roundnorm((int64) acc * Scale, ScaleN)). */
static inline int32_t requant(int32_t Acc, unsigned int Scale, unsigned int ScaleN)
{
    return clip8(roundnorm((int64_t) Acc * (int64_t) Scale, (int) ScaleN));
}

/* ---- KerSetBias_SQ8 ---- */

void KerSetBias_SQ8(KerSetBias_SQ8_Arg_T *Arg)
{
    int * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W, H = Arg->H;
    unsigned int First, Last;

    core_range(Arg->Feat * H, &First, &Last); /* rows of all planes: row r is plane r / H */
    for (unsigned int r = First; r < Last; r++) {
        int Value = Arg->Bias[r / H];
        int * __restrict__ Row = Out + r * W;
        for (unsigned int x = 0; x < W; x++)
            Row[x] = Value;
    }
    rt_team_barrier();
}

/* ---- KerConv_SQ8 ---- */

void KerConv_SQ8(KerConv_SQ8_Arg_T *Arg)
{
    signed char * __restrict__ In = Arg->In;
    signed char * __restrict__ Filter = Arg->Filter;
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
        const signed char * __restrict__ Filt = Filter + f * Fy * Fx;
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
                const signed char *Line = In + (y * Sy + ky * Dy) * W;
                const signed char *FLine = Filt + ky * Fx;
                for (unsigned int kx = KxFirst; kx < KxEnd; kx++)
                    Acc += (int32_t) Line[Column + (int) (kx * Dx)] * (int32_t) FLine[kx];
            }
            Row[x] += Acc;
        }
    }
    rt_team_barrier();
}

/* ---- KerScalePoolAct_SQ8 ---- */

void KerScalePoolAct_SQ8(KerScalePoolAct_SQ8_Arg_T *Arg)
{
    int * __restrict__ In = Arg->In;
    signed char * __restrict__ Out = Arg->Out;
    unsigned int W = Arg->W, H = Arg->H;
    unsigned int Wo = Arg->Wo, Ho = Arg->Ho;
    unsigned int Oper = Arg->PoolOper;
    unsigned int Fx = Arg->Fx, Fy = Arg->Fy;
    unsigned int Sx = Arg->Sx, Sy = Arg->Sy;
    unsigned int ReLU = Arg->ReLU;
    unsigned int First, Last;
    const PoolPlane P = pool_plane(Arg->PadL, Arg->PadT, Arg->TileOffset, Arg->PlaneH, W, H, Oper == CNN_POOL_NONE);

    if (Oper == CNN_POOL_NONE) /* Wo = W, Ho = H */
        Fx = Fy = Sx = Sy = 1;
    core_range(Arg->Feat * Ho, &First, &Last); /* output rows of all planes */
    for (unsigned int r = First; r < Last; r++) {
        unsigned int f = r / Ho, y = r % Ho;
        const int * __restrict__ Plane = In + f * W * H;
        const unsigned int Scale = Arg->Scale[f], ScaleN = Arg->ScaleN[f];
        signed char * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int Line0, Column0, Ky0, Ky1, Kx0, Kx1;
            int32_t v = -128, Sum = 0;
            pool_window(&P, y, x, Fy, Fx, Sy, Sx, &Line0, &Column0, &Ky0, &Ky1, &Kx0, &Kx1);
            for (int ky = Ky0; ky < Ky1; ky++)
                for (int kx = Kx0; kx < Kx1; kx++) {
                    int32_t u = requant(Plane[(Line0 + ky) * (int) W + Column0 + kx], Scale, ScaleN);
                    Sum += u;
                    if (u > v)
                        v = u;
                }
            /* The average divides by the positions inside the plane (at least one: padding < window). */
            if (Oper == CNN_POOL_AVG)
                v = (int32_t) ndiv(Sum, (int64_t) ((Ky1 - Ky0) * (Kx1 - Kx0)));
            Row[x] = (signed char) apply_relu(v, ReLU);
        }
    }
    rt_team_barrier();
}

/* ---- KerParLinearLayerFullFeatB32_*_SQ8 (the SDK's contract) ---- */

static void linear_full_feat_b32(KerLinear_SQ8_T *Arg, int Activation)
{
    const signed char * __restrict__ In = Arg->In;
    const signed char * __restrict__ Weights = Arg->Weights;
    const int * __restrict__ Bias = (const int *) Arg->Bias;
    signed char * __restrict__ Out = (signed char *) Arg->Out;
    const unsigned char * __restrict__ Infos = (const unsigned char *) Arg->Infos;
    unsigned int InDim = Arg->InDim;
    unsigned int BiasN = Infos[AT_INF_BIASN];
    unsigned int ActScale = Infos[AT_INF_ACTSCALE], ActScaleN = Infos[AT_INF_ACTSCALEN];
    int A0 = (signed char) Infos[AT_INF_A0];
    unsigned int First, Last;

    core_range(Arg->OutDim, &First, &Last);
    for (unsigned int o = First; o < Last; o++) {
        const signed char *Row = Weights + o * InDim;
        int32_t Acc = (int32_t) ((uint32_t) Bias[o] << (BiasN & 31));
        for (unsigned int i = 0; i < InDim; i++)
            Acc = wrap_add(Acc, (int32_t) In[i] * (int32_t) Row[i]);
        Acc = gap_roundnorm_reg(wrap_mul(Acc, Arg->Scale[o]), Arg->ScaleN[o]);
        if (Activation != SDK_ACT_NONE)
            Acc = gap_roundnorm_reg(wrap_mul(sdk_rectify(Acc, Activation, A0), ActScale), ActScaleN);
        Out[o] = (signed char) gap_clip(Acc, 7);
    }
    rt_team_barrier();
}

void KerParLinearLayerFullFeatB32_SQ8(KerLinear_SQ8_T *Arg)
{
    linear_full_feat_b32(Arg, SDK_ACT_NONE);
}

void KerParLinearLayerFullFeatB32_ReLU_SQ8(KerLinear_SQ8_T *Arg)
{
    linear_full_feat_b32(Arg, SDK_ACT_RELU);
}

void KerParLinearLayerFullFeatB32_ReLUN_SQ8(KerLinear_SQ8_T *Arg)
{
    linear_full_feat_b32(Arg, SDK_ACT_RELUN);
}

/* ---- KerPoolAct_SQ8 ---- */

void KerPoolAct_SQ8(KerPoolAct_SQ8_Arg_T *Arg)
{
    signed char * __restrict__ In = Arg->In;
    signed char * __restrict__ Out = Arg->Out;
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
        const signed char * __restrict__ Plane = In + f * W * H;
        signed char * __restrict__ Row = Out + r * Wo;
        for (unsigned int x = 0; x < Wo; x++) {
            int Line0, Column0, Ky0, Ky1, Kx0, Kx1;
            int32_t v = -128, Sum = 0;
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
            Row[x] = (signed char) apply_relu(v, ReLU);
        }
    }
    rt_team_barrier();
}

/* ---- KerParPool*_SQ8 and KerParGlobal*Pool*_SQ8 (the SDK's contract) ---- */

/* Whether a pooling kernel applies the layer's ActScale: set, and the kernel has an activation or
 * is told DoScale. */
static inline int sdk_scaled(const unsigned char *Infos, int Activation, int DoScale)
{
    return Infos[AT_INF_ACTSCALE] != 0 && (Activation != SDK_ACT_NONE || DoScale);
}

/* A pooled int8 value's activation, then its scaling when Scaled (the SDK's pooling activation). */
static inline int32_t sdk_pool_activation(int32_t V, int Activation, int Scaled, const unsigned char *Infos)
{
    if (Activation != SDK_ACT_NONE)
        V = sdk_rectify(V, Activation, (signed char) Infos[AT_INF_A0]);
    return Scaled ? gap_clip(sdk_act_scale(V, Infos), 7) : V;
}

/* The pooled value of output (y, x) of one W x H plane: positions outside it count as 0. */
static inline int32_t sdk_pooled(const signed char * __restrict__ Plane, int W, int H, int Line0, int Column0,
                                 int Fx, int Fy, int PoolMax, int32_t PoolFactor)
{
    int32_t Max = -128, Sum = 0;
    for (int i = 0; i < Fy; i++)
        for (int j = 0; j < Fx; j++) {
            const int Line = Line0 + i, Column = Column0 + j;
            const int32_t u = (Line >= 0 && Line < H && Column >= 0 && Column < W) ? Plane[Line * W + Column] : 0;
            Sum += u;
            if (u > Max)
                Max = u;
        }
    return PoolMax ? Max : gap_clip(gap_roundnorm_reg(Sum * PoolFactor, 16), 7);
}

static void sdk_pool(KerPool_SQ8_T *Arg, int Fx, int Fy, int Sx, int Sy, int Activation)
{
    const unsigned char * __restrict__ Infos = (const unsigned char *) Arg->Infos;
    const int W = Arg->W, H = Arg->H;
    const int PadL = Arg->Pad[0], PadR = Arg->Pad[1], PadT = Arg->Pad[2], PadB = Arg->Pad[3];
    const int Wo = (Arg->UsedW - Fx + PadL + PadR) / Sx + 1, Ho = (Arg->UsedH - Fy + PadT + PadB) / Sy + 1;
    const int32_t PoolFactor = (1 << 16) / (Fx * Fy);
    const int Scaled = sdk_scaled(Infos, Activation, Arg->DoScale);
    unsigned int First, Last;

    core_range(Arg->Feat * (unsigned int) Ho, &First, &Last); /* output rows of all planes */
    for (unsigned int r = First; r < Last; r++) {
        const int f = (int) r / Ho, y = (int) r % Ho;
        const signed char * __restrict__ Plane = Arg->In + f * W * H;
        signed char * __restrict__ Row = Arg->Out + r * (unsigned int) Wo;
        for (int x = 0; x < Wo; x++) {
            const int32_t v = sdk_pooled(Plane, W, H, y * Sy - PadT, x * Sx - PadL, Fx, Fy, Arg->PoolMax, PoolFactor);
            Row[x] = (signed char) sdk_pool_activation(v, Activation, Scaled, Infos);
        }
    }
    rt_team_barrier();
}

/* The window and stride each kernel name stands for. */
static void pool_2x2(KerPool_SQ8_T *Arg, int Activation) { sdk_pool(Arg, 2, 2, 2, 2, Activation); }
static void pool_nxn(KerPool_SQ8_T *Arg, int Activation)
{
    sdk_pool(Arg, Arg->FS, Arg->FS, Arg->S, Arg->S, Activation);
}
static void pool_nxm(KerPool_SQ8_T *Arg, int Activation)
{
    sdk_pool(Arg, Arg->FS, Arg->FSy, Arg->S, Arg->Sy, Activation);
}

void KerParPool2x2Stride2_SQ8(KerPool_SQ8_T *Arg) { pool_2x2(Arg, SDK_ACT_NONE); }
void KerParPool2x2Stride2_ReLU_SQ8(KerPool_SQ8_T *Arg) { pool_2x2(Arg, SDK_ACT_RELU); }
void KerParPool2x2Stride2_ReLUN_SQ8(KerPool_SQ8_T *Arg) { pool_2x2(Arg, SDK_ACT_RELUN); }
void KerParPoolNxNStrideS_SQ8(KerPool_SQ8_T *Arg) { pool_nxn(Arg, SDK_ACT_NONE); }
void KerParPoolNxNStrideS_ReLU_SQ8(KerPool_SQ8_T *Arg) { pool_nxn(Arg, SDK_ACT_RELU); }
void KerParPoolNxNStrideS_ReLUN_SQ8(KerPool_SQ8_T *Arg) { pool_nxn(Arg, SDK_ACT_RELUN); }
void KerParPoolNxMStrideSxSy_SQ8(KerPool_SQ8_T *Arg) { pool_nxm(Arg, SDK_ACT_NONE); }
void KerParPoolNxMStrideSxSy_ReLU_SQ8(KerPool_SQ8_T *Arg) { pool_nxm(Arg, SDK_ACT_RELU); }
void KerParPoolNxMStrideSxSy_ReLUN_SQ8(KerPool_SQ8_T *Arg) { pool_nxm(Arg, SDK_ACT_RELUN); }

/* KerParGlobal{Avg,Max}Pool*_SQ8 */

/* A plane's sum or maximum over its Count values, from Start (0, or -128 for the maximum, when a
 * plane begins). */
static inline int32_t sdk_plane_reduce(const signed char * __restrict__ Plane, unsigned int Count, int32_t Start,
                                       int Max)
{
    int32_t Acc = Start;
    for (unsigned int i = 0; i < Count; i++)
        Acc = Max ? (Plane[i] > Acc ? Plane[i] : Acc) : Acc + Plane[i];
    return Acc;
}

/* A plane's value before the activation: its maximum, or its mean scaled by the layer's multiplier. */
static inline int32_t sdk_global_value(int32_t Acc, int Max, unsigned int Count, const unsigned char *Infos)
{
    if (Max)
        return Acc;
    return gap_roundnorm_reg(wrap_mul((Acc * 128) / (int32_t) Count, Infos[AT_INF_GLOBAL_SUM_SCALE]),
                             Infos[AT_INF_GLOBAL_SUM_SCALEN]);
}

static void sdk_global_full(KerGlobalPool_SQ8_T *Arg, int Max, int Activation)
{
    const unsigned char *Infos = (const unsigned char *) Arg->Infos;
    const unsigned int Count = (unsigned int) Arg->W * Arg->H;
    const int Scaled = sdk_scaled(Infos, Activation, Arg->DoScale);
    const signed char *In = (const signed char *) Arg->In;
    signed char *Out = (signed char *) Arg->Out;
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    for (unsigned int f = First; f < Last; f++) {
        const int32_t v = gap_clip(
            sdk_global_value(sdk_plane_reduce(In + f * Count, Count, Max ? -128 : 0, Max), Max, Count, Infos), 7);
        Out[f] = (signed char) sdk_pool_activation(v, Activation, Scaled, Infos);
    }
    rt_team_barrier();
}

static void sdk_global_partial(KerGlobalPool_SQ8_T *Arg, int Max)
{
    const unsigned int Count = (unsigned int) Arg->W * Arg->H;
    const signed char *In = (const signed char *) Arg->In;
    int *Out = (int *) Arg->Out;
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    for (unsigned int f = First; f < Last; f++)
        Out[f] = sdk_plane_reduce(In + f * Count, Count, Arg->FirstTile ? (Max ? -128 : 0) : Out[f], Max);
    rt_team_barrier();
}

static void sdk_global_reduct(KerGlobalPool_SQ8_T *Arg, int Max, int Activation)
{
    const unsigned char *Infos = (const unsigned char *) Arg->Infos;
    const unsigned int Count = (unsigned int) Arg->W * Arg->H;
    const int Scaled = sdk_scaled(Infos, Activation, Arg->DoScale);
    const int *In = (const int *) Arg->In;
    signed char *Out = (signed char *) Arg->Out;
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    for (unsigned int f = First; f < Last; f++) {
        int32_t v = sdk_global_value(In[f], Max, Count, Infos);
        if (Scaled)
            v = sdk_act_scale(v, Infos);
        if (Activation != SDK_ACT_NONE)
            v = sdk_rectify(v, Activation, (signed char) Infos[AT_INF_A0]);
        Out[f] = (signed char) gap_clip(v, 7);
    }
    rt_team_barrier();
}

void KerParGlobalAvgPoolFullFeat_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 0, SDK_ACT_NONE); }
void KerParGlobalAvgPoolFullFeat_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 0, SDK_ACT_RELU); }
void KerParGlobalAvgPoolFullFeat_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 0, SDK_ACT_RELUN); }
void KerParGlobalMaxPoolFullFeat_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 1, SDK_ACT_NONE); }
void KerParGlobalMaxPoolFullFeat_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 1, SDK_ACT_RELU); }
void KerParGlobalMaxPoolFullFeat_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_full(Arg, 1, SDK_ACT_RELUN); }
void KerParGlobalAvgPool_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_partial(Arg, 0); }
void KerParGlobalMaxPool_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_partial(Arg, 1); }
void KerParGlobalAvgPool_Reduct_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 0, SDK_ACT_NONE); }
void KerParGlobalAvgPool_Reduct_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 0, SDK_ACT_RELU); }
void KerParGlobalAvgPool_Reduct_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 0, SDK_ACT_RELUN); }
void KerParGlobalMaxPool_Reduct_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 1, SDK_ACT_NONE); }
void KerParGlobalMaxPool_Reduct_ReLU_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 1, SDK_ACT_RELU); }
void KerParGlobalMaxPool_Reduct_ReLUN_SQ8(KerGlobalPool_SQ8_T *Arg) { sdk_global_reduct(Arg, 1, SDK_ACT_RELUN); }

/* ---- Global average pooling ---- */

void KerGlobalSum_SQ8(KerGlobalSum_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    int32_t Sum = 0;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Sum += Arg->In[i];
    Arg->Partial[gap_coreid()] = Sum;
    rt_team_barrier();
    if (gap_coreid() == 0) /* integer sums: the total does not depend on the split */
        for (int c = 0; c < gap_ncore(); c++)
            *Arg->Sum += Arg->Partial[c];
    rt_team_barrier();
}

void KerGlobalAvgFinish_SQ8(int * __restrict__ Sum, unsigned int Count, int Scale, int ScaleN,
                            signed char * __restrict__ Out)
{
    *Out = (signed char) clip8(roundnorm(ndiv((int64_t) *Sum * Scale, (int64_t) Count), ScaleN));
}

/* ---- KerMatAddScaled_SQ8 ---- */

void KerMatAddScaled_SQ8(KerMatAddScaled_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const int64_t Scale1 = Arg->Scale1, Scale2 = Arg->Scale2;
    const int ScaleN = Arg->ScaleN;
    unsigned int ReLU = Arg->ReLU;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int32_t v = clip8(roundnorm((int64_t) Arg->In1[i] * Scale1 + (int64_t) Arg->In2[i] * Scale2, ScaleN));
        Arg->Out[i] = (signed char) apply_relu(v, ReLU);
    }
    rt_team_barrier();
}

/* ---- KerMatAdd[_ReLU|_ReLUN]_SQ8 (the SDK's contract) ---- */

/* A scaling of the SDK's additions: a scale 0 leaves the value as it is. */
static inline int32_t scale_if(int32_t X, unsigned int Scale, unsigned int ScaleN)
{
    return Scale ? gap_roundnorm_reg(wrap_mul(X, Scale), ScaleN) : X;
}

static void mat_add(KerMat3_SQ8_T *Arg, int Activation)
{
    const unsigned char * __restrict__ Infos = (const unsigned char *) Arg->Infos;
    unsigned int In1Scale = Infos[AT_INF_IN1SCALE], In1ScaleN = Infos[AT_INF_IN1SCALEN];
    unsigned int OutScale = Infos[AT_INF_OUTSCALE], OutScaleN = Infos[AT_INF_OUTSCALEN];
    unsigned int ActScale = Infos[AT_INF_ACTSCALE], ActScaleN = Infos[AT_INF_ACTSCALEN];
    int A0 = (signed char) Infos[AT_INF_A0];
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int32_t v = scale_if(Arg->In1[i], In1Scale, In1ScaleN) + Arg->In2[i];
        v = scale_if(v, OutScale, OutScaleN);
        if (Activation != SDK_ACT_NONE)
            v = scale_if(sdk_rectify(v, Activation, A0), ActScale, ActScaleN);
        Arg->Out[i] = (signed char) gap_clip(v, 7);
    }
    rt_team_barrier();
}

void KerMatAdd_SQ8(KerMat3_SQ8_T *Arg)
{
    mat_add(Arg, SDK_ACT_NONE);
}

void KerMatAdd_ReLU_SQ8(KerMat3_SQ8_T *Arg)
{
    mat_add(Arg, SDK_ACT_RELU);
}

void KerMatAdd_ReLUN_SQ8(KerMat3_SQ8_T *Arg)
{
    mat_add(Arg, SDK_ACT_RELUN);
}

/* ---- KerSoftMax_SQ8 ---- */

void KerSoftMax_SQ8(KerSoftMax_SQ8_Arg_T *Arg)
{
    if (gap_coreid() == 0 && Arg->N > 0)
        softmax_q15(0, Arg->In, Arg->Scale, Arg->ScaleN, Arg->N, Arg->InQ, Arg->Out);
    rt_team_barrier();
}

/* ---- Ker_<activation>_SQ8 (the SDK's contract, CNN_Act_SQ8) ---- */

/* Feat x W x H values (the generator gives the tile's item count as Feat), split over the cores. */
static void sdk_act(KerActivation_SQ8_T *Arg, int Activation)
{
    const unsigned char *Infos = (const unsigned char *) Arg->Infos;
    unsigned int First, Last;

    core_range((unsigned int) Arg->Feat * Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Arg->Out[i] = (signed char) gap_clip(sdk_standalone_act(Arg->In[i], Activation, Infos), 7);
    gap_waitbarrier(0);
}

void Ker_ActNone_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_NONE); }
void Ker_ReLU_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_RELU); }
void Ker_ReLUN_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_RELUN); }
void Ker_ReLUM_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_RELUM); }
void Ker_ReLUMN_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_RELUMN); }
void Ker_HSigmoid_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_HSIGMOID); }
void Ker_HSwish_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_HSWISH); }
void Ker_LeakyReLU_SQ8(KerActivation_SQ8_T *Arg) { sdk_act(Arg, SDK_STANDALONE_LEAKYRELU); }

/* ---- KerParSoftMax[8Bits]_SQ8 (the SDK's contract) ---- */

/* e^n for n = 0..11: its integer part and its fraction in Q15 (floor(e^n) and
 * round((e^n - floor(e^n)) * 2^15)). */
static const unsigned short SoftMaxExpInt[12] = {1, 2, 7, 20, 54, 148, 403, 1096, 2980, 8103, 22026, 59874};
static const unsigned short SoftMaxExpFract[12] = {0,     23537, 12749, 2803,  19600, 13538,
                                                   14051, 20747, 31391, 2750,  15263, 4644};
/* The Taylor coefficients 1/k!, k = 1..8, in Q15 (round(2^15 / k!), the first one 32767). */
static const unsigned short SoftMaxTaylor[8] = {32767, 16384, 5461, 1365, 273, 46, 7, 1};

/* e^(-Y / 2^15) in Q15 for Y >= 0, as the SDK's softmax computes it (docs/gap-fixed-point.md,
 * "Softmax on the SDK's contract"): Y = n + r with n an integer and r in [-1/2, 1/2) (Q15), e^r by the
 * degree-8 Taylor polynomial with rounded powers of r, times e^n from the table gives e^(Y / 2^15)
 * in Q15 (unsigned: below 2^32), and its inverse (2^31 - 1) / e >> 1. */
static inline uint32_t softmax_sdk_exp(uint32_t Y)
{
    int32_t n = (int32_t) (Y >> 15), r = (int32_t) (Y & 0x7FFF);
    int32_t Power, Sum = 0;
    uint32_t Poly, Exp;

    if (Y == 0)
        return 32768;
    if (r >= 0x4000) {
        r -= 0x8000;
        n++;
    }
    if (n >= 12)
        return 0;
    Power = r;
    for (int k = 0; k < 8; k++) {
        Sum += Power * SoftMaxTaylor[k];
        Power = (Power * r + (1 << 14)) >> 15;
    }
    Poly = (uint32_t) (((Sum + (1 << 14)) >> 15) + 32767) & 0xFFFF;
    Exp = ((Poly * SoftMaxExpFract[n] + (1u << 14)) >> 15) + Poly * SoftMaxExpInt[n];
    return (0x7FFFFFFFu / Exp) >> 1;
}

/* Each vector's softmax (see CNN_BasicKernels_SQ8.h), its values split over the cores: the cores'
 * maxima, then their sums of e[i], are reduced through shared L1 words by core 0. OutShift 15 gives
 * Q15 into shorts (an e[i] of 32768 kept there as -32768 and read back unsigned), 23 Q7 into bytes. */
static void softmax_sdk(KerSoftMax_SQ8_T *Arg, int OutShift)
{
    static L1_CL_MEM int32_t Reduct[16];
    const signed char * __restrict__ In = Arg->In;
    short int * __restrict__ Exps = (short int *) Arg->Out;
    signed char * __restrict__ Out8 = (signed char *) Arg->Out;
    const unsigned int N = Arg->N, Norm = (unsigned char) Arg->Infos[AT_INF_BIASL_SM];
    const int32_t Largest = OutShift == 15 ? 32767 : 127;
    const int Core = gap_coreid(), Cores = gap_ncore();
    unsigned int First, Last;

    core_range(N, &First, &Last);
    for (unsigned int f = 0; N > 0 && f < Arg->Feat; f++) {
        const signed char * __restrict__ V = In + f * N;
        int32_t M = -128, Sum = 0, InvSum;

        for (unsigned int i = First; i < Last; i++)
            M = V[i] > M ? V[i] : M;
        Reduct[Core] = M;
        gap_waitbarrier(0);
        if (Core == 0)
            for (int c = 1; c < Cores; c++)
                Reduct[0] = Reduct[c] > Reduct[0] ? Reduct[c] : Reduct[0];
        gap_waitbarrier(0);
        M = Reduct[0];
        /* Q15: the e[i] wait in the output; Q7: the bytes cannot hold them, they are recomputed. */
        for (unsigned int i = First; i < Last; i++) {
            uint32_t E = softmax_sdk_exp((uint32_t) (M - V[i]) << Norm);
            Sum += (int32_t) E;
            if (OutShift == 15)
                Exps[f * N + i] = (short int) E;
        }
        gap_waitbarrier(0);
        Reduct[Core] = Sum;
        gap_waitbarrier(0);
        if (Core == 0)
            for (int c = 1; c < Cores; c++)
                Reduct[0] += Reduct[c];
        gap_waitbarrier(0);
        InvSum = (int32_t) ((32767u << 15) / (uint32_t) Reduct[0]); /* 1.0 in Q15 as 32767, as the SDK */
        for (unsigned int i = First; i < Last; i++) {
            int32_t E = OutShift == 15 ? (int32_t) (unsigned short) Exps[f * N + i]
                                       : (int32_t) softmax_sdk_exp((uint32_t) (M - V[i]) << Norm);
            int32_t P = (int32_t) (((uint32_t) E * (uint32_t) InvSum + (1u << (OutShift - 1))) >> OutShift);
            P = P > Largest ? Largest : P;
            if (OutShift == 15)
                Exps[f * N + i] = (short int) P;
            else
                Out8[f * N + i] = (signed char) P;
        }
        gap_waitbarrier(0);
    }
}

void KerParSoftMax_SQ8(KerSoftMax_SQ8_T *Arg) { softmax_sdk(Arg, 15); }
void KerParSoftMax8Bits_SQ8(KerSoftMax_SQ8_T *Arg) { softmax_sdk(Arg, 23); }

/* ---- KerCopyRows_SQ8 ---- */

void KerCopyRows_SQ8(KerCopyRows_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;
    signed char * __restrict__ Out = Arg->Out + Arg->RowOffset * W;
    const int64_t Scale = Arg->Scale;
    const int ScaleN = Arg->ScaleN;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Out[i] = (signed char) clip8(roundnorm((int64_t) Arg->In[i] * Scale, ScaleN));
    rt_team_barrier();
}

/* ---- KerSliceRows_SQ8 ---- */

void KerSliceRows_SQ8(KerSliceRows_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const signed char * __restrict__ In = Arg->In + Arg->InRowOffset * Arg->W;

    core_range(Arg->W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Arg->Out[i] = In[i];
    rt_team_barrier();
}

/* ---- KerShuffleRows_SQ8 ---- */

void KerShuffleRows_SQ8(KerShuffleRows_SQ8_Arg_T *Arg)
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

/* ---- KerActivation_SQ8 ---- */

void KerActivation_SQ8(KerActivation_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        int64_t x12 = roundnorm((int64_t) Arg->In[i] * Arg->InScale, Arg->InShift);
        int64_t v = activation_value(Arg->Kind, x12, Arg->Offset, Arg->Cap, Arg->Alpha);
        Arg->Out[i] = (signed char) clip8(roundnorm(v * Arg->OutScale, Arg->OutShift));
    }
    rt_team_barrier();
}

/* ---- KerScaleChannels_SQ8 ---- */

void KerScaleChannels_SQ8(KerScaleChannels_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++)
        Arg->Out[i] = (signed char) clip8(roundnorm((int64_t) Arg->In[i] * Arg->Gate[i / W] * Arg->Scale, Arg->ScaleN));
    rt_team_barrier();
}

/* ---- KerUpsampleNearest_SQ8 ---- */

void KerUpsampleNearest_SQ8(KerUpsampleNearest_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W, FactorX = Arg->FactorX, FactorY = Arg->FactorY;
    const unsigned int OutW = W * FactorX;

    core_range(Arg->Lines * FactorY, &First, &Last); /* output rows */
    for (unsigned int Row = First; Row < Last; Row++) {
        const signed char * __restrict__ In = Arg->In + (Row / FactorY) * W;
        signed char * __restrict__ Out = Arg->Out + Row * OutW;
        for (unsigned int x = 0; x < OutW; x++)
            Out[x] = In[x / FactorX];
    }
    rt_team_barrier();
}

/* ---- KerPReluChannels_SQ8 ---- */

void KerPReluChannels_SQ8(KerPReluChannels_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(W * Arg->Rows, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        const int64_t x = Arg->In[i];
        Arg->Out[i] = (signed char) clip8(x >= 0 ? roundnorm(x * Arg->Scale, Arg->ScaleN)
                                                 : roundnorm(x * Arg->Slopes[i / W] * Arg->Scale, Arg->ScaleN + Arg->SlopeQ));
    }
    rt_team_barrier();
}

/* ---- KerCopyColumns_SQ8 ---- */

void KerCopyColumns_SQ8(KerCopyColumns_SQ8_Arg_T *Arg)
{
    unsigned int First, Last;
    const unsigned int W = Arg->W;

    core_range(Arg->Lines, &First, &Last);
    for (unsigned int Line = First; Line < Last; Line++) {
        const signed char * __restrict__ In = Arg->In + Line * W;
        signed char * __restrict__ Out = Arg->Out + Line * Arg->OutW + Arg->ColOffset;
        for (unsigned int x = 0; x < W; x++)
            Out[x] = (signed char) clip8(roundnorm((int64_t) In[x] * Arg->Scale, Arg->ScaleN));
    }
    rt_team_barrier();
}
