/* Host program for the ValueArgGraph example: `harness INPUT OUTPUT RESET SCALE BIAS` runs
 * ValueNet on the 40 x 30 int16 values of INPUT with the runner arguments given and writes OUTPUT.
 * Built with -DREENTRANT for the graph generated re-entrant (-R): the runner is then suspended
 * after each layer and resumed until it is done, and the number of calls it took is printed. */
#include "ValueNetKernels.h"

#include <stdio.h>
#include <stdlib.h>

#define COUNT (40 * 30)

#ifdef REENTRANT
static int SuspendAfterEachLayer(void) { return 1; }
#endif

int main(int argc, char **argv)
{
    static short int Input[COUNT], Output[COUNT];
    FILE *In = argc == 6 ? fopen(argv[1], "rb") : 0;
    if (!In || fread(Input, sizeof(short int), COUNT, In) != COUNT) {
        fprintf(stderr, "usage: harness INPUT OUTPUT RESET SCALE BIAS (INPUT: %d int16 values)\n", COUNT);
        return 2;
    }
    fclose(In);
    const bool Reset = atoi(argv[3]) != 0;
    const short int Scale = (short int) atoi(argv[4]), Bias = (short int) atoi(argv[5]);
#ifdef REENTRANT
    CNN_Graph_Descr_T Descr = {0, 0, 0, 0, 0};
    int Error = ValueNet_Construct(&Descr);
    int Status = 0;
    ValueNet_Ctxt_T *Ctxt = Error ? 0 : ValueNet_AllocCtxt(&Descr, 0, 0, 0, 0, &Status);
    if (Error || Status) {
        printf("CONSTRUCT %d %d\n", Error, Status);
        return 1;
    }
    AT_YieldHook = SuspendAfterEachLayer;
    int Calls = 0;
    do {
        ValueNet(Ctxt, Input, Output, Reset, Scale, Bias, 0);
        ++Calls;
    } while (ValueNet_CtxtGetLayerIndex(Ctxt) != 0 && Calls < 100);
    printf("CALLS %d\n", Calls);
    ValueNet_DeAllocCtxt(Ctxt, 1, 1, 1, 1);
    ValueNet_Destruct(&Descr, 1, 1);
#else
    const int Error = ValueNet_Construct();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        return 1;
    }
    ValueNet(Input, Output, Reset, Scale, Bias);
    ValueNet_Destruct();
#endif
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Output, sizeof(short int), COUNT, Out) != COUNT) {
        fprintf(stderr, "harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    printf("RESULT ok\n");
    return 0;
}
