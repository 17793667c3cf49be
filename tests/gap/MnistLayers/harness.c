/* Host harness of the MNIST layers: `harness DIR` reads each layer's int16 inputs from
 * DIR/<Layer>.in, .filter, .bias (raw little-endian; convolution filters [OutFeat][InFeat][Fy][Fx]),
 * runs the generated layer and writes DIR/<Layer>.out. The test compares the outputs with the
 * reference interpreter's fixed-point kernels. */
#include "GenKernels.h"
#include "CNN_BasicKernels.h"
#include "../LayerFiles.h"

#include <stdio.h>
#include <stdlib.h>

typedef void (*Layer4_T)(short *, short *, short *, short *);

static void RunLayer(const char *Dir, const char *Name, Layer4_T Layer, size_t In, size_t Filter, size_t Bias,
                     size_t Out)
{
    short *InData = ReadFile(Dir, Name, "in", In);
    short *FilterData = ReadFile(Dir, Name, "filter", Filter);
    short *BiasData = ReadFile(Dir, Name, "bias", Bias);
    short *OutData = (short *) calloc(Out, sizeof(short));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    Layer(InData, FilterData, BiasData, OutData);
    printf("DMA %s %u %u %u %u\n", Name, __L2_Read, __L2_Write, __L3_Read, __L3_Write);
    WriteFile(Dir, Name, OutData, Out);
    free(InData);
    free(FilterData);
    free(BiasData);
    free(OutData);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: harness DIR\n");
        return 2;
    }
    L1_Memory = (char *) malloc(_L1_Memory_SIZE);
    L2_Memory = (char *) malloc(_L2_Memory_SIZE);
    printf("L1 %u\n", (unsigned) _L1_Memory_SIZE);
    RunLayer(argv[1], "Conv5x5ReLUMaxPool2x2_0", Conv5x5ReLUMaxPool2x2_0, 28 * 28, 32 * 25, 32, 32 * 12 * 12);
    RunLayer(argv[1], "Conv5x5ReLUMaxPool2x2_1", Conv5x5ReLUMaxPool2x2_1, 32 * 12 * 12, 32 * 64 * 25, 64, 64 * 4 * 4);
    RunLayer(argv[1], "LinearLayerReLU_0", LinearLayerReLU_0, 1024, 10 * 1024, 10, 10);
    {
        short *In = ReadFile(argv[1], "SoftMax_0", "in", 10);
        short *Out = (short *) calloc(10, sizeof(short));
        __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
        SoftMax_0(In, Out);
        printf("DMA %s %u %u %u %u\n", "SoftMax_0", __L2_Read, __L2_Write, __L3_Read, __L3_Write);
        WriteFile(argv[1], "SoftMax_0", Out, 10);
        free(In);
        free(Out);
    }
    free(L1_Memory);
    free(L2_Memory);
    printf("RESULT ok\n");
    return 0;
}
