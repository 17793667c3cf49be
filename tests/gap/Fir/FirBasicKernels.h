/* Basic kernels of the Fir example: a FIR filter over 16-bit samples that keeps its delay line in
 * the room KerArgPad leaves before each input tile. */
#ifndef FIR_BASIC_KERNELS_H
#define FIR_BASIC_KERNELS_H

#include "Gap.h"

/* FirClearHistory: zeroes the NCoeffs - 1 samples before In (the delay line of the first tile). */
typedef struct {
    short int * __restrict__ In;
    unsigned int NCoeffs;
} FirClearHistory_Arg_T;

/* FirTile: Out[i] = sat16(round(sum_k In[i - k] * Coeffs[k] >> Norm)) for the Lines * LineSamples
 * samples of the tile (the signal is a plane of LineSamples-sample lines, tiled by lines),
 * In[-1] .. In[-(NCoeffs - 1)] holding the samples before the tile. Then, unless NextIn is 0, the
 * tile's last NCoeffs - 1 samples are copied before NextIn, where the next tile will be read.
 * Parallel (all cores, ends on a team barrier). */
typedef struct {
    short int *In; /* not restrict: NextIn may be In */
    short int *NextIn;
    short int * __restrict__ Coeffs;
    short int * __restrict__ Out;
    unsigned int Lines;
    unsigned int LineSamples;
    unsigned int NCoeffs;
    unsigned int Norm;
} FirTile_Arg_T;

void FirClearHistory(FirClearHistory_Arg_T *Arg);
void FirTile(FirTile_Arg_T *Arg);

#endif
