/* The guide's MnistModel.c generated with a warm constructor: build with -DWARM_MODE=1, 2 or 3
 * (WARM_L1, WARM_L2_DYN_L1, WARM_ALL). The option is set before the guide's main runs the model. */
#define main MnistModelMain
#include "MnistModel.c"
#undef main

int main(int argc, char **argv)
{
    AT_SetGraphCtrl(AT_GRAPH_WARM_CONSTRUCT, AT_OPT_VAL(WARM_MODE));
    return MnistModelMain(argc, argv);
}
