/* Basic kernel of the InPlaceStateGraph example. */
#include "InPlaceBasicKernels.h"

void KerAccumulate(KerAccumulate_Arg_T *Arg)
{
    const unsigned int W = Arg->W, H = Arg->H;
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Rows = (H + Cores - 1) / Cores;
    const unsigned int First = (unsigned int) gap_coreid() * Rows;
    const unsigned int Last = First + Rows < H ? First + Rows : H;
    for (unsigned int i = First * W; i < Last * W; i++) {
        const int Value = Arg->State[i] + Arg->In[i];
        Arg->State[i] = (short int) (Value > 32767 ? 32767 : Value < -32768 ? -32768 : Value);
    }
    rt_team_barrier();
}
