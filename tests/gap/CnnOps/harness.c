/* Host harness of tests/gap/CnnOps: `harness DIR` reads each layer's int16 inputs from DIR/<Layer>.in
 * (additions: .in1 and .in2; products also .bias), runs the generated layer, writes DIR/<Layer>.out and prints its DMA
 * counters. */
#include "GenKernels.h"
#include "CNN_BasicKernels.h"
#include "../LayerFiles.h"

#include <stdio.h>
#include <stdlib.h>

static void Finish(const char *Dir, const char *Layer, short *Out, size_t Count)
{
    printf("DMA %s %u %u %u %u\n", Layer, __L2_Read, __L2_Write, __L3_Read, __L3_Write);
    WriteFile(Dir, Layer, Out, Count);
    free(Out);
}

typedef void (*Unary_T)(short *, short *);
typedef void (*Binary_T)(short *, short *, short *);
typedef void (*Product_T)(short *, short *, short *, short *);

static void RunProduct(const char *Dir, const char *Name, Product_T Layer, size_t Lines, size_t Inner, size_t Cols)
{
    short *In1 = ReadFile(Dir, Name, "in1", Lines * Inner), *In2 = ReadFile(Dir, Name, "in2", Inner * Cols);
    short *Bias = ReadFile(Dir, Name, "bias", Lines);
    short *Output = (short *) calloc(Lines * Cols, sizeof(short));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    Layer(In1, In2, Bias, Output);
    Finish(Dir, Name, Output, Lines * Cols);
    free(In1);
    free(In2);
    free(Bias);
}

static void RunUnary(const char *Dir, const char *Name, Unary_T Layer, size_t In, size_t Out)
{
    short *Input = ReadFile(Dir, Name, "in", In);
    short *Output = (short *) calloc(Out, sizeof(short));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    Layer(Input, Output);
    Finish(Dir, Name, Output, Out);
    free(Input);
}

static void RunBinary(const char *Dir, const char *Name, Binary_T Layer, size_t Count)
{
    short *In1 = ReadFile(Dir, Name, "in1", Count), *In2 = ReadFile(Dir, Name, "in2", Count);
    short *Output = (short *) calloc(Count, sizeof(short));
    __L2_Read = __L2_Write = __L3_Read = __L3_Write = 0;
    Layer(In1, In2, Output);
    Finish(Dir, Name, Output, Count);
    free(In1);
    free(In2);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: harness DIR\n");
        return 2;
    }
    L1_Memory = (char *) malloc(_L1_Memory_SIZE);
    L2_Memory = (char *) malloc(_L2_Memory_SIZE);
    RunUnary(argv[1], "MaxPool3x3Stride2", MaxPool3x3Stride2, 5 * 17 * 15, 5 * 8 * 7);
    RunUnary(argv[1], "AvgPool2x2", AvgPool2x2, 4 * 16 * 12, 4 * 8 * 6);
    RunUnary(argv[1], "MaxPool3x3Stride2Pad1", MaxPool3x3Stride2Pad1, 3 * 17 * 15, 3 * 9 * 8);
    RunUnary(argv[1], "AvgPool3x3Pad1", AvgPool3x3Pad1, 4 * 10 * 9, 4 * 10 * 9);
    RunUnary(argv[1], "MaxPool5x5Pad2Tall", MaxPool5x5Pad2Tall, 2 * 24 * 70, 2 * 24 * 70);
    RunUnary(argv[1], "MaxPool2x2Same", MaxPool2x2Same, 3 * 11 * 9, 3 * 11 * 9);
    RunUnary(argv[1], "GlobalAvg", GlobalAvg, 12 * 14 * 13, 12);
    RunUnary(argv[1], "GlobalAvgLarge", GlobalAvgLarge, 3 * 60 * 50, 3);
    RunBinary(argv[1], "Add", Add, 6 * 20 * 10);
    RunBinary(argv[1], "AddReLU", AddReLU, 3 * 9 * 7);
    RunProduct(argv[1], "MatMul", MatMul, 40, 24, 9);
    RunProduct(argv[1], "MatMulReLU", MatMulReLU, 5, 7, 3);
    free(L1_Memory);
    free(L2_Memory);
    printf("RESULT ok\n");
    return 0;
}
