/* Host program for the TinyNet graph: `harness INPUT OUTPUT` (raw int16 files; run it in the folder
 * of TinyNet_L3_Flash_Const.dat). Constructs the graph, runs it, prints the L3 bytes moved,
 * destructs it and writes the output. */
#include "TinyNetKernels.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    static short int Input[3 * 32 * 32], Output[10];
    FILE *In = argc == 3 ? fopen(argv[1], "rb") : 0;
    if (!In || fread(Input, sizeof(short int), 3 * 32 * 32, In) != 3 * 32 * 32) {
        fprintf(stderr, "usage: harness INPUT OUTPUT (INPUT: 3x32x32 int16 values)\n");
        return 2;
    }
    fclose(In);
    const int Error = TinyNet_Construct();
    if (Error) {
        printf("CONSTRUCT %d\n", Error);
        return 1;
    }
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    TinyNet(Input, Output);
    printf("L3 %u\n", __L3_Read + __L3_Write);
    TinyNet_Destruct();
    FILE *Out = fopen(argv[2], "wb");
    if (!Out || fwrite(Output, sizeof(short int), 10, Out) != 10) {
        fprintf(stderr, "harness: cannot write %s\n", argv[2]);
        return 2;
    }
    fclose(Out);
    printf("RESULT ok\n");
    return 0;
}
