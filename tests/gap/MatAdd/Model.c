/* Autotiler model of the guide's "Illustrative example 1 - Matrix addition": Out = In1 + In2 on a
 * 200 x 300 plane of Word32, tiled horizontally with double-buffered inputs and output.
 * At the guide's 51200-byte L1 budget the three double-buffered 200-wide int32 tiles give
 * 10-line tiles, hence 30 tiles. */
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
              "MatSumPar_Arg_T");
}

/* A user kernel adding two W x H matrices of 32-bit integers. */
static void MatAddGenerator(char *UserKernelName, int W, int H)
{
    UserKernel(UserKernelName,
               KernelDimensions(1, W, H, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR,
               CArgs(3,
                     TCArg("Word32 * __restrict__", "In1"),
                     TCArg("Word32 * __restrict__", "In2"),
                     TCArg("Word32 * __restrict__", "Out")),
               Calls(1,
                     Call("MatSumPar", LOC_INNER_LOOP,
                          Bindings(5,
                                   K_Arg("In1", KER_ARG_TILE),
                                   K_Arg("In2", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In1", KER_ARG_TILE_W),
                                   K_Arg("In1", KER_ARG_TILE_H)))),
               KerArgs(3,
                       KerArg("In1", OBJ_IN_DB, W, H, sizeof(int32_t), 0, 0, 0, "In1", 0),
                       KerArg("In2", OBJ_IN_DB, W, H, sizeof(int32_t), 0, 0, 0, "In2", 0),
                       KerArg("Out", OBJ_OUT_DB, W, H, sizeof(int32_t), 0, 0, 0, "Out", 0)));
}

static void ConfigureTiler(void)
{
    SetUsedFilesNames(0, 1, "MatAddBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    /* L1 (and L2) become pointers the harness allocates, so AddressSanitizer sees overflows. */
    SetSymbolDynamics();
}

static void MySetOfUserKernels(unsigned int L1MemoryBudget)
{
    SetL1MemorySize(L1MemoryBudget);
    LoadMatAddLibrary();
    MatAddGenerator("MatAdd", 200, 300);
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    ConfigureTiler();
    MySetOfUserKernels(51200);
    GenerateTilingCode();
    return 0;
}
