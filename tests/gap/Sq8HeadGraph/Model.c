/* An 8-bit classifier head written as NNTool writes SQ8 graphs, on the SDK's contract of Tessera's
 * own generators: each layer takes the AT_INF_DIM bytes of its Infos as its last constant.
 *   Pool0 average 3x3 / 2 of 4 planes of 9x9, "same" padding (PoolPad 1: one zero line and column
 *         on each side), ReLU -> 4 x 5x5
 *   Pool1 max 2x2 / 1 -> 4 x 4x4, its result scaled by Pool1_I[AT_INF_ACTSCALE] / 2^[AT_INF_ACTSCALEN]
 *   Swish1 hard swish (CNN_Act_SQ8, KOP_HSWISH; its bound, offset and scaling in Swish1_I)
 *   Fc1   linear 64 -> 64, ReLU-N (KOP_RELUN: the bound is Fc1_I[AT_INF_A0])
 *   Res2  Swish1's output + Fc1's output, ReLU (the first input brought to the second's scale by Res2_I)
 *   Fc3   linear 64 -> 10
 *   Leaky3 leaky ReLU, declared as a pooling without pooling (CNN_PoolAct_SQ8 with KOP_NONE, which
 *         goes to CNN_Act_SQ8 as in the SDK)
 *   Soft4 softmax of the 10 to Q15 (short int), the input's scale 2^(Soft4_I[AT_INF_BIASL_SM] - 15)
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
#define LOCAL(Name) TCArgInfo("signed char *__restrict__", #Name, ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels_SQ8.h");
    SetGeneratedFilesNames("Sq8HeadKernels.c", "Sq8HeadKernels.h");
    SetMemoryDeviceInfos(4, AT_MEM_L1, 16000, "Sq8Head_L1_Memory", 0, 0, AT_MEM_L2, 64 * 1024, "Sq8Head_L2_Memory", 0, 0,
                         AT_MEM_L3_DEFAULTRAM, 1024 * 1024, "Sq8Head_L3_Memory", 0, 0, AT_MEM_L3_DEFAULTFLASH,
                         1024 * 1024, "0", "Sq8Head_L3_Flash_Const.dat", 0);
    AT_SetGraphCtrl(AT_GRAPH_TRACE_EXEC, AT_OPT_OFF);
    LoadCNN_SQ8_Library();
    CNN_PoolAct_SQ8("Pool0", 0, 4, 9, 9, KOP_AVGPOOL, 3, 3, 1, 1, 2, 2, 1, KOP_RELU);
    CNN_PoolAct_SQ8("Pool1", 0, 4, 5, 5, KOP_MAXPOOL, 2, 2, 1, 1, 1, 1, 0, KOP_NONE);
    CNN_Act_SQ8("Swish1", 0, 4, 4, 4, KOP_HSWISH);
    CNN_LinearAct_SQ8("Fc1", 0, 4, 1, 64, 64, KOP_LINEAR, KOP_RELUN);
    CNN_MatAddAct_SQ8("Res2", 0, 64, 1, 1, KOP_MATADD, KOP_RELU);
    CNN_LinearAct_SQ8("Fc3", 0, 4, 1, 64, 10, KOP_LINEAR, KOP_NONE);
    CNN_PoolAct_SQ8("Leaky3", 0, 10, 1, 1, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_LEAKYRELU);
    CNN_SoftMax_SQ8("Soft4", 0, 10, KOP_SOFTMAX);

    CreateGraph("Sq8Head",
                CArgs(18, TCArgInfo("signed char *__restrict__", "Input", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      BYTES(Pool0_I), BYTES(Pool1_I), BYTES(Swish1_I), BYTES(Leaky3_I), BYTES(Fc1_W), WORDS(Fc1_B), UBYTES(Fc1_S), UBYTES(Fc1_N), BYTES(Fc1_I), BYTES(Res2_I),
                      BYTES(Fc3_W), WORDS(Fc3_B), UBYTES(Fc3_S), UBYTES(Fc3_N), BYTES(Fc3_I), BYTES(Soft4_I),
                      TCArgInfo("short int *__restrict__", "Output", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0)),
                CArgs(7, LOCAL(Pooled0), LOCAL(Pooled1), LOCAL(Swished1), LOCAL(Act1), LOCAL(Act2), LOCAL(Act3),
                      LOCAL(Leaked3)));
    AddNode("Pool0", Bindings(3, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_OUT, "Pooled0", 0),
                              GNodeArg(GNA_IN, "Pool0_I", 0)));
    AddNode("Pool1", Bindings(3, GNodeArg(GNA_IN, "Pooled0", 0), GNodeArg(GNA_OUT, "Pooled1", 0),
                              GNodeArg(GNA_IN, "Pool1_I", 0)));
    AddNode("Swish1", Bindings(3, GNodeArg(GNA_IN, "Pooled1", 0), GNodeArg(GNA_OUT, "Swished1", 0),
                               GNodeArg(GNA_IN, "Swish1_I", 0)));
    AddNode("Fc1", Bindings(7, GNodeArg(GNA_IN, "Swished1", 0), GNodeArg(GNA_IN, "Fc1_W", 0), GNodeArg(GNA_IN, "Fc1_B", 0),
                            GNodeArg(GNA_OUT, "Act1", 0), GNodeArg(GNA_IN, "Fc1_S", 0), GNodeArg(GNA_IN, "Fc1_N", 0),
                            GNodeArg(GNA_IN, "Fc1_I", 0)));
    AddNode("Res2", Bindings(4, GNodeArg(GNA_IN, "Swished1", 0), GNodeArg(GNA_IN, "Act1", 0), GNodeArg(GNA_OUT, "Act2", 0),
                             GNodeArg(GNA_IN, "Res2_I", 0)));
    AddNode("Fc3", Bindings(7, GNodeArg(GNA_IN, "Act2", 0), GNodeArg(GNA_IN, "Fc3_W", 0), GNodeArg(GNA_IN, "Fc3_B", 0),
                            GNodeArg(GNA_OUT, "Act3", 0), GNodeArg(GNA_IN, "Fc3_S", 0), GNodeArg(GNA_IN, "Fc3_N", 0),
                            GNodeArg(GNA_IN, "Fc3_I", 0)));
    AddNode("Leaky3", Bindings(3, GNodeArg(GNA_IN, "Act3", 0), GNodeArg(GNA_OUT, "Leaked3", 0),
                               GNodeArg(GNA_IN, "Leaky3_I", 0)));
    AddNode("Soft4", Bindings(3, GNodeArg(GNA_IN, "Leaked3", 0), GNodeArg(GNA_OUT, "Output", 0), GNodeArg(GNA_IN, "Soft4_I", 0)));
    CloseGraph();
    GenerateTilingCode();
    return 0;
}
