/* Basic kernel of the InPlaceStateGraph example. */
#ifndef IN_PLACE_BASIC_KERNELS_H
#define IN_PLACE_BASIC_KERNELS_H

#include "Gap.h"

typedef struct {
    short int * __restrict__ In;
    short int * __restrict__ State;
    unsigned short int W;
    unsigned short int H;
} KerAccumulate_Arg_T;

/* State = State + In, saturated to 16 bits, in place over a W x H tile. Parallel over rows. */
void KerAccumulate(KerAccumulate_Arg_T *Arg);

#endif
