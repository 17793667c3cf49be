/* Host program for a generated graph with one input and one output tensor of int16 values (of
 * GRAPH_ITEM values when given, e.g. -DGRAPH_ITEM="signed char"; an output of GRAPH_OUT_ITEM
 * values when given, else GRAPH_ITEM), built with
 * -DGRAPH_HEADER='"XKernels.h"' -DGRAPH=X (the graph's name) -DINPUT_COUNT=N -DOUTPUT_COUNT=M:
 * `graph_harness INPUT OUTPUT` (raw files of those items; run it in the folder of the constants image).
 * Constructs the graph, runs it, prints the L3 bytes the run moved, destructs it and writes the
 * output. */
#include GRAPH_HEADER

#include <stdio.h>

#ifndef GRAPH_ITEM
#define GRAPH_ITEM short int
#endif
#ifndef GRAPH_OUT_ITEM
#define GRAPH_OUT_ITEM GRAPH_ITEM
#endif

#define JOIN(A, B) A##B
#define NAMED(Graph, Suffix) JOIN(Graph, Suffix)

int main(int argc, char **argv)
{
    static GRAPH_ITEM Input[INPUT_COUNT];
    static GRAPH_OUT_ITEM Output[OUTPUT_COUNT];
    FILE *In = argc == 3 ? fopen(argv[1], "rb") : 0;
    if (!In || fread(Input, sizeof(GRAPH_ITEM), INPUT_COUNT, In) != INPUT_COUNT) {
        fprintf(stderr, "usage: graph_harness INPUT OUTPUT (INPUT: %d values of %d bytes)\n", INPUT_COUNT, (int) sizeof(GRAPH_ITEM));
        return 2;
    }
    fclose(In);
    const int Error = NAMED(GRAPH, _Construct)();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        return 1;
    }
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    GRAPH(Input, Output);
    printf("L3 %u\n", __L3_Read + __L3_Write);
    NAMED(GRAPH, _Destruct)();
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Output, sizeof(GRAPH_OUT_ITEM), OUTPUT_COUNT, Out) != OUTPUT_COUNT) {
        fprintf(stderr, "graph_harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    printf("RESULT ok\n");
    return 0;
}
