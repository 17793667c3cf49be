/* The layers of the Autotiler guide's MNIST model (MnistModel.c), generator calls as the guide
 * writes them, without the graph: two 5x5 convolutions with 2x2 max pooling and ReLU, a linear
 * layer and a softmax, 16-bit Q formats, L1 budget 48000 bytes. */
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
    KernelOper_T Cop = KOP_CONV_DP;
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels.h");
    SetL1MemorySize(48000);
    LoadCNNLibrary();
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_0", 0, 2,2,2,2, 12,14,14,12, 1,1,1,1, 1,32,28,28,
        Cop, 5, 5, 1, 1, 1, 1, 0,
        KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv5x5ReLUMaxPool2x2_1", 0, 2,2,2,2, 12,14,14,12, 1,1,1,1, 32,64,12,12,
        Cop, 5, 5, 1, 1, 1, 1, 0,
        KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_LinearReLU("LinearLayerReLU_0", 0, 2,2,2,2, 12,12,8,11, 2,2,2,2, 1024, 10,
        KOP_LINEAR, KOP_NONE);
    CNN_SoftMax("SoftMax_0", 0, 2,2, 15,15,1,1, 10, KOP_SOFTMAX);
    GenerateTilingCode();
    return 0;
}
