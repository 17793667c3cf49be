/* Host harness of the Conv5x5 example: the generated, tiled convolution layer against a direct 5x5
 * correlation over all input planes, with bias and Norm, written as plain loops over whole planes.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "Conv5x5BasicKernels.h"
#include "../HarnessCommon.h"

#define IN_PLANES 3
#define OUT_PLANES 2
#define W 128
#define H 144
#define WO (W - 4)
#define HO (H - 4)
#define NORM 10

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    short *In = (short *) HarnessAllocL2((size_t) IN_PLANES * W * H * sizeof(short));
    short *Filter = (short *) HarnessAllocL2((size_t) OUT_PLANES * IN_PLANES * 25 * sizeof(short));
    short *Out = (short *) HarnessAllocL2((size_t) OUT_PLANES * WO * HO * sizeof(short));
    short *Bias = (short *) HarnessAllocL2((size_t) OUT_PLANES * sizeof(short));
    short *Expected = (short *) HarnessAllocL2((size_t) OUT_PLANES * WO * HO * sizeof(short));
    for (size_t i = 0; i < (size_t) IN_PLANES * W * H; i++)
        In[i] = (short) HarnessRandomRange(-4096, 4095);
    for (size_t i = 0; i < (size_t) OUT_PLANES * IN_PLANES * 25; i++)
        Filter[i] = (short) HarnessRandomRange(-256, 255);
    for (int o = 0; o < OUT_PLANES; o++)
        Bias[o] = (short) HarnessRandomRange(-1024, 1023);

    /* Direct reference. Filter plane (in i, out o) at (o*IN_PLANES + i)*25; the input planes are added
     * in order, each one normalized and saturated, as the tiled kernel does. */
    for (int o = 0; o < OUT_PLANES; o++)
        for (int y = 0; y < HO; y++)
            for (int x = 0; x < WO; x++) {
                Word16 Value = Bias[o];
                for (int i = 0; i < IN_PLANES; i++) {
                    const short *Plane = In + (size_t) i * W * H;
                    const short *Coeffs = Filter + (size_t) (o * IN_PLANES + i) * 25;
                    Word32 Acc = 0;
                    for (int fy = 0; fy < 5; fy++)
                        for (int fx = 0; fx < 5; fx++)
                            Acc += (Word32) Plane[(y + fy) * W + x + fx] * Coeffs[fy * 5 + fx];
                    Value = Conv5x5_Saturate16(Value + (Acc >> NORM));
                }
                Expected[((size_t) o * HO + y) * WO + x] = Value;
            }

    HarnessAllocL1();
    HarnessDmaStart();
    Conv5x5(In, Filter, Out, NORM, Bias);
    HarnessDmaReport("Conv5x5");
    HarnessFreeL1();

    HarnessCompare16("Out", Out, Expected, WO, HO, OUT_PLANES);
    free(In);
    free(Filter);
    free(Out);
    free(Bias);
    free(Expected);
    return HarnessFinish();
}
