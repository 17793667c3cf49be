/* Basic kernels of the MyFavoriteKernel example: a tile cleared before the input planes are
 * traversed, then In1 + In2 + Bias accumulated into it for every input plane. */
#ifndef MY_FAVORITE_KERNEL_BASIC_KERNELS_H
#define MY_FAVORITE_KERNEL_BASIC_KERNELS_H

#include "Gap.h"

/* Argument block of the parallel kernel MatrixClear (the LibKernel C arguments, in order). */
typedef struct {
    Word32 * __restrict__ Out;
    Wordu32 W;
    Wordu32 H;
} MatrixClear_Arg_T;

/* Argument block of the parallel kernel MatrixAdd (the LibKernel C arguments, in order). */
typedef struct {
    Word32 * __restrict__ In1;
    Word32 * __restrict__ In2;
    Word32 * __restrict__ Out;
    Word32 Bias;
    Wordu32 W;
    Wordu32 H;
} MatrixAdd_Arg_T;

/* Out[i] = 0 over a W x H tile. Parallel. */
void MatrixClear(MatrixClear_Arg_T *Arg);
/* Out[i] += In1[i] + In2[i] + Bias over a W x H tile. Parallel. */
void MatrixAdd(MatrixAdd_Arg_T *Arg);

#endif
