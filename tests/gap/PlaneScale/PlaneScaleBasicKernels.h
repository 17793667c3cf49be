/* Basic kernels of the PlaneScale example. */
#ifndef PLANE_SCALE_BASIC_KERNELS_H
#define PLANE_SCALE_BASIC_KERNELS_H

#include "Gap.h"

typedef struct {
    Word16 * __restrict__ In;
    Word16 * __restrict__ Tmp;
    unsigned int W;
    unsigned int H;
    unsigned int W0;
    unsigned int Offset;
    unsigned int TileIndex;
    unsigned int TileCount;
    Word16 Scale;
} ScaleTile_Arg_T;

/* In[y][x] = In[y][x] * Scale + (Offset + x) over a W x H tile (row stride W), through Tmp; every
 * element becomes -32768 when Offset, W0, TileIndex and TileCount disagree. Parallel over rows. */
void ScaleTile(ScaleTile_Arg_T *Arg);

/* Counters[Index] += 1 (sequential). */
void CountAt(Word32 * __restrict__ Counters, unsigned int Index);

#endif
