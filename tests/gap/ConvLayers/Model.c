/* Padded and depthwise convolution layers, some with padded pooling (layers.h), through
 * CNN_ConvolutionPoolReLU; the L1 budget comes from the command line (--l1), so the tests can
 * force many tiles, where the padding lines fall in the first and last ones. */
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators.h"
#include "Gap.h" /* model-cflags provides it, as GreenWaves' generator sources expect */
#include "layers.h"

/* -DARGS_IN_L3=1 homes every argument of every layer in L3 (the generators' *_InL3 flags). */
#ifndef ARGS_IN_L3
#define ARGS_IN_L3 0
#endif

#define DECLARE(Name, Oper, Cin, Cout, W, H, F, D, S, P, Pool, Fp, Sp, Pp, Relu) \
    CNN_ConvolutionPoolReLU(#Name, CTRL, 2, 2, 2, 2, 12, 14, 14, 12, ARGS_IN_L3, ARGS_IN_L3, ARGS_IN_L3, ARGS_IN_L3, \
                            Cin, Cout, W, H, Oper, F, F, D, D, \
                            S, S, (P) > 0, Pool, Fp, Fp, 1, 1, Sp, Sp, (Pp) > 0, (Relu) ? KOP_RELU : KOP_NONE);

int main(int argc, char **argv)
{
    /* -DPAD_TYPE=n: every layer's "same" padding split by that AT_PadType, through a generator
     * control set as NNTool's model programs set theirs. */
#ifdef PAD_TYPE
    CNN_GenControl_T Control;
    CNN_InitGenCtrl(&Control);
    CNN_SetGenCtrl(&Control, "PADTYPE", AT_OPT_VAL(PAD_TYPE));
#define CTRL (&Control)
#else
#define CTRL 0
#endif
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels.h");
    LoadCNNLibrary();
    CONV_LAYERS(DECLARE)
    GenerateTilingCode();
    return 0;
}
