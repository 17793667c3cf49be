/* A graph whose largest constant is used last, for constant prefetch:
 *   Conv0  3x3, padding 1, 4 -> 16 features, ReLU     32x32 (32 KB out)
 *   Conv1  1x1, 16 -> 4 features                       32x32
 *   Pool2  max pooling 2x2 stride 2                    16x16
 *   Fc3    linear 1024 -> 48, ReLU (96 KB of weights)
 *   Fc4    linear 48 -> 10
 *   Soft5  softmax (Q15)
 * With L2 too small for everything but room once the convolutions are done, Fc3's weights stay in
 * L3 RAM and are prefetched into L2 while the pooling runs. Activations Q12 (Fc3's output Q11),
 * constants Q14 from model/*.tensor. The L2 budget comes from --l2. */
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators.h"

#define CONST(Name) \
    TCArgInfo("short int *__restrict__", #Name, ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_DEFAULTFLASH, \
              AT_MEM_UNDEF, ConstInfo("model/" #Name ".tensor", 0, 1, 16, 14))
#define LOCAL(Name) TCArgInfo("short int *__restrict__", #Name, ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels.h");
    SetGeneratedFilesNames("PrefetchKernels.c", "PrefetchKernels.h");
    SetMemoryDeviceInfos(4, AT_MEM_L1, 48000, "Prefetch_L1_Memory", 0, 0, AT_MEM_L2, 300 * 1024, "Prefetch_L2_Memory", 0,
                         0, AT_MEM_L3_DEFAULTRAM, 8 * 1024 * 1024, "Prefetch_L3_Memory", 0, 0, AT_MEM_L3_DEFAULTFLASH,
                         16 * 1024 * 1024, "0", "Prefetch_L3_Flash_Const.dat", 0);
    AT_SetGraphCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_OFF);
    LoadCNNLibrary();
    CNN_ConvolutionPoolReLU("Conv0", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 4, 16, 32, 32, KOP_CONV, 3, 3, 1, 1, 1,
                            1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv1", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 16, 4, 32, 32, KOP_CONV, 1, 1, 1, 1, 1,
                            1, 0, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_NONE);
    CNN_PoolReLU("Pool2", 0, 2, 2, 12, 12, 1, 1, 4, 32, 32, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_NONE);
    CNN_LinearReLU("Fc3", 0, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 1024, 48, KOP_LINEAR, KOP_RELU);
    CNN_LinearReLU("Fc4", 0, 2, 2, 2, 2, 12, 14, 14, 11, 1, 1, 1, 1, 48, 10, KOP_LINEAR, KOP_NONE);
    CNN_SoftMax("Soft5", 0, 2, 2, 11, 15, 1, 1, 10, KOP_SOFTMAX);

    CreateGraph("PrefetchNet",
                CArgs(10, TCArgInfo("short int *__restrict__", "Input", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      CONST(W0), CONST(B0), CONST(W1), CONST(B1), CONST(W3), CONST(B3), CONST(W4), CONST(B4),
                      TCArgInfo("short int *__restrict__", "Output", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0)),
                CArgs(5, LOCAL(Act0), LOCAL(Act1), LOCAL(Act2), LOCAL(Act3), LOCAL(Act4)));
    AddNode("Conv0", Bindings(4, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_IN, "W0", 0), GNodeArg(GNA_IN, "B0", 0),
                              GNodeArg(GNA_OUT, "Act0", 0)));
    AddNode("Conv1", Bindings(4, GNodeArg(GNA_IN, "Act0", 0), GNodeArg(GNA_IN, "W1", 0), GNodeArg(GNA_IN, "B1", 0),
                              GNodeArg(GNA_OUT, "Act1", 0)));
    AddNode("Pool2", Bindings(2, GNodeArg(GNA_IN, "Act1", 0), GNodeArg(GNA_OUT, "Act2", 0)));
    AddNode("Fc3", Bindings(4, GNodeArg(GNA_IN, "Act2", 0), GNodeArg(GNA_IN, "W3", 0), GNodeArg(GNA_IN, "B3", 0),
                            GNodeArg(GNA_OUT, "Act3", 0)));
    AddNode("Fc4", Bindings(4, GNodeArg(GNA_IN, "Act3", 0), GNodeArg(GNA_IN, "W4", 0), GNodeArg(GNA_IN, "B4", 0),
                            GNodeArg(GNA_OUT, "Act4", 0)));
    AddNode("Soft5", Bindings(2, GNodeArg(GNA_IN, "Act4", 0), GNodeArg(GNA_OUT, "Output", 0)));
    CloseGraph();
    GenerateTilingCode();
    return 0;
}
