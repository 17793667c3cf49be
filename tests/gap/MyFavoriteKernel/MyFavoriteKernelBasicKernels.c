/* Basic kernels of the MyFavoriteKernel example. Written for Tessera's tests; see the header. */
#include "MyFavoriteKernelBasicKernels.h"

static inline Wordu32 ChunkSize(Wordu32 Count)
{
    Wordu32 Cores = (Wordu32) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

void MatrixClear(MatrixClear_Arg_T *Arg)
{
    Word32 * __restrict__ Out = Arg->Out;
    Wordu32 Size = Arg->W * Arg->H;
    Wordu32 Chunk = ChunkSize(Size);
    Wordu32 First = (Wordu32) gap_coreid() * Chunk;
    Wordu32 Last = First + Chunk < Size ? First + Chunk : Size;

    for (Wordu32 i = First; i < Last; i++)
        Out[i] = 0;
    rt_team_barrier();
}

void MatrixAdd(MatrixAdd_Arg_T *Arg)
{
    Word32 * __restrict__ In1 = Arg->In1;
    Word32 * __restrict__ In2 = Arg->In2;
    Word32 * __restrict__ Out = Arg->Out;
    Word32 Bias = Arg->Bias;
    Wordu32 Size = Arg->W * Arg->H;
    Wordu32 Chunk = ChunkSize(Size);
    Wordu32 First = (Wordu32) gap_coreid() * Chunk;
    Wordu32 Last = First + Chunk < Size ? First + Chunk : Size;

    for (Wordu32 i = First; i < Last; i++)
        Out[i] += In1[i] + In2[i] + Bias;
    rt_team_barrier();
}
