/* Bilinear resizes written the way GreenWaves' resize generator declares them: the current SDK's
 * iteration spaces, a tiled output and an input of OBJ_CONSTRAINTS_DYNAMIC with one line of overlap,
 * whose tiles follow the output's by the ratio (Hin - 1) / Hout. The basic kernel finds its input
 * lines from both arguments' KER_ARG_TILE_BASE. AddKernelArgDim gives the arguments' shapes. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadResizeLibrary(void)
{
    LibKernel("ResizeLines", CALL_PARALLEL,
              CArgs(9,
                    TCArg("unsigned char * __restrict__", "In"),
                    TCArg("unsigned char * __restrict__", "Out"),
                    TCArg("unsigned int", "Win"),
                    TCArg("unsigned int", "Hin"),
                    TCArg("unsigned int", "Wout"),
                    TCArg("unsigned int", "Hout"),
                    TCArg("unsigned int", "Lines"),
                    TCArg("unsigned int", "InFirst"),
                    TCArg("unsigned int", "OutFirst")),
              "ResizeLines_Arg_T", NULL);
}

static void ResizeGenerator(char *Name, unsigned int Win, unsigned int Hin, unsigned int Wout, unsigned int Hout,
                            unsigned int Channels)
{
    Kernel_T *Kernel = UserKernel(Name,
        KernelIterSpace(2, IterFixedSpace(KER_ITER_D0, Channels), IterTiledSpace(KER_ITER_TILE0)),
        TILE_HOR,
        CArgs(2, TCArg("unsigned char *", "In"), TCArg("unsigned char *", "Out")),
        Calls(1, Call("ResizeLines", LOC_LOOP,
                      Bindings(9,
                               K_Arg("In", KER_ARG_TILE),
                               K_Arg("Out", KER_ARG_TILE),
                               K_Arg("In", KER_ARG_W),
                               K_Arg("In", KER_ARG_H),
                               K_Arg("Out", KER_ARG_W),
                               K_Arg("Out", KER_ARG_H),
                               K_Arg("Out", KER_ARG_TILE_H),
                               K_Arg("In", KER_ARG_TILE_BASE),
                               K_Arg("Out", KER_ARG_TILE_BASE)))),
        KerArgs(2,
                KerArg("In", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_IN_DB, Win, Hin, sizeof(char), 1,
                       OBJ_CONSTRAINTS_DYNAMIC, 0, "In"),
                KerArg("Out", KerArgSpace(2, KER_ITER_D0, KER_ITER_TILE0), OBJ_OUT_DB, Wout, Hout, sizeof(char), 0,
                       OBJ_CONSTRAINTS_DYNAMIC, 0, "Out")));
    if (Kernel) {
        AddKernelArgDim(Name, "In", 4, Channels, Hin, Win, 1);
        AddKernelArgDim(Name, "Out", 4, Channels, Hout, Wout, 1);
    }
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "ResizeBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadResizeLibrary();
    /* Halving a 322 x 242 image: input tiles of about 2 lines per output line, 241 / 121. */
    ResizeGenerator("ResizeHalf", 322, 242, 161, 121, 1);
    /* Three planes of 150 x 100 to 47 x 31: 99 / 31 input lines per output line. */
    ResizeGenerator("ResizeThird", 150, 100, 47, 31, 3);
    GenerateTilingCode();
    return 0;
}
