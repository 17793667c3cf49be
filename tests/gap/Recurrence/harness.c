/* Host harness of the Recurrence example: Steps steps of the recurrent cell computed directly. The
 * state is read from Sin, which must stay untouched, and the final one is written to Sout. The split
 * form (two kernels of a group, the state passed through G1O) must give the same outputs; the reversed
 * one runs the steps from the last input to the first. The dynamic forms run the first 5, 3 and 1 of
 * the inputs as their Steps argument says: same results as the direct computation of that many
 * steps, the planes past them untouched, and DMA bytes growing by the same amount per step.
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

typedef void (*DynamicKernel)(int, short int *, short int *, short int *, short int *, short int *);

/* Runs Kernel over the first Steps inputs and checks it against the direct computation (from the last
 * of those inputs to the first when Reversed); returns the L2 bytes it read plus those it wrote. */
static unsigned long RunDynamic(const char *Name, DynamicKernel Kernel, int Steps, int Reversed, int Report,
                                Word16 *Sin, Word16 *Sout, Word16 *Xin, Word16 *Weights, Word16 *Hout)
{
    Word16 State[DIM_STATE], Expected[STEPS * DIM_STATE];
    memcpy(State, Sin, sizeof State);
    for (int i = 0; i < STEPS * DIM_STATE; i++)
        Expected[i] = Hout[i] = (Word16) 0x5a5a;  /* planes past Steps stay as they are */
    for (int k = 0; k < Steps; k++) {
        const int t = Reversed ? Steps - 1 - k : k;
        Step(State, Xin + t * DIM_IN, Weights, Expected + t * DIM_STATE);
    }
    memset(Sout, 0, DIM_STATE * sizeof(Word16));
    HarnessDmaStart();
    Kernel(Steps, Sin, Sout, Xin, Weights, Hout);
    if (Report)
        HarnessDmaReport(Name);
    const unsigned long Bytes = (unsigned long) __L2_Read + (unsigned long) __L2_Write;
    char What[64];
    snprintf(What, sizeof What, "%s %d steps Hout", Name, Steps);
    HarnessCompare16(What, Hout, Expected, DIM_STATE, 1, STEPS);
    snprintf(What, sizeof What, "%s %d steps Sout", Name, Steps);
    HarnessCompare16(What, Sout, State, DIM_STATE, 1, 1);
    return Bytes;
}

/* The full count (whose DMA the tiling predicts, reported), then 3 steps and 1. */
static void CheckDynamic(const char *Name, DynamicKernel Kernel, int Reversed, Word16 *Sin, Word16 *Sout, Word16 *Xin,
                         Word16 *Weights, Word16 *Hout)
{
    const unsigned long Five = RunDynamic(Name, Kernel, 5, Reversed, 1, Sin, Sout, Xin, Weights, Hout);
    const unsigned long Three = RunDynamic(Name, Kernel, 3, Reversed, 0, Sin, Sout, Xin, Weights, Hout);
    const unsigned long One = RunDynamic(Name, Kernel, 1, Reversed, 0, Sin, Sout, Xin, Weights, Hout);
    if (!(Five > Three && Three > One && Five - Three == Three - One)) {
        printf("MISMATCH %s moved %lu, %lu and %lu bytes for 5, 3 and 1 steps, not the same amount per step\n", Name,
               Five, Three, One);
        HarnessMismatchCount++;
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
    HarnessCompare16("reversed Hout", Hout, ReversedHout, DIM_STATE, 1, STEPS);
    HarnessCompare16("reversed Sout", Sout, ReversedState, DIM_STATE, 1, 1);

    CheckDynamic("RecurrenceDynamic", RecurrenceDynamic, 0, Sin, Sout, Xin, Weights, Hout);
    CheckDynamic("RecurrenceDynamicReversed", RecurrenceDynamicReversed, 1, Sin, Sout, Xin, Weights, Hout);
    HarnessFreeL1();
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
