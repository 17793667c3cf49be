/* Basic kernels of the PlaneScale example. */
#include "PlaneScaleBasicKernels.h"

void ScaleTile(ScaleTile_Arg_T *Arg)
{
    const unsigned int W = Arg->W, H = Arg->H;
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Rows = (H + Cores - 1) / Cores;
    const unsigned int First = (unsigned int) gap_coreid() * Rows;
    const unsigned int Last = First + Rows < H ? First + Rows : H;
    /* The tile geometry must be consistent: tiles of W0 columns, the last one possibly narrower. */
    const int Consistent = Arg->Offset == Arg->TileIndex * Arg->W0 && W <= Arg->W0 &&
                           (Arg->TileIndex + 1 < Arg->TileCount || W >= 1);
    for (unsigned int y = First; y < Last; y++)
        for (unsigned int x = 0; x < W; x++)
            Arg->Tmp[y * W + x] = Consistent ? (Word16) (Arg->In[y * W + x] * Arg->Scale + (Word16) (Arg->Offset + x))
                                             : (Word16) -32768;
    rt_team_barrier();
    for (unsigned int y = First; y < Last; y++)
        for (unsigned int x = 0; x < W; x++)
            Arg->In[y * W + x] = Arg->Tmp[y * W + x];
    rt_team_barrier();
}

void CountAt(Word32 * __restrict__ Counters, unsigned int Index)
{
    Counters[Index] += 1;
}
