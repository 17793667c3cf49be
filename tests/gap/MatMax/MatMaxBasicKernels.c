/* Basic kernels of the MatMax example. Written for Tessera's tests; see MatMaxBasicKernels.h. */
#include "MatMaxBasicKernels.h"

#define MAT_MAX_MAX_CORES 16

/* One partial maximum per core, combined by core 0 after the barrier (in cluster L1 on GAP). */
static L1_CL_MEM Word32 PartialMax[MAT_MAX_MAX_CORES];

static inline unsigned int ChunkSize(unsigned int Count)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

void KerMatrixMax(MatrixMax_Arg_T *Arg)
{
    Word32 * __restrict__ In = Arg->In;
    unsigned int Size = Arg->W * Arg->H;
    unsigned int CoreId = (unsigned int) gap_coreid();
    unsigned int Chunk = ChunkSize(Size);
    unsigned int First = CoreId * Chunk;
    unsigned int Last = First + Chunk < Size ? First + Chunk : Size;
    Word32 M = INT32_MIN;

    for (unsigned int i = First; i < Last; i++)
        if (In[i] > M)
            M = In[i];
    PartialMax[CoreId] = M;
    rt_team_barrier();
    if (CoreId == 0) {
        for (unsigned int c = 1; c < (unsigned int) gap_ncore(); c++)
            if (PartialMax[c] > M)
                M = PartialMax[c];
        if (Arg->CompareWithOut && Arg->Out[0] > M)
            M = Arg->Out[0];
        Arg->Out[0] = M;
    }
    rt_team_barrier();
}

void KerMatrixMaxReduction(Word32 * __restrict__ In, Word32 * __restrict__ Out, unsigned int Ntile)
{
    Word32 M = INT32_MIN;
    for (unsigned int i = 0; i < Ntile; i++)
        if (In[i] > M)
            M = In[i];
    *Out = M;
}
