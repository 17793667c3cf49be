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

/* ---- Activations (docs/gap-fixed-point.md, "Activations") ---- */

/* round(32768 * sigmoid(i / 32)) for i in 0..512 (the reference, activations.cpp, holds the same). */
static const uint16_t AT_SIGMOID_Q15[513] = {
    16384, 16640, 16896, 17151, 17407, 17661, 17916, 18169, 18421, 18673, 18923, 19173,
    19420, 19667, 19912, 20155, 20397, 20636, 20874, 21110, 21344, 21575, 21804, 22031,
    22255, 22477, 22696, 22913, 23127, 23338, 23547, 23753, 23955, 24155, 24352, 24546,
    24737, 24925, 25110, 25292, 25471, 25646, 25819, 25988, 26155, 26318, 26479, 26636,
    26790, 26941, 27090, 27235, 27377, 27516, 27653, 27786, 27917, 28045, 28169, 28292,
    28411, 28528, 28642, 28753, 28862, 28968, 29072, 29173, 29272, 29368, 29462, 29554,
    29644, 29731, 29816, 29899, 29979, 30058, 30135, 30210, 30282, 30353, 30422, 30489,
    30555, 30618, 30680, 30740, 30799, 30856, 30912, 30966, 31018, 31069, 31119, 31167,
    31214, 31260, 31304, 31347, 31389, 31430, 31469, 31508, 31545, 31581, 31616, 31651,
    31684, 31716, 31747, 31778, 31807, 31836, 31864, 31891, 31917, 31943, 31968, 31992,
    32015, 32038, 32060, 32081, 32102, 32122, 32141, 32160, 32179, 32196, 32214, 32231,
    32247, 32263, 32278, 32293, 32307, 32321, 32335, 32348, 32361, 32373, 32385, 32397,
    32408, 32419, 32430, 32440, 32450, 32460, 32469, 32478, 32487, 32496, 32504, 32512,
    32520, 32527, 32535, 32542, 32549, 32555, 32562, 32568, 32574, 32580, 32586, 32592,
    32597, 32602, 32607, 32612, 32617, 32622, 32626, 32630, 32635, 32639, 32643, 32647,
    32650, 32654, 32657, 32661, 32664, 32667, 32670, 32673, 32676, 32679, 32682, 32684,
    32687, 32689, 32692, 32694, 32696, 32699, 32701, 32703, 32705, 32707, 32709, 32711,
    32712, 32714, 32716, 32717, 32719, 32720, 32722, 32723, 32725, 32726, 32727, 32728,
    32730, 32731, 32732, 32733, 32734, 32735, 32736, 32737, 32738, 32739, 32740, 32741,
    32742, 32742, 32743, 32744, 32745, 32745, 32746, 32747, 32747, 32748, 32749, 32749,
    32750, 32750, 32751, 32752, 32752, 32753, 32753, 32753, 32754, 32754, 32755, 32755,
    32756, 32756, 32756, 32757, 32757, 32757, 32758, 32758, 32758, 32759, 32759, 32759,
    32759, 32760, 32760, 32760, 32760, 32761, 32761, 32761, 32761, 32762, 32762, 32762,
    32762, 32762, 32762, 32763, 32763, 32763, 32763, 32763, 32763, 32764, 32764, 32764,
    32764, 32764, 32764, 32764, 32764, 32765, 32765, 32765, 32765, 32765, 32765, 32765,
    32765, 32765, 32765, 32765, 32766, 32766, 32766, 32766, 32766, 32766, 32766, 32766,
    32766, 32766, 32766, 32766, 32766, 32766, 32766, 32766, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768
};

/* sigmoid(x12 / 4096) in Q15, 0 to 32768: table entry |x12| >> 7 interpolated by the low 7 bits. */
static inline int32_t sigmoid_q15(int64_t x12)
{
    int64_t Magnitude = x12 < 0 ? -x12 : x12;
    int32_t Value = 32768;

    if (Magnitude < ((int64_t) 512 << 7)) {
        int32_t Low = AT_SIGMOID_Q15[Magnitude >> 7], High = AT_SIGMOID_Q15[(Magnitude >> 7) + 1];
        Value = Low + (int32_t) ((((int64_t) (High - Low)) * (Magnitude & 127) + 64) >> 7);
    }
    return x12 < 0 ? 32768 - Value : Value;
}

/* The activations' Kind argument. */
#define AT_ACT_SIGMOID 0
#define AT_ACT_TANH 1
#define AT_ACT_HSIGMOID 2
#define AT_ACT_HSWISH 3
#define AT_ACT_LEAKYRELU 4
#define AT_ACT_SWISH 5

static inline int64_t clip_range(int64_t x, int64_t Low, int64_t High)
{
    return x < Low ? Low : (x > High ? High : x);
}

/* The activation's value of an input already in Q12, before the output multiplier. */
static inline int64_t activation_value(int Kind, int64_t x12, int Offset, int Cap, int Alpha)
{
    switch (Kind) {
    case AT_ACT_SIGMOID: return sigmoid_q15(x12);
    case AT_ACT_TANH: return 2 * (int64_t) sigmoid_q15(2 * x12) - 32768;
    case AT_ACT_HSIGMOID: return clip_range(x12 + Offset, 0, Cap);
    case AT_ACT_HSWISH: return x12 * clip_range(x12 + Offset, 0, Cap);
    case AT_ACT_SWISH: return x12 * sigmoid_q15(x12);
    default: return x12 >= 0 ? x12 : roundnorm(x12 * Alpha, 15);
    }
}

#endif
