/* A FIR filter whose input tiles carry their delay line, in the manner of GreenWaves' FIR generator:
 * KerArgPad leaves NCoeffs - 1 samples of room before each input buffer, the kernel reads the
 * samples before its tile there and leaves its last samples before the next tile through
 * K_Arg(.., KER_ARG_TILE_NEXTDB). Each filter is first tried untiled with AT_KERNEL_NOSOLUTION_ERROR
 * off, then tiled, double-buffered. */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

/* Declared by the model itself, as GreenWaves' FIR generator does: it must agree with the header. */
extern Object_T *KerArgPad(
	char *KerArgName,
	KernelArgDimDescrT *KerArgSpace,
	Object_Type_T ObjType,
	unsigned int W,
	unsigned int H,
	unsigned int BottomBuffer,
	unsigned int TopBuffer,
	unsigned int ItemSize,
	int TileOverlap,
	KernelArgConstraints_T Constraint,
	unsigned int PreferedTileSize,
	char *CArgName);

static void LoadFirLibrary(void)
{
    LibKernel("FirClearHistory", CALL_PARALLEL,
              CArgs(2,
                    TCArg("short int * __restrict__", "In"),
                    TCArg("unsigned int", "NCoeffs")),
              "FirClearHistory_Arg_T", NULL);
    LibKernel("FirTile", CALL_PARALLEL,
              CArgs(8,
                    TCArg("short int *", "In"),
                    TCArg("short int *", "NextIn"),
                    TCArg("short int * __restrict__", "Coeffs"),
                    TCArg("short int * __restrict__", "Out"),
                    TCArg("unsigned int", "Lines"),
                    TCArg("unsigned int", "LineSamples"),
                    TCArg("unsigned int", "NCoeffs"),
                    TCArg("unsigned int", "Norm")),
              "FirTile_Arg_T", NULL);
}

/* The signal is a plane of LineSamples-sample lines, tiled by lines (GreenWaves' generator has one
 * sample per line; whole lines keep the number of tiles at the smallest L1 budget small). */
static Kernel_T *FirKernel(char *Name, unsigned int LineSamples, unsigned int Lines, unsigned int Taps, int Tiled)
{
    return UserKernel(Name,
        KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)),
        TILE_HOR,
        CArgs(4,
              TCArg("short int * __restrict__", "In"),
              TCArg("short int * __restrict__", "Coeffs"),
              TCArg("short int * __restrict__", "Out"),
              TCArg("unsigned int", "Norm")),
        Calls(2,
              Call("FirClearHistory", LOC_LOOP_PROLOG,
                   Bindings(2, K_Arg("KerIn", KER_ARG_TILE), Imm(Taps))),
              Call("FirTile", LOC_LOOP,
                   Bindings(8,
                            K_Arg("KerIn", KER_ARG_TILE),
                            Tiled ? K_Arg("KerIn", KER_ARG_TILE_NEXTDB) : Imm(0),
                            K_Arg("KerCoeffs", KER_ARG_TILE),
                            K_Arg("KerOut", KER_ARG_TILE),
                            K_Arg("KerIn", KER_ARG_TILE_H),
                            Imm(LineSamples),
                            Imm(Taps),
                            C_Arg("Norm")))),
        KerArgs(3,
                KerArgPad("KerIn", KerArgSpace(1, KER_ITER_TILE0), Tiled ? OBJ_IN_DB : O_IN | O_NTILED, LineSamples,
                          Lines, Taps - 1, 0, sizeof(short int), 0, 0, Tiled ? 4 : 0, "In"),
                KerArg("KerCoeffs", KerArgSpace(1, KER_ITER_TILE0), O_IN | O_NTILED | O_BUFF, 1, Taps,
                       sizeof(short int), 0, 0, 0, "Coeffs"),
                KerArg("KerOut", KerArgSpace(1, KER_ITER_TILE0), Tiled ? OBJ_OUT_DB : O_OUT | O_NTILED, LineSamples, Lines,
                       sizeof(short int), 0, 0, 0, "Out")));
}

static void FirGenerator(char *Name, unsigned int LineSamples, unsigned int Lines, unsigned int Taps)
{
    AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_OFF);
    Kernel_T *Untiled = FirKernel(Name, LineSamples, Lines, Taps, 0);
    AT_SetKernelCtrl(AT_KERNEL_NOSOLUTION_ERROR, AT_OPT_ON);
    if (Untiled == 0)
        FirKernel(Name, LineSamples, Lines, Taps, 1);
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect arguments.\n");
        return 1;
    }
    SetUsedFilesNames(0, 1, "FirBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
    SetL1MemorySize(51200);
    LoadFirLibrary();
    FirGenerator("Fir20", 60, 500, 20);     /* 30000 samples: tiled at the model's 51200 bytes */
    /* 1000 samples: untiled there; at the smallest budget its 4-sample tiles are shorter than the
     * 6-sample delay line, which then comes partly from the tile before the previous one. */
    FirGenerator("Fir7Short", 4, 250, 7);
    GenerateTilingCode();
    return 0;
}
