/* Autotiler model of the guide's "Illustrative example 2 - Searching the maximum in a 2D matrix":
 * a map/reduce over a 200 x 300 plane of 32-bit integers. KerMatrixMax runs on every tile and stores
 * the tile's maximum in a dynamic buffer (one entry per tile); KerMatrixMaxReduction runs once after
 * the last tile (LOC_INNER_LOOP_EPILOG) and writes the overall maximum straight to the C argument Out.
 * At 51200 bytes of L1 the guide gets 10 tiles of 31 lines (the last one 21 lines). */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadMatMaxLibrary(void)
{
    LibKernel("KerMatrixMax", CALL_PARALLEL,
              CArgs(6,
                    TCArg("Word32 * __restrict__", "In"),   /* a tile */
                    TCArg("Word32 * __restrict__", "Out"),  /* this tile's entry in the vector of maxima */
                    TCArg("unsigned int", "W"),             /* tile width */
                    TCArg("unsigned int", "H"),             /* tile height */
                    TCArg("unsigned int", "TileIndex"),     /* which tile */
                    TCArg("unsigned int", "CompareWithOut")), /* Out already holds a maximum */
              "MatrixMax_Arg_T");
    LibKernel("KerMatrixMaxReduction", CALL_SEQUENTIAL,
              CArgs(3,
                    TCArg("Word32 * __restrict__", "In"),   /* the vector of maxima */
                    TCArg("Word32 * __restrict__", "Out"),  /* the unique maximum */
                    TCArg("unsigned int", "Ntile")),        /* number of entries in In */
              "MatrixMaxReduction_Arg_T");
}

/* A user kernel computing the maximum of a plain W x H matrix. */
static void MatrixMax(char *Name, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelDimensions(1, W, H, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR,
               CArgs(2,
                     TCArg("int * __restrict__", "In"),
                     TCArg("int * __restrict__", "Out")),
               Calls(2,
                     Call("KerMatrixMax", LOC_INNER_LOOP,
                          Bindings(6,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("TiledOut", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H),
                                   K_Arg("In", KER_ARG_TILEINDEX),
                                   Imm(0))),
                     /* After the last tile; the result goes directly to *Out thanks to C_Arg("Out"). */
                     Call("KerMatrixMaxReduction", LOC_INNER_LOOP_EPILOG,
                          Bindings(3,
                                   K_Arg("TiledOut", KER_ARG),
                                   C_Arg("Out"),
                                   K_Arg("TiledOut", KER_ARG_NTILES)))),
               KerArgs(2,
                       /* A double-buffered input from L2, bound to the C argument In. */
                       KerArg("In", OBJ_IN_DB, W, H, sizeof(int), 0, 0, 0, "In", 0),
                       /* Declared 1 x H; its height is reduced to the number of tiles. */
                       KerArg("TiledOut", OBJ_BUFFER_DYN, 1, H, sizeof(int), 0, 0, 0, 0, 0)));
}

static void ConfigureTiler(void)
{
    SetUsedFilesNames(0, 1, "MatMaxBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
}

static void MySetOfUserKernels(unsigned int L1MemoryBudget)
{
    SetL1MemorySize(L1MemoryBudget);
    LoadMatMaxLibrary();
    MatrixMax("MatMax", 200, 300);
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
