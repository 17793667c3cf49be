/* Conv5x5/Model.c written with the current SDK's API: the iteration space is output planes (D0),
 * tiles, input planes (D1), as KernelIterationOrder(KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE);
 * the input varies along D1 and the tiles, the output along D0 and the tiles, the filters along D0
 * then D1; the bias is set before the input-plane loop (LOC_D1_PROLOG) from Bias[D0]. It declares the
 * same kernels, so it must generate the same code. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadConv5x5Library(void)
{
    LibKernel("KerSetInBias", CALL_PARALLEL,
              CArgs(4,
                    TCArg("Word16 * __restrict__", "Out"),
                    TCArg("int", "W"),
                    TCArg("int", "H"),
                    TCArg("Word16", "Bias")),
              "KerSetInBias_Arg_T", NULL);
    LibKernel("KerDirectConv5x5_fp", CALL_PARALLEL,
              CArgs(6,
                    TCArg("Word16 * __restrict__", "In"),
                    TCArg("int", "W"),
                    TCArg("int", "H"),
                    TCArg("Word16 * __restrict__", "Filter"),
                    TCArg("Word16 * __restrict__", "Out"),
                    TCArg("unsigned int", "Norm")),
              "KerConv5x5_fp_Arg_T", NULL);
}

static void GenerateCnnConv5x5(char *Name, unsigned int InPlane, unsigned int OutPlane, unsigned int W,
                               unsigned int H)
{
    UserKernel(Name,
               KernelIterSpace(3, IterParSpace(KER_ITER_D0, OutPlane, 1), IterTiledSpace(KER_ITER_TILE0),
                               IterFixedSpace(KER_ITER_D1, InPlane)),
               TILE_HOR,
               CArgs(5,
                     TCArg("short int * __restrict__", "In"),
                     TCArg("short int * __restrict__", "Filter"),
                     TCArg("short int * __restrict__", "Out"),
                     TCArg("unsigned int", "Norm"),
                     TCArg("short int * __restrict__", "Bias")),
               Calls(2,
                     Call("KerSetInBias", LOC_D1_PROLOG,
                          Bindings(4,
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H),
                                   C_ArgIndex("Bias", KER_ITER_D0, 1))),
                     Call("KerDirectConv5x5_fp", LOC_LOOP,
                          Bindings(6,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H),
                                   K_Arg("Filter", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   C_Arg("Norm")))),
               KerArgs(3,
                       KerArg("In", KerArgSpace(2, KER_ITER_D1, KER_ITER_TILE0), O_IN | O_DB, W, H, sizeof(short int),
                              5 - 1, 0, 0, "In"),
                       KerArg("Filter", KerArgSpace(2, KER_ITER_D0, KER_ITER_D1), O_IN | O_DB, 5, 5, sizeof(short int), 0,
                              0, 0, "Filter"),
                       KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_OUT | O_DB, W - 5 + 1, H - 5 + 1,
                              sizeof(short int), 0, 0, 0, "Out")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "Conv5x5BasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadConv5x5Library();
    GenerateCnnConv5x5("Conv5x5", 3, 2, 128, 144);
    GenerateCnnConv5x5("Conv5x5Deep", 16, 24, 20, 24);
    GenerateTilingCode();
    return 0;
}
