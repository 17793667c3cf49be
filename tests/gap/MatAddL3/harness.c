/* Host harness of the MatAddL3 example: the "L3" matrices are host memory, the emulation counts the
 * L3 <-> L2 bytes separately from L2 <-> L1. Each kernel is compared with MatSumPar on the whole
 * plane. Usage: harness [seed] */
#include "GenKernels.h"
#include "MatAddL3BasicKernels.h"
#include "../HarnessCommon.h"

static void RunOne(const char *Name, void (*Kernel)(Word32 *, Word32 *, Word32 *), unsigned W, unsigned H)
{
    const size_t Bytes = (size_t) W * H * sizeof(Word32);
    Word32 *In1 = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *In2 = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *Out = (Word32 *) HarnessAllocL2(Bytes);
    Word32 *Expected = (Word32 *) HarnessAllocL2(Bytes);
    for (size_t i = 0; i < (size_t) W * H; i++) {
        In1[i] = HarnessRandomRange(-(1 << 29), 1 << 29);
        In2[i] = HarnessRandomRange(-(1 << 29), 1 << 29);
    }
    MatSumPar_Arg_T Whole = {In1, In2, Expected, W, H};
    HarnessParallel(MatSumPar, &Whole);
    HarnessDmaStart();
    Kernel(In1, In2, Out);
    HarnessDmaReport(Name);
    HarnessCompare32(Name, Out, Expected, W, H, 1);
    free(In1);
    free(In2);
    free(Out);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    HarnessAllocL1();
    RunOne("MatAddL3", MatAddL3, 200, 300);
    RunOne("MatAddL3Ver", MatAddL3Ver, 120, 90);
    RunOne("MatAddL3Buf", MatAddL3Buf, 40, 30);
    HarnessFreeL1();
    return HarnessFinish();
}
