/* Internal helpers shared by Tessera's CNN basic kernels (CNN_BasicKernels.c, the 16-bit
 * power-of-two kernels, and CNN_BasicKernels_SQ8.c, the 8-bit symmetric ones): the arithmetic of
 * docs/gap-fixed-point.md ("Numbers"), the parallel split and the 16-bit softmax. Not part of the
 * kernels' interface; everything is static inline so that each kernel file only keeps what it uses. */
#ifndef TESSERA_CNN_KERNEL_HELPERS_H
#define TESSERA_CNN_KERNEL_HELPERS_H

#include <stdint.h>

#include "Gap.h"

/* The ReLU argument of the kernels: 0 none, 1 max(v, 0), a larger N min(max(v, 0), N) (ReLU6 passes 6
 * in the output's format: 6 * 2^Q for the Q formats, 6 / scale in int8 units for SQ8). */
static inline int32_t apply_relu(int32_t v, unsigned int ReLU)
{
    if (ReLU && v < 0)
        v = 0;
    if (ReLU > 1 && v > (int32_t) ReLU)
        v = (int32_t) ReLU;
    return v;
}

/* roundnorm(x, s): s > 0 rounds half up then shifts right (arithmetic), s == 0 is x, s < 0 shifts
 * left; all in int64. The left shift is written as a multiplication by 2^-s, which is the same
 * value and avoids C's undefined left shift of a negative number. */
static inline int64_t roundnorm(int64_t x, int s)
{
    if (s > 0)
        return (x + ((int64_t) 1 << (s - 1))) >> s;
    if (s < 0)
        return x * ((int64_t) 1 << -s);
    return x;
}

static inline int32_t clip16(int64_t x)
{
    return x < -32768 ? -32768 : (x > 32767 ? 32767 : (int32_t) x);
}

static inline int32_t clip8(int64_t x)
{
    return x < -128 ? -128 : (x > 127 ? 127 : (int32_t) x);
}

/* Quotient rounded to nearest, halves away from zero; b > 0. */
static inline int64_t ndiv(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

/* This core's share [*First, *Last) of Count items, in contiguous chunks. */
static inline void core_range(unsigned int Count, unsigned int *First, unsigned int *Last)
{
    unsigned int Cores = (unsigned int) gap_ncore();
    unsigned int Chunk = (Count + Cores - 1) / Cores;
    unsigned int Begin = (unsigned int) gap_coreid() * Chunk;
    unsigned int End;

    if (Begin > Count)
        Begin = Count;
    End = Count - Begin < Chunk ? Count : Begin + Chunk;
    *First = Begin;
    *Last = End;
}

/* ---- Padded pooling windows ---- */

/* Where a pooling tile sits in its plane: the plane line of the tile's first line (negative inside
 * the padding above), the plane's real height and width, and the padding columns left of it. The
 * tile holds the padding lines (never read), not the padding columns. */
typedef struct {
    int Top, PlaneH, W, Pad;
} PoolPlane;

/* The plane of a pooling tile from the kernel's PadL, PadT, TileOffset and PlaneH; a copy
 * (CNN_POOL_NONE, 1 x 1 windows) has no padding and its tile is the plane. */
static inline PoolPlane pool_plane(unsigned int PadL, unsigned int PadT, unsigned int TileOffset, unsigned int PlaneH,
                                   unsigned int W, unsigned int H, int Copy)
{
    PoolPlane P;
    P.Pad = Copy ? 0 : (int) PadL;
    P.Top = Copy ? 0 : (int) TileOffset - (int) PadT;
    P.PlaneH = Copy ? (int) H : (int) PlaneH;
    P.W = (int) W;
    return P;
}

/* The tile position of window (y, x) (window stride Sy, Sx) and the part of its Fy x Fx positions
 * that is inside the real plane: lines [*Ky0, *Ky1) and columns [*Kx0, *Kx1) of the window, at tile
 * line *Line0 and column *Column0 (the window's first line and column, possibly outside). */
static inline void pool_window(const PoolPlane *P, unsigned int y, unsigned int x, unsigned int Fy, unsigned int Fx,
                               unsigned int Sy, unsigned int Sx, int *Line0, int *Column0, int *Ky0, int *Ky1,
                               int *Kx0, int *Kx1)
{
    *Line0 = (int) (y * Sy);
    *Column0 = (int) (x * Sx) - P->Pad;
    *Ky0 = P->Top + *Line0 < 0 ? -(P->Top + *Line0) : 0;
    *Ky1 = P->PlaneH - (P->Top + *Line0) < (int) Fy ? P->PlaneH - (P->Top + *Line0) : (int) Fy;
    *Kx0 = *Column0 < 0 ? -*Column0 : 0;
    *Kx1 = P->W - *Column0 < (int) Fx ? P->W - *Column0 : (int) Fx;
}

/* ---- Softmax (docs/gap-fixed-point.md, "Softmax") ---- */

/* e = 2^(d * log2(e)) in Q15 for d = in - max <= 0 in Q(InQ), steps 2 to 5 of the doc.
 * Needs 0 <= InQ <= 31 (the doc's shifts by InQ are not defined for InQ < 0). */
static inline int32_t softmax_exp(int32_t d, int InQ)
{
    int32_t t = (d * 23637) >> 14;
    int32_t k = (-t) >> InQ;
    int32_t f = (-t) - (k << InQ);
    int32_t f15 = InQ <= 15 ? f << (15 - InQ) : f >> (InQ - 15);
    int32_t p = 315;

    p = -1819 + ((p * f15) >> 15);
    p = 7872 + ((p * f15) >> 15);
    p = -22713 + ((p * f15) >> 15);
    p = 32768 + ((p * f15) >> 15);
    return k >= 31 ? 0 : p >> k;
}

/* The softmax's input value i, in Q(InQ) and 16 bits: In16[i] when In16 is given (KerSoftMax), else
 * the int8 In8[i] converted on the fly, clip16(roundnorm(In8[i] * Scale, ScaleN)) (KerSoftMax_SQ8),
 * so that no converted copy of the input has to be stored. */
static inline int32_t softmax_input(const short int *In16, const signed char *In8, int Scale, int ScaleN,
                                    unsigned int i)
{
    if (In16)
        return In16[i];
    return clip16(roundnorm((int64_t) In8[i] * Scale, ScaleN));
}

/* Steps 1 to 6 of the doc on the N > 0 inputs given by softmax_input, output in Q15. Sequential (the
 * caller runs it on one core). The e[i] are recomputed in the second pass rather than stored: no
 * scratch buffer is needed (an e[i] may be 32768, which does not fit in Out). */
static inline void softmax_q15(const short int *In16, const signed char *In8, int Scale, int ScaleN,
                               unsigned int N, int InQ, short int *Out)
{
    int32_t m = softmax_input(In16, In8, Scale, ScaleN, 0);
    int32_t Sum = 0;

    for (unsigned int i = 1; i < N; i++) {
        int32_t v = softmax_input(In16, In8, Scale, ScaleN, i);
        if (v > m)
            m = v;
    }
    for (unsigned int i = 0; i < N; i++)
        Sum += softmax_exp(softmax_input(In16, In8, Scale, ScaleN, i) - m, InQ);
    for (unsigned int i = 0; i < N; i++) {
        int32_t e = softmax_exp(softmax_input(In16, In8, Scale, ScaleN, i) - m, InQ);
        Out[i] = (short int) clip16(ndiv((int64_t) e * 32768, Sum));
    }
}

#endif
