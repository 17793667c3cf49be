/* Host program for the InPlaceStateGraph example: `harness INPUT OUTPUT SCALE BIAS` runs StateNet
 * on the 40 x 30 int16 values of INPUT with the runner arguments given and writes OUTPUT. */
#include "StateNetKernels.h"

#include <stdio.h>
#include <stdlib.h>

#define COUNT (40 * 30)

int main(int argc, char **argv)
{
    static short int Input[COUNT], Output[COUNT];
    FILE *In = argc == 5 ? fopen(argv[1], "rb") : 0;
    if (!In || fread(Input, sizeof(short int), COUNT, In) != COUNT) {
        fprintf(stderr, "usage: harness INPUT OUTPUT SCALE BIAS (INPUT: %d int16 values)\n", COUNT);
        return 2;
    }
    fclose(In);
    const short int Scale = (short int) atoi(argv[3]), Bias = (short int) atoi(argv[4]);
    const int Error = StateNet_Construct();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        return 1;
    }
    StateNet(Input, Output, Scale, Bias);
    StateNet_Destruct();
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Output, sizeof(short int), COUNT, Out) != COUNT) {
        fprintf(stderr, "harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    printf("RESULT ok\n");
    return 0;
}
