/* Host harness of the MatMax example: the generated, tiled MatMax against the basic kernels called
 * once on the whole 200 x 300 plane. Usage: harness [seed] */
#include "GenKernels.h"
#include "MatMaxBasicKernels.h"
#include "../HarnessCommon.h"

#define W 200
#define H 300

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    int *In = (int *) HarnessAllocL2((size_t) W * H * sizeof(int));
    int *Out = (int *) HarnessAllocL2(sizeof(int));
    for (size_t i = 0; i < (size_t) W * H; i++)
        In[i] = HarnessRandomRange(-1000000, 1000000);
    /* Put the maximum somewhere in the last (partial) tile half of the time, so that the last tile
     * is known to be processed. */
    if (HarnessRandom16() & 1)
        In[(size_t) W * H - 1 - HarnessRandom16() % (W * 20)] = 2000000;

    /* Untiled reference: one "tile" covering the plane, then the reduction over one entry. */
    Word32 WholeMax, Expected;
    MatrixMax_Arg_T Whole = {In, &WholeMax, W, H, 0, 0};
    HarnessParallel(KerMatrixMax, &Whole);
    KerMatrixMaxReduction(&WholeMax, &Expected, 1);

    HarnessAllocL1();
    HarnessDmaStart();
    MatMax(In, Out);
    HarnessDmaReport("MatMax");
    HarnessFreeL1();

    HarnessCompare32("Out", Out, &Expected, 1, 1, 1);
    free(In);
    free(Out);
    return HarnessFinish();
}
