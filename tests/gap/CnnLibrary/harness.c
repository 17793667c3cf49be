/* Host harness of the CnnLibrary example: runs the generated layers on seeded random data and
 * compares them with direct loops over whole planes (the kernels' arithmetic, input feature by input
 * feature as they round).
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "CnnLibraryBasicKernels.h"
#include "../HarnessCommon.h"

static short int *RandomPlanes(size_t Count, int Low, int High)
{
    short int *Data = (short int *) HarnessAllocL2(Count * sizeof(short int));
    for (size_t i = 0; i < Count; i++)
        Data[i] = (short int) HarnessRandomRange(Low, High);
    return Data;
}

/* The convolution, pooling and ReLU of ConvolutionPool in Model.c, on whole planes. */
static void DirectConvPool(const short int *In, const short int *Filter, const short int *Bias, short int *Out, int InFeat,
                           int OutFeat, int W, int H, int Fc, int Sc, int Pool, int ReLU, int Norm, int Pad, int PoolPad)
{
    const int Wc = (W + 2 * Pad - Fc) / Sc + 1, Hc = (H + 2 * Pad - Fc) / Sc + 1;
    /* A padded pooling has a zero column left and a zero line above on odd sizes. */
    const int PadL = Pool && PoolPad ? Wc % 2 : 0, PadT = Pool && PoolPad ? Hc % 2 : 0;
    int *Conv = (int *) malloc(sizeof(int) * (size_t) Wc * Hc);
    for (int o = 0; o < OutFeat; o++) {
        for (int i = 0; i < Wc * Hc; i++)
            Conv[i] = Bias[o];
        for (int f = 0; f < InFeat; f++)
            for (int y = 0; y < Hc; y++)
                for (int x = 0; x < Wc; x++) {
                    int Acc = Conv[y * Wc + x] * (1 << Norm);
                    for (int fy = 0; fy < Fc; fy++)
                        for (int fx = 0; fx < Fc; fx++) {
                            const int Y = y * Sc + fy - Pad, X = x * Sc + fx - Pad;
                            if (Y >= 0 && Y < H && X >= 0 && X < W)
                                Acc += In[((size_t) f * H + Y) * W + X] *
                                       Filter[((size_t) o * InFeat + f) * Fc * Fc + fy * Fc + fx];
                        }
                    Conv[y * Wc + x] = CnnClip16(CnnRoundNorm(Acc, Norm));
                }
        const int Wo = Pool ? (Wc + PadL) / 2 : Wc, Ho = Pool ? (Hc + PadT) / 2 : Hc;
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int V = Conv[y * Wc + x];
                if (Pool) {
                    V = -32768;
                    for (int k = 0; k < 4; k++) {
                        const int Y = 2 * y - PadT + k / 2, X = 2 * x - PadL + k % 2;
                        const int C = Y >= 0 && X >= 0 ? Conv[Y * Wc + X] : 0;
                        V = C > V ? C : V;
                    }
                }
                Out[((size_t) o * Ho + y) * Wo + x] = (short int) (ReLU && V < 0 ? 0 : V);
            }
    }
    free(Conv);
}

typedef void (*LayerFunction)(short int *In, short int *Filter, short int *Bias, short int *Out);

static void RunConvPool(const char *Name, LayerFunction Layer, int InFeat, int OutFeat, int W, int H, int Fc, int Sc,
                        int Pool, int ReLU, int Norm, int Pad, int PoolPad)
{
    const int Wc = (W + 2 * Pad - Fc) / Sc + 1, Hc = (H + 2 * Pad - Fc) / Sc + 1;
    const int Wo = Pool ? (Wc + (PoolPad ? Wc % 2 : 0)) / 2 : Wc, Ho = Pool ? (Hc + (PoolPad ? Hc % 2 : 0)) / 2 : Hc;
    short int *In = RandomPlanes((size_t) InFeat * W * H, -2048, 2047);
    short int *Filter = RandomPlanes((size_t) OutFeat * InFeat * Fc * Fc, -256, 255);
    short int *Bias = RandomPlanes((size_t) OutFeat, -2000, 2000);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) OutFeat * Wo * Ho);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) OutFeat * Wo * Ho);
    DirectConvPool(In, Filter, Bias, Expected, InFeat, OutFeat, W, H, Fc, Sc, Pool, ReLU, Norm, Pad, PoolPad);

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Filter, Bias, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) Wo, (size_t) Ho, (size_t) OutFeat);
    free(In);
    free(Filter);
    free(Bias);
    free(Out);
    free(Expected);
}

/* A grouped convolution: each group of output features from its own group of input features. */
static void RunGrouped(const char *Name, LayerFunction Layer, int Groups, int GroupIn, int GroupOut, int W, int H,
                       int Fc, int Norm)
{
    const int Wo = W - Fc + 1, Ho = H - Fc + 1;
    const size_t InPlanes = (size_t) GroupIn * W * H, FilterSize = (size_t) GroupOut * GroupIn * Fc * Fc;
    const size_t OutPlanes = (size_t) GroupOut * Wo * Ho;
    short int *In = RandomPlanes(Groups * InPlanes, -2048, 2047);
    short int *Filter = RandomPlanes(Groups * FilterSize, -256, 255);
    short int *Bias = RandomPlanes((size_t) Groups * GroupOut, -2000, 2000);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * Groups * OutPlanes);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * Groups * OutPlanes);
    for (int g = 0; g < Groups; g++)
        DirectConvPool(In + g * InPlanes, Filter + g * FilterSize, Bias + (size_t) g * GroupOut, Expected + g * OutPlanes,
                       GroupIn, GroupOut, W, H, Fc, 1, 0, 0, Norm, 0, 0);

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Filter, Bias, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) Wo, (size_t) Ho, (size_t) Groups * GroupOut);
    free(In);
    free(Filter);
    free(Bias);
    free(Out);
    free(Expected);
}

static void RunLinear(const char *Name, LayerFunction Layer, int InDim, int OutDim, int ReLU, int Norm)
{
    short int *In = RandomPlanes((size_t) InDim, -4096, 4095);
    short int *Filter = RandomPlanes((size_t) InDim * OutDim, -4096, 4095);
    short int *Bias = RandomPlanes((size_t) OutDim, -4000, 4000);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) OutDim);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) OutDim);
    for (int o = 0; o < OutDim; o++) {
        int Acc = 0;
        for (int i = 0; i < InDim; i++)
            Acc += In[i] * Filter[(size_t) o * InDim + i];
        const int V = CnnClip16(CnnRoundNorm(Acc + Bias[o] * (1 << Norm), Norm));
        Expected[o] = (short int) (ReLU && V < 0 ? 0 : V);
    }

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Filter, Bias, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) OutDim, 1, 1);
    free(In);
    free(Filter);
    free(Bias);
    free(Out);
    free(Expected);
}

/* Pool2x2 in Model.c: a 2 x 2 max pooling and ReLU of each plane, "same" on odd sizes when PoolPad (a
 * zero column left and a zero line above). */
static void RunPool(const char *Name, void (*Layer)(short int *In, short int *Out), int Feat, int W, int H,
                    int PoolPad)
{
    const int PadL = PoolPad ? W % 2 : 0, PadT = PoolPad ? H % 2 : 0;
    const int Wo = (W + PadL) / 2, Ho = (H + PadT) / 2;
    short int *In = RandomPlanes((size_t) Feat * W * H, -2048, 2047);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) Feat * Wo * Ho);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) Feat * Wo * Ho);
    for (int f = 0; f < Feat; f++)
        for (int y = 0; y < Ho; y++)
            for (int x = 0; x < Wo; x++) {
                int V = 0;  /* ReLU: the maximum of the window, or 0 */
                for (int k = 0; k < 4; k++) {
                    const int Y = 2 * y - PadT + k / 2, X = 2 * x - PadL + k % 2;
                    const int C = Y >= 0 && X >= 0 ? In[((size_t) f * H + Y) * W + X] : 0;
                    V = C > V ? C : V;
                }
                Expected[((size_t) f * Ho + y) * Wo + x] = (short int) V;
            }

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) Wo, (size_t) Ho, (size_t) Feat);
    free(In);
    free(Out);
    free(Expected);
}

/* ConvolutionHwc in Model.c: a "same" Fc x Fc convolution and ReLU, all in HWC order. */
static void RunConvHwc(const char *Name, LayerFunction Layer, int InFeat, int OutFeat, int W, int H, int Fc, int Norm)
{
    const int Pad = Fc / 2;
    short int *In = RandomPlanes((size_t) H * W * InFeat, -2048, 2047);
    short int *Filter = RandomPlanes((size_t) OutFeat * Fc * Fc * InFeat, -256, 255);
    short int *Bias = RandomPlanes((size_t) OutFeat, -2000, 2000);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) H * W * OutFeat);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) H * W * OutFeat);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int o = 0; o < OutFeat; o++) {
                int Acc = Bias[o] * (1 << Norm);
                for (int fy = 0; fy < Fc; fy++)
                    for (int fx = 0; fx < Fc; fx++)
                        for (int i = 0; i < InFeat; i++) {
                            const int Y = y + fy - Pad, X = x + fx - Pad;
                            if (Y >= 0 && Y < H && X >= 0 && X < W)
                                Acc += In[((size_t) Y * W + X) * InFeat + i] *
                                       Filter[(((size_t) o * Fc + fy) * Fc + fx) * InFeat + i];
                        }
                const int V = CnnClip16(CnnRoundNorm(Acc, Norm));
                Expected[((size_t) y * W + x) * OutFeat + o] = (short int) (V < 0 ? 0 : V);
            }

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Filter, Bias, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) OutFeat, (size_t) W, (size_t) H);
    free(In);
    free(Filter);
    free(Bias);
    free(Out);
    free(Expected);
}

/* Pool2x2Hwc in Model.c: a 2 x 2 max pooling in HWC order. */
static void RunPoolHwc(const char *Name, void (*Layer)(short int *In, short int *Out), int Feat, int W, int H)
{
    const int Wo = W / 2, Ho = H / 2;
    short int *In = RandomPlanes((size_t) H * W * Feat, -2048, 2047);
    short int *Out = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) Ho * Wo * Feat);
    short int *Expected = (short int *) HarnessAllocL2(sizeof(short int) * (size_t) Ho * Wo * Feat);
    for (int y = 0; y < Ho; y++)
        for (int x = 0; x < Wo; x++)
            for (int f = 0; f < Feat; f++) {
                int V = -32768;
                for (int k = 0; k < 4; k++) {
                    const int C = In[((size_t) (2 * y + k / 2) * W + 2 * x + k % 2) * Feat + f];
                    V = C > V ? C : V;
                }
                Expected[((size_t) y * Wo + x) * Feat + f] = (short int) V;
            }

    HarnessAllocL1();
    HarnessDmaStart();
    Layer(In, Out);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) Feat, (size_t) Wo, (size_t) Ho);
    free(In);
    free(Out);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    RunConvPool("ConvPool5x5", ConvPool5x5, 2, 6, 36, 28, 5, 1, 1, 1, 10, 0, 0);
    RunConvPool("Conv3x3Stride2", Conv3x3Stride2, 3, 4, 33, 29, 3, 2, 0, 0, 9, 0, 0);
    RunConvPool("ConvSame3x3", ConvSame3x3, 3, 4, 30, 22, 3, 1, 0, 0, 9, 1, 0);
    RunConvPool("ConvSamePool5x5", ConvSamePool5x5, 2, 4, 28, 20, 5, 1, 1, 1, 10, 2, 0);
    RunConvPool("Conv3x3Stride2Even", Conv3x3Stride2Even, 3, 4, 32, 24, 3, 2, 0, 0, 9, 0, 0);
    RunConvPool("ConvPool5x5Odd", ConvPool5x5Odd, 2, 4, 31, 27, 5, 1, 1, 1, 10, 0, 0);
    RunConvPool("ConvSame3x3Stride2", ConvSame3x3Stride2, 3, 4, 32, 24, 3, 2, 0, 0, 9, 1, 0);
    RunConvPool("ConvSamePoolSame", ConvSamePoolSame, 3, 4, 29, 21, 3, 1, 1, 1, 9, 1, 1);
    RunConvPool("ConvStride2PoolSame", ConvStride2PoolSame, 2, 4, 36, 28, 3, 2, 1, 0, 9, 0, 1);
    RunConvPool("Conv3x3Out21", Conv3x3Out21, 2, 21, 22, 14, 3, 1, 0, 0, 9, 0, 0);
    RunPool("Pool2x2Feat21", Pool2x2Feat21, 21, 24, 16, 0);
    RunPool("Pool2x2SameFeat21", Pool2x2SameFeat21, 21, 23, 15, 1);
    RunPool("Pool2x2DropFeat21", Pool2x2DropFeat21, 21, 24, 15, 0);
    RunConvPool("Conv3x3Out21L3", Conv3x3Out21L3, 2, 21, 22, 14, 3, 1, 0, 0, 9, 0, 0);
    RunConvPool("ConvWideCheaper", ConvWideCheaper, 2, 4, 36, 16, 5, 1, 1, 0, 10, 0, 0);
    RunConvPool("ConvTallCheaper", ConvTallCheaper, 2, 4, 16, 36, 5, 1, 1, 0, 10, 0, 0);
    RunGrouped("GroupedConv3x3", GroupedConv3x3, 3, 2, 4, 20, 14, 3, 9);
    RunConvHwc("ConvHwc3x3", ConvHwc3x3, 6, 10, 40, 30, 3, 9);
    RunPoolHwc("Pool2x2Hwc", Pool2x2Hwc, 12, 36, 26);
    RunConvHwc("ConvHwc3x3L3", ConvHwc3x3L3, 6, 10, 40, 30, 3, 9);
    RunLinear("Linear300", Linear300, 300, 10, 1, 12);
    RunLinear("Linear300First", Linear300First, 300, 10, 1, 12);
    return HarnessFinish();
}
