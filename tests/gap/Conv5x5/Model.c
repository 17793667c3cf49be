/* Autotiler model of the guide's "User kernel example - CNN convolution layer" (GenerateCnnConv5x5):
 * InPlane input planes of W x H 16-bit values, OutPlane output planes of (W-4) x (H-4) (no padding),
 * 5x5 filters. Iteration order 2 (KER_OUT_PLANE, KER_TILE, KER_IN_PLANE), horizontal tiles:
 *  - KerSetInBias at LOC_IN_PLANE_PROLOG sets the output tile to Bias[OutPlane] (C_ArgIndex binds the
 *    value Bias[OutPlane*1]),
 *  - KerDirectConv5x5_fp at LOC_INNER_LOOP adds each input plane's normalized correlation.
 * The input tiles overlap by 4 lines; the Nip x Nop filters are an untiled 4-D argument, plane
 * (InPlane i, OutPlane o) being the 25 coefficients at Filter + (o*Nip + i)*25.
 * Here: 3 input planes of 128 x 144, 2 output planes of 124 x 140; at 51200 bytes of L1 this needs a
 * few tiles, and many at the smallest feasible budget. A second kernel has 16 input and 24 output
 * planes of 20 x 24. */
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
              "KerSetInBias_Arg_T");
    LibKernel("KerDirectConv5x5_fp", CALL_PARALLEL,
              CArgs(6,
                    TCArg("Word16 * __restrict__", "In"),
                    TCArg("int", "W"),
                    TCArg("int", "H"),
                    TCArg("Word16 * __restrict__", "Filter"),
                    TCArg("Word16 * __restrict__", "Out"),
                    TCArg("unsigned int", "Norm")),
              "KerConv5x5_fp_Arg_T");
}

static void GenerateCnnConv5x5(char *Name, unsigned int InPlane, unsigned int OutPlane, unsigned int W,
                               unsigned int H)
{
    UserKernel(Name,
               KernelDimensions(InPlane, W, H, OutPlane),
               KernelIterationOrder(KER_DIM4, KER_OUT_PLANE, KER_TILE, KER_IN_PLANE),
               TILE_HOR,
               CArgs(5,
                     TCArg("short int * __restrict__", "In"),
                     TCArg("short int * __restrict__", "Filter"),
                     TCArg("short int * __restrict__", "Out"),
                     TCArg("unsigned int", "Norm"),
                     TCArg("short int * __restrict__", "Bias")),
               Calls(2,
                     Call("KerSetInBias", LOC_IN_PLANE_PROLOG,
                          Bindings(4,
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H),
                                   C_ArgIndex("Bias", KER_OUT_PLANE, 1))),
                     Call("KerDirectConv5x5_fp", LOC_INNER_LOOP,
                          Bindings(6,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H),
                                   K_Arg("Filter", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   C_Arg("Norm")))),
               KerArgs(3,
                       KerArg("In", OBJ_IN_DB_3D, W, H, sizeof(short int), 5 - 1, 0, 0, "In", 0),
                       KerArg("Filter", OBJ_IN_DB_NTILED_4D, 5, 5, sizeof(short int), 0, 0, 0, "Filter", 0),
                       KerArg("Out", OBJ_OUT_DB_3D, W - 5 + 1, H - 5 + 1, sizeof(short int), 0, 0, 0, "Out", 0)));
}

static void ConfigureTiler(void)
{
    SetUsedFilesNames(0, 1, "Conv5x5BasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
}

static void MySetOfUserKernels(unsigned int L1MemoryBudget)
{
    SetL1MemorySize(L1MemoryBudget);
    LoadConv5x5Library();
    GenerateCnnConv5x5("Conv5x5", 3, 2, 128, 144);
    /* Many small planes: the 16 x 24 filters (19200 bytes) compete with the tiles for L1, so at some
     * budgets they are loaded per output plane for all input planes at once (partial promotion). */
    GenerateCnnConv5x5("Conv5x5Deep", 16, 24, 20, 24);
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
