/* A graph whose nodes take values besides tensors, as NNTool's recurrent layers take their Reset:
 *   Affine0  Temp   = Reset ? 0 : Input * Scale - 3     (Scale, Reset: runner arguments, GNodeCArg)
 *   Affine1  Output = Temp * 2 + Bias                   (Bias: a runner argument; 2: Imm)
 * over 40 x 30 int16 values, tiled in 4000 bytes of L1 (--l1 overrides it). The runner is
 * ValueNet(Input, Output, Reset, Scale, Bias). */
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadValueArgLibrary(void)
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
}

static void AffineGenerator(const char *Name, unsigned int W, unsigned int H)
{
    UserKernel(Name,
               KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)),
               TILE_HOR,
               CArgs(5,
                     TCArg("short int * __restrict__", "In"),
                     TCArg("short int * __restrict__", "Out"),
                     TCArg("short int", "Scale"),
                     TCArg("short int", "Offset"),
                     TCArg("signed char", "Clear")),
               Calls(1,
                     Call("KerAffine", LOC_LOOP,
                          Bindings(7,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H),
                                   C_Arg("Scale"),
                                   C_Arg("Offset"),
                                   C_Arg("Clear")))),
               KerArgs(2,
                       KerArg("In", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_DB, W, H, 2, 0, 0, 0, "In"),
                       KerArg("Out", KerArgSpace(1, KER_ITER_TILE0), O_OUT | O_DB, W, H, 2, 0, 0, 0, "Out")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "ValueArgBasicKernels.h");
    SetGeneratedFilesNames("ValueNetKernels.c", "ValueNetKernels.h");
    SetMemoryDeviceInfos(2, AT_MEM_L1, 4000, "ValueNet_L1_Memory", 0, 0, AT_MEM_L2, 64 * 1024, "ValueNet_L2_Memory", 0, 0);
    LoadValueArgLibrary();
    AffineGenerator("Affine", 40, 30);

    CreateGraph("ValueNet",
                CArgs(5,
                      TCArgInfo("short int *__restrict__", "Input", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      TCArgInfo("short int *__restrict__", "Output", ARG_SCOPE_ARG, ARG_DIR_OUT, AT_MEM_UNDEF, AT_MEM_L2, 0),
                      TCArgInfo("bool", "Reset", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_L2, AT_MEM_UNDEF, 0),
                      TCArgInfo("short int", "Scale", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_UNDEF, AT_MEM_UNDEF, 0),
                      TCArgInfo("short int", "Bias", ARG_SCOPE_ARG, ARG_DIR_IN, AT_MEM_UNDEF, AT_MEM_UNDEF, 0)),
                CArgs(1, TCArgInfo("short int *__restrict__", "Temp", ARG_SCOPE_LOCAL, ARG_DIR_INOUT, AT_MEM_UNDEF,
                                   AT_MEM_UNDEF, 0)));
    AddNode("Affine", Bindings(5, GNodeArg(GNA_IN, "Input", 0), GNodeArg(GNA_OUT, "Temp", 0), GNodeCArg("Scale"),
                               Imm(-3), GNodeCArg("Reset")));
    AddNode("Affine", Bindings(5, GNodeArg(GNA_IN, "Temp", 0), GNodeArg(GNA_OUT, "Output", 0), Imm(2),
                               GNodeCArg("Bias"), Imm(0)));
    CloseGraph();
    GenerateTilingCode();
    return 0;
}
