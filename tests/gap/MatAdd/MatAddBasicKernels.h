/* Basic kernel of the MatAdd example: element-wise sum of two Word32 tiles. */
#ifndef MAT_ADD_BASIC_KERNELS_H
#define MAT_ADD_BASIC_KERNELS_H

#include "Gap.h"

/* Argument block of the parallel kernel MatSumPar: the fields are the LibKernel C arguments, in order. */
typedef struct {
    Word32 * __restrict__ In1;
    Word32 * __restrict__ In2;
    Word32 * __restrict__ Out;
    unsigned int W;
    unsigned int H;
} MatSumPar_Arg_T;

/* Out[i] = In1[i] + In2[i] over a W x H tile; parallel (all cores, ends on a team barrier). */
void MatSumPar(MatSumPar_Arg_T *Arg);

#endif
