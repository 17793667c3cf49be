/* The guide's MnistModel.c generated with graph options chosen at build time, set before the
 * guide's main runs the model:
 *   -DWARM_MODE=1|2|3   AT_GRAPH_WARM_CONSTRUCT (WARM_L1, WARM_L2_DYN_L1, WARM_ALL);
 *   -DINSTRUMENTED      node cycles in MnistPerf, node names and operation counts;
 *   -DTRACED            checksums of every node's output, the input and output values of the
 *                       second convolution and the graph's output, user kernels noinline, the
 *                       graph functions compiled for size;
 *   -DTRACED_TO_FILE    with TRACED: the dumps go to files (AT_GRAPH_DUMP_TENSOR_TO_FILE);
 *   -DFLASH_EXEC        AT_GRAPH_CONST_EXEC_FROM_FLASH: constants left in flash are read by the nodes;
 *   -DPRIVILEGED_FLASH  a 128000-byte MRAM flash declared next to the guide's devices, filled first
 *                       (AT_GRAPH_PRIVILEGED_L3_HOME);
 *   -DALLOCATED_IO      the graph's input and output ARG_SCOPE_ARG_ALLOC, as NNTool declares them
 *                       (its ALLOCATE node option): the constructor allocates them in L2 and the
 *                       application reaches them through the globals Input0 and Output0. */
#include "AutoTilerLib.h"
#ifdef PRIVILEGED_FLASH
#define SetMemoryDeviceInfos(Count, ...)                                                              \
    SetMemoryDeviceInfos((Count) + 1, __VA_ARGS__, AT_MEM_L3_MRAMFLASH, 128000, "Mnist_L3_PrivilegedFlash", \
                         "Mnist_L3_PrivilegedFlash_Const.dat", 0)
#endif
#ifdef ALLOCATED_IO
#define ARG_SCOPE_ARG ARG_SCOPE_ARG_ALLOC
#endif
#define main MnistModelMain
#include "MnistModel.c"
#undef main

int main(int argc, char **argv)
{
#ifdef WARM_MODE
    AT_SetGraphCtrl(AT_GRAPH_WARM_CONSTRUCT, AT_OPT_VAL(WARM_MODE));
#endif
#ifdef INSTRUMENTED
    AT_SetGraphCtrl(AT_GRAPH_MONITOR_CYCLES, AT_OPT_ON);
    AT_SetGraphCtrl(AT_GRAPH_MONITOR_CVAR_NAME, AT_OPT_VAL("MnistPerf"));
    AT_SetGraphCtrl(AT_GRAPH_PRODUCE_NODE_NAMES, AT_OPT_ON);
    AT_SetGraphCtrl(AT_GRAPH_PRODUCE_OPERINFOS, AT_OPT_ON);
#endif
#ifdef FLASH_EXEC
    AT_SetGraphCtrl(AT_GRAPH_CONST_EXEC_FROM_FLASH, AT_OPT_ON);
#endif
#ifdef PRIVILEGED_FLASH
    AT_SetGraphCtrl(AT_GRAPH_PRIVILEGED_L3_HOME, AT_OPT_VAL(AT_MEM_L3_MRAMFLASH));
#endif
#ifdef TRACED
    AT_SetGraphCtrl(AT_GRAPH_CHECKSUM, AT_OPT_ON);
    AT_SetGraphCtrl(AT_GRAPH_DUMP_TENSOR, AT_OPT_VAL(3));
    AT_SetGraphCtrl(AT_GRAPH_DUMP_ONE_NODE, AT_OPT_VAL("Conv5x5ReLUMaxPool2x2_1"));
    AT_SetGraphCtrl(AT_GRAPH_DUMP_GRAPH_OUTPUTS, AT_OPT_ON);
    AT_SetGraphCtrl(AT_GRAPH_NOINLINE_NODE, AT_OPT_ON);
    AT_SetGraphCtrl(AT_GRAPH_SIZE_OPT, AT_OPT_ON);
#endif
#ifdef TRACED_TO_FILE
    AT_SetGraphCtrl(AT_GRAPH_DUMP_TENSOR_TO_FILE, AT_OPT_ON);
#endif
    return MnistModelMain(argc, argv);
}
