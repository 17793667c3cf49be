/* Exact check of the CNN basic kernels (core/gap/cnn_kernels/CNN_BasicKernels.c) against direct,
 * whole-tensor implementations written from docs/gap-fixed-point.md. The kernels run through
 * AT_FORK on AT_EMUL_CORES emulated cores.
 *
 * Build and run (from the repository root), on 1 and on 8 emulated cores:
 *
 *   cc -O1 -g -Wall -Wextra -fsanitize=address,undefined -fno-sanitize-recover=undefined \
 *      -fno-omit-frame-pointer -D__EMUL__ -DAT_EMUL_CORES=1 \
 *      -I core/gap/runtime -I core/gap/cnn_kernels \
 *      core/gap/cnn_kernels/CNN_BasicKernels.c tests/gap/cnn_kernels_check.c -lpthread -o /tmp/cnn_check1
 *   /tmp/cnn_check1 [seed]
 *
 * (the same with -DAT_EMUL_CORES=8). It prints the first mismatches of each case, then
 * `RESULT ok` and exits 0 when everything matches, else `RESULT failed` and exits 1. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNN_BasicKernels.h"
#include "at_api.h"

#define KERNEL_CHECK_SEED 12345u
#include "KernelCheckCommon.h"

/* ------------------------------------------------------------------------------------------------
 * Reference arithmetic, straight from docs/gap-fixed-point.md ("Numbers") */

static int64_t ref_clip16(int64_t x)
{
    if (x < -32768)
        return -32768;
    if (x > 32767)
        return 32767;
    return x;
}

/* ------------------------------------------------------------------------------------------------
 * KerSetBias32 */

static void check_set_bias(unsigned W, unsigned H, unsigned Feat, int NormBias)
{
    char Name[128];
    int *Out = xmalloc(sizeof(int) * W * H * Feat);
    short *Bias = xmalloc(sizeof(short) * Feat);
    KerSetBias32_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerSetBias32 W=%u H=%u Feat=%u NormBias=%d", W, H, Feat, NormBias);
    begin_case(Name);
    for (unsigned f = 0; f < Feat; f++)
        Bias[f] = (short) rnd(-32768, 32767);
    if (Feat > 1)
        Bias[1] = -32768;
    Arg.Out = Out;
    Arg.W = W;
    Arg.H = H;
    Arg.Feat = Feat;
    Arg.Bias = Bias;
    Arg.NormBias = NormBias;
    AT_FORK(gap_ncore(), KerSetBias32, &Arg);
    for (unsigned f = 0; f < Feat; f++)
        for (unsigned i = 0; i < W * H; i++) {
            int32_t Expected = in_int32(ref_roundnorm(Bias[f], NormBias));
            if (Out[f * W * H + i] != Expected)
                mismatch("Out", (long) (f * W * H + i), Out[f * W * H + i], Expected);
        }
    free(Out);
    free(Bias);
}

/* ------------------------------------------------------------------------------------------------
 * KerConv32 (the header's definition: one input plane, PadL zero columns left and as many right) */

static void check_conv32(unsigned W, unsigned H, unsigned Feat, unsigned Fx, unsigned Fy, unsigned Sx,
                         unsigned Sy, unsigned Dx, unsigned Dy, unsigned PadL)
{
    char Name[160];
    unsigned Wo = (W + 2 * PadL - Dx * (Fx - 1) - 1) / Sx + 1;
    unsigned Ho = (H - Dy * (Fy - 1) - 1) / Sy + 1;
    short *In = xmalloc(sizeof(short) * W * H);
    short *Filter = xmalloc(sizeof(short) * Feat * Fx * Fy);
    int *Out = xmalloc(sizeof(int) * Wo * Ho * Feat);
    int *Init = xmalloc(sizeof(int) * Wo * Ho * Feat);
    KerConv32_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerConv32 %ux%u Feat=%u F=%ux%u S=%u,%u D=%u,%u PadL=%u -> %ux%u", W, H, Feat,
             Fx, Fy, Sx, Sy, Dx, Dy, PadL, Wo, Ho);
    begin_case(Name);
    for (unsigned i = 0; i < W * H; i++)
        In[i] = (short) rnd(-32768, 32767);
    for (unsigned i = 0; i < Feat * Fx * Fy; i++)
        Filter[i] = (short) rnd(-255, 255);
    for (unsigned i = 0; i < Wo * Ho * Feat; i++)
        Out[i] = Init[i] = rnd(-(1 << 28), 1 << 28);
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
    AT_FORK(gap_ncore(), KerConv32, &Arg);
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
 * Pooling + ReLU on a normalized plane, from the doc's steps 3 and 4 (with padding, positions
 * outside skipped). Conv is Feat planes of Wc x Hc; Out Feat planes of Wp x Hp. */

static void ref_pool_relu(const int32_t *Conv, unsigned Feat, int Wc, int Hc, int PoolOper, int Fpx, int Fpy,
                          int Spx, int Spy, int PoolPad, int ReLU, int32_t *Out, int *WpOut, int *HpOut)
{
    int Wp, Hp;
    if (PoolOper == CNN_POOL_NONE) {
        Wp = Wc;
        Hp = Hc;
    } else {
        Wp = (Wc + 2 * PoolPad - Fpx) / Spx + 1;
        Hp = (Hc + 2 * PoolPad - Fpy) / Spy + 1;
    }
    for (unsigned f = 0; f < Feat; f++)
        for (int y = 0; y < Hp; y++)
            for (int x = 0; x < Wp; x++) {
                const int32_t *Plane = Conv + (size_t) f * Wc * Hc;
                int64_t v;
                if (PoolOper == CNN_POOL_NONE) {
                    v = Plane[y * Wc + x];
                } else {
                    int64_t Max = 0, Sum = 0;
                    int Count = 0;
                    for (int ky = 0; ky < Fpy; ky++)
                        for (int kx = 0; kx < Fpx; kx++) {
                            int cy = y * Spy + ky - PoolPad, cx = x * Spx + kx - PoolPad;
                            if (cy < 0 || cy >= Hc || cx < 0 || cx >= Wc)
                                continue;
                            if (Count == 0 || Plane[cy * Wc + cx] > Max)
                                Max = Plane[cy * Wc + cx];
                            Sum += Plane[cy * Wc + cx];
                            Count++;
                        }
                    v = PoolOper == CNN_POOL_MAX ? Max : ref_ndiv(Sum, Count);
                }
                if (ReLU && v < 0)
                    v = 0;
                Out[((size_t) f * Hp + y) * Wp + x] = (int32_t) v;
            }
    *WpOut = Wp;
    *HpOut = Hp;
}

/* ------------------------------------------------------------------------------------------------
 * KerNormPoolReLU */

/* AccRange: accumulators in [-AccRange, AccRange]. With Pad, the kernel's planes hold Pad lines
 * above and below the H real ones, filled with extreme accumulators it must never read. */
static void check_norm_pool_relu_xy(unsigned W, unsigned H, unsigned Feat, int Norm, int PoolOper, unsigned Fpx,
                                    unsigned Fpy, unsigned Spx, unsigned Spy, unsigned Pad, int ReLU, int32_t AccRange)
{
    char Name[180];
    const unsigned Hk = H + 2 * Pad; /* lines of each plane the kernel sees */
    int *In = xmalloc(sizeof(int) * W * Hk * Feat);
    int32_t *Conv = xmalloc(sizeof(int32_t) * W * H * Feat);
    int32_t *Expected = xmalloc(sizeof(int32_t) * W * H * Feat);
    int Wo, Ho;
    short *Out;
    KerNormPoolReLU_Arg_T Arg;

    snprintf(Name, sizeof Name,
             "KerNormPoolReLU %ux%u Feat=%u Norm=%d pool=%s %ux%u/%u,%u pad=%u ReLU=%d acc=+-%ld", W, H, Feat, Norm,
             pool_name(PoolOper), Fpx, Fpy, Spx, Spy, Pad, ReLU, (long) AccRange);
    begin_case(Name);
    for (unsigned f = 0; f < Feat; f++)
        for (unsigned y = 0; y < Hk; y++)
            for (unsigned x = 0; x < W; x++) {
                const int Real = y >= Pad && y < Pad + H;
                const int32_t Value = Real ? rnd(-AccRange, AccRange) : (y % 2 ? INT32_MAX : INT32_MIN);
                In[(f * Hk + y) * W + x] = Value;
                if (Real) /* the doc's step 2, then steps 3 and 4 */
                    Conv[(f * H + y - Pad) * W + x] = (int32_t) ref_clip16(ref_roundnorm(Value, Norm));
            }
    ref_pool_relu(Conv, Feat, (int) W, (int) H, PoolOper, (int) Fpx, (int) Fpy, (int) Spx, (int) Spy, (int) Pad, ReLU,
                  Expected, &Wo, &Ho);
    Out = xmalloc(sizeof(short) * (size_t) Wo * Ho * Feat);
    Arg.In = In;
    Arg.W = W;
    Arg.H = Hk;
    Arg.Feat = Feat;
    Arg.Out = Out;
    Arg.Wo = (unsigned) Wo;
    Arg.Ho = (unsigned) Ho;
    Arg.Norm = Norm;
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
    AT_FORK(gap_ncore(), KerNormPoolReLU, &Arg);
    for (int i = 0; i < Wo * Ho * (int) Feat; i++)
        if (Out[i] != Expected[i])
            mismatch("Out", i, Out[i], Expected[i]);
    free(In);
    free(Conv);
    free(Expected);
    free(Out);
}

/* Square window and stride. */
static void check_norm_pool_relu(unsigned W, unsigned H, unsigned Feat, int Norm, int PoolOper, unsigned Fp,
                                 unsigned Sp, int ReLU, int32_t AccRange)
{
    check_norm_pool_relu_xy(W, H, Feat, Norm, PoolOper, Fp, Fp, Sp, Sp, 0, ReLU, AccRange);
}

/* ------------------------------------------------------------------------------------------------
 * KerLinear (doc: "Linear + ReLU") */

static void check_linear(unsigned InDim, unsigned OutDim, int NormBias, int Norm, int ReLU)
{
    char Name[128];
    short *In = xmalloc(sizeof(short) * InDim);
    short *Filter = xmalloc(sizeof(short) * InDim * OutDim);
    short *Bias = xmalloc(sizeof(short) * OutDim);
    short *Out = xmalloc(sizeof(short) * OutDim);
    KerLinear_Arg_T Arg;

    snprintf(Name, sizeof Name, "KerLinear %u->%u NormBias=%d Norm=%d ReLU=%d", InDim, OutDim, NormBias, Norm,
             ReLU);
    begin_case(Name);
    for (unsigned i = 0; i < InDim; i++)
        In[i] = (short) rnd(-1023, 1023);
    for (unsigned i = 0; i < InDim * OutDim; i++)
        Filter[i] = (short) rnd(-1023, 1023);
    for (unsigned o = 0; o < OutDim; o++)
        Bias[o] = (short) rnd(-32768, 32767);
    Arg.In = In;
    Arg.InDim = InDim;
    Arg.Filter = Filter;
    Arg.Bias = Bias;
    Arg.Out = Out;
    Arg.OutDim = OutDim;
    Arg.NormBias = NormBias;
    Arg.Norm = Norm;
    Arg.ReLU = (unsigned) ReLU;
    AT_FORK(gap_ncore(), KerLinear, &Arg);
    for (unsigned o = 0; o < OutDim; o++) {
        int64_t Acc = in_int32(ref_roundnorm(Bias[o], NormBias));
        int64_t v;
        for (unsigned i = 0; i < InDim; i++) {
            Acc += (int32_t) In[i] * (int32_t) Filter[o * InDim + i];
            in_int32(Acc);
        }
        v = ref_clip16(ref_roundnorm(Acc, Norm));
        if (ReLU && v < 0)
            v = 0;
        if (Out[o] != v)
            mismatch("Out", (long) o, Out[o], (long) v);
    }
    free(In);
    free(Filter);
    free(Bias);
    free(Out);
}

/* ------------------------------------------------------------------------------------------------
 * KerSoftMax (doc: "Softmax") */

static void ref_softmax(const short *In, unsigned N, int InQ, int32_t *Out)
{
    int32_t *e = xmalloc(sizeof(int32_t) * N);
    int32_t m = In[0];
    int32_t Sum = 0;
    for (unsigned i = 1; i < N; i++)
        if (In[i] > m)
            m = In[i];
    for (unsigned i = 0; i < N; i++) {
        int32_t d = (int32_t) In[i] - m;              /* step 1 */
        int32_t t = (d * 23637) >> 14;                 /* step 2 */
        int32_t k = (-t) >> InQ;                       /* step 3 */
        int32_t f = (-t) - (k << InQ);
        int32_t f15 = InQ <= 15 ? f << (15 - InQ) : f >> (InQ - 15);
        int32_t p;
        if (f15 < 0 || f15 >= 32768) {
            fprintf(stderr, "reference softmax: f15 = %d out of [0, 32768)\n", f15);
            exit(2);
        }
        p = 315;                                       /* step 4 */
        p = -1819 + ((p * f15) >> 15);
        p = 7872 + ((p * f15) >> 15);
        p = -22713 + ((p * f15) >> 15);
        p = 32768 + ((p * f15) >> 15);
        e[i] = k >= 31 ? 0 : p >> k;                   /* step 5 */
        Sum += e[i];                                   /* step 6 */
    }
    for (unsigned i = 0; i < N; i++)
        Out[i] = (int32_t) ref_clip16(ref_ndiv((int64_t) e[i] * 32768, Sum));
    free(e);
}

static void check_softmax(const char *What, const short *Values, unsigned N, int InQ)
{
    char Name[160];
    short *In = xmalloc(sizeof(short) * N);
    short *Out = xmalloc(sizeof(short) * N);
    int32_t *Expected = xmalloc(sizeof(int32_t) * N);
    KerSoftMax_Arg_T Arg;
    int64_t Sum = 0;
    int32_t MaxIn = Values[0];

    snprintf(Name, sizeof Name, "KerSoftMax %s N=%u InQ=%d", What, N, InQ);
    begin_case(Name);
    memcpy(In, Values, sizeof(short) * N);
    ref_softmax(In, N, InQ, Expected);
    Arg.In = In;
    Arg.N = N;
    Arg.InQ = InQ;
    Arg.Out = Out;
    AT_FORK(gap_ncore(), KerSoftMax, &Arg);
    for (unsigned i = 0; i < N; i++) {
        if (In[i] != Values[i])
            mismatch("In modified", (long) i, In[i], Values[i]);
        if (Out[i] != Expected[i])
            mismatch("Out", (long) i, Out[i], Expected[i]);
        Sum += Out[i];
        if (Values[i] > MaxIn)
            MaxIn = Values[i];
    }
    /* Properties: a probability distribution in Q15 up to one rounding per value (and the clip
     * of a lone 32768 to 32767); the maximum input gets the largest output; order is kept. */
    if (Sum < 32768 - (int64_t) N || Sum > 32768 + (int64_t) N) {
        char Message[96];
        snprintf(Message, sizeof Message, "outputs sum to %lld, not ~32768", (long long) Sum);
        fail(Message);
    }
    for (unsigned i = 0; i < N; i++) {
        if (Out[i] < 0)
            mismatch("Out negative", (long) i, Out[i], 0);
        for (unsigned j = 0; j < N; j++)
            if (Values[i] >= Values[j] && Out[i] < Out[j])
                mismatch("Out not monotonic in In", (long) i, Out[i], Out[j]);
        if (Values[i] == MaxIn)
            for (unsigned j = 0; j < N; j++)
                if (Out[j] > Out[i])
                    mismatch("maximum does not get the largest output", (long) i, Out[i], Out[j]);
    }
    printf("  outputs sum to %lld\n", (long long) Sum);
    free(In);
    free(Out);
    free(Expected);
}

static void check_softmax_cases(void)
{
    static const int Qs[] = {11, 12, 15};
    short v[64];

    for (unsigned q = 0; q < sizeof Qs / sizeof Qs[0]; q++) {
        int InQ = Qs[q];
        for (int r = 0; r < 3; r++) {
            int32_t Range = r == 0 ? 32767 : r == 1 ? (1 << InQ) * 4 : (1 << InQ) / 2;
            if (Range > 32767)
                Range = 32767;
            for (unsigned i = 0; i < 10; i++)
                v[i] = (short) rnd(-Range, Range);
            check_softmax(r == 0 ? "random full range" : r == 1 ? "random +-4.0" : "random +-0.5", v, 10, InQ);
        }
        /* Ties: three equal maxima, a pair of equal smaller values. */
        {
            static const short Ties[10] = {1000, 3000, 3000, -500, 3000, -500, 0, 2999, 1, -32768};
            check_softmax("ties", Ties, 10, InQ);
        }
        /* A very negative spread: the extreme values of int16 (k >= 31 for the smallest). */
        {
            static const short Spread[10] = {-32768, 32767, -32768, -32768, -20000, -32768, -32767, 0, -32768,
                                             32000};
            check_softmax("very negative spread", Spread, 10, InQ);
        }
        /* Equal values: every output ndiv(32768, N), summing to ~32768. */
        for (unsigned i = 0; i < 10; i++)
            v[i] = -1234;
        check_softmax("all equal", v, 10, InQ);
        for (unsigned i = 0; i < 10; i++)
            v[i] = 32767;
        check_softmax("all equal at the top", v, 10, InQ);
    }
    /* Other sizes and formats (the Q > 15 branch of f15, Q0). */
    for (unsigned i = 0; i < 7; i++)
        v[i] = 77;
    check_softmax("all equal", v, 7, 12);
    v[0] = -5;
    check_softmax("single value", v, 1, 12);
    for (unsigned i = 0; i < 64; i++)
        v[i] = (short) rnd(-30000, 30000);
    check_softmax("random", v, 64, 16);
    check_softmax("random", v, 64, 20);
    check_softmax("random", v, 64, 0);
    for (unsigned i = 0; i < 10; i++)
        v[i] = (short) rnd(-8, 8);
    check_softmax("random small", v, 10, 0);
    check_softmax("random small", v, 10, 3);
}

/* ------------------------------------------------------------------------------------------------
 * A full convolution layer: KerSetBias32 + KerConv32 per input feature + KerNormPoolReLU, against
 * the doc's "Convolution + pooling + ReLU" section. The kernels have no padding: the layer's
 * zero padding is materialized in the input tiles. */

typedef struct {
    int Cin, Cout, H, W;
    int Fc, Sc, Dc, Pad;
    int PoolOper, Fp, Sp;
    int ReLU;
    int InQ, FilterQ, BiasQ, OutQ;
    int InRange, FilterRange, BiasRange;
} LayerCase;

static void check_layer(const LayerCase *L)
{
    char Name[256];
    int Hc = (L->H + 2 * L->Pad - L->Dc * (L->Fc - 1) - 1) / L->Sc + 1;
    int Wc = (L->W + 2 * L->Pad - L->Dc * (L->Fc - 1) - 1) / L->Sc + 1;
    int Hpad = L->H + 2 * L->Pad, Wpad = L->W + 2 * L->Pad;
    int NormBias = L->BiasQ - (L->InQ + L->FilterQ);
    int Norm = L->InQ + L->FilterQ - L->OutQ;
    short *In = xmalloc(sizeof(short) * L->Cin * L->H * L->W);
    short *Wt = xmalloc(sizeof(short) * L->Cout * L->Cin * L->Fc * L->Fc);
    short *Bias = xmalloc(sizeof(short) * L->Cout);
    int32_t *Conv = xmalloc(sizeof(int32_t) * L->Cout * Hc * Wc);
    int32_t *Expected = xmalloc(sizeof(int32_t) * L->Cout * Hc * Wc);
    int Wp, Hp;

    snprintf(Name, sizeof Name,
             "layer Cin=%d Cout=%d %dx%d conv %dx%d S=%d D=%d pad=%d pool=%s %dx%d/%d ReLU=%d Q in=%d w=%d b=%d "
             "out=%d",
             L->Cin, L->Cout, L->W, L->H, L->Fc, L->Fc, L->Sc, L->Dc, L->Pad, pool_name(L->PoolOper), L->Fp, L->Fp,
             L->Sp, L->ReLU, L->InQ, L->FilterQ, L->BiasQ, L->OutQ);
    begin_case(Name);
    for (int i = 0; i < L->Cin * L->H * L->W; i++)
        In[i] = (short) rnd(-L->InRange, L->InRange);
    for (int i = 0; i < L->Cout * L->Cin * L->Fc * L->Fc; i++)
        Wt[i] = (short) rnd(-L->FilterRange, L->FilterRange);
    for (int i = 0; i < L->Cout; i++)
        Bias[i] = (short) rnd(-L->BiasRange, L->BiasRange);

    /* The reference: steps 1 and 2 of the doc, then pooling and ReLU (steps 3 and 4). */
    for (int co = 0; co < L->Cout; co++)
        for (int y = 0; y < Hc; y++)
            for (int x = 0; x < Wc; x++) {
                int64_t Acc = in_int32(ref_roundnorm(Bias[co], NormBias));
                for (int ci = 0; ci < L->Cin; ci++)
                    for (int ky = 0; ky < L->Fc; ky++)
                        for (int kx = 0; kx < L->Fc; kx++) {
                            int iy = y * L->Sc + ky * L->Dc - L->Pad, ix = x * L->Sc + kx * L->Dc - L->Pad;
                            if (iy < 0 || iy >= L->H || ix < 0 || ix >= L->W)
                                continue;
                            Acc += (int32_t) In[(ci * L->H + iy) * L->W + ix] *
                                   (int32_t) Wt[((co * L->Cin + ci) * L->Fc + ky) * L->Fc + kx];
                            in_int32(Acc);
                        }
                Conv[(co * Hc + y) * Wc + x] = (int32_t) ref_clip16(ref_roundnorm(Acc, Norm));
            }
    ref_pool_relu(Conv, (unsigned) L->Cout, Wc, Hc, L->PoolOper, L->Fp, L->Fp, L->Sp, L->Sp, 0, L->ReLU, Expected,
                  &Wp, &Hp);

    /* The kernels. */
    {
        short *Tile = xmalloc(sizeof(short) * Hpad * Wpad);
        short *Filter = xmalloc(sizeof(short) * L->Cout * L->Fc * L->Fc);
        int *Acc = xmalloc(sizeof(int) * L->Cout * Hc * Wc);
        short *Out = xmalloc(sizeof(short) * L->Cout * Hp * Wp);
        KerSetBias32_Arg_T BiasArg;
        KerConv32_Arg_T ConvArg;
        KerNormPoolReLU_Arg_T PoolArg;

        BiasArg.Out = Acc;
        BiasArg.W = (unsigned) Wc;
        BiasArg.H = (unsigned) Hc;
        BiasArg.Feat = (unsigned) L->Cout;
        BiasArg.Bias = Bias;
        BiasArg.NormBias = NormBias;
        AT_FORK(gap_ncore(), KerSetBias32, &BiasArg);

        for (int ci = 0; ci < L->Cin; ci++) {
            /* The zero-padded input plane and this input feature's Cout filters. */
            memset(Tile, 0, sizeof(short) * Hpad * Wpad);
            for (int y = 0; y < L->H; y++)
                memcpy(Tile + (y + L->Pad) * Wpad + L->Pad, In + (ci * L->H + y) * L->W, sizeof(short) * L->W);
            for (int co = 0; co < L->Cout; co++)
                memcpy(Filter + co * L->Fc * L->Fc, Wt + (co * L->Cin + ci) * L->Fc * L->Fc,
                       sizeof(short) * L->Fc * L->Fc);
            ConvArg.In = Tile;
            ConvArg.W = (unsigned) Wpad;
            ConvArg.H = (unsigned) Hpad;
            ConvArg.Filter = Filter;
            ConvArg.Out = Acc;
            ConvArg.Wo = (unsigned) Wc;
            ConvArg.Ho = (unsigned) Hc;
            ConvArg.Feat = (unsigned) L->Cout;
            ConvArg.Fx = ConvArg.Fy = (unsigned) L->Fc;
            ConvArg.Sx = ConvArg.Sy = (unsigned) L->Sc;
            ConvArg.Dx = ConvArg.Dy = (unsigned) L->Dc;
            ConvArg.PadL = 0;
            AT_FORK(gap_ncore(), KerConv32, &ConvArg);
        }

        PoolArg.In = Acc;
        PoolArg.W = (unsigned) Wc;
        PoolArg.H = (unsigned) Hc;
        PoolArg.Feat = (unsigned) L->Cout;
        PoolArg.Out = Out;
        PoolArg.Wo = (unsigned) Wp;
        PoolArg.Ho = (unsigned) Hp;
        PoolArg.Norm = Norm;
        PoolArg.PoolOper = (unsigned) L->PoolOper;
        PoolArg.Fx = PoolArg.Fy = (unsigned) L->Fp;
        PoolArg.Sx = PoolArg.Sy = (unsigned) L->Sp;
        PoolArg.ReLU = (unsigned) L->ReLU;
        PoolArg.PadL = 0;
        PoolArg.PadT = 0;
        PoolArg.TileOffset = 0;
        PoolArg.PlaneH = (unsigned) Hc;
        AT_FORK(gap_ncore(), KerNormPoolReLU, &PoolArg);

        for (int i = 0; i < L->Cout * Hp * Wp; i++)
            if (Out[i] != Expected[i])
                mismatch("Out", i, Out[i], Expected[i]);
        free(Tile);
        free(Filter);
        free(Acc);
        free(Out);
    }
    free(In);
    free(Wt);
    free(Bias);
    free(Conv);
    free(Expected);
}

/* ------------------------------------------------------------------------------------------------ */

int main(int argc, char **argv)
{
    if (argc > 1)
        Seed = (uint32_t) strtoul(argv[1], 0, 0);
    printf("cnn_kernels_check: %d emulated core(s), seed %u\n", gap_ncore(), Seed);

    /* KerSetBias32 */
    check_set_bias(5, 3, 1, 0);
    check_set_bias(7, 4, 3, -3);
    check_set_bias(8, 8, 32, 5);
    check_set_bias(1, 1, 3, 2);
    check_set_bias(13, 1, 32, -1);
    check_set_bias(9, 5, 3, 15);
    check_set_bias(3, 2, 1, -16);

    /* KerConv32 */
    check_conv32(11, 9, 1, 3, 3, 1, 1, 1, 1, 0);
    check_conv32(13, 12, 3, 5, 5, 1, 1, 1, 1, 0);
    check_conv32(15, 11, 32, 3, 3, 2, 2, 1, 1, 0);
    check_conv32(17, 13, 3, 3, 3, 1, 1, 2, 2, 0);
    check_conv32(9, 7, 32, 1, 1, 1, 1, 1, 1, 0);
    check_conv32(9, 9, 3, 1, 1, 2, 2, 1, 1, 0);
    check_conv32(21, 19, 1, 5, 5, 2, 2, 2, 2, 0);
    check_conv32(12, 7, 3, 5, 5, 2, 1, 1, 1, 0);
    check_conv32(10, 11, 3, 3, 5, 1, 2, 2, 1, 0);
    check_conv32(7, 5, 5, 5, 5, 1, 1, 1, 1, 0); /* Ho = 1 */
    check_conv32(5, 5, 1, 5, 5, 1, 1, 1, 1, 0); /* a single output */
    check_conv32(16, 16, 32, 5, 5, 1, 1, 1, 1, 0);
    check_conv32(11, 9, 4, 3, 3, 1, 1, 1, 1, 1);  /* "same" 3x3 */
    check_conv32(12, 9, 3, 3, 3, 2, 2, 1, 1, 1);  /* strided, the right padding partly unused */
    check_conv32(10, 8, 2, 5, 5, 1, 1, 1, 1, 2);
    check_conv32(9, 9, 2, 3, 3, 1, 1, 2, 2, 2);   /* dilated */
    check_conv32(3, 6, 2, 5, 5, 1, 1, 1, 1, 2);   /* filter wider than the tile */

    /* KerNormPoolReLU */
    check_norm_pool_relu(7, 5, 1, 0, CNN_POOL_NONE, 1, 1, 0, 40000);
    check_norm_pool_relu(9, 4, 3, 8, CNN_POOL_NONE, 1, 1, 1, 1 << 24);
    check_norm_pool_relu(6, 6, 32, -2, CNN_POOL_NONE, 1, 1, 0, 1 << 14);
    check_norm_pool_relu(11, 3, 3, 12, CNN_POOL_NONE, 1, 1, 0, INT32_MAX);
    check_norm_pool_relu(8, 8, 3, 10, CNN_POOL_MAX, 2, 2, 0, 1 << 26);
    check_norm_pool_relu(8, 8, 3, 10, CNN_POOL_MAX, 2, 2, 1, 1 << 26);
    check_norm_pool_relu(9, 7, 1, 6, CNN_POOL_MAX, 2, 2, 0, 1 << 20);
    check_norm_pool_relu(10, 6, 32, 12, CNN_POOL_AVG, 2, 2, 0, 1 << 28);
    check_norm_pool_relu(11, 9, 3, 1, CNN_POOL_AVG, 2, 2, 1, 3);
    check_norm_pool_relu(11, 9, 3, 0, CNN_POOL_AVG, 2, 2, 0, 5);
    check_norm_pool_relu(13, 11, 3, 7, CNN_POOL_MAX, 3, 2, 1, 1 << 23);
    check_norm_pool_relu(13, 11, 32, 7, CNN_POOL_MAX, 3, 2, 0, 1 << 23);
    check_norm_pool_relu(15, 9, 1, 14, CNN_POOL_AVG, 3, 2, 1, 1 << 30);
    check_norm_pool_relu(7, 7, 32, 4, CNN_POOL_AVG, 3, 2, 0, 1 << 19);
    check_norm_pool_relu(9, 9, 3, 0, CNN_POOL_AVG, 3, 2, 0, 40);
    check_norm_pool_relu(5, 3, 1, -1, CNN_POOL_AVG, 3, 2, 0, INT32_MAX);
    /* Non-square windows and strides. */
    check_norm_pool_relu_xy(12, 9, 3, 2, CNN_POOL_AVG, 3, 2, 3, 1, 0, 0, 200);
    check_norm_pool_relu_xy(9, 12, 5, 9, CNN_POOL_MAX, 2, 3, 1, 2, 0, 1, 1 << 25);
    check_norm_pool_relu_xy(10, 7, 1, 0, CNN_POOL_AVG, 1, 2, 1, 2, 0, 1, 9);
    /* Pooling padding: windows over the padding lines and columns skip them. */
    check_norm_pool_relu_xy(9, 7, 3, 6, CNN_POOL_MAX, 3, 3, 2, 2, 1, 0, 1 << 22);
    check_norm_pool_relu_xy(8, 8, 2, 4, CNN_POOL_AVG, 3, 3, 2, 2, 1, 1, 1 << 18);
    check_norm_pool_relu_xy(10, 9, 2, 3, CNN_POOL_AVG, 5, 3, 1, 2, 2, 0, 1 << 16);

    /* KerLinear */
    check_linear(1024, 10, -4, 12, 0);
    check_linear(1024, 10, 3, 15, 1);
    check_linear(20, 7, 0, 6, 0);
    check_linear(20, 7, -10, 8, 1);
    check_linear(20, 7, 5, 0, 0);
    check_linear(33, 3, 2, 9, 0);
    check_linear(1, 1, -1, 1, 0);

    /* KerSoftMax */
    check_softmax_cases();

    /* Full convolution layers. */
    {
        static const LayerCase Layers[] = {
            /* Cin Cout  H   W   Fc Sc Dc Pad  pool           Fp Sp ReLU InQ wQ bQ oQ  InR   wR    bR */
            {3, 32, 12, 16, 3, 1, 1, 1, CNN_POOL_MAX, 2, 2, 1, 12, 14, 13, 11, 32767, 1023, 32767},
            {4, 3, 15, 17, 5, 1, 1, 0, CNN_POOL_AVG, 3, 2, 0, 10, 12, 12, 9, 4096, 2048, 32767},
            {2, 1, 13, 19, 3, 2, 1, 1, CNN_POOL_NONE, 1, 1, 1, 8, 8, 20, 12, 32767, 32767 / 16, 32767},
            {3, 5, 18, 20, 3, 1, 2, 2, CNN_POOL_MAX, 3, 2, 0, 4, 4, 6, 10, 64, 64, 32767},
            {8, 7, 10, 10, 1, 1, 1, 0, CNN_POOL_AVG, 2, 2, 1, 11, 13, 15, 12, 32767, 2047, 32767},
            {1, 32, 28, 28, 5, 1, 1, 0, CNN_POOL_MAX, 2, 2, 1, 15, 14, 14, 13, 32767, 1023, 8191},
            {32, 3, 9, 11, 5, 2, 1, 2, CNN_POOL_NONE, 1, 1, 0, 12, 12, 14, 13, 2047, 511, 32767},
        };
        for (unsigned i = 0; i < sizeof Layers / sizeof Layers[0]; i++)
            check_layer(&Layers[i]);
    }

    if (Failures) {
        printf("%d mismatching value(s) over %d cases\nRESULT failed\n", Failures, Cases);
        return 1;
    }
    printf("%d cases\nRESULT ok\n", Cases);
    return 0;
}
