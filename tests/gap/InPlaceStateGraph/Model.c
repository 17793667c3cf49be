/* A graph that keeps a state in place across steps, as NNTool's LSTM and GRU layers keep theirs
 * when they are split into several sequences: each step writes a new local in place of the one it
 * reads (GNodeArg(GNA_INOUT, "Cell01", "Cell")), so Cell, Cell01 and Cell02 are one buffer.
 *   Seed    Cell   = Input                   (KerAffine of the ValueArgGraph example, Scale 1)
 *   Step    Cell01 = Cell + Input            (in place, saturated)
 *   Step    Cell02 = Cell01 + Input          (in place, saturated)
 *   Affine  Output = Cell02 * Scale + Bias   (Scale, Bias: runner arguments)
 * over 40 x 30 int16 values, tiled in 4000 bytes of L1. The runner is StateNet(Input, Output,
 * Scale, Bias). */
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadInPlaceLibrary(void)
{
    LibKernel("KerAffine", CALL_PARALLEL,
              CArgs(7,
                    TCArg("short int * __restrict__", "In"),
                    TCArg("short int * __restrict__", "Out"),
                    TCArg("unsigned short int", "W"),
                    TCArg("unsigned short int", "H"),
                    TCArg("short int", "Scale"),
                    TCArg("short int", "Offset"),
                    TCArg("signed char", "Clear")),
              "KerAffine_Arg_T", 0);
    LibKernel("KerAccumulate", CALL_PARALLEL,
              CArgs(4,
                    TCArg("short int * __restrict__", "In"),
                    TCArg("short int * __restrict__", "State"),
                    TCArg("unsigned short int", "W"),
                    TCArg("unsigned short int", "H")),
              "KerAccumulate_Arg_T", 0);
}

static void AffineGenerator(const char *Name, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(4,
                     TCArg("short int * __restrict__", "In"),
                     TCArg("short int * __restrict__", "Out"),
                     TCArg("short int", "Scale"),
                     TCArg("short int", "Offset")),
               Calls(1,
                     Call("KerAffine", LOC_LOOP,
                          Bindings(7,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H),
                                   C_Arg("Scale"),
                                   C_Arg("Offset"),
                                   Imm(0)))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, W, H, 2, 0, 0, 0, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, W, H, 2, 0, 0, 0, "Out")));
}

static void AccumulateGenerator(const char *Name, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(2,
                     TCArg("short int * __restrict__", "In"),
                     TCArg("short int * __restrict__", "State")),
               Calls(1,
                     Call("KerAccumulate", LOC_LOOP,
                          Bindings(4,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("State", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H)))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, W, H, 2, 0, 0, 0, "In"),
                       KerArg("State", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_OUT | O_DB, W, H, 2, 0, 0, 0, "State")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 2, "ValueArgBasicKernels.h", "InPlaceBasicKernels.h");
    SetGeneratedFilesNames("StateNetKernels.c", "StateNetKernels.h");
    SetMemoryDeviceInfos(2, AT_MEM_L1, 4000, "StateNet_L1_Memory", 0, 0, AT_MEM_L2, 64 * 1024, "StateNet_L2_Memory", 0, 0);
    LoadInPlaceLibrary();
    AffineGenerator("Affine", 40, 30);
    AccumulateGenerator("Accumulate", 40, 30);

    CreateGraph("StateNet",
                CArgs(4,
                      TCArgInfo("short int *__restrict__", "Input", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      TCArgInfo("short int *__restrict__", "Output", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0),
                      TCArgInfo("short int", "Scale", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
                      TCArgInfo("short int", "Bias", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)),
                /* NNTool declares the in-place locals with a type of their own ("int8"): it is not read. */
                CArgs(3,
                      TCArgInfo("short int *__restrict__", "Cell", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
                      TCArgInfo("signed char", "Cell01", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
                      TCArgInfo("signed char", "Cell02", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)));
    AddNode("Affine", Bindings(4, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_OUT, "Cell", 0), Imm(1), Imm(0)));
    AddNode("Accumulate", Bindings(2, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_INOUT, "Cell01", "Cell")));
    AddNode("Accumulate", Bindings(2, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_INOUT, "Cell02", "Cell01")));
    AddNode("Affine", Bindings(4, GNodeArg(GNA_IN, "Cell02", 0), GNodeArg(GNA_OUT, "Output", 0), GNodeCArg("Scale"),
                               GNodeCArg("Bias")));
    CloseGraph();
    GenerateTilingCode();
    return 0;
}
