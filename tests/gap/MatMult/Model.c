/* Matrix products tiled on two levels, declared the way GreenWaves' matrix-product generator declares
 * them: the current SDK's iteration spaces with an outer tiled space KER_ITER_TILE1, which tiles the
 * first matrix and the result by lines, around KER_ITER_TILE0, which tiles the second matrix by
 * columns (OBJ_CONSTRAINTS_TILE_VER). The basic kernel places its columns with the second matrix's
 * KER_ARG_TILE_BASE. OBJ_CONSTRAINTS_PAD_REM lets the last tiles take any remainder. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

#define T0 KER_ITER_TILE0
#define T1 KER_ITER_TILE1

static void LoadMatMultLibrary(void)
{
    CKernel_Arg_T **Args = CArgs(10,
                                 TCArg("int * __restrict__", "In1"),
                                 TCArg("unsigned int", "W_In1"),
                                 TCArg("unsigned int", "H_In1"),
                                 TCArg("int * __restrict__", "In2"),
                                 TCArg("unsigned int", "W_In2"),
                                 TCArg("int * __restrict__", "Out"),
                                 TCArg("unsigned int", "W_Out"),
                                 TCArg("unsigned int", "OutFirstCol"),
                                 TCArg("int * __restrict__", "BufferColIn2"),
                                 TCArg("unsigned int", "Norm"));
    LibKernel("MatMultColumns", CALL_PARALLEL, Args, "MatMultColumns_Arg_T", NULL);
    LibKernel("MatMultColumnsBuffered", CALL_PARALLEL, Args, "MatMultColumns_Arg_T", NULL);
}

/* [LineM1 x ColM1] * [ColM1 x ColM2]; with Buffered, a one-column buffer for the basic kernel. */
static void MatMultGenerator(char *Name, unsigned int LineM1, unsigned int ColM1, unsigned int ColM2, int Buffered)
{
    UserKernel(Name,
        KernelIterSpace(2, IterTiledSpace(T1), IterTiledSpace(T0)),
        TILE_HOR,
        CArgs(4,
              TCArg("int * __restrict__", "M1"),
              TCArg("int * __restrict__", "M2"),
              TCArg("int * __restrict__", "Out"),
              TCArg("unsigned int", "Norm")),
        Calls(1,
              Call(Buffered ? "MatMultColumnsBuffered" : "MatMultColumns", LOC_LOOP,
                   Bindings(10,
                            K_Arg("M1", KER_ARG_TILE), K_Arg("M1", KER_ARG_TILE_W), K_Arg("M1", KER_ARG_TILE_H),
                            K_Arg("M2", KER_ARG_TILE), K_Arg("M2", KER_ARG_TILE_W),
                            K_Arg("Out", KER_ARG_TILE), K_Arg("Out", KER_ARG_TILE_W), K_Arg("M2", KER_ARG_TILE_BASE),
                            Buffered ? K_Arg("KerBuff", KER_ARG_TILE) : AT_IGNORE_ARG_BINDING,
                            C_Arg("Norm")))),
        KerArgs(4,
                Buffered ? KerArg("KerBuff", KerArgSpace(1, T0), O_BUFF | O_NTILED, ColM1, 1, sizeof(int), 0, 0, 0, 0)
                         : AT_NO_KER_ARG,
                KerArg("M1", KerArgSpace(1, T1), O_IN | O_DB, ColM1, LineM1, sizeof(int), 0, OBJ_CONSTRAINTS_PAD_REM,
                       0, "M1"),
                KerArg("M2", KerArgSpace(1, T0), O_IN | O_DB, ColM2, ColM1, sizeof(int), 0,
                       OBJ_CONSTRAINTS_TILE_VER | OBJ_CONSTRAINTS_PAD_REM, 0, "M2"),
                KerArg("Out", KerArgSpace(1, T1), O_OUT | O_DB, ColM2, LineM1, sizeof(int), 0, OBJ_CONSTRAINTS_PAD_REM,
                       0, "Out")));
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "MatMultBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadMatMultLibrary();
    /* 58,240 bytes of data: at 51,200 bytes of L1 the first matrix and the result go in bands. */
    MatMultGenerator("MatMultBands", 200, 48, 20, 0);
    /* 72,640 bytes, most of them the second matrix: its columns go in bands too. */
    MatMultGenerator("MatMultBuffered", 40, 64, 150, 1);
    GenerateTilingCode();
    return 0;
}
