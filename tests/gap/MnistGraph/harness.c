/* Host program for the guide's MNIST graph: `harness INPUT OUTPUT` (raw int16 files; run it in the
 * folder holding Mnist_L3_Flash_Const.dat). Constructs the graph, prints its memory figures, runs
 * it on the input, prints the DMA counters (and with -DINSTRUMENTED each node's name, operations and
 * cycles), destructs it and writes the output. */
#include "MnistKernels.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: harness INPUT OUTPUT\n");
        return 2;
    }
    short int *Input0 = (short int *) malloc(28 * 28 * sizeof(short int));
    short int *Output0 = (short int *) malloc(10 * sizeof(short int));
    FILE *In = fopen(argv[1], "rb");
    if (!Input0 || !Output0 || !In || fread(Input0, sizeof(short int), 28 * 28, In) != 28 * 28) {
        fprintf(stderr, "harness: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(In);
    const int Error = MnistCNN_Construct();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        free(Input0);
        free(Output0);
        return 1;
    }
    printf("MEMORY %d %d %d %d %d\n", MnistCNN_Memory(AT_L1_MEM), MnistCNN_Memory(AT_L2_MEM),
           MnistCNN_Memory(AT_L2_DYN_MEM), MnistCNN_Memory(AT_L3_MEM), MnistCNN_Memory(AT_L3_DYN_MEM));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    MnistCNN(Input0, Output0);
    printf("DMA %u %u %u %u\n", __L2_Read, __L2_Write, __L3_Read, __L3_Write);
#ifdef INSTRUMENTED
    /* Built for a graph generated with cycles, node names and operation counts. */
    for (int Node = 0; Node < 4; ++Node)
        printf("NODE %s %u %u\n", AT_GraphNodeNames[Node], AT_GraphOperInfosNames[Node], MnistPerf[Node]);
#endif
    MnistCNN_Destruct();
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Output0, sizeof(short int), 10, Out) != 10) {
        fprintf(stderr, "harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    free(Input0);
    free(Output0);
    printf("RESULT ok\n");
    return 0;
}
