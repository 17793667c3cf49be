/* Basic kernels of the Conv5x5 example: a CNN convolution layer with 5x5 filters on Q-format 16-bit
 * data. The output tile is first set to the bias of its output plane, then every input plane adds
 * its normalized 5x5 correlation. */
#ifndef CONV5X5_BASIC_KERNELS_H
#define CONV5X5_BASIC_KERNELS_H

#include "Gap.h"

/* Argument block of the parallel kernel KerSetInBias (the LibKernel C arguments, in order). */
typedef struct {
    Word16 * __restrict__ Out;
    int W;
    int H;
    Word16 Bias;
} KerSetInBias_Arg_T;

/* Argument block of the parallel kernel KerDirectConv5x5_fp (the LibKernel C arguments, in order). */
typedef struct {
    Word16 * __restrict__ In;
    int W;
    int H;
    Word16 * __restrict__ Filter;
    Word16 * __restrict__ Out;
    unsigned int Norm;
} KerConv5x5_fp_Arg_T;

/* Out[i] = Bias over a W x H tile. Parallel. */
void KerSetInBias(KerSetInBias_Arg_T *Arg);

/* In is a W x H tile, Out the matching (W-4) x (H-4) tile (no padding), Filter 5x5 coefficients:
 *     Out[y][x] = sat16(Out[y][x] + (sum_{i,j<5} In[y+i][x+j] * Filter[i][j]) >> Norm)
 * Parallel: output lines are shared among the cores. */
void KerDirectConv5x5_fp(KerConv5x5_fp_Arg_T *Arg);

/* The saturation used above, shared with the harness's direct reference. */
static inline Word16 Conv5x5_Saturate16(Word32 Value)
{
    return (Word16) (Value > 32767 ? 32767 : Value < -32768 ? -32768 : Value);
}

#endif
