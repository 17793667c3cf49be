/* Iteration order 1 (KER_DIM3, KER_IN_PLANE, KER_TILE) with vertical tiles: every input plane of an
 * in-place 3-D argument is scaled by its own factor (C_ArgIndex over KER_IN_PLANE) through a
 * one-tile L1 scratch buffer (O_ONETILE), and each element gets its column index added, which the
 * basic kernel finds from KER_ARG_TILEOFFSET; KER_ARG_TILE_W0 and KER_ARG_TILEINDEX are cross-checked.
 * Sequential counter kernels at every other call location record how often and where they ran. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadPlaneScaleLibrary(void)
{
    LibKernel("ScaleTile", CALL_PARALLEL,
              CArgs(9,
                    TCArg("Word16 * __restrict__", "In"),
                    TCArg("Word16 * __restrict__", "Tmp"),
                    TCArg("unsigned int", "W"),
                    TCArg("unsigned int", "H"),
                    TCArg("unsigned int", "W0"),
                    TCArg("unsigned int", "Offset"),
                    TCArg("unsigned int", "TileIndex"),
                    TCArg("unsigned int", "TileCount"),
                    TCArg("Word16", "Scale")),
              "ScaleTile_Arg_T");
    LibKernel("CountAt", CALL_SEQUENTIAL,
              CArgs(2, TCArg("Word32 * __restrict__", "Counters"), TCArg("unsigned int", "Index")), "");
}

static void PlaneScaleGenerator(char *Name, unsigned int Planes, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelDimensions(Planes, W, H, 1),
               KernelIterationOrder(KER_DIM3, KER_IN_PLANE, KER_TILE),
               TILE_VER,
               CArgs(3,
                     TCArg("Word16 * __restrict__", "InOut"),
                     TCArg("Word16 * __restrict__", "Scales"),
                     TCArg("Word32 * __restrict__", "Counters")),
               Calls(7,
                     Call("CountAt", LOC_PROLOG, Bindings(2, C_Arg("Counters"), Imm(0))),
                     Call("CountAt", LOC_IN_PLANE_PROLOG, Bindings(2, C_Arg("Counters"), Imm(1))),
                     Call("CountAt", LOC_INNER_LOOP_PROLOG, Bindings(2, C_Arg("Counters"), Imm(2))),
                     Call("ScaleTile", LOC_INNER_LOOP,
                          Bindings(9,
                                   K_Arg("InOut", KER_ARG_TILE),
                                   K_Arg("Tmp", KER_ARG_TILE),
                                   K_Arg("InOut", KER_ARG_TILE_W),
                                   K_Arg("InOut", KER_ARG_TILE_H),
                                   K_Arg("InOut", KER_ARG_TILE_W0),
                                   K_Arg("InOut", KER_ARG_TILEOFFSET),
                                   K_Arg("InOut", KER_ARG_TILEINDEX),
                                   K_Arg("InOut", KER_ARG_NTILES),
                                   C_ArgIndex("Scales", KER_IN_PLANE, 1))),
                     Call("CountAt", LOC_INNER_LOOP_EPILOG, Bindings(2, C_Arg("Counters"), Imm(3))),
                     Call("CountAt", LOC_IN_PLANE_EPILOG, Bindings(2, C_Arg("Counters"), Imm(4))),
                     Call("CountAt", LOC_EPILOG, Bindings(2, C_Arg("Counters"), Imm(5)))),
               KerArgs(2,
                       KerArg("InOut", OBJ_IN_OUT_DB_3D, W, H, sizeof(int16_t), 0, 0, 0, "InOut", 0),
                       KerArg("Tmp", OBJ_BUFFER_ONETILE, W, H, sizeof(int16_t), 0, 0, 0, 0, 0)));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "PlaneScaleBasicKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadPlaneScaleLibrary();
    PlaneScaleGenerator("PlaneScale", 4, 256, 48);
    GenerateTilingCode();
    return 0;
}
