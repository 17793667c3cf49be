/* Basic kernel of the MatAdd example. Written for Tessera's tests; see MatAddBasicKernels.h. */
#include "MatAddBasicKernels.h"

/* Items per core when Count items are shared among all cores (the last core may get fewer). */
static inline unsigned int ChunkSize(unsigned int Count)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

void MatSumPar(MatSumPar_Arg_T *Arg)
{
    Word32 * __restrict__ In1 = Arg->In1;
    Word32 * __restrict__ In2 = Arg->In2;
    Word32 * __restrict__ Out = Arg->Out;
    unsigned int Size = Arg->W * Arg->H;
    unsigned int Chunk = ChunkSize(Size);
    unsigned int First = (unsigned int) gap_coreid() * Chunk;
    unsigned int Last = First + Chunk < Size ? First + Chunk : Size;

    for (unsigned int i = First; i < Last; i++)
        Out[i] = In1[i] + In2[i];
    rt_team_barrier();
}
