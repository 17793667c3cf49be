/* Host harness of the Recurrence example: Steps steps of the recurrent cell computed directly. The
 * state is read from Sin, which must stay untouched, and the final one is written to Sout. The split
 * form (two kernels of a group, the state passed through G1O) must give the same outputs; the reversed
 * one runs the steps from the last input to the first.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "RecurrenceBasicKernels.h"
#include "../HarnessCommon.h"

#define STEPS 5
#define DIM_STATE 24
#define DIM_IN 8
#define WIDTH (DIM_STATE + DIM_IN)

static Word16 Clip(Word32 Value) { return (Word16) (Value > 32767 ? 32767 : (Value < -32768 ? -32768 : Value)); }

/* One step computed directly: the new state from the state and the step's input, also written to Out. */
static void Step(Word16 *State, const Word16 *In, const Word16 *Weights, Word16 *Out)
{
    Word16 Saved[WIDTH];
    for (int j = 0; j < WIDTH; j++)
        Saved[j] = j < DIM_STATE ? State[j] : In[j - DIM_STATE];
    for (int r = 0; r < DIM_STATE; r++) {
        Word32 Sum = 0;
        for (int j = 0; j < WIDTH; j++)
            Sum += (Word32) Weights[r * WIDTH + j] * Saved[j];
        State[r] = Out[r] = Clip(Sum >> 7);
    }
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    Word16 *Sin = (Word16 *) HarnessAllocL2(DIM_STATE * sizeof(Word16));
    Word16 *SinCopy = (Word16 *) HarnessAllocL2(DIM_STATE * sizeof(Word16));
    Word16 *Sout = (Word16 *) HarnessAllocL2(DIM_STATE * sizeof(Word16));
    Word16 *G1O = (Word16 *) HarnessAllocL2(DIM_STATE * sizeof(Word16));
    Word16 *Xin = (Word16 *) HarnessAllocL2(STEPS * DIM_IN * sizeof(Word16));
    Word16 *Weights = (Word16 *) HarnessAllocL2(DIM_STATE * WIDTH * sizeof(Word16));
    Word16 *Hout = (Word16 *) HarnessAllocL2(STEPS * DIM_STATE * sizeof(Word16));
    Word16 *ExpectedHout = (Word16 *) HarnessAllocL2(STEPS * DIM_STATE * sizeof(Word16));
    Word16 *ReversedHout = (Word16 *) HarnessAllocL2(STEPS * DIM_STATE * sizeof(Word16));
    Word16 State[DIM_STATE], ReversedState[DIM_STATE];
    for (int i = 0; i < DIM_STATE; i++)
        ReversedState[i] = State[i] = SinCopy[i] = Sin[i] = (Word16) HarnessRandomRange(-200, 200);
    for (int i = 0; i < STEPS * DIM_IN; i++)
        Xin[i] = (Word16) HarnessRandomRange(-200, 200);
    for (int i = 0; i < DIM_STATE * WIDTH; i++)
        Weights[i] = (Word16) HarnessRandomRange(-64, 64);
    for (int t = 0; t < STEPS; t++)
        Step(State, Xin + t * DIM_IN, Weights, ExpectedHout + t * DIM_STATE);
    for (int t = STEPS - 1; t >= 0; t--)
        Step(ReversedState, Xin + t * DIM_IN, Weights, ReversedHout + t * DIM_STATE);

    HarnessAllocL1();
    HarnessDmaStart();
    Recurrence(Sin, Sout, Xin, Weights, Hout);
    HarnessDmaReport("Recurrence");
    HarnessCompare16("Hout", Hout, ExpectedHout, DIM_STATE, 1, STEPS);
    HarnessCompare16("Sout", Sout, State, DIM_STATE, 1, 1);

    memset(Hout, 0, STEPS * DIM_STATE * sizeof(Word16));
    memset(Sout, 0, DIM_STATE * sizeof(Word16));
    HarnessDmaStart();
    RecurrenceSplit(Sin, Sout, G1O, Xin, Weights, Hout);
    HarnessDmaReport("RecurrenceSplit");
    HarnessCompare16("split Hout", Hout, ExpectedHout, DIM_STATE, 1, STEPS);
    HarnessCompare16("split Sout", Sout, State, DIM_STATE, 1, 1);

    memset(Hout, 0, STEPS * DIM_STATE * sizeof(Word16));
    memset(Sout, 0, DIM_STATE * sizeof(Word16));
    HarnessDmaStart();
    RecurrenceReversed(Sin, Sout, Xin, Weights, Hout);
    HarnessDmaReport("RecurrenceReversed");
    HarnessFreeL1();
    HarnessCompare16("reversed Hout", Hout, ReversedHout, DIM_STATE, 1, STEPS);
    HarnessCompare16("reversed Sout", Sout, ReversedState, DIM_STATE, 1, 1);
    HarnessCompare16("Sin", Sin, SinCopy, DIM_STATE, 1, 1);
    free(Sin);
    free(SinCopy);
    free(Sout);
    free(G1O);
    free(Xin);
    free(Weights);
    free(Hout);
    free(ExpectedHout);
    free(ReversedHout);
    return HarnessFinish();
}
