/* PlaneScale/Model.c written with the current SDK's API: the input planes are the space KER_ITER_D0
 * around the tiles (KER_ITER_TILE0), so LOC_D0_PROLOG / LOC_D0_EPILOG are the input-plane prolog and
 * epilog, C_ArgIndex(Scales, KER_ITER_D0, 1) the plane's factor and KER_ARG_TILE_BASE the tile's
 * first column. It declares the same kernel, so it must generate the same code. */
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
              "ScaleTile_Arg_T", NULL);
    LibKernel("CountAt", CALL_SEQUENTIAL,
              CArgs(2, TCArg("Word32 * __restrict__", "Counters"), TCArg("unsigned int", "Index")), "", NULL);
}

static void PlaneScaleGenerator(char *Name, unsigned int Planes, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, Planes), IterTiledSpace(KER_ITER_TILE0)),
               TILE_VER,
               CArgs(3,
                     TCArg("Word16 * __restrict__", "InOut"),
                     TCArg("Word16 * __restrict__", "Scales"),
                     TCArg("Word32 * __restrict__", "Counters")),
               Calls(7,
                     Call("CountAt", LOC_PROLOG, Bindings(2, C_Arg("Counters"), Imm(0))),
                     Call("CountAt", LOC_D0_PROLOG, Bindings(2, C_Arg("Counters"), Imm(1))),
                     Call("CountAt", LOC_LOOP_PROLOG, Bindings(2, C_Arg("Counters"), Imm(2))),
                     Call("ScaleTile", LOC_LOOP,
                          Bindings(9,
                                   K_Arg("InOut", KER_ARG_TILE),
                                   K_Arg("Tmp", KER_ARG_TILE),
                                   K_Arg("InOut", KER_ARG_TILE_W),
                                   K_Arg("InOut", KER_ARG_TILE_H),
                                   K_Arg("InOut", KER_ARG_TILE_W0),
                                   K_Arg("InOut", KER_ARG_TILE_BASE),
                                   K_Arg("InOut", KER_ARG_TILEINDEX),
                                   K_Arg("InOut", KER_ARG_NTILES),
                                   C_ArgIndex("Scales", KER_ITER_D0, 1))),
                     Call("CountAt", LOC_LOOP_EPILOG, Bindings(2, C_Arg("Counters"), Imm(3))),
                     Call("CountAt", LOC_D0_EPILOG, Bindings(2, C_Arg("Counters"), Imm(4))),
                     Call("CountAt", LOC_EPILOG, Bindings(2, C_Arg("Counters"), Imm(5)))),
               KerArgs(2,
                       KerArg("InOut", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), O_IN | O_OUT | O_DB, W, H,
                              sizeof(int16_t), 0, 0, 0, "InOut"),
                       KerArg("Tmp", KerArgSpace(1, KER_ITER_TILE0), O_BUFF | O_ONETILE, W, H, sizeof(int16_t), 0, 0, 0, 0)));
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
