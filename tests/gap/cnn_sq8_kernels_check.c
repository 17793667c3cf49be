/* Exact check of the SQ8 CNN basic kernels (core/gap/cnn_kernels/CNN_BasicKernels_SQ8.c, CNN_Conv_SQ8.c) against
 * direct, whole-tensor implementations written from the "SQ8" section of docs/gap-fixed-point.md.
 * The kernels run through AT_FORK on AT_EMUL_CORES emulated cores.
 *
 * Build and run (from the repository root), on 1 and on 8 emulated cores:
 *
 *   cc -O1 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=undefined \
 *      -fno-omit-frame-pointer -D__EMUL__ -DAT_EMUL_CORES=1 \
 *      -I core/gap/runtime -I core/gap/cnn_kernels \
 *      core/gap/cnn_kernels/CNN_BasicKernels.c core/gap/cnn_kernels/CNN_BasicKernels_SQ8.c \
 *      core/gap/cnn_kernels/CNN_Conv_SQ8.c \
 *      tests/gap/cnn_sq8_kernels_check.c -lpthread -o /tmp/cnn_sq8_check1
 *   /tmp/cnn_sq8_check1 [seed]
 *
 * (the same with -DAT_EMUL_CORES=8). It prints the first mismatches of each case, then
 * `RESULT ok` and exits 0 when everything matches, else `RESULT failed` and exits 1. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNN_BasicKernels_SQ8.h"
#include "at_api.h"

#define KERNEL_CHECK_SEED 4242u
#include "KernelCheckCommon.h"

/* ------------------------------------------------------------------------------------------------
 * Test infrastructure */

/* An int8 value, the extremes -128 and 127 one time in eight each. */
static signed char rnd8(void)
{
    uint32_t r = lcg() >> 24;
    if (r < 32)
        return -128;
    if (r < 64)
        return 127;
    return (signed char) rnd(-128, 127);
}

/* ------------------------------------------------------------------------------------------------
 * Reference arithmetic, straight from docs/gap-fixed-point.md ("Numbers" and "SQ8") */

static int64_t ref_clip(int64_t x, int64_t Lo, int64_t Hi)
{
    return x < Lo ? Lo : (x > Hi ? Hi : x);
}

/* requant(acc, Scale, ScaleN) = clip8(roundnorm(acc * Scale, ScaleN)), the product in int64. */
static int32_t ref_requant(int64_t Acc, int Scale, int ScaleN)
{
    return (int32_t) ref_clip(ref_roundnorm(Acc * Scale, ScaleN), -128, 127);
}

/* The activation: ReLU 0 none, 1 max(v, 0), N > 1 min(max(v, 0), N), in int8 units. */
static int32_t ref_act(int32_t v, int ReLU)
{
    if (ReLU >= 1 && v < 0)
        v = 0;
    if (ReLU > 1 && v > ReLU)
        v = ReLU;
    return v;
}

/* A random per-feature multiplier: scale 0..255 (0, 1 and 255 among them), shift 0..40. */
static void random_multiplier(unsigned char *Scale, unsigned char *ScaleN, unsigned f)
{
    switch (f % 7) {
    case 0: *Scale = 0; break;
    case 1: *Scale = 255; break;
    case 2: *Scale = 1; break;
    default: *Scale = (unsigned char) rnd(128, 255); break;
    }
    *ScaleN = (unsigned char) (f % 5 == 4 ? 40 : f % 5 == 3 ? 0 : rnd(0, 40));
}

/* Accumulators mostly in the range the multiplier maps onto about +-200 (so that rounding, not
 * clipping, decides most values), with the int32 extremes among them. */
static int32_t random_acc(int Scale, int ScaleN, unsigned i)
{
    int64_t Range = ((int64_t) 200 << ScaleN) / (Scale ? Scale : 1);
    if (i % 17 == 5)
        return INT32_MIN;
    if (i % 17 == 11)
        return INT32_MAX;
    if (Range > INT32_MAX)
        Range = INT32_MAX;
    if (Range < 4)
        Range = 4;
    return rnd((int32_t) -Range, (int32_t) Range);
}

/* Pooling + activation of Feat int8 planes Wc x Hc (the doc's pooling of int8 values): window
 * positions in the padding of Pad lines and columns around the plane are skipped. Returns the
 * output size. */
static void ref_pool_act(const int32_t *In, unsigned Feat, int Wc, int Hc, int PoolOper, int Fpx, int Fpy, int Spx,
                         int Spy, int Pad, int ReLU, int32_t *Out, int *WpOut, int *HpOut)
{
    int Wp = PoolOper == CNN_POOL_NONE ? Wc : (Wc + 2 * Pad - Fpx) / Spx + 1;
    int Hp = PoolOper == CNN_POOL_NONE ? Hc : (Hc + 2 * Pad - Fpy) / Spy + 1;
    for (unsigned f = 0; f < Feat; f++)
        for (int y = 0; y < Hp; y++)
            for (int x = 0; x < Wp; x++) {
                const int32_t *Plane = In + (size_t) f * Wc * Hc;
                int64_t v;
                if (PoolOper == CNN_POOL_NONE) {
                    v = Plane[y * Wc + x];
                } else {
                    int64_t Max = INT64_MIN, Sum = 0, Count = 0;
                    for (int ky = 0; ky < Fpy; ky++)
                        for (int kx = 0; kx < Fpx; kx++) {
                            const int cy = y * Spy + ky - Pad, cx = x * Spx + kx - Pad;
                            if (cy < 0 || cy >= Hc || cx < 0 || cx >= Wc)
                                continue;
                            int32_t u = Plane[cy * Wc + cx];
                            if (u > Max)
                                Max = u;
                            Sum += u;
                            Count++;
                        }
                    v = PoolOper == CNN_POOL_MAX ? Max : ref_ndiv(Sum, Count);
                }
                Out[((size_t) f * Hp + y) * Wp + x] = ref_act((int32_t) v, ReLU);
            }
    *WpOut = Wp;
    *HpOut = Hp;
}

/* ------------------------------------------------------------------------------------------------
 * KerSetBias_SQ8 */

static void check_set_bias(unsigned W, unsigned H, unsigned Feat)
{
    char Name[128];
    int *Out = xmalloc(sizeof(int) * W * H * Feat);
    int *Bias = xmalloc(sizeof(int) * Feat);
    KerSetBias_SQ8_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerSetBias_SQ8 W=%u H=%u Feat=%u", W, H, Feat);
    begin_case(Name);
    for (unsigned f = 0; f < Feat; f++)
        Bias[f] = rnd(INT32_MIN, INT32_MAX);
    Bias[0] = INT32_MIN;
    if (Feat > 1)
        Bias[Feat - 1] = INT32_MAX;
    Arg.Out = Out;
    Arg.W = W;
    Arg.H = H;
    Arg.Feat = Feat;
    Arg.Bias = Bias;
    AT_FORK(gap_ncore(), KerSetBias_SQ8, &Arg);
    for (unsigned f = 0; f < Feat; f++)
        for (unsigned i = 0; i < W * H; i++)
            if (Out[f * W * H + i] != Bias[f])
                mismatch("Out", (long) (f * W * H + i), Out[f * W * H + i], Bias[f]);
    free(Out);
    free(Bias);
}

/* ------------------------------------------------------------------------------------------------
 * KerConv_SQ8 (KerConv32's definition on int8 data: one input plane, PadL zero columns left) */

static void check_conv(unsigned W, unsigned H, unsigned Feat, unsigned Fx, unsigned Fy, unsigned Sx, unsigned Sy,
                       unsigned Dx, unsigned Dy, unsigned PadL)
{
    char Name[160];
    unsigned Wo = (W + 2 * PadL - Dx * (Fx - 1) - 1) / Sx + 1;
    unsigned Ho = (H - Dy * (Fy - 1) - 1) / Sy + 1;
    signed char *In = xmalloc(W * H);
    signed char *Filter = xmalloc((size_t) Feat * Fx * Fy);
    int *Out = xmalloc(sizeof(int) * Wo * Ho * Feat);
    int *Init = xmalloc(sizeof(int) * Wo * Ho * Feat);
    KerConv_SQ8_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerConv_SQ8 %ux%u Feat=%u F=%ux%u S=%u,%u D=%u,%u PadL=%u -> %ux%u", W, H, Feat, Fx,
             Fy, Sx, Sy, Dx, Dy, PadL, Wo, Ho);
    begin_case(Name);
    for (unsigned i = 0; i < W * H; i++)
        In[i] = rnd8();
    for (unsigned i = 0; i < Feat * Fx * Fy; i++)
        Filter[i] = rnd8();
    for (unsigned i = 0; i < Wo * Ho * Feat; i++)
        Out[i] = Init[i] = rnd(-(1 << 30), 1 << 30);
    Arg.In = In;
    Arg.W = W;
    Arg.H = H;
    Arg.Filter = Filter;
    Arg.Out = Out;
    Arg.Wo = Wo;
    Arg.Ho = Ho;
    Arg.Feat = Feat;
    Arg.Fx = Fx;
    Arg.Fy = Fy;
    Arg.Sx = Sx;
    Arg.Sy = Sy;
    Arg.Dx = Dx;
    Arg.Dy = Dy;
    Arg.PadL = PadL;
    AT_FORK(gap_ncore(), KerConv_SQ8, &Arg);
    for (unsigned f = 0; f < Feat; f++)
        for (unsigned y = 0; y < Ho; y++)
            for (unsigned x = 0; x < Wo; x++) {
                unsigned o = (f * Ho + y) * Wo + x;
                int64_t Acc = Init[o];
                for (unsigned ky = 0; ky < Fy; ky++)
                    for (unsigned kx = 0; kx < Fx; kx++) {
                        int iy = (int) (y * Sy + ky * Dy), ix = (int) (x * Sx + kx * Dx) - (int) PadL;
                        if (ix >= 0 && ix < (int) W)
                            Acc += (int32_t) In[iy * (int) W + ix] * (int32_t) Filter[(f * Fy + ky) * Fx + kx];
                    }
                if (Out[o] != in_int32(Acc))
                    mismatch("Out", (long) o, Out[o], (long) Acc);
            }
    free(In);
    free(Filter);
    free(Out);
    free(Init);
}

/* ------------------------------------------------------------------------------------------------
 * KerScalePoolAct_SQ8 */

/* With Pad, the kernel's planes hold Pad lines above and below the H real ones, filled with extreme
 * accumulators it must never read. */
static void check_scale_pool_act(unsigned W, unsigned H, unsigned Feat, int PoolOper, unsigned Fpx, unsigned Fpy,
                                 unsigned Spx, unsigned Spy, unsigned Pad, int ReLU)
{
    char Name[160];
    const unsigned Hk = H + 2 * Pad; /* lines of each plane the kernel sees */
    int *In = xmalloc(sizeof(int) * W * Hk * Feat);
    int32_t *Scaled = xmalloc(sizeof(int32_t) * W * H * Feat);
    int32_t *Expected = xmalloc(sizeof(int32_t) * W * H * Feat);
    unsigned char *Scale = xmalloc(Feat), *ScaleN = xmalloc(Feat);
    signed char *Out;
    int Wo, Ho;
    KerScalePoolAct_SQ8_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerScalePoolAct_SQ8 %ux%u Feat=%u pool=%s %ux%u/%u,%u pad=%u ReLU=%d", W, H, Feat,
             pool_name(PoolOper), Fpx, Fpy, Spx, Spy, Pad, ReLU);
    begin_case(Name);
    /* Requantization of every real accumulator, then pooling and activation. */
    for (unsigned f = 0; f < Feat; f++) {
        random_multiplier(&Scale[f], &ScaleN[f], f);
        for (unsigned y = 0; y < Hk; y++)
            for (unsigned x = 0; x < W; x++) {
                const int Real = y >= Pad && y < Pad + H;
                const int Value = Real ? random_acc(Scale[f], ScaleN[f], (y - Pad) * W + x) : (y % 2 ? INT32_MAX : INT32_MIN);
                In[(f * Hk + y) * W + x] = Value;
                if (Real)
                    Scaled[(f * H + y - Pad) * W + x] = ref_requant(Value, Scale[f], ScaleN[f]);
            }
    }
    ref_pool_act(Scaled, Feat, (int) W, (int) H, PoolOper, (int) Fpx, (int) Fpy, (int) Spx, (int) Spy, (int) Pad, ReLU,
                 Expected, &Wo, &Ho);
    Out = xmalloc((size_t) Wo * Ho * Feat);
    Arg.In = In;
    Arg.W = W;
    Arg.H = Hk;
    Arg.Feat = Feat;
    Arg.Out = Out;
    Arg.Wo = (unsigned) Wo;
    Arg.Ho = (unsigned) Ho;
    Arg.Scale = Scale;
    Arg.ScaleN = ScaleN;
    Arg.PoolOper = (unsigned) PoolOper;
    Arg.Fx = Fpx;
    Arg.Fy = Fpy;
    Arg.Sx = Spx;
    Arg.Sy = Spy;
    Arg.ReLU = (unsigned) ReLU;
    Arg.PadL = Pad;
    Arg.PadT = Pad;
    Arg.TileOffset = 0;
    Arg.PlaneH = H;
    AT_FORK(gap_ncore(), KerScalePoolAct_SQ8, &Arg);
    for (int i = 0; i < Wo * Ho * (int) Feat; i++)
        if (Out[i] != Expected[i])
            mismatch("Out", i, Out[i], Expected[i]);
    free(In);
    free(Scaled);
    free(Expected);
    free(Scale);
    free(ScaleN);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerParLinearLayerFullFeatB32[_ReLU|_ReLUN]_SQ8: the SDK's contract, GAP's wrapping 32-bit
 * arithmetic (docs/gap-fixed-point.md, "Linear + activation") */

static int32_t ref_wrap32(int64_t x)
{
    return (int32_t) (uint32_t) (uint64_t) x;
}

/* roundnorm in 32 bits: the half added with wrap-around, then the arithmetic shift. */
static int32_t ref_roundnorm32(int32_t x, int s)
{
    return ref_wrap32((int64_t) x + (s > 0 ? (int64_t) 1 << (s - 1) : 0)) >> s;
}

/* Act: 0 none, 1 ReLU, 2 ReLUN (bound A0). */
static void check_linear(unsigned InDim, unsigned OutDim, int Act, int A0, int ActScale, int ActScaleN, int BiasN,
                         int32_t BiasRange)
{
    static void (*const Kernels[3])(KerLinear_SQ8_T *) = {KerParLinearLayerFullFeatB32_SQ8,
                                                           KerParLinearLayerFullFeatB32_ReLU_SQ8,
                                                           KerParLinearLayerFullFeatB32_ReLUN_SQ8};
    char Name[160];
    signed char *In = xmalloc(InDim);
    signed char *Weights = xmalloc((size_t) InDim * OutDim);
    int *Bias = xmalloc(sizeof(int) * OutDim);
    unsigned char *Scale = xmalloc(OutDim), *ScaleN = xmalloc(OutDim);
    signed char *Out = xmalloc(OutDim);
    signed char Infos[AT_INF_DIM];
    KerLinear_SQ8_T Arg;

    snprintf(Name, sizeof Name, "KerParLinearLayerFullFeatB32 act=%d InDim=%u OutDim=%u A0=%d ActScale=%d/%d BiasN=%d "
             "bias=+-%ld", Act, InDim, OutDim, A0, ActScale, ActScaleN, BiasN, (long) BiasRange);
    begin_case(Name);
    for (unsigned i = 0; i < InDim; i++)
        In[i] = rnd8();
    for (unsigned i = 0; i < InDim * OutDim; i++)
        Weights[i] = rnd8();
    for (unsigned o = 0; o < OutDim; o++) {
        Bias[o] = rnd(-BiasRange, BiasRange);
        random_multiplier(&Scale[o], &ScaleN[o], o);
        if (ScaleN[o] > 31)
            ScaleN[o] = 31;
        if (o % 5 != 3 && o % 5 != 4) /* a shift that keeps most outputs unclipped */
            ScaleN[o] = (unsigned char) (8 + (InDim > 64 ? 12 : 6) + rnd(0, 4));
    }
    if (InDim >= 4) { /* one output with the largest accumulator, whose product wraps: In = Weights = -128 */
        for (unsigned i = 0; i < InDim; i++)
            In[i] = Weights[i] = -128;
        Bias[0] = BiasRange;
    }
    memset(Infos, 0x55, sizeof Infos); /* the bytes the kernels do not read are garbage */
    Infos[AT_INF_ACTSCALE] = (signed char) ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) ActScaleN;
    Infos[AT_INF_A0] = (signed char) A0;
    Infos[AT_INF_BIASN] = (signed char) BiasN;
    Arg.In = In;
    Arg.Weights = Weights;
    Arg.Bias = Bias;
    Arg.Out = (int *) (void *) Out;
    Arg.InDim = (unsigned short) InDim;
    Arg.TotalInDim = (unsigned short) InDim;
    Arg.OutDim = (unsigned short) OutDim;
    Arg.Scale = Scale;
    Arg.ScaleN = ScaleN;
    Arg.Infos = Infos;
    AT_FORK(gap_ncore(), Kernels[Act], &Arg);
    for (unsigned o = 0; o < OutDim; o++) {
        int32_t Acc = ref_wrap32((int64_t) (uint32_t) Bias[o] << BiasN);
        for (unsigned i = 0; i < InDim; i++)
            Acc = ref_wrap32((int64_t) Acc + (int32_t) In[i] * (int32_t) Weights[o * InDim + i]);
        int32_t v = ref_roundnorm32(ref_wrap32((int64_t) Acc * Scale[o]), ScaleN[o]);
        if (Act > 0) {
            v = v < 0 ? 0 : (Act == 2 && v > A0 ? A0 : v);
            v = ref_roundnorm32(ref_wrap32((int64_t) v * ActScale), ActScaleN);
        }
        int32_t Expected = (int32_t) ref_clip(v, -128, 127);
        if (Out[o] != Expected)
            mismatch("Out", (long) o, Out[o], Expected);
    }
    free(In);
    free(Weights);
    free(Bias);
    free(Scale);
    free(ScaleN);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerPoolAct_SQ8 */

/* With Pad, each plane is given as the one tile the kernel sees: Pad padding lines above and below
 * the real ones, holding the largest value so that a kernel reading them would be caught. */
static void check_pool_act(unsigned W, unsigned H, unsigned Feat, int PoolOper, unsigned Fpx, unsigned Fpy,
                           unsigned Spx, unsigned Spy, unsigned Pad, int ReLU)
{
    char Name[160];
    const unsigned Ht = H + 2 * Pad; /* lines of a tile */
    signed char *In = xmalloc(W * Ht * Feat);
    int32_t *Values = xmalloc(sizeof(int32_t) * W * H * Feat);
    int32_t *Expected = xmalloc(sizeof(int32_t) * (W + 2 * Pad) * Ht * Feat);
    signed char *Out;
    int Wo, Ho;
    KerPoolAct_SQ8_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerPoolAct_SQ8 %ux%u Feat=%u pool=%s %ux%u/%u,%u pad %u ReLU=%d", W, H, Feat,
             pool_name(PoolOper), Fpx, Fpy, Spx, Spy, Pad, ReLU);
    begin_case(Name);
    for (unsigned i = 0; i < W * Ht * Feat; i++)
        In[i] = 127;
    for (unsigned f = 0; f < Feat; f++)
        for (unsigned i = 0; i < W * H; i++)
            Values[f * W * H + i] = In[f * W * Ht + Pad * W + i] = rnd8();
    ref_pool_act(Values, Feat, (int) W, (int) H, PoolOper, (int) Fpx, (int) Fpy, (int) Spx, (int) Spy, (int) Pad, ReLU,
                 Expected, &Wo, &Ho);
    Out = xmalloc((size_t) Wo * Ho * Feat);
    Arg.In = In;
    Arg.W = W;
    Arg.H = Ht;
    Arg.PadL = Pad;
    Arg.PadT = Pad;
    Arg.TileOffset = 0;
    Arg.PlaneH = H;
    Arg.Feat = Feat;
    Arg.Out = Out;
    Arg.Wo = (unsigned) Wo;
    Arg.Ho = (unsigned) Ho;
    Arg.PoolOper = (unsigned) PoolOper;
    Arg.Fx = Fpx;
    Arg.Fy = Fpy;
    Arg.Sx = Spx;
    Arg.Sy = Spy;
    Arg.ReLU = (unsigned) ReLU;
    AT_FORK(gap_ncore(), KerPoolAct_SQ8, &Arg);
    for (int i = 0; i < Wo * Ho * (int) Feat; i++)
        if (Out[i] != Expected[i])
            mismatch("Out", i, Out[i], Expected[i]);
    free(In);
    free(Values);
    free(Expected);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * Global average pooling: one plane of W x H values summed in tiles of TileH rows. Fill: 0 random,
 * 1 all -128, 2 all 127. */

static void check_global_avg(unsigned W, unsigned H, unsigned TileH, int Fill, int Scale, int ScaleN)
{
    char Name[128];
    signed char *In = xmalloc(W * H);
    int Sum, Partial[8];
    signed char Out;
    int64_t Total = 0;
    int32_t Expected;

    snprintf(Name, sizeof Name, "KerGlobalSum_SQ8 %ux%u in tiles of %u rows, %s, scale %d >> %d", W, H, TileH,
             Fill == 0 ? "random" : Fill == 1 ? "all -128" : "all 127", Scale, ScaleN);
    begin_case(Name);
    for (unsigned i = 0; i < W * H; i++) {
        In[i] = Fill == 1 ? -128 : Fill == 2 ? 127 : rnd8();
        Total += In[i];
    }
    /* The mean brought to the output's scale: clip8(roundnorm(ndiv(sum * Scale, W * H), ScaleN)). */
    Expected = (int32_t) ref_clip(ref_roundnorm(ref_ndiv(Total * Scale, (int64_t) W * H), ScaleN), -128, 127);
    KerGlobalSumInit(&Sum);
    for (unsigned y = 0; y < H; y += TileH) {
        KerGlobalSum_SQ8_Arg_T Arg;
        Arg.In = In + y * W;
        Arg.W = W;
        Arg.H = H - y < TileH ? H - y : TileH;
        Arg.Sum = &Sum;
        Arg.Partial = Partial;
        AT_FORK(gap_ncore(), KerGlobalSum_SQ8, &Arg);
    }
    if (Sum != Total)
        mismatch("Sum", 0, Sum, (long) Total);
    KerGlobalAvgFinish_SQ8(&Sum, W * H, Scale, ScaleN, &Out);
    if (Out != Expected)
        mismatch("Out", 0, Out, Expected);
    free(In);
}

/* ------------------------------------------------------------------------------------------------
 * KerMatAddScaled_SQ8 */

static void check_mat_add(unsigned W, unsigned H, int Scale1, int Scale2, int ScaleN, int ReLU)
{
    char Name[128];
    unsigned N = W * H;
    signed char *In1 = xmalloc(N), *In2 = xmalloc(N), *Out = xmalloc(N);
    KerMatAddScaled_SQ8_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerMatAddScaled_SQ8 %ux%u Scale1=%d Scale2=%d ScaleN=%d ReLU=%d", W, H, Scale1, Scale2,
             ScaleN, ReLU);
    begin_case(Name);
    for (unsigned i = 0; i < N; i++) {
        In1[i] = rnd8();
        In2[i] = rnd8();
    }
    Arg.In1 = In1;
    Arg.In2 = In2;
    Arg.Out = Out;
    Arg.W = W;
    Arg.H = H;
    Arg.Scale1 = Scale1;
    Arg.Scale2 = Scale2;
    Arg.ScaleN = ScaleN;
    Arg.ReLU = (unsigned) ReLU;
    AT_FORK(gap_ncore(), KerMatAddScaled_SQ8, &Arg);
    for (unsigned i = 0; i < N; i++) {
        int64_t v = ref_roundnorm((int64_t) In1[i] * Scale1 + (int64_t) In2[i] * Scale2, ScaleN);
        int32_t Expected = ref_act((int32_t) ref_clip(v, -128, 127), ReLU);
        if (Out[i] != Expected)
            mismatch("Out", (long) i, Out[i], Expected);
    }
    free(In1);
    free(In2);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerMatAdd[_ReLU|_ReLUN]_SQ8: the SDK's contract (docs/gap-fixed-point.md, "Element-wise addition") */

static int32_t ref_scale_if(int32_t x, int Scale, int ScaleN)
{
    return Scale ? ref_roundnorm32(ref_wrap32((int64_t) x * Scale), ScaleN) : x;
}

/* Act: 0 none, 1 ReLU, 2 ReLUN. */
static void check_mat_add_sdk(unsigned N, int Act, int In1Scale, int In1ScaleN, int OutScale, int OutScaleN, int ActScale,
                              int ActScaleN, int A0)
{
    static void (*const Kernels[3])(KerMat3_SQ8_T *) = {KerMatAdd_SQ8, KerMatAdd_ReLU_SQ8, KerMatAdd_ReLUN_SQ8};
    char Name[160];
    signed char *In1 = xmalloc(N), *In2 = xmalloc(N), *Out = xmalloc(N + 1);
    signed char Infos[AT_INF_DIM];
    KerMat3_SQ8_T Arg;

    snprintf(Name, sizeof Name, "KerMatAdd act=%d N=%u In1=%d/%d Out=%d/%d Act=%d/%d A0=%d", Act, N, In1Scale, In1ScaleN,
             OutScale, OutScaleN, ActScale, ActScaleN, A0);
    begin_case(Name);
    for (unsigned i = 0; i < N; i++) {
        In1[i] = rnd8();
        In2[i] = rnd8();
    }
    Out[N] = 0x5a; /* a guard byte after the outputs */
    memset(Infos, 0x33, sizeof Infos);
    Infos[AT_INF_IN1SCALE] = (signed char) In1Scale;
    Infos[AT_INF_IN1SCALEN] = (signed char) In1ScaleN;
    Infos[AT_INF_OUTSCALE] = (signed char) OutScale;
    Infos[AT_INF_OUTSCALEN] = (signed char) OutScaleN;
    Infos[AT_INF_ACTSCALE] = (signed char) ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) ActScaleN;
    Infos[AT_INF_A0] = (signed char) A0;
    Arg.In1 = In1;
    Arg.In2 = In2;
    Arg.Out = Out;
    Arg.Feat = (unsigned short) N;
    Arg.W = 0x7777; /* not read */
    Arg.H = 0x7777;
    Arg.DoScale = 1;
    Arg.Infos = Infos;
    AT_FORK(gap_ncore(), Kernels[Act], &Arg);
    for (unsigned i = 0; i < N; i++) {
        int32_t v = ref_scale_if(ref_scale_if(In1[i], In1Scale, In1ScaleN) + In2[i], OutScale, OutScaleN);
        if (Act > 0) {
            v = v < 0 ? 0 : (Act == 2 && v > A0 ? A0 : v);
            v = ref_scale_if(v, ActScale, ActScaleN);
        }
        int32_t Expected = (int32_t) ref_clip(v, -128, 127);
        if (Out[i] != Expected)
            mismatch("Out", (long) i, Out[i], Expected);
    }
    if (Out[N] != 0x5a)
        mismatch("the byte after Out", (long) N, Out[N], 0x5a);
    free(In1);
    free(In2);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerParPool{2x2Stride2,NxNStrideS,NxMStrideSxSy}[_ReLU|_ReLUN]_SQ8: the SDK's contract
 * (docs/gap-fixed-point.md, "Pooling + activation") */

typedef struct {
    unsigned W, H, UsedW, UsedH, Feat;
    int Shape; /* 0 2x2Stride2, 1 NxNStrideS, 2 NxMStrideSxSy */
    int Fx, Fy, Sx, Sy;
    int PadL, PadR, PadT, PadB;
    int PoolMax, Act, DoScale, ActScale, ActScaleN, A0;
} PoolCase;

static void check_pool_sdk(const PoolCase *C)
{
    static void (*const Kernels[3][3])(KerPool_SQ8_T *) = {
        {KerParPool2x2Stride2_SQ8, KerParPool2x2Stride2_ReLU_SQ8, KerParPool2x2Stride2_ReLUN_SQ8},
        {KerParPoolNxNStrideS_SQ8, KerParPoolNxNStrideS_ReLU_SQ8, KerParPoolNxNStrideS_ReLUN_SQ8},
        {KerParPoolNxMStrideSxSy_SQ8, KerParPoolNxMStrideSxSy_ReLU_SQ8, KerParPoolNxMStrideSxSy_ReLUN_SQ8}};
    char Name[200];
    int Wo = ((int) C->UsedW - C->Fx + C->PadL + C->PadR) / C->Sx + 1;
    int Ho = ((int) C->UsedH - C->Fy + C->PadT + C->PadB) / C->Sy + 1;
    size_t OutCount = (size_t) C->Feat * Wo * Ho;
    signed char *In = xmalloc((size_t) C->Feat * C->W * C->H), *Out = xmalloc(OutCount + 1);
    signed char Infos[AT_INF_DIM];
    KerPool_SQ8_T Arg;

    snprintf(Name, sizeof Name,
             "KerParPool shape=%d act=%d %ux%u (used %ux%u) x%u F=%dx%d S=%d/%d pad=%d,%d,%d,%d %s DoScale=%d Act=%d/%d A0=%d",
             C->Shape, C->Act, C->W, C->H, C->UsedW, C->UsedH, C->Feat, C->Fx, C->Fy, C->Sx, C->Sy, C->PadL, C->PadR,
             C->PadT, C->PadB, C->PoolMax ? "max" : "avg", C->DoScale, C->ActScale, C->ActScaleN, C->A0);
    begin_case(Name);
    for (size_t i = 0; i < (size_t) C->Feat * C->W * C->H; i++)
        In[i] = rnd8();
    Out[OutCount] = 0x5a; /* a guard byte after the outputs */
    memset(Infos, 0x33, sizeof Infos);
    Infos[AT_INF_ACTSCALE] = (signed char) C->ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) C->ActScaleN;
    Infos[AT_INF_A0] = (signed char) C->A0;
    memset(&Arg, 0, sizeof Arg);
    Arg.In = In;
    Arg.Out = Out;
    Arg.Feat = (unsigned short) C->Feat;
    Arg.W = (unsigned short) C->W;
    Arg.UsedW = (unsigned short) C->UsedW;
    Arg.H = (unsigned short) C->H;
    Arg.UsedH = (unsigned short) C->UsedH;
    Arg.PoolMax = (unsigned char) C->PoolMax;
    /* Sizes the fixed-shape kernels do not read are given wrong. */
    Arg.FS = (unsigned short) (C->Shape == 0 ? 7 : C->Fx);
    Arg.S = (unsigned char) (C->Shape == 0 ? 7 : C->Sx);
    Arg.FSy = (unsigned short) (C->Shape == 2 ? C->Fy : 9);
    Arg.Sy = (unsigned char) (C->Shape == 2 ? C->Sy : 9);
    Arg.D = Arg.Dy = 3;
    Arg.Orientation = 1;
    Arg.DoScale = (unsigned char) C->DoScale;
    Arg.Pad = (v4s) {(signed char) C->PadL, (signed char) C->PadR, (signed char) C->PadT, (signed char) C->PadB};
    Arg.Infos = Infos;
    AT_FORK(gap_ncore(), Kernels[C->Shape][C->Act], &Arg);
    for (unsigned f = 0; f < C->Feat; f++)
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int32_t Max = -128, Sum = 0, v;
                for (int i = 0; i < C->Fy; i++)
                    for (int j = 0; j < C->Fx; j++) {
                        int Line = y * C->Sy - C->PadT + i, Column = x * C->Sx - C->PadL + j;
                        int32_t u = (Line >= 0 && Line < (int) C->H && Column >= 0 && Column < (int) C->W)
                                        ? In[((size_t) f * C->H + Line) * C->W + Column]
                                        : 0;
                        Sum += u;
                        Max = u > Max ? u : Max;
                    }
                v = C->PoolMax ? Max
                               : (int32_t) ref_clip(ref_roundnorm32(Sum * ((1 << 16) / (C->Fx * C->Fy)), 16), -128, 127);
                if (C->Act > 0)
                    v = v < 0 ? 0 : (C->Act == 2 && v > C->A0 ? C->A0 : v);
                if (C->Act > 0 || C->DoScale)
                    v = ref_scale_if(v, C->ActScale, C->ActScaleN);
                {
                    size_t o = ((size_t) f * Ho + y) * Wo + x;
                    int32_t Expected = (int32_t) ref_clip(v, -128, 127);
                    if (Out[o] != Expected)
                        mismatch("Out", (long) o, Out[o], Expected);
                }
            }
    if (Out[OutCount] != 0x5a)
        mismatch("the byte after Out", (long) OutCount, Out[OutCount], 0x5a);
    free(In);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerParConvDWRedAct*B32[_ReLU|_ReLUM|_ReLUN]_SQ8: the SDK's contract (docs/gap-fixed-point.md,
 * "Depthwise convolution on the SDK's contract"), each output's taps summed directly */

typedef struct {
    const char *Shape;                 /* the kernel's shape name */
    void (*Kernels[4])(KerConvRedAct_SQ8_T *); /* none, ReLU, ReLUM, ReLUN */
    int Fx, Fy, Sx, Sy, Dx, Dy;        /* 0: any, from the case */
} DwShape;

#define DW_SHAPE(Shape, Fx, Fy, Sx, Sy, Dx, Dy)                                                                 \
    {#Shape,                                                                                                    \
     {KerParConvDWRedAct##Shape##B32_SQ8, KerParConvDWRedAct##Shape##B32_ReLU_SQ8,                             \
      KerParConvDWRedAct##Shape##B32_ReLUM_SQ8, KerParConvDWRedAct##Shape##B32_ReLUN_SQ8},                     \
     Fx, Fy, Sx, Sy, Dx, Dy}

static const DwShape DwShapes[] = {
    DW_SHAPE(1x1Stride1, 1, 1, 1, 1, 1, 1),    DW_SHAPE(1x1Stride2, 1, 1, 2, 2, 1, 1),
    DW_SHAPE(1x1StrideS, 1, 1, 0, 0, 1, 1),    DW_SHAPE(3x1Stride1x1, 3, 1, 1, 1, 1, 1),
    DW_SHAPE(3x1Stride2x1, 3, 1, 2, 1, 1, 1),  DW_SHAPE(1x3Stride1x1, 1, 3, 1, 1, 1, 1),
    DW_SHAPE(1x3Stride1x2, 1, 3, 1, 2, 1, 1),  DW_SHAPE(3x3Stride1, 3, 3, 1, 1, 1, 1),
    DW_SHAPE(3x3Stride2, 3, 3, 2, 2, 1, 1),    DW_SHAPE(3x3StrideS, 3, 3, 0, 0, 1, 1),
    DW_SHAPE(5x1Stride1x1, 5, 1, 1, 1, 1, 1),  DW_SHAPE(5x1Stride2x1, 5, 1, 2, 1, 1, 1),
    DW_SHAPE(1x5Stride1x1, 1, 5, 1, 1, 1, 1),  DW_SHAPE(1x5Stride1x2, 1, 5, 1, 2, 1, 1),
    DW_SHAPE(5x5Stride1, 5, 5, 1, 1, 1, 1),    DW_SHAPE(5x5Stride2, 5, 5, 2, 2, 1, 1),
    DW_SHAPE(5x5StrideS, 5, 5, 0, 0, 1, 1),    DW_SHAPE(7x7StrideS, 7, 7, 0, 0, 1, 1),
    DW_SHAPE(NxNStrideS, 0, 0, 0, 0, 1, 1),    DW_SHAPE(NxMStrideSxSy, 0, 0, 0, 0, 1, 1),
    DW_SHAPE(NxMDxDyStrideSxSy, 0, 0, 0, 0, 0, 0),
};
#undef DW_SHAPE

typedef struct {
    unsigned W, H, UsedW, UsedH, Feat;
    int Fx, Fy, Sx, Sy, Dx, Dy; /* for the shapes that take them */
    int PadL, PadR, PadT, PadB;
    int NormBias, ActScale, ActScaleN, A0;
} DwCase;

/* The filter, stride and dilation a kernel applies in a case: its own, or the case's (NxN and
 * StrideS kernels the x ones in both directions). */
static void dw_geometry(const DwShape *K, const DwCase *C, int *Fx, int *Fy, int *Sx, int *Sy, int *Dx, int *Dy)
{
    *Fx = K->Fx ? K->Fx : C->Fx;
    *Fy = K->Fy ? K->Fy : strcmp(K->Shape, "NxNStrideS") == 0 ? C->Fx : C->Fy;
    *Sx = K->Sx ? K->Sx : C->Sx;
    *Sy = K->Sy ? K->Sy : strstr(K->Shape, "SxSy") ? C->Sy : C->Sx;
    *Dx = K->Dx ? K->Dx : C->Dx;
    *Dy = K->Dy ? K->Dy : C->Dy;
}

/* Act: 0 none, 1 ReLU, 2 ReLUM, 3 ReLUN. */
static void check_conv_dw_sdk(const DwShape *K, const DwCase *C, int Act)
{
    static const char *const ActNames[4] = {"", "_ReLU", "_ReLUM", "_ReLUN"};
    int Fx, Fy, Sx, Sy, Dx, Dy;
    dw_geometry(K, C, &Fx, &Fy, &Sx, &Sy, &Dx, &Dy);
    {
    const int Wo = ((int) C->UsedW - (Dx * (Fx - 1) + 1) + C->PadL + C->PadR) / Sx + 1;
    const int Ho = ((int) C->UsedH - (Dy * (Fy - 1) + 1) + C->PadT + C->PadB) / Sy + 1;
    const size_t InCount = (size_t) C->Feat * C->W * C->H, OutCount = (size_t) C->Feat * Wo * Ho;
    signed char *In = xmalloc(InCount), *Filter = xmalloc((size_t) C->Feat * Fx * Fy), *Out = xmalloc(OutCount + 4);
    int *Bias = xmalloc(C->Feat * sizeof(int));
    unsigned char *Scale = xmalloc(C->Feat), *ScaleN = xmalloc(C->Feat);
    signed char Infos[AT_INF_DIM];
    KerConvRedAct_SQ8_T Arg;
    char Name[240];
    int Distinct = 0, Seen[256] = {0};

    snprintf(Name, sizeof Name,
             "KerParConvDWRedAct%sB32%s_SQ8 %ux%u (used %ux%u) x%u F=%dx%d S=%d/%d D=%d/%d pad=%d,%d,%d,%d NormBias=%d "
             "Act=%d/%d A0=%d",
             K->Shape, ActNames[Act], C->W, C->H, C->UsedW, C->UsedH, C->Feat, Fx, Fy, Sx, Sy, Dx, Dy, C->PadL, C->PadR,
             C->PadT, C->PadB, C->NormBias, C->ActScale, C->ActScaleN, C->A0);
    begin_case(Name);
    for (size_t i = 0; i < InCount; i++)
        In[i] = rnd8();
    for (size_t i = 0; i < (size_t) C->Feat * Fx * Fy; i++)
        Filter[i] = rnd8();
    for (unsigned f = 0; f < C->Feat; f++) {
        Bias[f] = rnd(-4000, 4000);
        Scale[f] = (unsigned char) rnd(1, 255);
        ScaleN[f] = (unsigned char) rnd(12, 17);
    }
    memset(Out, 0x5A, OutCount + 4);
    memset(Infos, 0x33, sizeof Infos);
    Infos[AT_INF_ACTSCALE] = (signed char) C->ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) C->ActScaleN;
    Infos[AT_INF_A0] = (signed char) C->A0;
    memset(&Arg, 0, sizeof Arg);
    Arg.In = In;
    Arg.Filter = Filter;
    Arg.Bias = (signed char *) Bias;
    Arg.Scale = (signed char *) Scale;
    Arg.ScaleN = (signed char *) ScaleN;
    Arg.Infos = Infos;
    Arg.Out = Out;
    Arg.W = (unsigned short) C->W;
    Arg.UsedW = (unsigned short) C->UsedW;
    Arg.H = (unsigned short) C->H;
    Arg.UsedH = (unsigned short) C->UsedH;
    Arg.InFeatures = Arg.OutFeatures = Arg.TotalInFeatures = (unsigned short) C->Feat;
    Arg.Pad = (v4s) {(signed char) C->PadL, (signed char) C->PadR, (signed char) C->PadT, (signed char) C->PadB};
    Arg.NormBias = (unsigned char) C->NormBias;
    /* Fields a kernel does not read are given wrong. */
    Arg.N = (unsigned short) (K->Fx ? 9 : Fx);
    Arg.Ny = (unsigned short) (strstr(K->Shape, "NxM") ? Fy : 11);
    Arg.S = (unsigned char) (K->Sx ? 5 : Sx);
    Arg.Sy = (unsigned char) (strstr(K->Shape, "SxSy") ? Sy : 6);
    Arg.D = (unsigned char) (K->Dx ? 3 : Dx);
    Arg.Dy = (unsigned char) (K->Dy ? 4 : Dy);
    AT_FORK(gap_ncore(), K->Kernels[Act], &Arg);
    for (unsigned f = 0; f < C->Feat; f++)
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int64_t Acc = (int64_t) Bias[f] * ((int64_t) 1 << C->NormBias), v;
                for (int i = 0; i < Fy; i++)
                    for (int j = 0; j < Fx; j++) {
                        const int Line = y * Sy - C->PadT + i * Dy, Column = x * Sx - C->PadL + j * Dx;
                        if (Line >= 0 && Line < (int) C->UsedH && Column >= 0 && Column < (int) C->UsedW)
                            Acc += In[((size_t) f * C->H + Line) * C->W + Column] * Filter[((size_t) f * Fy + i) * Fx + j];
                    }
                v = ref_roundnorm(Acc * Scale[f], ScaleN[f]);
                if (Act == 1)
                    v = ref_roundnorm((v > 0 ? v : 0) * C->ActScale, C->ActScaleN);
                else if (Act == 2)
                    v = ref_roundnorm((v > C->A0 ? v : C->A0) * C->ActScale, C->ActScaleN);
                else if (Act == 3)
                    v = ref_roundnorm((v < 0 ? 0 : v > C->A0 ? C->A0 : v) * C->ActScale, C->ActScaleN);
                {
                    const size_t o = ((size_t) f * Ho + y) * Wo + x;
                    const int64_t Expected = ref_clip(v, -128, 127);
                    if (Out[o] != Expected)
                        mismatch("Out", (long) o, Out[o], (long) Expected);
                    if (!Seen[Expected + 128]++)
                        Distinct++;
                }
            }
    for (unsigned i = 0; i < 4; i++)
        if ((unsigned char) Out[OutCount + i] != 0x5A)
            mismatch("guard byte after Out", (long) i, Out[OutCount + i], 0x5A);
    printf("  %d distinct output values\n", Distinct);
    free(In);
    free(Filter);
    free(Out);
    free(Bias);
    free(Scale);
    free(ScaleN);
    }
}

static void check_conv_dw_sdk_cases(void)
{
    /* W  H  UsedW UsedH Feat Fx Fy Sx Sy Dx Dy  pads L R T B  NormBias ActScale/N A0 */
    static const DwCase Cases[] = {
        {13, 11, 13, 11, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 1, 0, 60},     /* "same" padding all round */
        {12, 9, 12, 9, 9, 4, 2, 3, 1, 2, 2, 0, 0, 0, 0, 3, 200, 8, 10},    /* unpadded, scaled activations */
        {15, 7, 14, 6, 3, 3, 3, 3, 3, 1, 1, 2, 0, 2, 0, 1, 1, 0, -20},     /* a tile: unused last lines, top pad */
        {10, 8, 10, 8, 16, 5, 3, 2, 3, 2, 1, 1, 2, 0, 2, 2, 77, 6, 5},     /* last tile: bottom padding only */
        {6, 5, 6, 5, 2, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, 0, 1, 0, -40},       /* filter wider than the plane */
    };
    for (unsigned k = 0; k < sizeof DwShapes / sizeof DwShapes[0]; k++)
        for (unsigned c = 0; c < sizeof Cases / sizeof Cases[0]; c++) {
            DwCase C = Cases[c];
            const DwShape *K = &DwShapes[k];
            int Fx, Fy, Sx, Sy, Dx, Dy;
            dw_geometry(K, &C, &Fx, &Fy, &Sx, &Sy, &Dx, &Dy);
            /* The padding a "same" layer of this filter could have: below the filter on each side. */
            C.PadL = C.PadL < Fx ? C.PadL : Fx - 1;
            C.PadR = C.PadR < Fx ? C.PadR : Fx - 1;
            C.PadT = C.PadT < Fy ? C.PadT : Fy - 1;
            C.PadB = C.PadB < Fy ? C.PadB : Fy - 1;
            check_conv_dw_sdk(K, &C, (int) ((k + c) % 4));
        }
    {   /* ActScale 0: the activations give 0, the scale always applied */
        const DwCase C = {9, 9, 9, 9, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 50};
        check_conv_dw_sdk(&DwShapes[7], &C, 1);
        check_conv_dw_sdk(&DwShapes[7], &C, 3);
    }
    /* Every activation on the two general shapes. */
    for (int Act = 0; Act < 4; Act++) {
        const DwCase C = {17, 9, 17, 9, 11, 3, 5, 2, 1, 2, 3, 2, 2, 4, 4, 4, 130, 7, 33};
        check_conv_dw_sdk(&DwShapes[19], &C, Act);
        check_conv_dw_sdk(&DwShapes[20], &C, Act);
    }
}

/* ------------------------------------------------------------------------------------------------
 * KerParGlobal{Avg,Max}Pool*_SQ8: the SDK's contract (docs/gap-fixed-point.md, "Global pooling"),
 * on whole planes, or on tiles of TileH lines reduced at the end */

typedef struct {
    unsigned Feat, W, H, TileH; /* TileH 0: whole planes (the FullFeat kernels) */
    int Max, Act, DoScale, SumScale, SumScaleN, ActScale, ActScaleN, A0;
} GlobalPoolCase;

static void check_global_pool_sdk(const GlobalPoolCase *C)
{
    static void (*const Full[2][3])(KerGlobalPool_SQ8_T *) = {
        {KerParGlobalAvgPoolFullFeat_SQ8, KerParGlobalAvgPoolFullFeat_ReLU_SQ8, KerParGlobalAvgPoolFullFeat_ReLUN_SQ8},
        {KerParGlobalMaxPoolFullFeat_SQ8, KerParGlobalMaxPoolFullFeat_ReLU_SQ8, KerParGlobalMaxPoolFullFeat_ReLUN_SQ8}};
    static void (*const Reduct[2][3])(KerGlobalPool_SQ8_T *) = {
        {KerParGlobalAvgPool_Reduct_SQ8, KerParGlobalAvgPool_Reduct_ReLU_SQ8, KerParGlobalAvgPool_Reduct_ReLUN_SQ8},
        {KerParGlobalMaxPool_Reduct_SQ8, KerParGlobalMaxPool_Reduct_ReLU_SQ8, KerParGlobalMaxPool_Reduct_ReLUN_SQ8}};
    char Name[200];
    const unsigned Plane = C->W * C->H;
    signed char *In = xmalloc((size_t) C->Feat * Plane), *Out = xmalloc(C->Feat + 1);
    signed char *Tile = xmalloc((size_t) C->Feat * C->W * (C->TileH ? C->TileH : 1));
    int *Sums = xmalloc(sizeof(int) * C->Feat);
    signed char Infos[AT_INF_DIM];
    KerGlobalPool_SQ8_T Arg;

    snprintf(Name, sizeof Name, "KerParGlobal%sPool %s act=%d x%u %ux%u Sum=%d/%d DoScale=%d Act=%d/%d A0=%d",
             C->Max ? "Max" : "Avg", C->TileH ? "tiled" : "FullFeat", C->Act, C->Feat, C->W, C->H, C->SumScale,
             C->SumScaleN, C->DoScale, C->ActScale, C->ActScaleN, C->A0);
    begin_case(Name);
    for (size_t i = 0; i < (size_t) C->Feat * Plane; i++)
        In[i] = rnd8();
    Out[C->Feat] = 0x5a; /* a guard byte after the outputs */
    memset(Infos, 0x33, sizeof Infos);
    Infos[AT_INF_GLOBAL_SUM_SCALE] = (signed char) C->SumScale;
    Infos[AT_INF_GLOBAL_SUM_SCALEN] = (signed char) C->SumScaleN;
    Infos[AT_INF_ACTSCALE] = (signed char) C->ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) C->ActScaleN;
    Infos[AT_INF_A0] = (signed char) C->A0;
    memset(&Arg, 0, sizeof Arg);
    Arg.Feat = (unsigned short) C->Feat;
    Arg.DoScale = (unsigned char) C->DoScale;
    Arg.Infos = Infos;
    if (C->TileH == 0) {
        Arg.In = In;
        Arg.W = (unsigned short) C->W;
        Arg.H = (unsigned short) C->H;
        Arg.Out = Out;
        AT_FORK(gap_ncore(), Full[C->Max][C->Act], &Arg);
    } else {
        /* Each tile holds the Feat planes' lines [y, y + h) back to back, as the tiler lays them out. */
        for (unsigned y = 0; y < C->H; y += C->TileH) {
            unsigned h = C->H - y < C->TileH ? C->H - y : C->TileH;
            for (unsigned f = 0; f < C->Feat; f++)
                memcpy(Tile + (size_t) f * C->W * h, In + (size_t) f * Plane + (size_t) y * C->W, (size_t) C->W * h);
            Arg.In = Tile;
            Arg.W = (unsigned short) C->W;
            Arg.H = (unsigned short) h;
            Arg.FirstTile = y == 0;
            Arg.Out = Sums;
            AT_FORK(gap_ncore(), C->Max ? KerParGlobalMaxPool_SQ8 : KerParGlobalAvgPool_SQ8, &Arg);
        }
        Arg.In = Sums;
        Arg.W = (unsigned short) C->W;
        Arg.H = (unsigned short) C->H;
        Arg.Out = Out;
        AT_FORK(gap_ncore(), Reduct[C->Max][C->Act], &Arg);
    }
    for (unsigned f = 0; f < C->Feat; f++) {
        int32_t Sum = 0, Largest = -128, v;
        int Scaled = C->ActScale != 0 && (C->Act > 0 || C->DoScale);
        for (unsigned i = 0; i < Plane; i++) {
            Sum += In[(size_t) f * Plane + i];
            Largest = In[(size_t) f * Plane + i] > Largest ? In[(size_t) f * Plane + i] : Largest;
        }
        v = C->Max ? Largest : ref_roundnorm32(ref_wrap32((int64_t) (Sum * 128 / (int32_t) Plane) * C->SumScale), C->SumScaleN);
        if (C->TileH == 0) {
            v = (int32_t) ref_clip(v, -128, 127);
            if (C->Act > 0)
                v = v < 0 ? 0 : (C->Act == 2 && v > C->A0 ? C->A0 : v);
            if (Scaled)
                v = ref_roundnorm32(ref_wrap32((int64_t) v * C->ActScale), C->ActScaleN);
        } else {
            if (Scaled)
                v = ref_roundnorm32(ref_wrap32((int64_t) v * C->ActScale), C->ActScaleN);
            if (C->Act > 0)
                v = v < 0 ? 0 : (C->Act == 2 && v > C->A0 ? C->A0 : v);
        }
        if (Out[f] != (int32_t) ref_clip(v, -128, 127))
            mismatch("Out", (long) f, Out[f], (int32_t) ref_clip(v, -128, 127));
    }
    if (Out[C->Feat] != 0x5a)
        mismatch("the byte after Out", (long) C->Feat, Out[C->Feat], 0x5a);
    free(In);
    free(Out);
    free(Tile);
    free(Sums);
}

/* ------------------------------------------------------------------------------------------------
 * Ker_<activation>_SQ8 (the SDK's contract, CNN_Act_SQ8): each formula of CNN_BasicKernels_SQ8.h
 * in 64 bits (the values stay far from 32 bits) against the kernels, on Feat x W x H values. */

enum { SA_NONE, SA_RELU, SA_RELUN, SA_RELUM, SA_RELUMN, SA_HSIGMOID, SA_HSWISH, SA_LEAKYRELU, SA_COUNT };

static int64_t ref_standalone_act(int64_t v, int Act, int S, int N, int A0, int B0, int C0)
{
    const int64_t ClipA0 = v + B0 < 0 ? 0 : (v + B0 > A0 ? A0 : v + B0); /* gap_clipur(v + B0, A0) */
    switch (Act) {
    case SA_NONE: return v;
    case SA_RELU: return ref_roundnorm((v > 0 ? v : 0) * S, N);
    case SA_RELUN: return ref_roundnorm((v < 0 ? 0 : (v > A0 ? A0 : v)) * S, N);
    case SA_RELUM: return ref_roundnorm((v > A0 ? v : A0) * S, N);
    case SA_RELUMN: return ref_roundnorm((v < B0 ? (v > A0 ? v : A0) : (B0 > A0 ? B0 : A0)) * S, N);
    case SA_HSIGMOID: return ref_roundnorm(ClipA0 * S, N) + C0;
    case SA_HSWISH: return ref_roundnorm(ClipA0 * v * S, N) + C0;
    default: return ref_roundnorm((v < 0 ? ref_roundnorm(v * A0, 7) : v) * S, N) + B0;
    }
}

static void check_standalone_act(int Act, unsigned Feat, unsigned W, unsigned H, int S, int N, int A0, int B0, int C0)
{
    static void (*const Kernels[SA_COUNT])(KerActivation_SQ8_T *) = {
        Ker_ActNone_SQ8, Ker_ReLU_SQ8, Ker_ReLUN_SQ8, Ker_ReLUM_SQ8,
        Ker_ReLUMN_SQ8, Ker_HSigmoid_SQ8, Ker_HSwish_SQ8, Ker_LeakyReLU_SQ8};
    static const char *const Names[SA_COUNT] = {"ActNone", "ReLU", "ReLUN", "ReLUM",
                                                "ReLUMN", "HSigmoid", "HSwish", "LeakyReLU"};
    char Name[160];
    const unsigned Count = Feat * W * H;
    signed char *In = xmalloc(Count), *Out = xmalloc(Count + 4);
    signed char Infos[AT_INF_DIM] = {0};
    KerActivation_SQ8_T Arg;

    snprintf(Name, sizeof Name, "Ker_%s_SQ8 %ux%ux%u S=%d N=%d A0=%d B0=%d C0=%d", Names[Act], Feat, W, H, S, N, A0,
             B0, C0);
    begin_case(Name);
    for (unsigned i = 0; i < Count; i++)
        In[i] = rnd8();
    memset(Out, 0x5A, Count + 4);
    Infos[AT_INF_ACTSCALE] = (signed char) S;
    Infos[AT_INF_ACTSCALEN] = (signed char) N;
    Infos[AT_INF_A0] = (signed char) A0;
    Infos[AT_INF_A0 + 1] = A0 < 0 ? -1 : 0;
    Infos[AT_INF_B0] = (signed char) B0;
    Infos[AT_INF_C0] = (signed char) C0;
    Arg.In = In;
    Arg.Out = Out;
    Arg.Feat = (unsigned short) Feat;
    Arg.W = (unsigned short) W;
    Arg.H = (unsigned short) H;
    Arg.Infos = Infos;
    AT_FORK(gap_ncore(), Kernels[Act], &Arg);
    for (unsigned i = 0; i < Count; i++) {
        const int64_t Expected = ref_clip(ref_standalone_act(In[i], Act, S, N, A0, B0, C0), -128, 127);
        if (Out[i] != Expected)
            mismatch("Out", (long) i, Out[i], (long) Expected);
    }
    for (unsigned i = 0; i < 4; i++)
        if ((unsigned char) Out[Count + i] != 0x5A)
            mismatch("guard byte after Out", (long) i, Out[Count + i], 0x5A);
    free(In);
    free(Out);
}

static void check_standalone_act_cases(void)
{
    for (int Act = 0; Act < SA_COUNT; Act++) {
        check_standalone_act(Act, 37, 1, 1, 1, 0, 100, -20, 7);        /* as the generator calls them: one column */
        check_standalone_act(Act, 5, 7, 3, 200, 7, 64, 3, -10);        /* scaled up */
        check_standalone_act(Act, 3, 1, 1, 77, 9, 127, 127, 0);        /* fewer values than cores */
    }
    check_standalone_act(SA_RELUN, 50, 1, 1, 1, 0, -5, 0, 0);          /* a negative bound gives itself */
    check_standalone_act(SA_RELU, 50, 1, 1, 0, 0, 0, 0, 0);            /* ActScale 0 gives 0, always applied */
    check_standalone_act(SA_HSWISH, 64, 1, 1, 255, 13, 96, 48, -128);  /* NNTool's hard swish: 3 and 6 in 1/16 */
    check_standalone_act(SA_LEAKYRELU, 64, 1, 1, 128, 7, 13, -3, 0);   /* slope 0.1 */
    check_standalone_act(SA_RELUMN, 64, 1, 1, 1, 0, 30, -30, 0);       /* bounds crossed: A0 wins */
}

/* ------------------------------------------------------------------------------------------------
 * KerParSetBiasB32_SQ8, KerParConv*_SQ8 then KerParReduct[IO]_CC*_SQ8: the SDK's contract for the
 * full convolution (docs/gap-fixed-point.md, "Convolution on the SDK's contract") */

typedef struct {
    const char *Shape;
    void (*Kernel)(KerConv_SQ8_T *);
    int Fx, Fy, Sx, Sy, Dx, Dy; /* 0: the case's (-2: the x one) */
} ConvShape;

#define CONV_SHAPE(Shape, Fx, Fy, Sx, Sy, Dx, Dy) {#Shape, KerParConv##Shape##_SQ8, Fx, Fy, Sx, Sy, Dx, Dy}
static const ConvShape ConvShapes[] = {
    CONV_SHAPE(1x1Stride1, 1, 1, 1, 1, 1, 1),      CONV_SHAPE(1x1Stride2, 1, 1, 2, 2, 1, 1),
    CONV_SHAPE(1x1StrideS, 1, 1, 0, -2, 1, 1),     CONV_SHAPE(3x1Stride1x1, 3, 1, 1, 1, 1, 1),
    CONV_SHAPE(3x1Stride2x1, 3, 1, 2, 1, 1, 1),    CONV_SHAPE(1x3Stride1x1, 1, 3, 1, 1, 1, 1),
    CONV_SHAPE(1x3Stride1x2, 1, 3, 1, 2, 1, 1),    CONV_SHAPE(3x3Stride1, 3, 3, 1, 1, 1, 1),
    CONV_SHAPE(3x3Stride2, 3, 3, 2, 2, 1, 1),      CONV_SHAPE(3x3StrideS, 3, 3, 0, -2, 1, 1),
    CONV_SHAPE(4x1Stride1x1, 4, 1, 1, 1, 1, 1),    CONV_SHAPE(1x4Stride1x1, 1, 4, 1, 1, 1, 1),
    CONV_SHAPE(5x1Stride1x1, 5, 1, 1, 1, 1, 1),    CONV_SHAPE(5x1Stride2x1, 5, 1, 2, 1, 1, 1),
    CONV_SHAPE(1x5Stride1x1, 1, 5, 1, 1, 1, 1),    CONV_SHAPE(1x5Stride1x2, 1, 5, 1, 2, 1, 1),
    CONV_SHAPE(5x5Stride1, 5, 5, 1, 1, 1, 1),      CONV_SHAPE(5x5Stride2, 5, 5, 2, 2, 1, 1),
    CONV_SHAPE(5x5StrideS, 5, 5, 0, -2, 1, 1),     CONV_SHAPE(7x7StrideS, 7, 7, 0, -2, 1, 1),
    CONV_SHAPE(13x1Stride1x1, 13, 1, 1, 1, 1, 1),  CONV_SHAPE(1D_NStrideS, 0, 1, 0, 1, 1, 1),
    CONV_SHAPE(Nx1StrideSxS1, 0, 1, 0, 1, 1, 1),   CONV_SHAPE(NxNStrideS, 0, -2, 0, -2, 1, 1),
    CONV_SHAPE(NxMStrideSxSy, 0, 0, 0, 0, 1, 1),   CONV_SHAPE(NxMDxDyStrideSxSy, 0, 0, 0, 0, 0, 0),
    CONV_SHAPE(3x3DxDyStrideSxSy, 3, 3, 0, 0, 0, 0), CONV_SHAPE(3x3DxDyStride1x1, 3, 3, 1, 1, 0, 0),
    CONV_SHAPE(3x3D2x2Stride1x1, 3, 3, 1, 1, 2, 2), CONV_SHAPE(3x3D4x4Stride1x1, 3, 3, 1, 1, 4, 4),
    CONV_SHAPE(3x3D8x8Stride1x1, 3, 3, 1, 1, 8, 8), CONV_SHAPE(3x3D2x1Stride1x1, 3, 3, 1, 1, 2, 1),
    CONV_SHAPE(3x3D4x1Stride1x1, 3, 3, 1, 1, 4, 1), CONV_SHAPE(3x3D8x1Stride1x1, 3, 3, 1, 1, 8, 1),
    CONV_SHAPE(3x3DxD2Stride1x1, 3, 3, 1, 1, 0, 2),
};
#undef CONV_SHAPE

static void (*const ReductKernels[2][SA_COUNT])(KerConvLinReduct_SQ8_T *) = {
    {KerParReduct_CC_SQ8, KerParReduct_CC_ReLU_SQ8, KerParReduct_CC_ReLUN_SQ8, KerParReduct_CC_ReLUM_SQ8,
     KerParReduct_CC_ReLUMN_SQ8, KerParReduct_CC_HSigmoid_SQ8, KerParReduct_CC_HSwish_SQ8,
     KerParReduct_CC_LeakyReLU_SQ8},
    {KerParReductIO_CC_SQ8, KerParReductIO_CC_ReLU_SQ8, KerParReductIO_CC_ReLUN_SQ8, KerParReductIO_CC_ReLUM_SQ8,
     KerParReductIO_CC_ReLUMN_SQ8, KerParReductIO_CC_HSigmoid_SQ8, KerParReductIO_CC_HSwish_SQ8,
     KerParReductIO_CC_LeakyReLU_SQ8}};

typedef struct {
    unsigned W, H, UsedW, UsedH, InFeat, TotalInFeat, OutFeat;
    int Fx, Fy, Sx, Sy, Dx, Dy;
    int PadL, PadR, PadT, PadB;
    int NormBias, Prenorm, ActScale, ActScaleN, A0, B0, C0;
} ConvCase;

static int conv_value(int Own, int Case, int X)
{
    return Own > 0 ? Own : Own == -2 ? X : Case;
}

static void check_conv_sdk(const ConvShape *K, const ConvCase *C, int Act, int InPlace)
{
    const int Fx = conv_value(K->Fx, C->Fx, 0), Fy = conv_value(K->Fy, C->Fy, Fx);
    const int Sx = conv_value(K->Sx, C->Sx, 0), Sy = conv_value(K->Sy, C->Sy, Sx);
    const int Dx = conv_value(K->Dx, C->Dx, 0), Dy = conv_value(K->Dy, C->Dy, Dx);
    const int Wo = ((int) C->UsedW - (Dx * (Fx - 1) + 1) + C->PadL + C->PadR) / Sx + 1;
    const int Ho = ((int) C->UsedH - (Dy * (Fy - 1) + 1) + C->PadT + C->PadB) / Sy + 1;
    const size_t InCount = (size_t) C->InFeat * C->W * C->H, Size = (size_t) Wo * Ho, OutCount = C->OutFeat * Size;
    const size_t FilterCount = (size_t) C->OutFeat * C->TotalInFeat * Fx * Fy;
    signed char *In = xmalloc(InCount), *Filter = xmalloc(FilterCount), *Out = xmalloc(OutCount + 4);
    int *Sums = xmalloc(OutCount * sizeof(int) + 4), *Bias = xmalloc(C->OutFeat * sizeof(int));
    unsigned char *Scale = xmalloc(C->OutFeat), *ScaleN = xmalloc(C->OutFeat);
    signed char Infos[AT_INF_DIM];
    KerSetBias_SQ8_T BiasArg;
    KerConv_SQ8_T ConvArg;
    KerConvLinReduct_SQ8_T ReductArg;
    char Name[260];
    const signed char *Result;
    int Distinct = 0, Seen[256] = {0};

    snprintf(Name, sizeof Name,
             "KerParConv%s_SQ8 %ux%u (used %ux%u) %u (of %u) -> %u F=%dx%d S=%d/%d D=%d/%d pad=%d,%d,%d,%d then "
             "KerParReduct%s_CC act %d NormBias=%d Prenorm=%d Act=%d/%d A0=%d B0=%d C0=%d",
             K->Shape, C->W, C->H, C->UsedW, C->UsedH, C->InFeat, C->TotalInFeat, C->OutFeat, Fx, Fy, Sx, Sy, Dx, Dy,
             C->PadL, C->PadR, C->PadT, C->PadB, InPlace ? "IO" : "", Act, C->NormBias, C->Prenorm, C->ActScale,
             C->ActScaleN, C->A0, C->B0, C->C0);
    begin_case(Name);
    for (size_t i = 0; i < InCount; i++)
        In[i] = rnd8();
    for (size_t i = 0; i < FilterCount; i++)
        Filter[i] = rnd8();
    for (unsigned f = 0; f < C->OutFeat; f++) {
        Bias[f] = rnd(-30000, 30000);
        Scale[f] = (unsigned char) rnd(1, 255);
        ScaleN[f] = (unsigned char) rnd(14, 18);
    }
    memset(Out, 0x5A, OutCount + 4);
    memset(Sums, 0x5A, OutCount * sizeof(int) + 4);
    memset(Infos, 0, sizeof Infos);
    Infos[AT_INF_ACTSCALE] = (signed char) C->ActScale;
    Infos[AT_INF_ACTSCALEN] = (signed char) C->ActScaleN;
    Infos[AT_INF_A0] = (signed char) C->A0;
    Infos[AT_INF_B0] = (signed char) C->B0;
    Infos[AT_INF_C0] = (signed char) C->C0;
    Infos[AT_INF_PRENORM] = (signed char) C->Prenorm;

    BiasArg.Out = Sums;
    BiasArg.W = (unsigned short) Wo;
    BiasArg.H = (unsigned short) Ho;
    BiasArg.Feat = (unsigned short) C->OutFeat;
    BiasArg.Bias = Bias;
    BiasArg.NormBias = (unsigned char) C->NormBias;
    AT_FORK(gap_ncore(), KerParSetBiasB32_SQ8, &BiasArg);

    memset(&ConvArg, 0, sizeof ConvArg);
    ConvArg.In = In;
    ConvArg.W = (unsigned short) C->W;
    ConvArg.UsedW = (unsigned short) C->UsedW;
    ConvArg.H = (unsigned short) C->H;
    ConvArg.UsedH = (unsigned short) C->UsedH;
    ConvArg.InFeatures = (unsigned short) C->InFeat;
    ConvArg.OutFeatures = (unsigned short) C->OutFeat;
    ConvArg.TotalInFeatures = (unsigned short) C->TotalInFeat;
    ConvArg.Filter = Filter;
    ConvArg.Out = Sums;
    ConvArg.Pad = (v4s) {(signed char) C->PadL, (signed char) C->PadR, (signed char) C->PadT, (signed char) C->PadB};
    ConvArg.NormBias = 29; /* not read */
    /* Fields a kernel does not read are given wrong. */
    ConvArg.N = (unsigned short) (K->Fx ? 9 : Fx);
    ConvArg.Ny = (unsigned short) (K->Fy ? 11 : Fy);
    ConvArg.S = (unsigned char) (K->Sx ? 5 : Sx);
    ConvArg.Sy = (unsigned char) (K->Sy ? 6 : Sy);
    ConvArg.D = (unsigned char) (K->Dx ? 3 : Dx);
    ConvArg.Dy = (unsigned char) (K->Dy ? 4 : Dy);
    AT_FORK(gap_ncore(), K->Kernel, &ConvArg);

    ReductArg.In = Sums;
    ReductArg.Out = InPlace ? 0 : Out;
    ReductArg.Feat = (unsigned short) C->OutFeat;
    ReductArg.W = (unsigned short) Wo;
    ReductArg.H = (unsigned short) Ho;
    ReductArg.Scale = Scale;
    ReductArg.ScaleN = ScaleN;
    ReductArg.Infos = Infos;
    AT_FORK(gap_ncore(), ReductKernels[InPlace][Act], &ReductArg);
    Result = InPlace ? (const signed char *) Sums : Out;

    for (unsigned f = 0; f < C->OutFeat; f++)
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int64_t Acc = (int64_t) Bias[f] * ((int64_t) 1 << C->NormBias), v;
                for (unsigned c = 0; c < C->InFeat; c++)
                    for (int i = 0; i < Fy; i++)
                        for (int j = 0; j < Fx; j++) {
                            const int Line = y * Sy - C->PadT + i * Dy, Column = x * Sx - C->PadL + j * Dx;
                            if (Line >= 0 && Line < (int) C->UsedH && Column >= 0 && Column < (int) C->UsedW)
                                Acc += In[((size_t) c * C->H + Line) * C->W + Column] *
                                       Filter[(((size_t) f * C->TotalInFeat + c) * Fy + i) * Fx + j];
                        }
                v = ref_roundnorm(ref_roundnorm(Acc, C->Prenorm) * Scale[f], ScaleN[f]);
                v = ref_standalone_act(v, Act, C->ActScale, C->ActScaleN, C->A0, C->B0, C->C0);
                {
                    const size_t o = ((size_t) f * Ho + y) * Wo + x;
                    const int64_t Expected = ref_clip(v, -128, 127);
                    if (Result[o] != Expected)
                        mismatch("Out", (long) o, Result[o], (long) Expected);
                    if (!Seen[Expected + 128]++)
                        Distinct++;
                }
            }
    if (!InPlace)
        for (unsigned i = 0; i < 4; i++)
            if ((unsigned char) Out[OutCount + i] != 0x5A)
                mismatch("guard byte after Out", (long) i, Out[OutCount + i], 0x5A);
    printf("  %d distinct output values\n", Distinct);
    free(In);
    free(Filter);
    free(Out);
    free(Sums);
    free(Bias);
    free(Scale);
    free(ScaleN);
}

static void check_conv_sdk_cases(void)
{
    /* W  H  UsedW UsedH In Total Out Fx Fy Sx Sy Dx Dy  pads L R T B  NormBias Prenorm Act/N A0 B0 C0 */
    static const ConvCase Cases[] = {
        {13, 11, 13, 11, 3, 3, 5, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 60, 10, 0},   /* "same" padding all round */
        {12, 9, 12, 9, 4, 7, 9, 4, 2, 3, 1, 2, 2, 0, 0, 0, 0, 3, 2, 200, 8, 10, 20, -5},  /* a chunk of the input planes */
        {15, 7, 14, 6, 2, 2, 3, 3, 3, 3, 3, 1, 1, 2, 0, 2, 0, 1, 0, 1, 0, -20, 30, 3},    /* a tile: unused lines, top pad */
        {10, 8, 10, 8, 5, 5, 16, 5, 3, 2, 3, 2, 1, 1, 2, 0, 2, 2, 1, 77, 6, 5, 40, 0},    /* last tile: bottom padding */
        {6, 5, 6, 5, 1, 1, 2, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, 0, 0, 1, 0, 40, 96, 7},       /* filter wider than the plane */
    };
    for (unsigned k = 0; k < sizeof ConvShapes / sizeof ConvShapes[0]; k++)
        for (unsigned c = 0; c < sizeof Cases / sizeof Cases[0]; c++) {
            ConvCase C = Cases[c];
            const ConvShape *K = &ConvShapes[k];
            const int Fx = conv_value(K->Fx, C.Fx, 0), Fy = conv_value(K->Fy, C.Fy, Fx);
            const int Dx = conv_value(K->Dx, C.Dx, 0), Dy = conv_value(K->Dy, C.Dy, Dx);
            const int SpanX = Dx * (Fx - 1) + 1, SpanY = Dy * (Fy - 1) + 1;
            C.PadL = C.PadL < SpanX ? C.PadL : SpanX - 1;
            C.PadR = C.PadR < SpanX ? C.PadR : SpanX - 1;
            C.PadT = C.PadT < SpanY ? C.PadT : SpanY - 1;
            C.PadB = C.PadB < SpanY ? C.PadB : SpanY - 1;
            if ((int) C.UsedW + C.PadL + C.PadR < SpanX || (int) C.UsedH + C.PadT + C.PadB < SpanY) {
                C.PadL = C.PadR = SpanX - 1;
                C.PadT = C.PadB = SpanY - 1;
            }
            check_conv_sdk(K, &C, (int) ((k + c) % SA_COUNT), (int) ((k + c) % 3 == 0));
        }
}

/* ------------------------------------------------------------------------------------------------
 * KerParSoftMax_SQ8 / KerParSoftMax8Bits_SQ8 (the SDK's contract): the exponential's tables from
 * their definition (e^n, 1/k! by libm), the steps of docs/gap-fixed-point.md, "Softmax on the
 * SDK's contract", in 64 bits. */

static uint32_t ref_sdk_exp(uint32_t Y)
{
    int64_t n = Y >> 15, r = Y & 0x7FFF, Power, Sum = 0, Poly, Exp;
    double Factorial = 1.0;

    if (Y == 0)
        return 32768;
    if (r >= 16384) {
        r -= 32768;
        n++;
    }
    if (n >= 12)
        return 0;
    Power = r;
    for (int k = 1; k <= 8; k++) {
        int64_t c;
        Factorial *= k;
        c = (int64_t) floor(32768.0 / Factorial + 0.5);
        Sum += Power * (c > 32767 ? 32767 : c);
        Power = ref_roundnorm(Power * r, 15);
    }
    Poly = (ref_roundnorm(Sum, 15) + 32767) & 0xFFFF;
    {
        double e = exp((double) n);
        int64_t Int = (int64_t) floor(e), Fract = (int64_t) floor((e - floor(e)) * 32768.0 + 0.5);
        Exp = ref_roundnorm(Poly * Fract, 15) + Poly * Int;
    }
    return (uint32_t) ((INT64_C(0x7FFFFFFF) / Exp) >> 1);
}

static void check_softmax_sdk(const char *What, const signed char *Values, unsigned Feat, unsigned N, int Norm,
                              int Q7)
{
    char Name[160];
    const unsigned Count = Feat * N, OutBytes = Q7 ? 1 : 2;
    signed char *In = xmalloc(Count);
    unsigned char *Out = xmalloc(Count * OutBytes + 4);
    signed char Infos[AT_INF_DIM] = {0};
    KerSoftMax_SQ8_T Arg;

    snprintf(Name, sizeof Name, "%s %s Feat=%u N=%u Norm=%d", Q7 ? "KerParSoftMax8Bits_SQ8" : "KerParSoftMax_SQ8",
             What, Feat, N, Norm);
    begin_case(Name);
    memcpy(In, Values, Count);
    memset(Out, 0x5A, Count * OutBytes + 4);
    Infos[AT_INF_BIASL_SM] = (signed char) Norm;
    Arg.In = In;
    Arg.Feat = (unsigned short) Feat;
    Arg.N = (unsigned short) N;
    Arg.Norm = 99; /* not read: the kernels take Infos[AT_INF_BIASL_SM], as the SDK's */
    Arg.Out = Out;
    Arg.Infos = Infos;
    AT_FORK(gap_ncore(), Q7 ? KerParSoftMax8Bits_SQ8 : KerParSoftMax_SQ8, &Arg);
    for (unsigned f = 0; f < Feat; f++) {
        const signed char *V = Values + f * N;
        int64_t Sum = 0, Inverse, Total = 0;
        int M = -128;
        for (unsigned i = 0; i < N; i++)
            M = V[i] > M ? V[i] : M;
        for (unsigned i = 0; i < N; i++)
            Sum += ref_sdk_exp((uint32_t) (M - V[i]) << Norm);
        Inverse = (INT64_C(32767) << 15) / Sum;
        for (unsigned i = 0; i < N; i++) {
            int64_t Expected = ref_roundnorm(ref_sdk_exp((uint32_t) (M - V[i]) << Norm) * Inverse, Q7 ? 23 : 15);
            int64_t Got = Q7 ? (signed char) Out[f * N + i] : ((short *) Out)[f * N + i];
            Expected = Expected > (Q7 ? 127 : 32767) ? (Q7 ? 127 : 32767) : Expected;
            if (Got != Expected)
                mismatch("Out", (long) (f * N + i), Got, Expected);
            Total += Got;
        }
        /* A distribution, up to one rounding per value (and the largest value's saturation). */
        if (llabs(Total - (Q7 ? 128 : 32768)) > (long long) N + 1) {
            char Message[96];
            snprintf(Message, sizeof Message, "vector %u sums to %lld", f, (long long) Total);
            fail(Message);
        }
    }
    for (unsigned i = 0; i < 4; i++)
        if (Out[Count * OutBytes + i] != 0x5A)
            mismatch("guard byte after Out", (long) i, Out[Count * OutBytes + i], 0x5A);
    if (memcmp(In, Values, Count) != 0)
        fail("In modified");
    free(In);
    free(Out);
}

static void check_softmax_sdk_cases(void)
{
    signed char v[600];
    for (unsigned i = 0; i < sizeof v; i++)
        v[i] = rnd8();
    for (int Q7 = 0; Q7 <= 1; Q7++) {
        check_softmax_sdk("random", v, 1, 10, 11, Q7);
        check_softmax_sdk("random", v, 1, 600, 12, Q7);
        check_softmax_sdk("random, Norm 0", v, 1, 37, 0, Q7);
        check_softmax_sdk("random, Norm 15", v, 1, 37, 15, Q7);
        check_softmax_sdk("random, vectors", v, 6, 100, 9, Q7);
        check_softmax_sdk("random, fewer values than cores", v, 5, 3, 13, Q7);
        check_softmax_sdk("single value", v, 1, 1, 10, Q7);
        {
            /* One value dominates: the others' e[i] are 0, its 1.0 saturates to the largest value. */
            static const signed char Dominant[4] = {127, -128, -128, -100};
            /* Differences 0..255 at Norm 12: the band 11.09..11.5 where e^n * p needs 32 unsigned bits. */
            signed char Ramp[256];
            for (unsigned i = 0; i < 256; i++)
                Ramp[i] = (signed char) (127 - (int) i);
            check_softmax_sdk("dominant", Dominant, 1, 4, 15, Q7);
            check_softmax_sdk("ramp", Ramp, 1, 256, 12, Q7);
            check_softmax_sdk("ramp", Ramp, 2, 128, 14, Q7);
        }
    }
    /* The exponential itself against libm: e^-x within 2 LSB of Q15 over the whole range (1.53 at most). */
    begin_case("the SDK's exponential against exp()");
    for (uint32_t Y = 0; Y < (13u << 15); Y += 7) {
        double Exact = exp(-(double) Y / 32768.0) * 32768.0;
        if (fabs((double) ref_sdk_exp(Y) - Exact) > 2.0)
            mismatch("e^-x", (long) Y, ref_sdk_exp(Y), (long) Exact);
    }
}

/* ------------------------------------------------------------------------------------------------
 * KerSoftMax_SQ8: the conversion to Q(InQ), then the doc's 16-bit "Softmax" with stored e[i]. */

static void ref_softmax_sq8(const signed char *In, unsigned N, int Scale, int ScaleN, int InQ, int32_t *Out)
{
    int32_t *t = xmalloc(sizeof(int32_t) * N);
    int32_t *e = xmalloc(sizeof(int32_t) * N);
    int32_t m, Sum = 0;
    for (unsigned i = 0; i < N; i++)
        t[i] = (int32_t) ref_clip(ref_roundnorm((int64_t) In[i] * Scale, ScaleN), -32768, 32767);
    m = t[0];
    for (unsigned i = 1; i < N; i++)
        if (t[i] > m)
            m = t[i];
    for (unsigned i = 0; i < N; i++) {
        int32_t d = t[i] - m;                          /* step 1 */
        int32_t u = (d * 23637) >> 14;                 /* step 2 */
        int32_t k = (-u) >> InQ;                       /* step 3 */
        int32_t f = (-u) - (k << InQ);
        int32_t f15 = InQ <= 15 ? f << (15 - InQ) : f >> (InQ - 15);
        int32_t p = 315;                               /* step 4 */
        p = -1819 + ((p * f15) >> 15);
        p = 7872 + ((p * f15) >> 15);
        p = -22713 + ((p * f15) >> 15);
        p = 32768 + ((p * f15) >> 15);
        e[i] = k >= 31 ? 0 : p >> k;                   /* step 5 */
        Sum += e[i];                                   /* step 6 */
    }
    for (unsigned i = 0; i < N; i++)
        Out[i] = (int32_t) ref_clip(ref_ndiv((int64_t) e[i] * 32768, Sum), -32768, 32767);
    free(t);
    free(e);
}

static void check_softmax(const char *What, const signed char *Values, unsigned N, int Scale, int ScaleN, int InQ)
{
    char Name[160];
    signed char *In = xmalloc(N);
    short *Out = xmalloc(sizeof(short) * N);
    int32_t *Expected = xmalloc(sizeof(int32_t) * N);
    KerSoftMax_SQ8_Arg_T Arg;
    int64_t Sum = 0;

    snprintf(Name, sizeof Name, "KerSoftMax_SQ8 %s N=%u Scale=%d ScaleN=%d InQ=%d", What, N, Scale, ScaleN, InQ);
    begin_case(Name);
    memcpy(In, Values, N);
    ref_softmax_sq8(In, N, Scale, ScaleN, InQ, Expected);
    Arg.In = In;
    Arg.N = N;
    Arg.Scale = Scale;
    Arg.ScaleN = ScaleN;
    Arg.InQ = InQ;
    Arg.Out = Out;
    AT_FORK(gap_ncore(), KerSoftMax_SQ8, &Arg);
    for (unsigned i = 0; i < N; i++) {
        if (In[i] != Values[i])
            mismatch("In modified", (long) i, In[i], Values[i]);
        if (Out[i] != Expected[i])
            mismatch("Out", (long) i, Out[i], Expected[i]);
        Sum += Out[i];
    }
    /* A probability distribution in Q15 up to one rounding per value. */
    if (Sum < 32768 - (int64_t) N || Sum > 32768 + (int64_t) N) {
        char Message[96];
        snprintf(Message, sizeof Message, "outputs sum to %lld, not ~32768", (long long) Sum);
        fail(Message);
    }
    free(In);
    free(Out);
    free(Expected);
}

static void check_softmax_cases(void)
{
    signed char v[100];
    for (unsigned i = 0; i < 100; i++)
        v[i] = rnd8();
    /* s_in = 0.05, InQ = 12: factor 0.05 * 4096 = 204.8 = 26214 / 2^7 (multiplier15). */
    check_softmax("random", v, 10, 26214, 7, 12);
    check_softmax("random", v, 100, 26214, 7, 12);
    check_softmax("random, large scale (clip16)", v, 37, 32767, 0, 11);
    check_softmax("random, scale 1 shift 0", v, 10, 1, 0, 0);
    check_softmax("random, InQ 20", v, 17, 20000, 3, 20);
    check_softmax("random, ScaleN 40", v, 10, 30000, 40, 15);
    check_softmax("random, Scale 0", v, 10, 0, 5, 12);
    {
        static const signed char Ext[9] = {-128, 127, -128, 127, 0, -1, 1, -128, 126};
        check_softmax("extremes", Ext, 9, 16384, 2, 13);
        check_softmax("extremes", Ext, 9, 255, 0, 15);
    }
    v[0] = -7;
    check_softmax("single value", v, 1, 300, 1, 12);
}

/* ------------------------------------------------------------------------------------------------
 * A full convolution layer: KerSetBias_SQ8 + KerConv_SQ8 per input feature (per feature for a
 * depthwise layer) + KerScalePoolAct_SQ8, against the doc's SQ8 convolution. The kernels have no
 * padding: the layer's zero padding is materialized in the input tiles. */

typedef struct {
    int Cin, Cout, H, W;
    int Fc, Sc, Dc, Pad;
    int Depthwise;
    int PoolOper, Fp, Sp;
    int ReLU;
    int BiasRange;
} LayerCase;

static void check_layer(const LayerCase *L)
{
    char Name[256];
    int Hc = (L->H + 2 * L->Pad - L->Dc * (L->Fc - 1) - 1) / L->Sc + 1;
    int Wc = (L->W + 2 * L->Pad - L->Dc * (L->Fc - 1) - 1) / L->Sc + 1;
    int Hpad = L->H + 2 * L->Pad, Wpad = L->W + 2 * L->Pad;
    int FilterInputs = L->Depthwise ? 1 : L->Cin;
    signed char *In = xmalloc((size_t) L->Cin * L->H * L->W);
    signed char *Wt = xmalloc((size_t) L->Cout * FilterInputs * L->Fc * L->Fc);
    int *Bias = xmalloc(sizeof(int) * L->Cout);
    unsigned char *Scale = xmalloc((size_t) L->Cout), *ScaleN = xmalloc((size_t) L->Cout);
    int32_t *Conv = xmalloc(sizeof(int32_t) * L->Cout * Hc * Wc);
    int32_t *Expected = xmalloc(sizeof(int32_t) * L->Cout * Hc * Wc);
    int Wp, Hp;

    snprintf(Name, sizeof Name, "layer Cin=%d Cout=%d %dx%d %sconv %dx%d S=%d D=%d pad=%d pool=%s %dx%d/%d ReLU=%d",
             L->Cin, L->Cout, L->W, L->H, L->Depthwise ? "depthwise " : "", L->Fc, L->Fc, L->Sc, L->Dc, L->Pad,
             pool_name(L->PoolOper), L->Fp, L->Fp, L->Sp, L->ReLU);
    begin_case(Name);
    for (int i = 0; i < L->Cin * L->H * L->W; i++)
        In[i] = rnd8();
    for (int i = 0; i < L->Cout * FilterInputs * L->Fc * L->Fc; i++)
        Wt[i] = rnd8();
    for (int co = 0; co < L->Cout; co++) {
        int Taps = FilterInputs * L->Fc * L->Fc, Bits = 0;
        Bias[co] = rnd(-L->BiasRange, L->BiasRange);
        /* A multiplier that maps the accumulators' typical spread (~128 * 128 * sqrt(Taps)) onto int8. */
        while ((1 << Bits) * (1 << Bits) < Taps)
            Bits++;
        Scale[co] = (unsigned char) rnd(128, 255);
        ScaleN[co] = (unsigned char) (14 + Bits + 1);
        if (co % 4 == 3)
            ScaleN[co] = (unsigned char) rnd(0, 40);
    }

    /* The reference: the int32 accumulator, requantization, then pooling and activation. */
    for (int co = 0; co < L->Cout; co++)
        for (int y = 0; y < Hc; y++)
            for (int x = 0; x < Wc; x++) {
                int64_t Acc = Bias[co];
                int CiFirst = L->Depthwise ? co : 0, CiEnd = L->Depthwise ? co + 1 : L->Cin;
                for (int ci = CiFirst; ci < CiEnd; ci++)
                    for (int ky = 0; ky < L->Fc; ky++)
                        for (int kx = 0; kx < L->Fc; kx++) {
                            int iy = y * L->Sc + ky * L->Dc - L->Pad, ix = x * L->Sc + kx * L->Dc - L->Pad;
                            if (iy < 0 || iy >= L->H || ix < 0 || ix >= L->W)
                                continue;
                            Acc += (int32_t) In[(ci * L->H + iy) * L->W + ix] *
                                   (int32_t) Wt[((co * FilterInputs + ci - CiFirst) * L->Fc + ky) * L->Fc + kx];
                        }
                Conv[(co * Hc + y) * Wc + x] = ref_requant(in_int32(Acc), Scale[co], ScaleN[co]);
            }
    ref_pool_act(Conv, (unsigned) L->Cout, Wc, Hc, L->PoolOper, L->Fp, L->Fp, L->Sp, L->Sp, 0, L->ReLU, Expected, &Wp,
                 &Hp);

    /* The kernels. */
    {
        signed char *Tile = xmalloc((size_t) Hpad * Wpad);
        signed char *Filter = xmalloc((size_t) L->Cout * L->Fc * L->Fc);
        int *Acc = xmalloc(sizeof(int) * L->Cout * Hc * Wc);
        signed char *Out = xmalloc((size_t) L->Cout * Hp * Wp);
        KerSetBias_SQ8_Arg_T BiasArg;
        KerConv_SQ8_Arg_T ConvArg;
        KerScalePoolAct_SQ8_Arg_T PoolArg;

        BiasArg.Out = Acc;
        BiasArg.W = (unsigned) Wc;
        BiasArg.H = (unsigned) Hc;
        BiasArg.Feat = (unsigned) L->Cout;
        BiasArg.Bias = Bias;
        AT_FORK(gap_ncore(), KerSetBias_SQ8, &BiasArg);

        for (int ci = 0; ci < L->Cin; ci++) {
            /* The zero-padded input plane and the filters that read it. */
            memset(Tile, 0, (size_t) Hpad * Wpad);
            for (int y = 0; y < L->H; y++)
                memcpy(Tile + (y + L->Pad) * Wpad + L->Pad, In + (ci * L->H + y) * L->W, (size_t) L->W);
            if (L->Depthwise)
                memcpy(Filter, Wt + ci * L->Fc * L->Fc, (size_t) L->Fc * L->Fc);
            else
                for (int co = 0; co < L->Cout; co++)
                    memcpy(Filter + co * L->Fc * L->Fc, Wt + (co * L->Cin + ci) * L->Fc * L->Fc, (size_t) L->Fc * L->Fc);
            ConvArg.In = Tile;
            ConvArg.W = (unsigned) Wpad;
            ConvArg.H = (unsigned) Hpad;
            ConvArg.Filter = Filter;
            ConvArg.Out = L->Depthwise ? Acc + ci * Hc * Wc : Acc;
            ConvArg.Wo = (unsigned) Wc;
            ConvArg.Ho = (unsigned) Hc;
            ConvArg.Feat = L->Depthwise ? 1u : (unsigned) L->Cout;
            ConvArg.Fx = ConvArg.Fy = (unsigned) L->Fc;
            ConvArg.Sx = ConvArg.Sy = (unsigned) L->Sc;
            ConvArg.Dx = ConvArg.Dy = (unsigned) L->Dc;
            ConvArg.PadL = 0;
            AT_FORK(gap_ncore(), KerConv_SQ8, &ConvArg);
        }

        PoolArg.In = Acc;
        PoolArg.W = (unsigned) Wc;
        PoolArg.H = (unsigned) Hc;
        PoolArg.Feat = (unsigned) L->Cout;
        PoolArg.Out = Out;
        PoolArg.Wo = (unsigned) Wp;
        PoolArg.Ho = (unsigned) Hp;
        PoolArg.Scale = Scale;
        PoolArg.ScaleN = ScaleN;
        PoolArg.PoolOper = (unsigned) L->PoolOper;
        PoolArg.Fx = PoolArg.Fy = (unsigned) L->Fp;
        PoolArg.Sx = PoolArg.Sy = (unsigned) L->Sp;
        PoolArg.ReLU = (unsigned) L->ReLU;
        PoolArg.PadL = 0;
        PoolArg.PadT = 0;
        PoolArg.TileOffset = 0;
        PoolArg.PlaneH = (unsigned) Hc;
        AT_FORK(gap_ncore(), KerScalePoolAct_SQ8, &PoolArg);

        {
            int Distinct = 0, Seen[256] = {0};
            for (int i = 0; i < L->Cout * Hp * Wp; i++) {
                if (Out[i] != Expected[i])
                    mismatch("Out", i, Out[i], Expected[i]);
                if (!Seen[Expected[i] + 128]++)
                    Distinct++;
            }
            printf("  %d distinct output values\n", Distinct);
        }
        free(Tile);
        free(Filter);
        free(Acc);
        free(Out);
    }
    free(In);
    free(Wt);
    free(Bias);
    free(Scale);
    free(ScaleN);
    free(Conv);
    free(Expected);
}

/* ------------------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (argc > 1)
        Seed = (uint32_t) strtoul(argv[1], 0, 0);
    printf("cnn_sq8_kernels_check: %d emulated core(s), seed %u\n", gap_ncore(), Seed);

    /* KerSetBias_SQ8 */
    check_set_bias(5, 3, 1);
    check_set_bias(7, 4, 3);
    check_set_bias(8, 8, 32);
    check_set_bias(1, 1, 3);
    check_set_bias(13, 1, 11);

    /* KerConv_SQ8 */
    check_conv(11, 9, 1, 3, 3, 1, 1, 1, 1, 0);
    check_conv(13, 12, 3, 5, 5, 1, 1, 1, 1, 0);
    check_conv(15, 11, 32, 3, 3, 2, 2, 1, 1, 0);
    check_conv(17, 13, 3, 3, 3, 1, 1, 2, 2, 0);
    check_conv(9, 7, 32, 1, 1, 1, 1, 1, 1, 0);
    check_conv(21, 19, 1, 5, 5, 2, 2, 2, 2, 0);
    check_conv(12, 7, 3, 5, 5, 2, 1, 1, 1, 0);
    check_conv(10, 11, 3, 3, 5, 1, 2, 2, 1, 0);
    check_conv(5, 5, 1, 5, 5, 1, 1, 1, 1, 0);   /* a single output */
    check_conv(11, 9, 4, 3, 3, 1, 1, 1, 1, 1);  /* "same" 3x3 */
    check_conv(12, 9, 3, 3, 3, 2, 2, 1, 1, 1);  /* strided, the right padding partly unused */
    check_conv(10, 8, 2, 5, 5, 1, 1, 1, 1, 2);
    check_conv(9, 9, 2, 3, 3, 1, 1, 2, 2, 2);   /* dilated */
    check_conv(3, 6, 2, 5, 5, 1, 1, 1, 1, 2);   /* filter wider than the tile */
    check_conv(7, 3, 9, 7, 1, 3, 1, 1, 1, 3);   /* 7x1 filter, stride 3 */

    /* KerScalePoolAct_SQ8 */
    check_scale_pool_act(7, 5, 1, CNN_POOL_NONE, 1, 1, 1, 1, 0, 0);
    check_scale_pool_act(9, 4, 14, CNN_POOL_NONE, 1, 1, 1, 1, 0, 1);
    check_scale_pool_act(6, 6, 32, CNN_POOL_NONE, 1, 1, 1, 1, 0, 6);
    check_scale_pool_act(8, 8, 7, CNN_POOL_MAX, 2, 2, 2, 2, 0, 0);
    check_scale_pool_act(8, 8, 7, CNN_POOL_MAX, 2, 2, 2, 2, 0, 1);
    check_scale_pool_act(9, 7, 3, CNN_POOL_MAX, 3, 3, 2, 2, 0, 100);
    check_scale_pool_act(10, 6, 32, CNN_POOL_AVG, 2, 2, 2, 2, 0, 0);
    check_scale_pool_act(11, 9, 13, CNN_POOL_AVG, 2, 2, 2, 2, 0, 1);
    check_scale_pool_act(13, 11, 5, CNN_POOL_AVG, 3, 3, 2, 2, 0, 0);
    check_scale_pool_act(13, 11, 5, CNN_POOL_AVG, 3, 3, 2, 2, 0, 25);
    check_scale_pool_act(12, 9, 3, CNN_POOL_AVG, 3, 2, 3, 1, 0, 0); /* non-square windows and strides */
    check_scale_pool_act(9, 12, 5, CNN_POOL_MAX, 2, 3, 1, 2, 0, 1);
    check_scale_pool_act(5, 3, 1, CNN_POOL_AVG, 5, 3, 1, 1, 0, 0);  /* one window, the whole plane */
    /* Pooling padding: windows over the padding lines and columns skip them. */
    check_scale_pool_act(9, 7, 3, CNN_POOL_MAX, 3, 3, 2, 2, 1, 0);
    check_scale_pool_act(8, 8, 4, CNN_POOL_AVG, 3, 3, 2, 2, 1, 1);
    check_scale_pool_act(10, 9, 2, CNN_POOL_AVG, 5, 3, 1, 2, 2, 0);

    /* KerParLinearLayerFullFeatB32[_ReLU|_ReLUN]_SQ8 */
    check_linear(1024, 10, 0, 0, 1, 0, 0, 1 << 20);
    check_linear(1024, 10, 1, 0, 1, 0, 0, 1 << 28);
    check_linear(20, 7, 0, 0, 0, 0, 3, 1 << 12);
    check_linear(20, 7, 1, 0, 1, 0, 0, 1 << 30);
    check_linear(33, 13, 2, 6, 1, 0, 0, 1 << 16);
    check_linear(33, 13, 2, 100, 200, 7, 1, 1 << 16);  /* ReLU-N, then rescaled */
    check_linear(40, 9, 1, 0, 255, 9, 2, 1 << 10);     /* ReLU, then rescaled */
    check_linear(17, 5, 2, -3, 1, 0, 0, 1 << 12);      /* a negative bound */
    check_linear(1, 1, 0, 0, 1, 0, 0, 100);
    check_linear(9, 17, 2, 127, 1, 0, 0, 1 << 14);

    /* KerPoolAct_SQ8 */
    check_pool_act(8, 8, 3, CNN_POOL_MAX, 2, 2, 2, 2, 0, 0);
    check_pool_act(9, 7, 11, CNN_POOL_MAX, 2, 2, 2, 2, 0, 1);
    check_pool_act(9, 7, 11, CNN_POOL_AVG, 2, 2, 2, 2, 0, 0);
    check_pool_act(13, 11, 3, CNN_POOL_AVG, 3, 3, 2, 2, 0, 6);
    check_pool_act(13, 11, 3, CNN_POOL_MAX, 3, 3, 2, 2, 1, 0);
    check_pool_act(10, 9, 5, CNN_POOL_AVG, 3, 3, 1, 1, 1, 0);
    check_pool_act(12, 12, 2, CNN_POOL_MAX, 5, 3, 2, 1, 2, 1);
    check_pool_act(13, 11, 32, CNN_POOL_MAX, 3, 3, 1, 1, 0, 0);
    check_pool_act(12, 9, 5, CNN_POOL_AVG, 3, 2, 3, 1, 0, 1);
    check_pool_act(7, 5, 3, CNN_POOL_NONE, 1, 1, 1, 1, 0, 50);

    /* Global average pooling */
    check_global_avg(7, 5, 5, 0, 1, 0);
    check_global_avg(13, 11, 3, 0, 1, 0);
    check_global_avg(1, 1, 1, 0, 1, 0);
    check_global_avg(32, 32, 7, 0, 1, 0);
    check_global_avg(255, 257, 16, 1, 1, 0); /* 65535 values, the largest plane */
    check_global_avg(255, 257, 100, 2, 1, 0);
    check_global_avg(3, 3, 2, 2, 1, 0);
    /* Means rescaled to a finer output scale (x 11.3 and x 1.5), saturating on full planes. */
    check_global_avg(13, 11, 3, 0, 23142, 11);
    check_global_avg(32, 32, 7, 0, 24576, 14);
    check_global_avg(255, 257, 16, 1, 23142, 11);
    check_global_avg(3, 3, 2, 2, 32767, 15);

    /* KerMatAddScaled_SQ8 */
    check_mat_add(7, 5, 16384, 16384, 15, 0);
    check_mat_add(13, 11, 32767, 21000, 15, 1);
    check_mat_add(9, 9, 12345, 30000, 16, 6);
    check_mat_add(1, 1, 1, 1, 0, 0);
    check_mat_add(31, 3, 255, 32767, 8, 0);
    check_mat_add(10, 10, 0, 32767, 20, 0);
    check_mat_add(17, 3, 30000, 29000, 40, 0);
    check_mat_add(17, 3, 30000, 29000, 0, 0);

    /* KerMatAdd[_ReLU|_ReLUN]_SQ8: each scaling present or absent (0), counts below the cores too */
    check_mat_add_sdk(1000, 0, 200, 7, 150, 8, 0, 0, 0);
    check_mat_add_sdk(999, 0, 0, 0, 255, 9, 0, 0, 0);
    check_mat_add_sdk(37, 0, 255, 7, 0, 0, 0, 0, 0);
    check_mat_add_sdk(9, 0, 0, 0, 0, 0, 0, 0, 0);
    check_mat_add_sdk(5, 1, 180, 7, 140, 8, 0, 0, 0);
    check_mat_add_sdk(513, 1, 180, 7, 140, 8, 200, 7, 0);
    check_mat_add_sdk(3, 1, 0, 0, 0, 0, 0, 0, 0);
    check_mat_add_sdk(640, 2, 128, 6, 255, 8, 0, 0, 6);
    check_mat_add_sdk(641, 2, 128, 6, 255, 8, 130, 7, 100);
    check_mat_add_sdk(11, 2, 0, 0, 0, 0, 0, 0, -5); /* a negative bound */
    check_mat_add_sdk(1, 2, 255, 0, 255, 0, 255, 0, 127); /* large factors: saturation */

    /* KerParPool*_SQ8: each shape, activation and kind, padding on each side, unused columns and
     * lines, the scaling after the activation present or absent, fewer features than cores */
    {
        static const PoolCase Pools[] = {
            /* W  H  UsedW UsedH Feat Shape Fx Fy Sx Sy  L R T B  Max Act DoScale ActScale/N A0 */
            {16, 12, 16, 12, 5, 0, 2, 2, 2, 2, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0},
            {16, 12, 16, 12, 5, 0, 2, 2, 2, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
            {15, 11, 14, 10, 3, 0, 2, 2, 2, 2, 1, 0, 1, 0, 0, 2, 0, 0, 0, 40},
            {15, 11, 15, 11, 3, 0, 2, 2, 2, 2, 1, 0, 1, 0, 1, 2, 0, 200, 8, 90},
            {9, 9, 9, 9, 4, 1, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0},
            {9, 9, 9, 9, 4, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
            {13, 10, 13, 10, 11, 1, 3, 3, 1, 1, 1, 1, 1, 1, 0, 2, 0, 150, 7, 6},
            {7, 7, 7, 7, 2, 1, 7, 7, 1, 1, 0, 0, 0, 0, 0, 0, 1, 255, 9, 0},
            {7, 7, 7, 7, 9, 1, 7, 7, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0},
            {20, 6, 19, 6, 3, 2, 5, 3, 3, 2, 2, 1, 1, 1, 0, 1, 0, 130, 7, 0},
            {20, 6, 20, 5, 3, 2, 3, 2, 1, 2, 1, 1, 0, 0, 1, 0, 1, 100, 6, 0},
            {12, 12, 12, 12, 1, 2, 4, 2, 4, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, -5},   /* a negative bound */
            {10, 10, 10, 10, 6, 1, 3, 3, 3, 3, 0, 0, 0, 0, 1, 0, 0, 255, 0, 0},   /* DoScale 0: no scaling */
            {10, 10, 10, 10, 6, 1, 3, 3, 3, 3, 0, 0, 0, 0, 0, 0, 1, 255, 0, 0},   /* saturation */
        };
        for (unsigned i = 0; i < sizeof Pools / sizeof Pools[0]; i++)
            check_pool_sdk(&Pools[i]);
    }

    /* KerParGlobal{Avg,Max}Pool*_SQ8: whole planes and tiles (a last tile shorter), each
     * activation, the scaling after it present or absent, fewer features than cores */
    {
        static const GlobalPoolCase Globals[] = {
            /* Feat W  H  TileH Max Act DoScale Sum/N  Act/N  A0 */
            {13, 7, 7, 0, 0, 0, 1, 128, 7, 0, 0, 0},
            {13, 7, 7, 3, 0, 0, 1, 128, 7, 0, 0, 0},
            {5, 9, 6, 0, 0, 1, 0, 200, 9, 0, 0, 0},
            {5, 9, 6, 4, 0, 1, 0, 200, 9, 0, 0, 0},
            {9, 4, 5, 0, 0, 2, 0, 255, 8, 0, 0, 20},
            {9, 4, 5, 2, 0, 2, 0, 255, 8, 0, 0, 20},
            {3, 16, 16, 0, 0, 1, 0, 150, 6, 180, 8, 0},
            {3, 16, 16, 5, 0, 1, 0, 150, 6, 180, 8, 0},
            {11, 6, 3, 0, 1, 0, 1, 0, 0, 200, 7, 0},
            {11, 6, 3, 1, 1, 0, 1, 0, 0, 200, 7, 0},
            {7, 5, 5, 0, 1, 2, 0, 0, 0, 0, 0, 9},
            {7, 5, 5, 2, 1, 2, 0, 0, 0, 160, 7, 30},
            {2, 1, 1, 0, 0, 0, 0, 128, 7, 255, 0, 0}, /* DoScale 0: no scaling; one value */
            {6, 3, 3, 0, 0, 0, 1, 255, 0, 0, 0, 0},   /* saturation */
        };
        for (unsigned i = 0; i < sizeof Globals / sizeof Globals[0]; i++)
            check_global_pool_sdk(&Globals[i]);
    }

    /* KerSoftMax_SQ8 */
    check_softmax_cases();

    /* KerParSoftMax_SQ8, KerParSoftMax8Bits_SQ8 */
    check_softmax_sdk_cases();

    /* Ker_<activation>_SQ8 */
    check_standalone_act_cases();

    /* Full convolution layers. */
    {
        static const LayerCase Layers[] = {
            /* Cin Cout H   W  Fc Sc Dc Pad DW pool          Fp Sp ReLU BiasRange */
            {3, 32, 12, 16, 3, 1, 1, 1, 0, CNN_POOL_MAX, 2, 2, 1, 1 << 16},
            {4, 3, 15, 17, 5, 1, 1, 0, 0, CNN_POOL_AVG, 3, 2, 0, 1 << 18},
            {2, 1, 13, 19, 3, 2, 1, 1, 0, CNN_POOL_NONE, 1, 1, 6, 1 << 12},
            {3, 5, 18, 20, 3, 1, 2, 2, 0, CNN_POOL_MAX, 3, 2, 0, 1 << 20},
            {8, 7, 10, 10, 1, 1, 1, 0, 0, CNN_POOL_AVG, 2, 2, 1, 1 << 15},
            {32, 3, 9, 11, 5, 2, 1, 2, 0, CNN_POOL_NONE, 1, 1, 0, 1 << 22},
            {9, 9, 11, 13, 3, 1, 1, 1, 1, CNN_POOL_NONE, 1, 1, 6, 1 << 14},
            {5, 5, 14, 9, 3, 2, 1, 1, 1, CNN_POOL_MAX, 2, 2, 1, 1 << 14},
            {7, 7, 12, 12, 5, 1, 2, 4, 1, CNN_POOL_AVG, 2, 2, 0, 1 << 16},
        };
        for (unsigned i = 0; i < sizeof Layers / sizeof Layers[0]; i++)
            check_layer(&Layers[i]);
    }

    /* KerParConvDWRedAct*_SQ8 */
    check_conv_dw_sdk_cases();

    /* KerParSetBiasB32_SQ8, KerParConv*_SQ8, KerParReduct[IO]_CC*_SQ8 */
    check_conv_sdk_cases();

    if (Failures) {
        printf("%d mismatching value(s) over %d cases\nRESULT failed\n", Failures, Cases);
        return 1;
    }
    printf("%d cases\nRESULT ok\n", Cases);
    return 0;
}
