/* Matrix addition with its matrices homed in L3 RAM (O_L2DB): every tile travels L3 -> L2 staging
 * buffer -> L1 and back. Three user kernels: horizontal tiles with a double-buffered and a
 * single-buffered input, vertical tiles (2-D strided L3 transfers), and one whose second input is
 * a buffer loaded whole (one tile, as a buffer's tile is the whole of it). */
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

static void MatAddL3Generator(char *Name, int W, int H, Tile_Orientation_T Orientation, Object_Type_T In2Type)
{
    UserKernel(Name,
               KernelDimensions(1, W, H, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE),
               Orientation,
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
                       KerArg("In1", OBJ_IN_DB_L2DB, W, H, sizeof(int32_t), 0, 0, 0, "In1", 0),
                       KerArg("In2", In2Type, W, H, sizeof(int32_t), 0, 0, 0, "In2", 0),
                       KerArg("Out", OBJ_OUT_DB_L2DB, W, H, sizeof(int32_t), 0, 0, 0, "Out", 0)));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "MatAddL3BasicKernels.h");
    SetSymbolDynamics();
    SetMemorySizes(51200, 200 * 1024, 8 * 1024 * 1024);
    LoadMatAddLibrary();
    MatAddL3Generator("MatAddL3", 200, 300, TILE_HOR, OBJ_IN_L2DB);
    MatAddL3Generator("MatAddL3Ver", 120, 90, TILE_VER, OBJ_IN_DB_L2DB);
    /* In2 a buffer loaded whole into L1 (O_BUFF), homed in L3: it comes through its staging buffer. */
    MatAddL3Generator("MatAddL3Buf", 40, 30, TILE_HOR, OBJ_IN_L2DB | O_BUFF);
    GenerateTilingCode();
    return 0;
}
