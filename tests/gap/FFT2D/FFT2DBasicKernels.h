/* Basic kernels of the FFT2D example: a 2-D FFT of a byte image as a horizontal pass (expand to
 * complex, FFT every line, reorder) and a vertical pass (FFT every column, reorder).
 *
 * Complex samples are v2s pairs {I, Q} in Q15. The FFTs are decimation in frequency, radix 4 (N a
 * power of 4) or radix 2, in place: natural order in, digit-reversed (radix 4) or bit-reversed
 * (radix 2) order out, every stage scaled down (by 4 or by 2) so nothing overflows; the result is
 * DFT(x) / N. The swap kernels then restore natural order with a table of reversed indices.
 *
 * Tables (filled by the application):
 *   Twiddles[2k] = cos(2 pi k / N), Twiddles[2k+1] = sin(2 pi k / N) in Q15, k = 0 .. N-1
 *   SwapTable[i] = the digit- (radix 4) or bit-reversed (radix 2) index of i, i = 0 .. N-1
 *
 * Data layout: a horizontal tile is Nb lines of N_fft samples; a vertical tile is N_fft lines of Nb
 * samples stored compactly (line stride Nb), and its Nb columns are transformed. The horizontal
 * kernels are called with (tile, table, tile width, tile height), the vertical ones with
 * (tile, table, tile height, tile width): N_fft is always the FFT length, Nb the number of FFTs. */
#ifndef FFT2D_BASIC_KERNELS_H
#define FFT2D_BASIC_KERNELS_H

#include "Gap.h"

/* Argument block of Image2Complex (the LibKernel C arguments, in order). */
typedef struct {
    Wordu8 * __restrict__ In;
    v2s * __restrict__ Out;
    unsigned int W;
    unsigned int H;
} Image2Complex_Arg_T;

/* Argument block shared by the four FFT kernels. */
typedef struct {
    v2s * __restrict__ Data;
    Word16 * __restrict__ Twiddles;
    unsigned int N_fft;
    unsigned int Nb;
} FFT_2D_Arg_T;

/* Argument block shared by the two swap kernels. */
typedef struct {
    v2s * __restrict__ Data;
    Word16 * __restrict__ SwapTable;
    unsigned int N_fft;
    unsigned int Nb;
} SwapSamples_2D_Arg_T;

/* Out[i] = {In[i] << 7, 0} over a W x H tile. Parallel. */
void Image2Complex(Image2Complex_Arg_T *Arg);

/* In-place DIF FFT of each of the Nb lines (horizontal) or columns (vertical). Parallel. */
void Radix4FFT_DIF_2D_Horizontal(FFT_2D_Arg_T *Arg);
void Radix4FFT_DIF_2D_Vertical(FFT_2D_Arg_T *Arg);
void Radix2FFT_DIF_2D_Horizontal(FFT_2D_Arg_T *Arg);
void Radix2FFT_DIF_2D_Vertical(FFT_2D_Arg_T *Arg);

/* Data[i] <-> Data[SwapTable[i]] along each line (horizontal) or column (vertical). Parallel. */
void SwapSamples_2D_Horizontal_Par(SwapSamples_2D_Arg_T *Arg);
void SwapSamples_2D_Vertical_Par(SwapSamples_2D_Arg_T *Arg);

#endif
