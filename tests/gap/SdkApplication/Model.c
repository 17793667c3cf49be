/* An application's model the way GreenWaves' Cifar10 example writes it: two 5x5 convolutions with
 * 2x2 max pooling and ReLU (Q12 data, Q14 filters and biases), the filters and biases in L3 RAM, the
 * first layer's output in L3 too, so the second reads its input from L3. The generated header
 * includes pmsis.h, as the SDK's does. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators.h"

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetInlineMode(ALWAYS_INLINE);
    SetSymbolDynamics();
    SetUsedFilesNames(0, 2, "pmsis.h", "CNN_BasicKernels.h");
    SetGeneratedFilesNames("AppKernels.c", "AppKernels.h");
    SetMemoryDeviceInfos(3,
        AT_MEM_L1, 40000, "App_L1_Memory", 0, 0,
        AT_MEM_L2, 200000, "App_L2_Memory", 0, 0,
        AT_MEM_L3_DEFAULTRAM, 4 * 1024 * 1024, "App_L3_Memory", 0, 1);
    LoadCNNLibrary();
    /* In, Filter, Bias, Out in L3: 0, 1, 1, 1 then 1, 1, 1, 0. */
    CNN_ConvolutionPoolReLU("Conv5x5MaxPool2x2_0", 0, 2, 2, 2, 2, 12, 14, 14, 12, 0, 1, 1, 1, 1, 8, 32, 32,
        KOP_CONV, 5, 5, 1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv5x5MaxPool2x2_1", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 0, 8, 12, 14, 14,
        KOP_CONV, 5, 5, 1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    GenerateTilingCode();
    return 0;
}
