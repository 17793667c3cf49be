/* Host harness of the padded convolution layers: `harness DIR` reads each layer's int16 inputs from
 * DIR/<Layer>.in, .filter ([Cout][Cin][F][F]), .bias, runs the generated layer, writes
 * DIR/<Layer>.out and prints its DMA counters. */
#include "GenKernels.h"
#include "CNN_BasicKernels.h"
#include "../LayerFiles.h"
#include "layers.h"

#include <stdio.h>
#include <stdlib.h>

/* The harness only needs to tell pooled and depthwise layers from the others. */
enum { KOP_NONE, KOP_MAXPOOL, KOP_AVGPOOL, KOP_CONV, KOP_CONV_DW };

/* Output size of one dimension: with the "same" flag, the total padding that keeps ceil(Dim / S)
 * outputs (the window's span less the stride, or less the remainder when S does not divide Dim). */
static int OutDim(int Dim, int F, int D, int S, int SamePad)
{
    int Span = D * (F - 1) + 1, Left = Dim % S == 0 ? S : Dim % S;
    int Total = SamePad && Span > Left ? Span - Left : 0;
    return (Dim + Total - Span) / S + 1;
}

/* Output size of a layer (docs/gap-fixed-point.md). */
static size_t OutCount(int Cout, int W, int H, int F, int D, int S, int P, int Pooled, int Fp, int Sp, int Pp)
{
    int Wc = OutDim(W, F, D, S, P), Hc = OutDim(H, F, D, S, P);
    if (Pooled) {
        Wc = OutDim(Wc, Fp, 1, Sp, Pp);
        Hc = OutDim(Hc, Fp, 1, Sp, Pp);
    }
    return (size_t) Cout * (size_t) Wc * (size_t) Hc;
}

#define RUN(Name, Oper, Cin, Cout, W, H, F, D, S, P, Pool, Fp, Sp, Pp, Relu) \
    { \
        const size_t Out = OutCount(Cout, W, H, F, D, S, P, (Pool) != KOP_NONE, Fp, Sp, Pp); \
        short *In = ReadFile(argv[1], #Name, "in", (size_t) (Cin) * (W) * (H)); \
        short *Filter = ReadFile(argv[1], #Name, "filter", \
                                 (size_t) ((Oper) == KOP_CONV_DW ? 1 : (Cin)) * (Cout) * (F) * (F)); \
        short *Bias = ReadFile(argv[1], #Name, "bias", (size_t) (Cout)); \
        short *Output = (short *) calloc(Out, sizeof(short)); \
        __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0; \
        Name(In, Filter, Bias, Output); \
        printf("DMA %s %u %u %u %u\n", #Name, __L2_Read, __L2_Write, __L3_Read, __L3_Write); \
        WriteFile(argv[1], #Name, Output, Out); \
        free(In); \
        free(Filter); \
        free(Bias); \
        free(Output); \
    }

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: harness DIR\n");
        return 2;
    }
    /* As GreenWaves' applications allocate the kernels' memory. */
    L1_Memory = (AT_L1_POINTER) AT_L1_ALLOC(0, _L1_Memory_SIZE);
    L2_Memory = (AT_L2_POINTER) AT_L2_ALLOC(0, _L2_Memory_SIZE);
    CONV_LAYERS(RUN)
    AT_L1_FREE(0, L1_Memory, _L1_Memory_SIZE);
    AT_L2_FREE(0, L2_Memory, _L2_Memory_SIZE);
    printf("RESULT ok\n");
    return 0;
}
