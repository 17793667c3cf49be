/* Basic kernels of the MatMax example: the maximum of each tile (parallel), then the maximum of the
 * per-tile maxima (sequential reduction). */
#ifndef MAT_MAX_BASIC_KERNELS_H
#define MAT_MAX_BASIC_KERNELS_H

#include "Gap.h"

/* Argument block of the parallel kernel KerMatrixMax (the LibKernel C arguments, in order). */
typedef struct {
    Word32 * __restrict__ In;
    Word32 * __restrict__ Out;
    unsigned int W;
    unsigned int H;
    unsigned int TileIndex;
    unsigned int CompareWithOut;
} MatrixMax_Arg_T;

/* Argument block named by the model for the sequential reduction; sequential kernels are called with
 * plain arguments, the typedef only documents them. */
typedef struct {
    Word32 * __restrict__ In;
    Word32 * __restrict__ Out;
    unsigned int Ntile;
} MatrixMaxReduction_Arg_T;

/* Maximum of the W x H tile In, stored in Out[0]: Out is the TiledOut tile of the current tile, i.e.
 * its entry in the per-tile vector (as in the guide's generated code, where the tile pointer of the
 * dynamic buffer already advances by one entry per tile). TileIndex is informative only. With
 * CompareWithOut, Out[0] becomes the larger of Out[0] and the tile maximum. Parallel. */
void KerMatrixMax(MatrixMax_Arg_T *Arg);

/* *Out = the largest of In[0 .. Ntile-1]. Sequential. */
void KerMatrixMaxReduction(Word32 * __restrict__ In, Word32 * __restrict__ Out, unsigned int Ntile);

#endif
