/* MatAdd/Model.c written with the current SDK's API, as GreenWaves' MatAdd generator is: the 5-argument
 * LibKernel, KernelIterSpace with one tiled space, KerArg with a KerArgSpace, LOC_LOOP. It declares
 * the same kernel, so it must generate the same code. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadMatAddLibrary(void)
{
    LibKernel("MatSumPar", CALL_PARALLEL,
              CArgs(5,
                    TCArg("Word32 * __restrict__", "In1"),
                    TCArg("Word32 * __restrict__", "In2"),
                    TCArg("Word32 * __restrict__", "Out"),
                    TCArg("unsigned int", "W"),
                    TCArg("unsigned int", "H")),
              "MatSumPar_Arg_T", NULL);
}

static void MatAddGenerator(char *UserKernelName, int W, int H)
{
    UserKernel(UserKernelName,
               KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(3,
                     TCArg("Word32 * __restrict__", "In1"),
                     TCArg("Word32 * __restrict__", "In2"),
                     TCArg("Word32 * __restrict__", "Out")),
               Calls(1,
                     Call("MatSumPar", LOC_LOOP,
                          Bindings(5,
                                   K_Arg("In1", KER_ARG_TILE),
                                   K_Arg("In2", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In1", KER_ARG_TILE_W),
                                   K_Arg("In1", KER_ARG_TILE_H)))),
               KerArgs(3,
                       KerArg("In1", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, W, H, sizeof(int32_t), 0, 0, 0, "In1"),
                       KerArg("In2", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, W, H, sizeof(int32_t), 0, 0, 0, "In2"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, W, H, sizeof(int32_t), 0, 0, 0, "Out")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "MatAddBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadMatAddLibrary();
    MatAddGenerator("MatAdd", 200, 300);
    GenerateTilingCode();
    return 0;
}
