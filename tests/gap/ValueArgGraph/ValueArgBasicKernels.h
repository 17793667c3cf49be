/* Basic kernel of the ValueArgGraph example. */
#ifndef VALUE_ARG_BASIC_KERNELS_H
#define VALUE_ARG_BASIC_KERNELS_H

#include "Gap.h"

typedef struct {
    short int * __restrict__ In;
    short int * __restrict__ Out;
    unsigned short int W;
    unsigned short int H;
    short int Scale;
    short int Offset;
    signed char Clear;
} KerAffine_Arg_T;

/* Out = Clear ? 0 : In * Scale + Offset, saturated to 16 bits, over a W x H tile. Parallel over
 * rows. */
void KerAffine(KerAffine_Arg_T *Arg);

#endif
