/* Host program for the MNIST graph generated with a warm constructor (build with -DWARM_MODE=1, 2
 * or 3): `harness_warm INPUT OUTPUT`, run in the folder of the constants image. Constructs the graph
 * cold and runs it, gives back the memories the warm mode leaves to the caller, takes them again
 * (with WARM_ALL the caller's own L1 block), runs a second time, checks that both runs agree and
 * writes the output of the second run. Under AddressSanitizer a memory used after it was given back,
 * or never given back, fails the run. */
#include "MnistKernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int Fail(const char *What, int Code)
{
    printf("%s %d\n", What, Code);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: harness_warm INPUT OUTPUT\n");
        return 2;
    }
    static short int Input0[28 * 28], First[10], Second[10];
    FILE *In = fopen(argv[1], "rb");
    if (!In || fread(Input0, sizeof(short int), 28 * 28, In) != 28 * 28) {
        fprintf(stderr, "harness_warm: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(In);
    int Error;
#if WARM_MODE < 3
    if ((Error = MnistCNN_Construct(0)))
        return Fail("CONSTRUCT", Error);
    MnistCNN(Input0, First);
    MnistCNN_Destruct(WARM_MODE); /* L1 (and with WARM_L2_DYN_L1 the dynamic L2) given back */
    if ((Error = MnistCNN_Construct(WARM_MODE)))
        return Fail("WARM CONSTRUCT", Error);
    MnistCNN(Input0, Second);
    MnistCNN_Destruct(0);
#else
    if ((Error = MnistCNN_Construct(1, 1, 1, 1, 1, 1)))
        return Fail("CONSTRUCT", Error);
    MnistCNN(Input0, First, 0);
    MnistCNN_Destruct(1, 0, 1, 0, 0); /* L1 and dynamic L2 given back, constants kept */
    char *L1 = (char *) malloc(MnistCNN_Memory(AT_L1_MEM));
    if (L1 == 0 || (Error = MnistCNN_Construct(0, 0, 1, 0, 0, 0)))
        return Fail("WARM CONSTRUCT", L1 == 0 ? -1 : Error);
    MnistCNN(Input0, Second, L1);
    MnistCNN_Destruct(0, 1, 1, 1, 1);
    free(L1);
#endif
    if (memcmp(First, Second, sizeof(First)) != 0)
        return Fail("RUNS DIFFER", 0);
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Second, sizeof(short int), 10, Out) != 10) {
        fprintf(stderr, "harness_warm: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    printf("RESULT ok\n");
    return 0;
}
