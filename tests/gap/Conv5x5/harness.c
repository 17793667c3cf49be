/* Host harness of the Conv5x5 example: the generated, tiled convolution layer against a direct 5x5
 * correlation over all input planes, with bias and Norm, written as plain loops over whole planes.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "Conv5x5BasicKernels.h"
#include "../HarnessCommon.h"

#define NORM 10

typedef void (*ConvKernel_T)(short *In, short *Filter, short *Out, unsigned int Norm, short *Bias);

static void RunConv(const char *Name, ConvKernel_T Kernel, int InPlanes, int OutPlanes, int W, int H)
{
    const int WO = W - 4, HO = H - 4;
    short *In = (short *) HarnessAllocL2((size_t) InPlanes * W * H * sizeof(short));
    short *Filter = (short *) HarnessAllocL2((size_t) OutPlanes * InPlanes * 25 * sizeof(short));
    short *Out = (short *) HarnessAllocL2((size_t) OutPlanes * WO * HO * sizeof(short));
    short *Bias = (short *) HarnessAllocL2((size_t) OutPlanes * sizeof(short));
    short *Expected = (short *) HarnessAllocL2((size_t) OutPlanes * WO * HO * sizeof(short));
    for (size_t i = 0; i < (size_t) InPlanes * W * H; i++)
        In[i] = (short) HarnessRandomRange(-4096, 4095);
    for (size_t i = 0; i < (size_t) OutPlanes * InPlanes * 25; i++)
        Filter[i] = (short) HarnessRandomRange(-256, 255);
    for (int o = 0; o < OutPlanes; o++)
        Bias[o] = (short) HarnessRandomRange(-1024, 1023);

    /* Direct reference. Filter plane (in i, out o) at (o*InPlanes + i)*25; the input planes are added
     * in order, each one normalized and saturated, as the tiled kernel does. */
    for (int o = 0; o < OutPlanes; o++)
        for (int y = 0; y < HO; y++)
            for (int x = 0; x < WO; x++) {
                Word16 Value = Bias[o];
                for (int i = 0; i < InPlanes; i++) {
                    const short *Plane = In + (size_t) i * W * H;
                    const short *Coeffs = Filter + (size_t) (o * InPlanes + i) * 25;
                    Word32 Acc = 0;
                    for (int fy = 0; fy < 5; fy++)
                        for (int fx = 0; fx < 5; fx++)
                            Acc += (Word32) Plane[(y + fy) * W + x + fx] * Coeffs[fy * 5 + fx];
                    Value = Conv5x5_Saturate16(Value + (Acc >> NORM));
                }
                Expected[((size_t) o * HO + y) * WO + x] = Value;
            }

    HarnessDmaStart();
    Kernel(In, Filter, Out, NORM, Bias);
    HarnessDmaReport(Name);
    HarnessCompare16(Name, Out, Expected, WO, HO, OutPlanes);
    free(In);
    free(Filter);
    free(Out);
    free(Bias);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    HarnessAllocL1();
    RunConv("Conv5x5", Conv5x5, 3, 2, 128, 144);
    RunConv("Conv5x5Deep", Conv5x5Deep, 16, 24, 20, 24);
    HarnessFreeL1();
    return HarnessFinish();
}
