/* Pooling alone, global average pooling, element-wise additions and matrix products through their CNN generators;
 * the L1 budget comes from the command line (--l1). Layer sizes are the harness's. */
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators.h"

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels.h");
    LoadCNNLibrary();
    CNN_PoolReLU("MaxPool3x3Stride2", 0, 2, 2, 12, 12, 1, 1, 5, 17, 15, KOP_MAXPOOL, 3, 3, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_PoolReLU("AvgPool2x2", 0, 2, 2, 12, 12, 1, 1, 4, 16, 12, KOP_AVGPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_NONE);
    CNN_PoolReLU("MaxPool3x3Stride2Pad1", 0, 2, 2, 12, 12, 1, 1, 3, 17, 15, KOP_MAXPOOL, 3, 3, 1, 1, 2, 2, 1, KOP_NONE);
    CNN_PoolReLU("AvgPool3x3Pad1", 0, 2, 2, 12, 12, 1, 1, 4, 10, 9, KOP_AVGPOOL, 3, 3, 1, 1, 1, 1, 1, KOP_NONE);
    CNN_PoolReLU("MaxPool5x5Pad2Tall", 0, 2, 2, 12, 12, 1, 1, 2, 24, 70, KOP_MAXPOOL, 5, 5, 1, 1, 1, 1, 1, KOP_RELU);
    /* PoolPad is the SDK's "same" flag: 2x2 windows, stride 1, one line above and column left. */
    CNN_PoolReLU("MaxPool2x2Same", 0, 2, 2, 12, 12, 1, 1, 3, 11, 9, KOP_MAXPOOL, 2, 2, 1, 1, 1, 1, 1, KOP_NONE);
    CNN_GlobalPool("GlobalAvg", 0, 2, 2, 12, 12, 1, 1, 12, 14, 13, KOP_GLOBAL_AVGPOOL);
    CNN_GlobalPool("GlobalAvgLarge", 0, 2, 2, 11, 11, 1, 1, 3, 60, 50, KOP_GLOBAL_AVGPOOL);
    CNN_MatAdd("Add", 0, 2, 2, 2, 12, 10, 11, 1, 1, 1, 6, 6, 20, 10, KOP_MATADD);
    CNN_MatAdd("AddReLU", 0, 2, 2, 2, 12, 12, 12, 1, 1, 1, 3, 3, 9, 7, KOP_MATADD_RELU);
    CNN_MatMul("MatMul", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 24, 40, 9, 24, 0, 0, 1, 1, KOP_MATMUL, KOP_NONE);
    CNN_MatMul("MatMulReLU", 0, 2, 2, 2, 2, 11, 13, 12, 10, 1, 1, 1, 1, 7, 5, 3, 7, 0, 0, 1, 1, KOP_MATMUL, KOP_RELU);
    GenerateTilingCode();
    return 0;
}
