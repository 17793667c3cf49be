/* Autotiler model of the guide's "User kernel group example, 2D FFT": a kernel group made of
 *  - <Name>Horizontal (TILE_HOR): expands a Dim x Dim byte image to complex Q15 samples, runs a 1-D
 *    DIF FFT on every line and puts every line back in natural order;
 *  - <Name>Vertical (TILE_VER): runs a 1-D DIF FFT on every column of the horizontal result, in
 *    place (one InOut argument), and reorders the columns.
 * The group <Name>(In, Out, Twiddles, SwapTable) calls both. Radix 4 is used when Dim is a power of
 * 4 (unless ForceRadix2), radix 2 otherwise. The model declares two groups so that both radices are
 * exercised: FFT2D (Dim 64, radix 4) and FFT2D_Radix2 (Dim 32, radix 2). */
#include <stdint.h>
#include <stdio.h>

#include "AutoTilerLib.h"

static void LoadFFT2DLibrary(void)
{
    LibKernel("Image2Complex", CALL_PARALLEL,
              CArgs(4,
                    TCArg("Wordu8 * __restrict__", "In"),
                    TCArg("v2s * __restrict__", "Out"),
                    TCArg("unsigned int", "W"),
                    TCArg("unsigned int", "H")),
              "Image2Complex_Arg_T");
    const char *FFTKernels[4] = {"Radix4FFT_DIF_2D_Horizontal", "Radix4FFT_DIF_2D_Vertical",
                                 "Radix2FFT_DIF_2D_Horizontal", "Radix2FFT_DIF_2D_Vertical"};
    for (int i = 0; i < 4; i++)
        LibKernel(FFTKernels[i], CALL_PARALLEL,
                  CArgs(4,
                        TCArg("v2s * __restrict__", "Data"),
                        TCArg("Word16 * __restrict__", "Twiddles"),
                        TCArg("unsigned int", "N_fft"),
                        TCArg("unsigned int", "Nb")),
                  "FFT_2D_Arg_T");
    const char *SwapKernels[2] = {"SwapSamples_2D_Horizontal_Par", "SwapSamples_2D_Vertical_Par"};
    for (int i = 0; i < 2; i++)
        LibKernel(SwapKernels[i], CALL_PARALLEL,
                  CArgs(4,
                        TCArg("v2s * __restrict__", "Data"),
                        TCArg("Word16 * __restrict__", "SwapTable"),
                        TCArg("unsigned int", "N_fft"),
                        TCArg("unsigned int", "Nb")),
                  "SwapSamples_2D_Arg_T");
}

static void FFT2D(char *Name, unsigned int Dim, int ForceRadix2)
{
    char *KerHorizontal, *KerVertical;

    /* Dim must be a power of 2; radix 4 when it is a power of 4. */
    if (Dim == 0 || __builtin_popcount(Dim) != 1) {
        GenTilingError("FFT2D: %s, Incorrect Dim: %u, it has to be a a power of 2", Name, Dim);
        return;
    } else if ((__builtin_ctz(Dim) % 2) == 0 && !ForceRadix2) {
        KerHorizontal = "Radix4FFT_DIF_2D_Horizontal";
        KerVertical = "Radix4FFT_DIF_2D_Vertical";
    } else {
        KerHorizontal = "Radix2FFT_DIF_2D_Horizontal";
        KerVertical = "Radix2FFT_DIF_2D_Vertical";
    }

    OpenKernelGroup(Name);
    /* Byte image -> complex, FFT of each line, reorder. */
    UserKernel(AppendNames(Name, "Horizontal"),
               KernelDimensions(1, Dim, Dim, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_HOR,
               CArgs(4,
                     TCArg("Wordu8 * __restrict__", "In"),
                     TCArg("v2s * __restrict__", "Out"),
                     TCArg("Word16 * __restrict__", "Twiddles"),
                     TCArg("Word16 * __restrict__", "SwapTable")),
               Calls(3,
                     Call("Image2Complex", LOC_INNER_LOOP,
                          Bindings(4,
                                   K_Arg("In", KER_ARG_TILE),
                                   K_Arg("Out", KER_ARG_TILE),
                                   K_Arg("In", KER_ARG_TILE_W),
                                   K_Arg("In", KER_ARG_TILE_H))),
                     Call(KerHorizontal, LOC_INNER_LOOP,
                          Bindings(4,
                                   K_Arg("Out", KER_ARG_TILE),
                                   C_Arg("Twiddles"),
                                   K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H))),
                     Call("SwapSamples_2D_Horizontal_Par", LOC_INNER_LOOP,
                          Bindings(4,
                                   K_Arg("Out", KER_ARG_TILE),
                                   C_Arg("SwapTable"),
                                   K_Arg("Out", KER_ARG_TILE_W),
                                   K_Arg("Out", KER_ARG_TILE_H)))),
               KerArgs(2,
                       KerArg("In", OBJ_IN_DB, Dim, Dim, sizeof(uint8_t), 0, 0, 0, "In", 0),
                       KerArg("Out", OBJ_OUT_DB, Dim, Dim, sizeof(int32_t), 0, 0, 8, "Out", 0)));
    /* FFT of each column of the horizontal result, in place (vertical tiles), reorder. */
    UserKernel(AppendNames(Name, "Vertical"),
               KernelDimensions(1, Dim, Dim, 1),
               KernelIterationOrder(KER_DIM2, KER_TILE),
               TILE_VER,
               CArgs(3,
                     TCArg("Word16 * __restrict__", "InOut"),
                     TCArg("Word16 * __restrict__", "Twiddles"),
                     TCArg("Word16 * __restrict__", "SwapTable")),
               Calls(2,
                     Call(KerVertical, LOC_INNER_LOOP,
                          Bindings(4,
                                   K_Arg("InOut", KER_ARG_TILE),
                                   C_Arg("Twiddles"),
                                   K_Arg("InOut", KER_ARG_TILE_H),
                                   K_Arg("InOut", KER_ARG_TILE_W))),
                     Call("SwapSamples_2D_Vertical_Par", LOC_INNER_LOOP,
                          Bindings(4,
                                   K_Arg("InOut", KER_ARG_TILE),
                                   C_Arg("SwapTable"),
                                   K_Arg("InOut", KER_ARG_TILE_H),
                                   K_Arg("InOut", KER_ARG_TILE_W)))),
               KerArgs(1,
                       KerArg("InOut", OBJ_IN_OUT_DB, Dim, Dim, sizeof(int32_t), 0, 0, 8, "InOut", 0)));
    CloseKernelGroup();

    /* The group's C template and how its arguments feed the two user kernels. */
    UserKernelGroup(Name,
                    CArgs(4,
                          TCArg("Wordu8 * __restrict__", "In"),
                          TCArg("Word32 * __restrict__", "Out"),
                          TCArg("Word16 * __restrict__", "Twiddles"),
                          TCArg("Word16 * __restrict__", "SwapTable")),
                    Calls(2,
                          UserKernelCall(AppendNames(Name, "Horizontal"), LOC_GROUP,
                                         Bindings(4, C_Arg("In"), C_Arg("Out"), C_Arg("Twiddles"),
                                                  C_Arg("SwapTable"))),
                          UserKernelCall(AppendNames(Name, "Vertical"), LOC_GROUP,
                                         Bindings(3, C_Arg("Out"), C_Arg("Twiddles"), C_Arg("SwapTable")))));
}

static void ConfigureTiler(void)
{
    SetUsedFilesNames(0, 1, "FFT2DBasicKernels.h");
    SetGeneratedFilesNames("GenKernelsInit.c", "GenKernelsInit.h", "GenKernels.c", "GenKernels.h");
    SetSymbolDynamics();
}

static void MySetOfUserKernels(unsigned int L1MemoryBudget)
{
    SetL1MemorySize(L1MemoryBudget);
    LoadFFT2DLibrary();
    FFT2D("FFT2D", 64, 0);        /* 64 = 4^3: radix 4 */
    FFT2D("FFT2D_Radix2", 32, 0); /* 32 = 2^5: radix 2 */
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
