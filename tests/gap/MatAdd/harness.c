/* Host harness of the MatAdd example: runs the generated, tiled MatAdd on seeded random matrices and
 * compares it with MatSumPar called once on the whole 200 x 300 planes. Usage: harness [seed] */
#include "GenKernels.h"
#include "MatAddBasicKernels.h"
#include "../HarnessCommon.h"

#define W 200
#define H 300

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    const size_t Bytes = (size_t) W * H * sizeof(Word32);
    Word32 *In1 = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *In2 = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *Out = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *Expected = (Word32 *) HarnessAllocL2(Bytes);
    /* Values well inside the int32 range: the sum must not overflow (UBSan would say so). */
    for (size_t i = 0; i < (size_t) W * H; i++) {
        In1[i] = HarnessRandomRange(-(1 << 29), 1 << 29);
        In2[i] = HarnessRandomRange(-(1 << 29), 1 << 29);
    }

    /* Untiled reference: the same basic kernel on the whole plane. */
    MatSumPar_Arg_T Whole = {In1, In2, Expected, W, H};
    HarnessParallel(MatSumPar, &Whole);

    HarnessAllocL1();
    HarnessDmaStart();
    MatAdd(In1, In2, Out);
    HarnessDmaReport("MatAdd");
    HarnessFreeL1();

    HarnessCompare32("Out", Out, Expected, W, H, 1);
    free(In1);
    free(In2);
    free(Out);
    free(Expected);
    return HarnessFinish();
}
