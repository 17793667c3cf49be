/* Basic kernel of the ValueArgGraph example. */
#include "ValueArgBasicKernels.h"

void KerAffine(KerAffine_Arg_T *Arg)
{
    const unsigned int W = Arg->W, H = Arg->H;
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Rows = (H + Cores - 1) / Cores;
    const unsigned int First = (unsigned int) gap_coreid() * Rows;
    const unsigned int Last = First + Rows < H ? First + Rows : H;
    for (unsigned int i = First * W; i < Last * W; i++) {
        const int Value = Arg->Clear ? 0 : Arg->In[i] * Arg->Scale + Arg->Offset;
        Arg->Out[i] = (short int) (Value > 32767 ? 32767 : Value < -32768 ? -32768 : Value);
    }
    rt_team_barrier();
}
