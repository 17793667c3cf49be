/* Basic kernels of the Conv5x5 example. Written for Tessera's tests; see Conv5x5BasicKernels.h. */
#include "Conv5x5BasicKernels.h"

static inline unsigned int ChunkSize(unsigned int Count)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

void KerSetInBias(KerSetInBias_Arg_T *Arg)
{
    Word16 * __restrict__ Out = Arg->Out;
    Word16 Bias = Arg->Bias;
    unsigned int Size = (unsigned int) (Arg->W * Arg->H);
    unsigned int Chunk = ChunkSize(Size);
    unsigned int First = (unsigned int) gap_coreid() * Chunk;
    unsigned int Last = First + Chunk < Size ? First + Chunk : Size;

    for (unsigned int i = First; i < Last; i++)
        Out[i] = Bias;
    rt_team_barrier();
}

void KerDirectConv5x5_fp(KerConv5x5_fp_Arg_T *Arg)
{
    Word16 * __restrict__ In = Arg->In;
    Word16 * __restrict__ Filter = Arg->Filter;
    Word16 * __restrict__ Out = Arg->Out;
    int W = Arg->W;
    int Wo = Arg->W - 4;
    int Ho = Arg->H - 4;
    unsigned int Norm = Arg->Norm;

    if (Wo > 0 && Ho > 0) {
        unsigned int Chunk = ChunkSize((unsigned int) Ho);
        unsigned int First = (unsigned int) gap_coreid() * Chunk;
        unsigned int Last = First + Chunk < (unsigned int) Ho ? First + Chunk : (unsigned int) Ho;
        for (unsigned int y = First; y < Last; y++)
            for (int x = 0; x < Wo; x++) {
                Word32 Acc = 0;
                for (int i = 0; i < 5; i++)
                    for (int j = 0; j < 5; j++)
                        Acc += (Word32) In[((int) y + i) * W + x + j] * Filter[i * 5 + j];
                Out[(int) y * Wo + x] = Conv5x5_Saturate16(Out[(int) y * Wo + x] + (Acc >> Norm));
            }
    }
    rt_team_barrier();
}
