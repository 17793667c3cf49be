/* Tessera's copy, transposition and permutation basic kernels on the SDK's contract, called by the
 * code the copy generators produce (CNN_Copy_Generators.h: CNN_Copy, CNN_MatTranspose,
 * CNN_3DTensorPermute, CNN_Convert, CNN_Norm). Names and argument structures are those of GreenWaves' CNN_Copy.h, so that
 * generated code links with either library. They move values and compute nothing: "fps" kernels
 * move bytes, "fp" kernels 16-bit values. Every kernel splits its work over the cores
 * (gap_coreid()/gap_ncore()) and ends on a team barrier.
 *
 * Layouts. A CHW tensor of Feat planes of H lines of W values is [Feat][H][W]; an HWC one is
 * [H][W][Feat]. Each permutation kernel reads such a tensor and writes it in the order its name
 * gives after the "2": CNN_MatPermCHW2HWC writes [H][W][Feat], CNN_MatPermHWC2CWH [Feat][W][H]. The
 * generators hand them a band of the tensor whose own W (CHW) or Feat (HWC) is the tile's. */
#ifndef TESSERA_CNN_COPY_H
#define TESSERA_CNN_COPY_H

#include "Gap.h"

/* Copies N bytes from In to Out. */
typedef struct {
    void * __restrict__ In;
    void * __restrict__ Out;
    unsigned int N;
} KerCopy_void_T;
void CNN_Copy_void(KerCopy_void_T *Arg);

/* Writes the NTile bytes of In NRepeat times, one after the other, from Out on. */
typedef struct {
    void * __restrict__ In;
    void * __restrict__ Out;
    unsigned int NTile;
    unsigned int NRepeat;
} KerRepeat_void_T;
void CNN_Repeat_void(KerRepeat_void_T *Arg);

/* Feat matrices of H lines of W values, transposed (CNN_*Transpose*) or permuted (CNN_MatPerm*,
 * then Feat, W and H are the tensor's). Sx and Sy are the strides of the strided transpositions the
 * SDK also has; these kernels do not read them. */
typedef struct {
    signed char * __restrict__ In;
    signed char * __restrict__ Out;
    unsigned int Feat;
    unsigned int W;
    unsigned int H;
    unsigned char Sx;
    unsigned char Sy;
} KerMatTranspose_fps_T;

typedef struct {
    short int * __restrict__ In;
    short int * __restrict__ Out;
    unsigned int Feat;
    unsigned int W;
    unsigned int H;
    unsigned char Sx;
    unsigned char Sy;
} KerMatTranspose_fp_T;

/* Out[f][x][y] = In[f][y][x]: the Par kernels split the matrices over the cores, the others (one
 * matrix at a time) its lines. */
void CNN_ParTranspose_fps(KerMatTranspose_fps_T *Arg);
void CNN_Transpose_fps(KerMatTranspose_fps_T *Arg);
void CNN_ParTranspose_fp(KerMatTranspose_fp_T *Arg);
void CNN_Transpose_fp(KerMatTranspose_fp_T *Arg);

void CNN_MatPermCHW2CWH_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermCHW2HWC_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermCHW2WHC_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermCHW2WCH_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermCHW2HCW_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermHWC2HCW_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermHWC2WCH_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermHWC2WHC_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermHWC2CHW_fps(KerMatTranspose_fps_T *Arg);
void CNN_MatPermHWC2CWH_fps(KerMatTranspose_fps_T *Arg);

void CNN_MatPermCHW2CWH_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermCHW2HWC_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermCHW2WHC_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermCHW2WCH_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermCHW2HCW_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermHWC2HCW_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermHWC2WCH_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermHWC2WHC_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermHWC2CHW_fp(KerMatTranspose_fp_T *Arg);
void CNN_MatPermHWC2CWH_fp(KerMatTranspose_fp_T *Arg);

/* ---- Image normalization (CNN_Norm) ----
 * W x H pixels of an image become int8 (fps) or int16 (fp) planes. RGB565: one 16-bit pixel per
 * item (red in bits 11..15, green 5..10, blue 0..4), "offset" gives (r - 16) << 3, (g - 32) << 2,
 * (b - 16) << 3, "shift" r << 2, g << 1, b << 2. RGB888: three bytes per pixel, R G B; "offset"
 * gives v - 128, "shift" v >> 1, RGB16 v << 7 (int16). BW: one byte per pixel, as RGB888's one
 * channel. Out0, Out1, Out2 are the red, green and blue planes. */
typedef struct {
    unsigned short * __restrict__ In;
    signed char * __restrict__ Out0;
    signed char * __restrict__ Out1;
    signed char * __restrict__ Out2;
    unsigned int W;
    unsigned int H;
} KerNormRGB565_fps_T;

typedef struct {
    unsigned char * __restrict__ In;
    signed char * __restrict__ Out0;
    signed char * __restrict__ Out1;
    signed char * __restrict__ Out2;
    unsigned int W;
    unsigned int H;
} KerNormRGB888_fps_T;

typedef struct {
    unsigned char * __restrict__ In;
    signed short int * __restrict__ Out0;
    signed short int * __restrict__ Out1;
    signed short int * __restrict__ Out2;
    unsigned int W;
    unsigned int H;
} KerNormRGB16_fp_T;

typedef struct {
    unsigned char * __restrict__ In;
    signed char * __restrict__ Out;
    unsigned int W;
    unsigned int H;
} KerNormBW_fps_T;

typedef struct {
    unsigned char * __restrict__ In;
    signed short int * __restrict__ Out;
    unsigned int W;
    unsigned int H;
} KerNormBW_fp_T;

void CNN_NormRGB565_offset_fps(KerNormRGB565_fps_T *Arg);
void CNN_NormRGB565_shift_fps(KerNormRGB565_fps_T *Arg);
void CNN_NormRGB888_offset_fps(KerNormRGB888_fps_T *Arg);
void CNN_NormRGB888_shift_fps(KerNormRGB888_fps_T *Arg);
void CNN_NormRGB16_fp(KerNormRGB16_fp_T *Arg);
void CNN_NormBW_offset_fps(KerNormBW_fps_T *Arg);
void CNN_NormBW_shift_fps(KerNormBW_fps_T *Arg);
void CNN_NormBW_fp(KerNormBW_fp_T *Arg);

/* ---- Conversions (CNN_Convert) ----
 * One structure per pair of item types, named as the SDK names them: Fps int8, UFps uint8, Fp int16,
 * UFp uint16 (CNN_<in><out>_T). W x H items of In become W x H items of Out, the operation the
 * kernel's name gives, its constants in Infos (CNN_Copy_Generators.h, CNN_Convert):
 *   CNN_<in><out> of the same size: adds the offset Infos[0] (8-bit) or Infos[0..1] (16-bit), wrapping;
 *   CNN_FpsFp, CNN_UFpsUFp: the value times 256; CNN_FpFps, CNN_UFpUFps: rounded to 8 bits;
 *   CNN_<in><out>Scaled: a new zero point and scale, with zero_diff the int32 Infos[AT_INF_QUANT_ZERO_DIFF],
 *   norm Infos[AT_INF_QUANT_NORM] and scale Infos[AT_INF_QUANT_SCALE], 8 bits wide, or 16 bits from an
 *   8-bit input to a 16-bit output:
 *     clip(roundnorm((v + zero_diff) * scale, norm))   and, 8-bit to 16-bit,
 *     clip(roundnorm(v * scale, norm) + zero_diff),
 *   in GAP's wrapping 32-bit arithmetic, roundnorm gap_roundnorm_reg (gap_roundnormu_reg in
 *   CNN_FpUFpsScaled and CNN_UFpsUFpScaled, as in the SDK), clip to the output type's range. */
#define AT_INF_QUANT_ZERO_DIFF 0
#define AT_INF_QUANT_SCALE 4
#define AT_INF_QUANT_NORM 6

#define TESSERA_CONVERSION_T(Name, InType, OutType) \
    typedef struct {                                \
        InType * __restrict__ In;                   \
        OutType * __restrict__ Out;                 \
        unsigned short int W;                       \
        unsigned short int H;                       \
        signed char * __restrict__ Infos;           \
    } Name;
TESSERA_CONVERSION_T(CNN_FpsFps_T, signed char, signed char)
TESSERA_CONVERSION_T(CNN_FpsUFps_T, signed char, unsigned char)
TESSERA_CONVERSION_T(CNN_UFpsFps_T, unsigned char, signed char)
TESSERA_CONVERSION_T(CNN_UFpsUFps_T, unsigned char, unsigned char)
TESSERA_CONVERSION_T(CNN_FpsFp_T, signed char, signed short)
TESSERA_CONVERSION_T(CNN_FpsUFp_T, signed char, unsigned short)
TESSERA_CONVERSION_T(CNN_UFpsFp_T, unsigned char, signed short)
TESSERA_CONVERSION_T(CNN_UFpsUFp_T, unsigned char, unsigned short)
TESSERA_CONVERSION_T(CNN_FpFps_T, signed short, signed char)
TESSERA_CONVERSION_T(CNN_FpUFps_T, signed short, unsigned char)
TESSERA_CONVERSION_T(CNN_UFpFps_T, unsigned short, signed char)
TESSERA_CONVERSION_T(CNN_UFpUFps_T, unsigned short, unsigned char)
TESSERA_CONVERSION_T(CNN_FpFp_T, signed short, signed short)
TESSERA_CONVERSION_T(CNN_FpUFp_T, signed short, unsigned short)
TESSERA_CONVERSION_T(CNN_UFpFp_T, unsigned short, signed short)
TESSERA_CONVERSION_T(CNN_UFpUFp_T, unsigned short, unsigned short)
#undef TESSERA_CONVERSION_T

void CNN_FpsUFps(CNN_FpsUFps_T *Arg);
void CNN_UFpsFps(CNN_UFpsFps_T *Arg);
void CNN_FpUFp(CNN_FpUFp_T *Arg);
void CNN_UFpFp(CNN_UFpFp_T *Arg);
void CNN_FpsFp(CNN_FpsFp_T *Arg);
void CNN_UFpsUFp(CNN_UFpsUFp_T *Arg);
void CNN_FpFps(CNN_FpFps_T *Arg);
void CNN_UFpUFps(CNN_UFpUFps_T *Arg);
void CNN_FpsFpsScaled(CNN_FpsFps_T *Arg);
void CNN_FpsUFpsScaled(CNN_FpsUFps_T *Arg);
void CNN_UFpsFpsScaled(CNN_UFpsFps_T *Arg);
void CNN_UFpsUFpsScaled(CNN_UFpsUFps_T *Arg);
void CNN_FpsFpScaled(CNN_FpsFp_T *Arg);
void CNN_FpsUFpScaled(CNN_FpsUFp_T *Arg);
void CNN_UFpsFpScaled(CNN_UFpsFp_T *Arg);
void CNN_UFpsUFpScaled(CNN_UFpsUFp_T *Arg);
void CNN_FpFpsScaled(CNN_FpFps_T *Arg);
void CNN_FpUFpsScaled(CNN_FpUFps_T *Arg);
void CNN_UFpFpsScaled(CNN_UFpFps_T *Arg);
void CNN_UFpUFpsScaled(CNN_UFpUFps_T *Arg);
void CNN_FpFpScaled(CNN_FpFp_T *Arg);
void CNN_FpUFpScaled(CNN_FpUFp_T *Arg);
void CNN_UFpFpScaled(CNN_UFpFp_T *Arg);
void CNN_UFpUFpScaled(CNN_UFpUFp_T *Arg);

#endif
