/* Host program for the guide's MNIST graph: `harness INPUT OUTPUT` (raw int16 files; run it in the
 * folder holding Mnist_L3_Flash_Const.dat). Constructs the graph, prints its memory figures, runs
 * it on the input, prints the DMA counters (and with -DINSTRUMENTED each node's name, operations and
 * cycles), destructs it and writes the output. With -DALLOCATED_IO the graph allocates its input
 * and output itself: the harness writes the input into Input0 after construction and reads the
 * output from Output0 before destruction. */
#include "MnistKernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: harness INPUT OUTPUT\n");
        return 2;
    }
    short int *Image = (short int *) malloc(28 * 28 * sizeof(short int));
    short int *Result = (short int *) malloc(10 * sizeof(short int));
    FILE *In = fopen(argv[1], "rb");
    if (!Image || !Result || !In || fread(Image, sizeof(short int), 28 * 28, In) != 28 * 28) {
        fprintf(stderr, "harness: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(In);
    const int Error = MnistCNN_Construct();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        free(Image);
        free(Result);
        return 1;
    }
#ifdef ALLOCATED_IO
    printf("ALLOCATED %d\n", Input0 != NULL && Output0 != NULL);
    memcpy(Input0, Image, 28 * 28 * sizeof(short int));
#endif
    printf("MEMORY %d %d %d %d %d\n", MnistCNN_Memory(AT_L1_MEM), MnistCNN_Memory(AT_L2_MEM),
           MnistCNN_Memory(AT_L2_DYN_MEM), MnistCNN_Memory(AT_L3_MEM), MnistCNN_Memory(AT_L3_DYN_MEM));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
#ifdef ALLOCATED_IO
    MnistCNN();
    memcpy(Result, Output0, 10 * sizeof(short int));
#else
    MnistCNN(Image, Result);
#endif
    printf("DMA %u %u %u %u\n", __L2_Read, __L2_Write, __L3_Read, __L3_Write);
#ifdef INSTRUMENTED
    /* Built for a graph generated with cycles, node names and operation counts. */
    for (int Node = 0; Node < 4; ++Node)
        printf("NODE %s %u %u\n", AT_GraphNodeNames[Node], AT_GraphOperInfosNames[Node], MnistPerf[Node]);
#endif
    MnistCNN_Destruct();
#ifdef ALLOCATED_IO
    printf("RELEASED %d\n", Input0 == NULL && Output0 == NULL);
#endif
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Result, sizeof(short int), 10, Out) != 10) {
        fprintf(stderr, "harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    free(Image);
    free(Result);
    printf("RESULT ok\n");
    return 0;
}
