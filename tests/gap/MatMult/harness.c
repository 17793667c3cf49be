/* Host harness of the MatMult example: runs the generated MatMultBands and MatMultBuffered on seeded
 * random matrices and compares them with an untiled product.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "MatMultBasicKernels.h"
#include "../HarnessCommon.h"

typedef void (*MatMultFunction)(int *M1, int *M2, int *Out, unsigned int Norm);

static void RunMatMult(const char *Name, MatMultFunction Function, unsigned int LineM1, unsigned int ColM1,
                       unsigned int ColM2, unsigned int Norm)
{
    int *M1 = (int *) HarnessAllocL2((size_t) LineM1 * ColM1 * sizeof(int));
    int *M2 = (int *) HarnessAllocL2((size_t) ColM1 * ColM2 * sizeof(int));
    int *Out = (int *) HarnessAllocL2((size_t) LineM1 * ColM2 * sizeof(int));
    int *Expected = (int *) HarnessAllocL2((size_t) LineM1 * ColM2 * sizeof(int));
    for (size_t i = 0; i < (size_t) LineM1 * ColM1; i++)
        M1[i] = HarnessRandomRange(-30000, 30000);
    for (size_t i = 0; i < (size_t) ColM1 * ColM2; i++)
        M2[i] = HarnessRandomRange(-30000, 30000);
    for (unsigned int l = 0; l < LineM1; l++)
        for (unsigned int c = 0; c < ColM2; c++)
            Expected[(size_t) l * ColM2 + c] = MatMultItem(M1 + (size_t) l * ColM1, M2 + c, ColM2, ColM1, Norm);

    HarnessAllocL1();
    HarnessDmaStart();
    Function(M1, M2, Out, Norm);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare32(Name, (const int32_t *) Out, (const int32_t *) Expected, ColM2, LineM1, 1);
    free(M1);
    free(M2);
    free(Out);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    RunMatMult("MatMultBands", MatMultBands, 200, 48, 20, 5);
    RunMatMult("MatMultBuffered", MatMultBuffered, 40, 64, 150, 6);
    return HarnessFinish();
}
