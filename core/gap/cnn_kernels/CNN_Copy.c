/* Tessera's copy, transposition and permutation basic kernels on the SDK's contract (their
 * interface in CNN_Copy.h). Plain C on Gap.h; each kernel splits its work over the cores and ends
 * with a barrier. */
#include "CNN_Copy.h"
#include "CNN_KernelHelpers.h"
#include "CNN_SdkArithmetic_SQ8.h"

#include <string.h>

void CNN_Copy_void(KerCopy_void_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->N, &First, &Last);
    if (Last > First)
        memcpy((char *) Arg->Out + First, (const char *) Arg->In + First, Last - First);
    gap_waitbarrier(0);
}

void CNN_Repeat_void(KerRepeat_void_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->NTile, &First, &Last);
    for (unsigned int r = 0; r < Arg->NRepeat && Last > First; r++)
        memcpy((char *) Arg->Out + (size_t) r * Arg->NTile + First, (const char *) Arg->In + First, Last - First);
    gap_waitbarrier(0);
}

/* ---- Transpositions ---- */

/* Out[f][x][y] = In[f][y][x] for the matrices [FirstF, LastF) and their lines [FirstY, LastY). */
#define TESSERA_TRANSPOSE(Type, In, Out, W, H, FirstF, LastF, FirstY, LastY)                              \
    for (unsigned int f = (FirstF); f < (LastF); f++) {                                                   \
        const Type *__restrict__ From = (In) + (size_t) f * (W) * (H);                                   \
        Type *__restrict__ To = (Out) + (size_t) f * (W) * (H);                                          \
        for (unsigned int y = (FirstY); y < (LastY); y++)                                                 \
            for (unsigned int x = 0; x < (W); x++)                                                        \
                To[(size_t) x * (H) + y] = From[(size_t) y * (W) + x];                                    \
    }

void CNN_ParTranspose_fps(KerMatTranspose_fps_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    TESSERA_TRANSPOSE(signed char, Arg->In, Arg->Out, Arg->W, Arg->H, First, Last, 0, Arg->H)
    gap_waitbarrier(0);
}

void CNN_Transpose_fps(KerMatTranspose_fps_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->H, &First, &Last);
    TESSERA_TRANSPOSE(signed char, Arg->In, Arg->Out, Arg->W, Arg->H, 0, Arg->Feat, First, Last)
    gap_waitbarrier(0);
}

void CNN_ParTranspose_fp(KerMatTranspose_fp_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->Feat, &First, &Last);
    TESSERA_TRANSPOSE(short int, Arg->In, Arg->Out, Arg->W, Arg->H, First, Last, 0, Arg->H)
    gap_waitbarrier(0);
}

void CNN_Transpose_fp(KerMatTranspose_fp_T *Arg)
{
    unsigned int First, Last;

    core_range(Arg->H, &First, &Last);
    TESSERA_TRANSPOSE(short int, Arg->In, Arg->Out, Arg->W, Arg->H, 0, Arg->Feat, First, Last)
    gap_waitbarrier(0);
}

/* ---- Permutations of 3-D tensors ---- */

/* The order of a tensor's three dimensions, outermost first. */
typedef enum { ORDER_CHW, ORDER_CWH, ORDER_HWC, ORDER_HCW, ORDER_WHC, ORDER_WCH } TensorOrder;

typedef struct {
    size_t C, H, W;
} TensorStrides;

/* Where element (c, h, w) of a Feat x H x W tensor stored in `Order` is: c * C + h * H + w * W. */
static TensorStrides strides_of(TensorOrder Order, size_t Feat, size_t H, size_t W)
{
    TensorStrides S;

    switch (Order) {
    case ORDER_CHW: S.C = H * W; S.H = W; S.W = 1; break;
    case ORDER_CWH: S.C = W * H; S.W = H; S.H = 1; break;
    case ORDER_HWC: S.H = W * Feat; S.W = Feat; S.C = 1; break;
    case ORDER_HCW: S.H = Feat * W; S.C = W; S.W = 1; break;
    case ORDER_WHC: S.W = H * Feat; S.H = Feat; S.C = 1; break;
    default:        S.W = Feat * H; S.C = H; S.H = 1; break; /* ORDER_WCH */
    }
    return S;
}

/* Moves each element of a tensor stored in `From` order to its place in `To` order; the cores
 * share the channels. */
#define TESSERA_PERMUTE(Type, Arg, FromOrder, ToOrder)                                                    \
    do {                                                                                                  \
        const Type *__restrict__ In = (Arg)->In;                                                          \
        Type *__restrict__ Out = (Arg)->Out;                                                              \
        const size_t Feat = (Arg)->Feat, H = (Arg)->H, W = (Arg)->W;                                      \
        const TensorStrides I = strides_of(FromOrder, Feat, H, W), O = strides_of(ToOrder, Feat, H, W);   \
        unsigned int First, Last;                                                                         \
        core_range((Arg)->Feat, &First, &Last);                                                           \
        for (size_t c = First; c < Last; c++)                                                             \
            for (size_t h = 0; h < H; h++)                                                                \
                for (size_t w = 0; w < W; w++)                                                            \
                    Out[c * O.C + h * O.H + w * O.W] = In[c * I.C + h * I.H + w * I.W];                   \
        gap_waitbarrier(0);                                                                               \
    } while (0)

#define TESSERA_PERMUTATION(From, To)                                                                     \
    void CNN_MatPerm##From##2##To##_fps(KerMatTranspose_fps_T *Arg)                                        \
    {                                                                                                     \
        TESSERA_PERMUTE(signed char, Arg, ORDER_##From, ORDER_##To);                                      \
    }                                                                                                     \
    void CNN_MatPerm##From##2##To##_fp(KerMatTranspose_fp_T *Arg)                                          \
    {                                                                                                     \
        TESSERA_PERMUTE(short int, Arg, ORDER_##From, ORDER_##To);                                        \
    }

TESSERA_PERMUTATION(CHW, CWH)
TESSERA_PERMUTATION(CHW, HWC)
TESSERA_PERMUTATION(CHW, WHC)
TESSERA_PERMUTATION(CHW, WCH)
TESSERA_PERMUTATION(CHW, HCW)
TESSERA_PERMUTATION(HWC, HCW)
TESSERA_PERMUTATION(HWC, WCH)
TESSERA_PERMUTATION(HWC, WHC)
TESSERA_PERMUTATION(HWC, CHW)
TESSERA_PERMUTATION(HWC, CWH)

/* ---- Image normalization ---- */

/* Out<c>[p] = Value(c, v) for the pixels of this core, v the pixel's channel c (RGB888, RGB16) or
 * the whole 16-bit pixel (RGB565). */
#define TESSERA_NORM_RGB(Name, Struct, OutType, Channel, Value)                                          \
    void Name(Struct *Arg)                                                                                \
    {                                                                                                     \
        OutType *__restrict__ Out[3] = {Arg->Out0, Arg->Out1, Arg->Out2};                                 \
        unsigned int First, Last;                                                                         \
        core_range(Arg->W * Arg->H, &First, &Last);                                                       \
        for (unsigned int p = First; p < Last; p++)                                                       \
            for (int c = 0; c < 3; c++) {                                                                 \
                const int v = Channel;                                                                    \
                Out[c][p] = (OutType) (Value);                                                            \
            }                                                                                             \
        gap_waitbarrier(0);                                                                               \
    }

/* The RGB565 pixel's red (c 0), green (1) or blue (2) bits, and the field's width. */
static inline int rgb565_field(unsigned int Pixel, int c)
{
    return c == 0 ? (int) (Pixel >> 11) & 31 : c == 1 ? (int) (Pixel >> 5) & 63 : (int) Pixel & 31;
}
#define TESSERA_RGB565_BITS(c) ((c) == 1 ? 6 : 5)

TESSERA_NORM_RGB(CNN_NormRGB565_offset_fps, KerNormRGB565_fps_T, signed char, rgb565_field(Arg->In[p], c),
                 (v - (1 << (TESSERA_RGB565_BITS(c) - 1))) * (1 << (8 - TESSERA_RGB565_BITS(c))))
TESSERA_NORM_RGB(CNN_NormRGB565_shift_fps, KerNormRGB565_fps_T, signed char, rgb565_field(Arg->In[p], c),
                 v << (7 - TESSERA_RGB565_BITS(c)))
TESSERA_NORM_RGB(CNN_NormRGB888_offset_fps, KerNormRGB888_fps_T, signed char, Arg->In[3 * p + c], v - 128)
TESSERA_NORM_RGB(CNN_NormRGB888_shift_fps, KerNormRGB888_fps_T, signed char, Arg->In[3 * p + c], v >> 1)
TESSERA_NORM_RGB(CNN_NormRGB16_fp, KerNormRGB16_fp_T, signed short int, Arg->In[3 * p + c], v << 7)

#define TESSERA_NORM_BW(Name, Struct, OutType, Value)                                                     \
    void Name(Struct *Arg)                                                                                \
    {                                                                                                     \
        unsigned int First, Last;                                                                         \
        core_range(Arg->W * Arg->H, &First, &Last);                                                       \
        for (unsigned int p = First; p < Last; p++) {                                                     \
            const int v = Arg->In[p];                                                                     \
            Arg->Out[p] = (OutType) (Value);                                                              \
        }                                                                                                 \
        gap_waitbarrier(0);                                                                               \
    }

TESSERA_NORM_BW(CNN_NormBW_offset_fps, KerNormBW_fps_T, signed char, v - 128)
TESSERA_NORM_BW(CNN_NormBW_shift_fps, KerNormBW_fps_T, signed char, v >> 1)
TESSERA_NORM_BW(CNN_NormBW_fp, KerNormBW_fp_T, signed short int, v << 7)

/* ---- Conversions ---- */

static inline int32_t infos_i32(const signed char *Infos, int At)
{
    uint32_t V;
    memcpy(&V, Infos + At, sizeof V);
    return (int32_t) V;
}

static inline int32_t infos_u16(const signed char *Infos, int At)
{
    uint16_t V;
    memcpy(&V, Infos + At, sizeof V);
    return V;
}


/* v + Offset, wrapping in the output's bits (the zero-point kernels). */
#define TESSERA_ADD_OFFSET(Name, Struct, OutType, Offset)                                                 \
    void Name(Struct *Arg)                                                                                \
    {                                                                                                     \
        unsigned int First, Last;                                                                         \
        core_range((unsigned int) Arg->W * Arg->H, &First, &Last);                                        \
        for (unsigned int i = First; i < Last; i++)                                                       \
            Arg->Out[i] = (OutType) (Arg->In[i] + (Offset));                                              \
        gap_waitbarrier(0);                                                                               \
    }

TESSERA_ADD_OFFSET(CNN_FpsUFps, CNN_FpsUFps_T, unsigned char, (unsigned char) Arg->Infos[0])
TESSERA_ADD_OFFSET(CNN_UFpsFps, CNN_UFpsFps_T, signed char, (unsigned char) Arg->Infos[0])
TESSERA_ADD_OFFSET(CNN_FpUFp, CNN_FpUFp_T, unsigned short, infos_u16(Arg->Infos, 0))
TESSERA_ADD_OFFSET(CNN_UFpFp, CNN_UFpFp_T, signed short, infos_u16(Arg->Infos, 0))

/* One value per item, Value(v) of the input item v; the kernels without constants do not read Infos
 * (their generator leaves it unset). */
#define TESSERA_CONVERT_LOOP(OutType, Value)                                                              \
    unsigned int First, Last;                                                                             \
    core_range((unsigned int) Arg->W * Arg->H, &First, &Last);                                            \
    for (unsigned int i = First; i < Last; i++) {                                                         \
        const int32_t v = Arg->In[i];                                                                     \
        Arg->Out[i] = (OutType) (Value);                                                                  \
    }                                                                                                     \
    gap_waitbarrier(0);
#define TESSERA_CONVERT(Name, Struct, OutType, Value)                                                     \
    void Name(Struct *Arg) { TESSERA_CONVERT_LOOP(OutType, Value) }
#define TESSERA_CONVERT_SCALED(Name, Struct, OutType, Value)                                              \
    void Name(Struct *Arg)                                                                                \
    {                                                                                                     \
        const int32_t zero_diff = infos_i32(Arg->Infos, AT_INF_QUANT_ZERO_DIFF);                          \
        const unsigned int norm = (unsigned char) Arg->Infos[AT_INF_QUANT_NORM] & 31u;                    \
        const uint32_t scale8 = (unsigned char) Arg->Infos[AT_INF_QUANT_SCALE];                           \
        const uint32_t scale16 = (uint32_t) infos_u16(Arg->Infos, AT_INF_QUANT_SCALE);                    \
        (void) scale8;                                                                                    \
        (void) scale16;                                                                                   \
        TESSERA_CONVERT_LOOP(OutType, Value)                                                              \
    }

/* Widening and narrowing by 8 bits. */
TESSERA_CONVERT(CNN_FpsFp, CNN_FpsFp_T, signed short, v * 256)
TESSERA_CONVERT(CNN_UFpsUFp, CNN_UFpsUFp_T, unsigned short, v * 256)
TESSERA_CONVERT(CNN_FpFps, CNN_FpFps_T, signed char, gap_clip(gap_roundnorm(v, 8), 7))
TESSERA_CONVERT(CNN_UFpUFps, CNN_UFpUFps_T, unsigned char, gap_clipu((int) gap_roundnormu(v, 8), 8))

/* A new zero point and scale: the zero point first, then the 8-bit scale... */
#define TESSERA_SCALED(v) gap_roundnorm_reg(wrap_mul(wrap_add(v, zero_diff), scale8), norm)
#define TESSERA_SCALED_U(v) (int) gap_roundnormu_reg(wrap_mul(wrap_add(v, zero_diff), scale8), norm)
TESSERA_CONVERT_SCALED(CNN_FpsFpsScaled, CNN_FpsFps_T, signed char, gap_clip(TESSERA_SCALED(v), 7))
TESSERA_CONVERT_SCALED(CNN_FpsUFpsScaled, CNN_FpsUFps_T, unsigned char, gap_clipu(TESSERA_SCALED(v), 8))
TESSERA_CONVERT_SCALED(CNN_UFpsFpsScaled, CNN_UFpsFps_T, signed char, gap_clip(TESSERA_SCALED(v), 7))
TESSERA_CONVERT_SCALED(CNN_UFpsUFpsScaled, CNN_UFpsUFps_T, unsigned char, gap_clipu(TESSERA_SCALED(v), 8))
TESSERA_CONVERT_SCALED(CNN_FpFpsScaled, CNN_FpFps_T, signed char, gap_clip(TESSERA_SCALED(v), 7))
TESSERA_CONVERT_SCALED(CNN_FpUFpsScaled, CNN_FpUFps_T, unsigned char, gap_clipu(TESSERA_SCALED_U(v), 8))
TESSERA_CONVERT_SCALED(CNN_UFpFpsScaled, CNN_UFpFps_T, signed char, gap_clip(TESSERA_SCALED(v), 7))
TESSERA_CONVERT_SCALED(CNN_UFpUFpsScaled, CNN_UFpUFps_T, unsigned char, gap_clipu(TESSERA_SCALED(v), 8))
TESSERA_CONVERT_SCALED(CNN_FpFpScaled, CNN_FpFp_T, signed short, gap_clip(TESSERA_SCALED(v), 15))
TESSERA_CONVERT_SCALED(CNN_FpUFpScaled, CNN_FpUFp_T, unsigned short, gap_clipu(TESSERA_SCALED(v), 16))
TESSERA_CONVERT_SCALED(CNN_UFpFpScaled, CNN_UFpFp_T, signed short, gap_clip(TESSERA_SCALED(v), 15))
TESSERA_CONVERT_SCALED(CNN_UFpUFpScaled, CNN_UFpUFp_T, unsigned short, gap_clipu(TESSERA_SCALED(v), 16))

/* ... or, from 8 to 16 bits, the 16-bit scale first, then the zero point. */
#define TESSERA_WIDENED(v) wrap_add(gap_roundnorm_reg(wrap_mul(v, scale16), norm), zero_diff)
#define TESSERA_WIDENED_U(v) wrap_add((int) gap_roundnormu_reg(wrap_mul(v, scale16), norm), zero_diff)
TESSERA_CONVERT_SCALED(CNN_FpsFpScaled, CNN_FpsFp_T, signed short, gap_clip(TESSERA_WIDENED(v), 15))
TESSERA_CONVERT_SCALED(CNN_FpsUFpScaled, CNN_FpsUFp_T, unsigned short, gap_clipu(TESSERA_WIDENED(v), 16))
TESSERA_CONVERT_SCALED(CNN_UFpsFpScaled, CNN_UFpsFp_T, signed short, gap_clip(TESSERA_WIDENED(v), 15))
TESSERA_CONVERT_SCALED(CNN_UFpsUFpScaled, CNN_UFpsUFp_T, unsigned short, gap_clipu(TESSERA_WIDENED_U(v), 16))
