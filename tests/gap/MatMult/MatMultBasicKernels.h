/* Basic kernels of the MatMult example: a matrix product tiled on two levels. The generated code
 * brings bands of lines of the first matrix and of the result (the outer tile loop) and, for each,
 * bands of columns of the second matrix (the inner tile loop); a basic kernel computes the columns
 * of the result band that its band of the second matrix gives. */
#ifndef MATMULT_BASIC_KERNELS_H
#define MATMULT_BASIC_KERNELS_H

#include "Gap.h"

/* Out[l][OutFirstCol + c] = (sum over i of In1[l][i] * In2[i][c]) >> Norm, for the H_In1 lines of the
 * In1 band and the W_In2 columns of the In2 band (In2 has W_In1 lines). Out points at the first line
 * of the result band, whose lines are W_Out wide. BufferColIn2 (W_In1 items) is used by
 * MatMultColumnsBuffered only. Parallel: both end on a team barrier. */
typedef struct {
    int * __restrict__ In1;
    unsigned int W_In1;
    unsigned int H_In1;
    int * __restrict__ In2;
    unsigned int W_In2;
    int * __restrict__ Out;
    unsigned int W_Out;
    unsigned int OutFirstCol;
    int * __restrict__ BufferColIn2;
    unsigned int Norm;
} MatMultColumns_Arg_T;

/* The columns of the In2 band shared among the cores. */
void MatMultColumns(MatMultColumns_Arg_T *Arg);
/* Column by column: the cores first gather the column of In2 into BufferColIn2, then share the lines. */
void MatMultColumnsBuffered(MatMultColumns_Arg_T *Arg);

/* One result item: the definition both kernels and the harness's untiled product share. Line points
 * at a line of In1, Column at the column's first item, Stride items apart. */
static inline int MatMultItem(const int *Line, const int *Column, unsigned int Stride, unsigned int Length,
                              unsigned int Norm)
{
    long long Sum = 0;
    for (unsigned int i = 0; i < Length; i++)
        Sum += (long long) Line[i] * Column[(size_t) i * Stride];
    return (int) (Sum >> Norm);
}

#endif
