/* The guide's MnistModel.c generated with graph options chosen at build time, set before the
 * guide's main runs the model:
 *   -DWARM_MODE=1|2|3   AT_GRAPH_WARM_CONSTRUCT (WARM_L1, WARM_L2_DYN_L1, WARM_ALL);
 *   -DINSTRUMENTED      node cycles in MnistPerf, node names and operation counts. */
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
    return MnistModelMain(argc, argv);
}
