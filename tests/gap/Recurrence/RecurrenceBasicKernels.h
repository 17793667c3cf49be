/* Basic kernels of the Recurrence example: one step of a recurrent cell whose state lives in one L1
 * buffer that the user kernel loads from Sin and stores to Sout (KerArgAliased). */
#ifndef RECURRENCE_BASIC_KERNELS_H
#define RECURRENCE_BASIC_KERNELS_H

#include "Gap.h"

typedef struct {
    Word16 * __restrict__ S;         /* the state: read whole on the first tile, Rows lines from Base written */
    Word16 * __restrict__ State;     /* DimState + DimIn items: the previous state, then the step's input */
    Word16 * __restrict__ Xin;       /* DimIn items: the step's input */
    Word16 * __restrict__ Weights;   /* Rows lines of DimState + DimIn weights */
    Word16 * __restrict__ Hout;      /* Rows items: the step's output, lines Base.. of the state */
    unsigned short DimState;
    unsigned short DimIn;
    unsigned short Rows;
    unsigned short Base;
    int FirstTile;                   /* 1 on the step's first tile */
} RecurrenceStep_Arg_T;

/* On the first tile, State = [S, Xin]; then for each of the tile's rows r,
 * S[Base + r] = Hout[r] = clip16((sum_j Weights[r][j] * State[j]) >> 7). Parallel over rows. */
void RecurrenceStep(RecurrenceStep_Arg_T *Arg);

#endif
