/* Basic kernels of the Fir example. Written for Tessera's tests; see FirBasicKernels.h. */
#include "FirBasicKernels.h"

/* Items per core when Count items are shared among all cores (the last core may get fewer). */
static inline unsigned int ChunkSize(unsigned int Count)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

void FirClearHistory(FirClearHistory_Arg_T *Arg)
{
    if (gap_coreid() == 0)
        for (int k = 1; k < (int) Arg->NCoeffs; k++)
            Arg->In[-k] = 0;
    rt_team_barrier();
}

void FirTile(FirTile_Arg_T *Arg)
{
    short int *In = Arg->In;
    short int * __restrict__ Coeffs = Arg->Coeffs;
    short int * __restrict__ Out = Arg->Out;
    const int Samples = (int) (Arg->Lines * Arg->LineSamples), Taps = (int) Arg->NCoeffs, Norm = (int) Arg->Norm;
    const unsigned int Chunk = ChunkSize((unsigned int) Samples);
    const int First = (int) (gap_coreid() * Chunk);
    const int Last = First + (int) Chunk < Samples ? First + (int) Chunk : Samples;

    for (int i = First; i < Last; i++) {
        int Acc = 0;
        for (int k = 0; k < Taps; k++)
            Acc += In[i - k] * Coeffs[k];
        Acc = (Acc + (1 << (Norm - 1))) >> Norm;
        Out[i] = (short int) (Acc > 32767 ? 32767 : Acc < -32768 ? -32768 : Acc);
    }
    rt_team_barrier();
    /* The delay line of the next tile. Core 0 alone, oldest sample first: a tile may be shorter than
     * the line, so the copy reads this tile's own history, and NextIn may be In (one buffer). */
    if (gap_coreid() == 0 && Arg->NextIn != 0)
        for (int k = Taps - 1; k >= 1; k--)
            Arg->NextIn[-k] = In[Samples - k];
    rt_team_barrier();
}
