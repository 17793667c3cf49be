/* Host harness of the Fir example: runs the generated Fir20 (30000 samples, 20 taps, tiled, its delay
 * line carried from tile to tile) and Fir7Short (1000 samples, 7 taps, untiled) on seeded random
 * signals and compares them with a direct FIR over the whole signal, zeros before its first sample.
 * Usage: harness [seed] */
#include "GenKernels.h"
#include "FirBasicKernels.h"
#include "../HarnessCommon.h"

#define NORM 12

/* Out[i] = sat16(round(sum_k In[i - k] * Coeffs[k] >> NORM)), In[j] = 0 for j < 0. */
static void DirectFir(const short int *In, const short int *Coeffs, short int *Out, int Samples, int Taps)
{
    for (int i = 0; i < Samples; i++) {
        int Acc = 0;
        for (int k = 0; k < Taps && k <= i; k++)
            Acc += In[i - k] * Coeffs[k];
        Acc = (Acc + (1 << (NORM - 1))) >> NORM;
        Out[i] = (short int) (Acc > 32767 ? 32767 : Acc < -32768 ? -32768 : Acc);
    }
}

typedef void (*FirFunction)(short int *In, short int *Coeffs, short int *Out, unsigned int Norm);

static void RunFir(const char *Name, FirFunction Function, int Samples, int Taps)
{
    short int *In = (short int *) HarnessAllocL2((size_t) Samples * sizeof(short int));
    short int *Coeffs = (short int *) HarnessAllocL2((size_t) Taps * sizeof(short int));
    short int *Out = (short int *) HarnessAllocL2((size_t) Samples * sizeof(short int));
    short int *Expected = (short int *) HarnessAllocL2((size_t) Samples * sizeof(short int));
    /* 13-bit samples and coefficients: the sums stay well inside int32. */
    for (int i = 0; i < Samples; i++)
        In[i] = (short int) HarnessRandomRange(-4096, 4095);
    for (int k = 0; k < Taps; k++)
        Coeffs[k] = (short int) HarnessRandomRange(-4096, 4095);
    DirectFir(In, Coeffs, Expected, Samples, Taps);

    HarnessAllocL1();
    HarnessDmaStart();
    Function(In, Coeffs, Out, NORM);
    HarnessDmaReport(Name);
    HarnessFreeL1();

    HarnessCompare16(Name, Out, Expected, (size_t) Samples, 1, 1);
    free(In);
    free(Coeffs);
    free(Out);
    free(Expected);
}

int main(int argc, char **argv)
{
    HarnessSeed(argc, argv);
    RunFir("Fir20", Fir20, 30000, 20);
    RunFir("Fir7Short", Fir7Short, 1000, 7);
    return HarnessFinish();
}
