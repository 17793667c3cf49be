/* 8-bit convolutions written as NNTool writes SQ8 graphs, through CNN_ConvolutionPoolAct_SQ8 on the
 * SDK's contract (In, Filter, Bias, Out, Scale, ScaleN, Infos; each layer's AT_INF_DIM Infos last):
 *   Conv0 3 -> 8 planes of 12x10, 3x3 "same" (ConvPad 1), ReLU-N (the bound Conv0_I[AT_INF_A0]):
 *         set bias, convolution over chunks of the input planes, reduction with its activation
 *   Dw1   depthwise 3x3 stride 2 "same" (one padding column left, one line above) -> 8 x 6x5, hard
 *         swish: the depthwise kernel has none, so it runs as its own kernel after it
 *   Conv2 8 -> 6, 3x3 "same", max pooling 2x2 / 2, ReLU -> 6 x 3x2: the reduction in place, then the
 *         pooling with the ReLU and the scaling of Conv2_I
 *   Dw3   depthwise 3x3 "same", average pooling 2x2 / 1, leaky ReLU -> 6 x 2x1
 * Constants from model/<name>.tensor, fixed-point files (ConstInfo format 1): 8-bit filters,
 * scales, shifts and Infos, 32-bit biases. The L1 budget comes from --l1. */
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators.h"

#define CONST(Type, Name, Bits) \
    TCArgInfo(Type, #Name, ARG_SCOPE_GLOBAL, ARG_DIR_CONSTIN, AT_MEM_L3_DEFAULTFLASH, AT_MEM_UNDEF, \
              ConstInfo("model/" #Name ".tensor", 1, 1, Bits, 0))
#define BYTES(Name) CONST("signed char *__restrict__", Name, 8)
#define UBYTES(Name) CONST("unsigned char *__restrict__", Name, 8)
#define WORDS(Name) CONST("int *__restrict__", Name, 32)
#define LAYER_CONSTANTS(L) BYTES(L##_W), WORDS(L##_B), UBYTES(L##_S), UBYTES(L##_N), BYTES(L##_I)
#define LOCAL(Name) TCArgInfo("signed char *__restrict__", #Name, ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)
#define CONV_NODE(L, In, Out)                                                                                   \
    AddNode(#L, Bindings(7, GNodeArg(GNA_IN, In, 0), GNodeArg(GNA_IN, #L "_W", 0), GNodeArg(GNA_IN, #L "_B", 0), \
                         GNodeArg(GNA_OUT, Out, 0), GNodeArg(GNA_IN, #L "_S", 0), GNodeArg(GNA_IN, #L "_N", 0),  \
                         GNodeArg(GNA_IN, #L "_I", 0)))

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels_SQ8.h");
    SetGeneratedFilesNames("Sq8ConvKernels.c", "Sq8ConvKernels.h");
    SetMemoryDeviceInfos(4, AT_MEM_L1, 20000, "Sq8Conv_L1_Memory", 0, 0, AT_MEM_L2, 64 * 1024, "Sq8Conv_L2_Memory", 0, 0,
                         AT_MEM_L3_DEFAULTRAM, 1024 * 1024, "Sq8Conv_L3_Memory", 0, 0, AT_MEM_L3_DEFAULTFLASH,
                         1024 * 1024, "0", "Sq8Conv_L3_Flash_Const.dat", 0);
    AT_SetGraphCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_OFF);
    LoadCNN_SQ8_Library();
    CNN_ConvolutionPoolAct_SQ8("Conv0", 0, 4, 1, 3, 8, 12, 10, KOP_CONV, 3, 3, 1, 1, 1, 1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0,
                               KOP_RELUN);
    CNN_ConvolutionPoolAct_SQ8("Dw1", 0, 4, 1, 8, 8, 12, 10, KOP_CONV_DW, 3, 3, 1, 1, 2, 2, 1, KOP_NONE, 1, 1, 1, 1, 1, 1,
                               0, KOP_HSWISH);
    CNN_ConvolutionPoolAct_SQ8("Conv2", 0, 4, 1, 8, 6, 6, 5, KOP_CONV, 3, 3, 1, 1, 1, 1, 1, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2,
                               0, KOP_RELU);
    CNN_ConvolutionPoolAct_SQ8("Dw3", 0, 4, 1, 6, 6, 3, 2, KOP_CONV_DW, 3, 3, 1, 1, 1, 1, 1, KOP_AVGPOOL, 2, 2, 1, 1, 1, 1,
                               0, KOP_LEAKYRELU);

    CreateGraph("Sq8Conv",
                CArgs(22, TCArgInfo("signed char *__restrict__", "Input", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      LAYER_CONSTANTS(Conv0), LAYER_CONSTANTS(Dw1), LAYER_CONSTANTS(Conv2), LAYER_CONSTANTS(Dw3),
                      TCArgInfo("signed char *__restrict__", "Output", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0)),
                CArgs(3, LOCAL(Act0), LOCAL(Act1), LOCAL(Act2)));
    CONV_NODE(Conv0, "Input", "Act0");
    CONV_NODE(Dw1, "Act0", "Act1");
    CONV_NODE(Conv2, "Act1", "Act2");
    CONV_NODE(Dw3, "Act2", "Output");
    CloseGraph();
    GenerateTilingCode();
    return 0;
}
