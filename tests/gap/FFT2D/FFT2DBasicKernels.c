/* Basic kernels of the FFT2D example. Written for Tessera's tests; see FFT2DBasicKernels.h. */
#include "FFT2DBasicKernels.h"

static inline unsigned int ChunkSize(unsigned int Count)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    return (Count + Cores - 1) / Cores;
}

/* [First, Last) of the Count items this core handles. */
static inline void CoreRange(unsigned int Count, unsigned int *First, unsigned int *Last)
{
    unsigned int Chunk = ChunkSize(Count);
    *First = (unsigned int) gap_coreid() * Chunk;
    *Last = *First + Chunk < Count ? *First + Chunk : Count;
    if (*First > Count)
        *First = Count;
}

static inline Word16 Sat16(Word32 Value)
{
    return (Word16) (Value > 32767 ? 32767 : Value < -32768 ? -32768 : Value);
}

/* (Re + i Im) * exp(-2 pi i k / N) in Q15, with Twiddles[2k] = cos, Twiddles[2k+1] = sin. */
static inline v2s Rotate(Word32 Re, Word32 Im, const Word16 *Twiddles, unsigned int k)
{
    Word32 C = Twiddles[2 * k], S = Twiddles[2 * k + 1];
    v2s Out = {Sat16((Re * C + Im * S) >> 15), Sat16((Im * C - Re * S) >> 15)};
    return Out;
}

/* In-place radix-2 DIF FFT of N samples Data[0], Data[Stride], ..., scaled by 1/2 per stage. */
static void Radix2DIF(v2s *Data, unsigned int Stride, unsigned int N, const Word16 *Twiddles)
{
    for (unsigned int Span = N / 2, Step = 1; Span >= 1; Span /= 2, Step *= 2)
        for (unsigned int Group = 0; Group < N; Group += 2 * Span)
            for (unsigned int j = 0; j < Span; j++) {
                v2s *A = &Data[(Group + j) * Stride];
                v2s *B = &Data[(Group + j + Span) * Stride];
                Word32 Ar = (*A)[0], Ai = (*A)[1], Br = (*B)[0], Bi = (*B)[1];
                v2s Sum = {Sat16((Ar + Br) >> 1), Sat16((Ai + Bi) >> 1)};
                *A = Sum;
                *B = Rotate(Sat16((Ar - Br) >> 1), Sat16((Ai - Bi) >> 1), Twiddles, j * Step);
            }
}

/* In-place radix-4 DIF FFT of N = 4^m samples Data[0], Data[Stride], ..., scaled by 1/4 per stage. */
static void Radix4DIF(v2s *Data, unsigned int Stride, unsigned int N, const Word16 *Twiddles)
{
    for (unsigned int Quarter = N / 4, Step = 1; Quarter >= 1; Quarter /= 4, Step *= 4)
        for (unsigned int Group = 0; Group < N; Group += 4 * Quarter)
            for (unsigned int j = 0; j < Quarter; j++) {
                v2s *P0 = &Data[(Group + j) * Stride];
                v2s *P1 = &Data[(Group + j + Quarter) * Stride];
                v2s *P2 = &Data[(Group + j + 2 * Quarter) * Stride];
                v2s *P3 = &Data[(Group + j + 3 * Quarter) * Stride];
                Word32 Ar = (*P0)[0], Ai = (*P0)[1], Br = (*P1)[0], Bi = (*P1)[1];
                Word32 Cr = (*P2)[0], Ci = (*P2)[1], Dr = (*P3)[0], Di = (*P3)[1];
                /* y_r = sum_q x_q (-i)^(q r) */
                Word32 Y0r = (Ar + Br + Cr + Dr) >> 2, Y0i = (Ai + Bi + Ci + Di) >> 2;
                Word32 Y1r = (Ar + Bi - Cr - Di) >> 2, Y1i = (Ai - Br - Ci + Dr) >> 2;
                Word32 Y2r = (Ar - Br + Cr - Dr) >> 2, Y2i = (Ai - Bi + Ci - Di) >> 2;
                Word32 Y3r = (Ar - Bi - Cr + Di) >> 2, Y3i = (Ai + Br - Ci - Dr) >> 2;
                v2s Y0 = {Sat16(Y0r), Sat16(Y0i)};
                *P0 = Y0;
                *P1 = Rotate(Sat16(Y1r), Sat16(Y1i), Twiddles, j * Step);
                *P2 = Rotate(Sat16(Y2r), Sat16(Y2i), Twiddles, 2 * j * Step);
                *P3 = Rotate(Sat16(Y3r), Sat16(Y3i), Twiddles, 3 * j * Step);
            }
}

static void Swap(v2s *Data, unsigned int Stride, unsigned int N, const Word16 *SwapTable)
{
    for (unsigned int i = 0; i < N; i++) {
        unsigned int j = (unsigned int) SwapTable[i];
        if (j > i && j < N) {
            v2s T = Data[i * Stride];
            Data[i * Stride] = Data[j * Stride];
            Data[j * Stride] = T;
        }
    }
}

void Image2Complex(Image2Complex_Arg_T *Arg)
{
    Wordu8 * __restrict__ In = Arg->In;
    v2s * __restrict__ Out = Arg->Out;
    unsigned int First, Last;
    CoreRange(Arg->W * Arg->H, &First, &Last);
    for (unsigned int i = First; i < Last; i++) {
        v2s Sample = {(Word16) (In[i] << 7), 0};
        Out[i] = Sample;
    }
    rt_team_barrier();
}

void Radix4FFT_DIF_2D_Horizontal(FFT_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Line = First; Line < Last; Line++)
        Radix4DIF(Arg->Data + Line * Arg->N_fft, 1, Arg->N_fft, Arg->Twiddles);
    rt_team_barrier();
}

void Radix4FFT_DIF_2D_Vertical(FFT_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Column = First; Column < Last; Column++)
        Radix4DIF(Arg->Data + Column, Arg->Nb, Arg->N_fft, Arg->Twiddles);
    rt_team_barrier();
}

void Radix2FFT_DIF_2D_Horizontal(FFT_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Line = First; Line < Last; Line++)
        Radix2DIF(Arg->Data + Line * Arg->N_fft, 1, Arg->N_fft, Arg->Twiddles);
    rt_team_barrier();
}

void Radix2FFT_DIF_2D_Vertical(FFT_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Column = First; Column < Last; Column++)
        Radix2DIF(Arg->Data + Column, Arg->Nb, Arg->N_fft, Arg->Twiddles);
    rt_team_barrier();
}

void SwapSamples_2D_Horizontal_Par(SwapSamples_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Line = First; Line < Last; Line++)
        Swap(Arg->Data + Line * Arg->N_fft, 1, Arg->N_fft, Arg->SwapTable);
    rt_team_barrier();
}

void SwapSamples_2D_Vertical_Par(SwapSamples_2D_Arg_T *Arg)
{
    unsigned int First, Last;
    CoreRange(Arg->Nb, &First, &Last);
    for (unsigned int Column = First; Column < Last; Column++)
        Swap(Arg->Data + Column, Arg->Nb, Arg->N_fft, Arg->SwapTable);
    rt_team_barrier();
}
