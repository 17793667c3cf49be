/* Basic kernels of the Recurrence example. */
#include "RecurrenceBasicKernels.h"

static Word16 Clip16(Word32 Value)
{
    return (Word16) (Value > 32767 ? 32767 : (Value < -32768 ? -32768 : Value));
}

void RecurrenceStep(RecurrenceStep_Arg_T *Arg)
{
    const unsigned int Cores = (unsigned int) gap_ncore();
    const unsigned int Core = (unsigned int) gap_coreid();
    const unsigned int Width = Arg->DimState + Arg->DimIn;
    if (Arg->FirstTile) {
        /* The state before any row of this step is rewritten, followed by the step's input. */
        for (unsigned int j = Core; j < Width; j += Cores)
            Arg->State[j] = j < Arg->DimState ? Arg->S[j] : Arg->Xin[j - Arg->DimState];
        rt_team_barrier();
    }
    const unsigned int Chunk = (Arg->Rows + Cores - 1) / Cores;
    const unsigned int First = Core * Chunk;
    const unsigned int Last = First + Chunk < Arg->Rows ? First + Chunk : Arg->Rows;
    for (unsigned int r = First; r < Last; r++) {
        Word32 Sum = 0;
        for (unsigned int j = 0; j < Width; j++)
            Sum += (Word32) Arg->Weights[r * Width + j] * Arg->State[j];
        const Word16 Value = Clip16(Sum >> 7);
        Arg->S[Arg->Base + r] = Value;
        Arg->Hout[r] = Value;
    }
    rt_team_barrier();
}
