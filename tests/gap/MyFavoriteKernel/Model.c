/* Autotiler model of the guide's "MyFavoriteKernel": a 4-D iteration space (4 input planes, 4 output
 * planes, order 2: KER_OUT_PLANE, KER_TILE, KER_IN_PLANE) tiled horizontally, computing for every
 * output plane o
 *     Out[o] = sum over input planes i of (In1[i] + In2[i] + Bias[o])
 * as the guide describes it. Two deviations from the guide's listing, both to get that result:
 *  - the guide's MatrixAdd overwrites Out, so only the last input plane would survive; ours
 *    accumulates (Out += In1 + In2 + Bias) and a MatrixClear call at LOC_IN_PLANE_PROLOG zeroes the
 *    output tile before the input planes of each tile are traversed;
 *  - Bias is bound with C_ArgIndex("Bias", KER_OUT_PLANE, 1), i.e. the value Bias[OutPlane], so the
 *    basic kernel takes a Word32 (the guide's LibKernel), not a pointer.
 * The kernel arguments are declared 75 x 75 as in the guide (overriding the 32 x 28 default plane of
 * KernelDimensions): 3 arguments x 4 planes x 22.5 KB = 270 KB of L2, which needs several tiles at
 * the 51200-byte budget, whereas 32 x 28 planes would fit in a single tile. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

#define PLANE_W 75
#define PLANE_H 75

static void LoadMyFavoriteLibrary(void)
{
    LibKernel("MatrixClear", CALL_PARALLEL,
              CArgs(3,
                    TCArg("Word32 * __restrict__", "Out"),
                    TCArg("Wordu32", "W"),
                    TCArg("Wordu32", "H")),
              "MatrixClear_Arg_T");
    LibKernel("MatrixAdd", CALL_PARALLEL,
              CArgs(6,
                    TCArg("Word32 * __restrict__", "In1"),
                    TCArg("Word32 * __restrict__", "In2"),
                    TCArg("Word32 * __restrict__", "Out"),
                    TCArg("Word32", "Bias"),
                    TCArg("Wordu32", "W"),
                    TCArg("Wordu32", "H")),
              "MatrixAdd_Arg_T");
}

static void MyFavoriteKernelGenerator(char *Name)
{
    UserKernel(Name,
               KernelDimensions(4, 32, 28, 4),
               KernelIterationOrder(KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE),
               TILE_HOR,
               CArgs(4,
                     TCArg("Word32 * __restrict__", "In1"),
                     TCArg("Word32 * __restrict__", "In2"),
                     TCArg("Word32 * __restrict__", "Out"),
                     TCArg("Word32 * __restrict__", "Bias")),
               Calls(2,
                     /* Before the input planes of a tile are traversed: start from zero. */
                     Call("MatrixClear", LOC_IN_PLANE_PROLOG,
                          Bindings(3,
                                   K_Arg("KerOut", KER_ARG_TILE),
                                   K_Arg("KerOut", KER_ARG_TILE_W),
                                   K_Arg("KerOut", KER_ARG_TILE_H))),
                     Call("MatrixAdd", LOC_INNER_LOOP,
                          Bindings(6,
                                   K_Arg("KerIn1", KER_ARG_TILE),          /* a tile */
                                   K_Arg("KerIn2", KER_ARG_TILE),          /* a tile */
                                   K_Arg("KerOut", KER_ARG_TILE),          /* a tile */
                                   C_ArgIndex("Bias", KER_OUT_PLANE, 1),   /* Bias[CurrentOutputPlane*1] */
                                   K_Arg("KerIn1", KER_ARG_TILE_W),        /* tile width */
                                   K_Arg("KerIn1", KER_ARG_TILE_H)))),     /* tile height */
               KerArgs(3,
                       KerArg("KerIn1", OBJ_IN_DB_3D, PLANE_W, PLANE_H, sizeof(int32_t), 0, 0, 0, "In1", 0),
                       KerArg("KerIn2", OBJ_IN_DB_3D, PLANE_W, PLANE_H, sizeof(int32_t), 0, 0, 0, "In2", 0),
                       KerArg("KerOut", OBJ_OUT_DB_3D, PLANE_W, PLANE_H, sizeof(int32_t), 0, 0, 0, "Out", 0)));
}

static void ConfigureTiler(void)
{
    SetUsedFilesNames(0, 1, "MyFavoriteKernelBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
}

static void MySetOfUserKernels(unsigned int L1MemoryBudget)
{
    SetL1MemorySize(L1MemoryBudget);
    LoadMyFavoriteLibrary();
    MyFavoriteKernelGenerator("MyFavoriteKernel");
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
