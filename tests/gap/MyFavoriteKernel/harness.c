/* Host harness of the MyFavoriteKernel example: the generated, tiled kernel against the basic kernels
 * called once per (output plane, input plane) on whole 75 x 75 planes. Usage: harness [seed] */
#include "GenKernels.h"
#include "MyFavoriteKernelBasicKernels.h"
#include "../HarnessCommon.h"

#define W 75
#define H 75
#define IN_PLANES 4
#define OUT_PLANES 4

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    const size_t Plane = (size_t) W * H;
    Word32 *In1 = (Word32 *) HarnessAllocL2(IN_PLANES * Plane * sizeof(Word32));
    Word32 *In2 = (Word32 *) HarnessAllocL2(IN_PLANES * Plane * sizeof(Word32));
    Word32 *Out = (Word32 *) HarnessAllocL2(OUT_PLANES * Plane * sizeof(Word32));
    Word32 *Bias = (Word32 *) HarnessAllocL2(OUT_PLANES * sizeof(Word32));
    Word32 *Expected = (Word32 *) HarnessAllocL2(OUT_PLANES * Plane * sizeof(Word32));
    /* |sum| < 4 * 3 * 2^26 < 2^31: no signed overflow. */
    for (size_t i = 0; i < IN_PLANES * Plane; i++) {
        In1[i] = HarnessRandomRange(-(1 << 26), 1 << 26);
        In2[i] = HarnessRandomRange(-(1 << 26), 1 << 26);
    }
    for (int o = 0; o < OUT_PLANES; o++)
        Bias[o] = HarnessRandomRange(-(1 << 26), 1 << 26);

    /* Untiled reference: whole planes, output plane outermost, input planes innermost. */
    for (int o = 0; o < OUT_PLANES; o++) {
        MatrixClear_Arg_T Clear = {Expected + o * Plane, W, H};
        HarnessParallel(MatrixClear, &Clear);
        for (int i = 0; i < IN_PLANES; i++) {
            MatrixAdd_Arg_T Add = {In1 + i * Plane, In2 + i * Plane, Expected + o * Plane, Bias[o], W, H};
            HarnessParallel(MatrixAdd, &Add);
        }
    }

    HarnessAllocL1();
    HarnessDmaStart();
    MyFavoriteKernel(In1, In2, Out, Bias);
    HarnessDmaReport("MyFavoriteKernel");
    HarnessFreeL1();

    HarnessCompare32("Out", Out, Expected, W, H, OUT_PLANES);
    free(In1);
    free(In2);
    free(Out);
    free(Bias);
    free(Expected);
    return HarnessFinish();
}
