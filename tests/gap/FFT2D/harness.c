/* Host harness of the FFT2D example: the two generated kernel groups (FFT2D: 64 x 64, radix 4;
 * FFT2D_Radix2: 32 x 32, radix 2) against the same basic kernels called on the whole image: expand,
 * FFT of all lines, reorder, FFT of all columns, reorder. Usage: harness [seed] */
#include <math.h>

#include "GenKernels.h"
#include "FFT2DBasicKernels.h"
#include "../HarnessCommon.h"

/* Q15 cos/sin of 2 pi k / N, k = 0 .. N-1 (2N values). */
static Word16 *MakeTwiddles(unsigned int N)
{
    Word16 *Twiddles = (Word16 *) HarnessAllocL2(2 * N * sizeof(Word16));
    const double Pi = 3.14159265358979323846;
    for (unsigned int k = 0; k < N; k++) {
        Twiddles[2 * k] = (Word16) lround(cos(2 * Pi * k / N) * 32767.0);
        Twiddles[2 * k + 1] = (Word16) lround(sin(2 * Pi * k / N) * 32767.0);
    }
    return Twiddles;
}

/* Index i with its base-Radix digits reversed (Radix 2 or 4, N a power of Radix). */
static Word16 *MakeSwapTable(unsigned int N, unsigned int Radix)
{
    Word16 *Table = (Word16 *) HarnessAllocL2(N * sizeof(Word16));
    for (unsigned int i = 0; i < N; i++) {
        unsigned int Reversed = 0;
        for (unsigned int Rest = i, Span = 1; Span < N; Span *= Radix, Rest /= Radix)
            Reversed = Reversed * Radix + Rest % Radix;
        Table[i] = (Word16) Reversed;
    }
    return Table;
}

typedef void (*FFTKernel_T)(FFT_2D_Arg_T *);

/* Runs the generated group Name (FFT2D or FFT2D_Radix2) on a random Dim x Dim image. */
static void RunOne(const char *Name, unsigned int Dim, unsigned int Radix)
{
    const size_t Samples = (size_t) Dim * Dim;
    Wordu8 *In = (Wordu8 *) HarnessAllocL2(Samples);
    Word32 *Out = (Word32 *) HarnessAllocL2(Samples * sizeof(Word32));
    v2s *Expected = (v2s *) HarnessAllocL2(Samples * sizeof(v2s));
    Word16 *Twiddles = MakeTwiddles(Dim);
    Word16 *SwapTable = MakeSwapTable(Dim, Radix);
    FFTKernel_T Horizontal = Radix == 4 ? Radix4FFT_DIF_2D_Horizontal : Radix2FFT_DIF_2D_Horizontal;
    FFTKernel_T Vertical = Radix == 4 ? Radix4FFT_DIF_2D_Vertical : Radix2FFT_DIF_2D_Vertical;
    for (size_t i = 0; i < Samples; i++)
        In[i] = (Wordu8) (HarnessRandom16() & 0xFF);

    /* Untiled reference: the whole image is one horizontal tile, then one vertical tile. */
    Image2Complex_Arg_T Expand = {In, Expected, Dim, Dim};
    HarnessParallel(Image2Complex, &Expand);
    FFT_2D_Arg_T Lines = {Expected, Twiddles, Dim, Dim};
    HarnessParallel(Horizontal, &Lines);
    SwapSamples_2D_Arg_T SwapLines = {Expected, SwapTable, Dim, Dim};
    HarnessParallel(SwapSamples_2D_Horizontal_Par, &SwapLines);
    FFT_2D_Arg_T Columns = {Expected, Twiddles, Dim, Dim};
    HarnessParallel(Vertical, &Columns);
    SwapSamples_2D_Arg_T SwapColumns = {Expected, SwapTable, Dim, Dim};
    HarnessParallel(SwapSamples_2D_Vertical_Par, &SwapColumns);

    HarnessDmaStart();
    if (Radix == 4)
        FFT2D(In, Out, Twiddles, SwapTable);
    else
        FFT2D_Radix2(In, Out, Twiddles, SwapTable);
    HarnessDmaReport(Name);

    /* Compared as I/Q int16 pairs: x = 2 * column + (0 for I, 1 for Q). */
    HarnessCompare16(Name, (const int16_t *) Out, (const int16_t *) Expected, 2 * Dim, Dim, 1);
    free(In);
    free(Out);
    free(Expected);
    free(Twiddles);
    free(SwapTable);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    HarnessAllocL1();
    RunOne("FFT2D", 64, 4);
    RunOne("FFT2D_Radix2", 32, 2);
    HarnessFreeL1();
    return HarnessFinish();
}
