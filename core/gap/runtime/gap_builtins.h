/* The GAP cores' DSP instructions as the SDK's C names (gap_clip, gap_sumdotp2, gap_cplxmuls, ...),
 * written in portable C so that basic kernels and applications written for the chip build and give
 * the chip's results on any compiler. Each follows the instruction it names:
 * - 32-bit results wrap as the 32-bit registers do (no C overflow);
 * - "N" forms shift the result right by n, "RN" forms add 2^(n-1) first (n >= 1), "_reg" forms
 *   accept n == 0 (no rounding);
 * - 16-bit multiplies take the low halves, "hh" forms the high halves, "u" forms unsigned halves;
 * - vector forms work lane by lane on v2s/v2u (two 16-bit) and v4s/v4u (four 8-bit) and wrap in
 *   their lane.
 * tests/gap/builtins_check.c checks every one against its definition. Gap.h includes this file. */
#ifndef TESSERA_GAP_BUILTINS_H
#define TESSERA_GAP_BUILTINS_H

#include <math.h>
#include <stdint.h>

/* ---- wrapping helpers ---- */
static inline int32_t GapWrap32(int64_t Value) { return (int32_t) (uint32_t) (uint64_t) Value; }
static inline int32_t GapShiftRight(int64_t Value, unsigned Shift) { return GapWrap32(Value) >> Shift; }
static inline uint32_t GapShiftRightU(int64_t Value, unsigned Shift) { return (uint32_t) (uint64_t) Value >> Shift; }
static inline int64_t GapRounding(unsigned Shift) { return Shift ? (int64_t) 1 << (Shift - 1) : 0; }

/* ---- packing ---- */
static inline v2s gap_pack2(int x, int y) { return (v2s) {(int16_t) x, (int16_t) y}; }
static inline v2u gap_packu2(int x, int y) { return (v2u) {(uint16_t) x, (uint16_t) y}; }
static inline v4s gap_pack4(int x, int y, int z, int t) { return (v4s) {(int8_t) x, (int8_t) y, (int8_t) z, (int8_t) t}; }
static inline v4u gap_packu4(int x, int y, int z, int t) { return (v4u) {(uint8_t) x, (uint8_t) y, (uint8_t) z, (uint8_t) t}; }

/* ---- minimum, maximum, absolute value (scalars of any type, as the SDK's macros) ---- */
#define gap_max(x, y) __extension__({ __typeof__(x) GapX_ = (x); __typeof__(y) GapY_ = (y); GapX_ > GapY_ ? GapX_ : GapY_; })
#define gap_min(x, y) __extension__({ __typeof__(x) GapX_ = (x); __typeof__(y) GapY_ = (y); GapX_ < GapY_ ? GapX_ : GapY_; })
#define gap_abs(x) __extension__({ __typeof__(x) GapX_ = (x); GapX_ < 0 ? -GapX_ : GapX_; })

#define GAP_LANES2(Type, Expr) \
    Type r = {0}; for (int i = 0; i < 2; i++) r[i] = (Expr); return r
#define GAP_LANES4(Type, Expr) \
    Type r = {0}; for (int i = 0; i < 4; i++) r[i] = (Expr); return r
static inline v2s gap_max2(v2s x, v2s y) { GAP_LANES2(v2s, x[i] > y[i] ? x[i] : y[i]); }
static inline v2s gap_min2(v2s x, v2s y) { GAP_LANES2(v2s, x[i] < y[i] ? x[i] : y[i]); }
static inline v2u gap_maxu2(v2u x, v2u y) { GAP_LANES2(v2u, x[i] > y[i] ? x[i] : y[i]); }
static inline v2u gap_minu2(v2u x, v2u y) { GAP_LANES2(v2u, x[i] < y[i] ? x[i] : y[i]); }
static inline v4s gap_max4(v4s x, v4s y) { GAP_LANES4(v4s, x[i] > y[i] ? x[i] : y[i]); }
static inline v4s gap_min4(v4s x, v4s y) { GAP_LANES4(v4s, x[i] < y[i] ? x[i] : y[i]); }
static inline v4u gap_maxu4(v4u x, v4u y) { GAP_LANES4(v4u, x[i] > y[i] ? x[i] : y[i]); }
static inline v4u gap_minu4(v4u x, v4u y) { GAP_LANES4(v4u, x[i] < y[i] ? x[i] : y[i]); }
static inline v2s gap_abs2(v2s x) { GAP_LANES2(v2s, (int16_t) (x[i] < 0 ? -x[i] : x[i])); }
static inline v4s gap_abs4(v4s x) { GAP_LANES4(v4s, (int8_t) (x[i] < 0 ? -x[i] : x[i])); }

/* ---- lane-wise addition and subtraction ---- */
static inline v2s gap_add2(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] + y[i])); }
static inline v2s gap_sub2(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] - y[i])); }
static inline v4s gap_add4(v4s x, v4s y) { GAP_LANES4(v4s, (int8_t) (x[i] + y[i])); }
static inline v4s gap_sub4(v4s x, v4s y) { GAP_LANES4(v4s, (int8_t) (x[i] - y[i])); }
/* The lane sum or difference (in 16 bits), then an arithmetic shift by 1 or 2. */
static inline v2s gap_add2div2(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] + y[i]) >> 1); }
static inline v2s gap_add2div4(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] + y[i]) >> 2); }
static inline v2s gap_sub2div2(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] - y[i]) >> 1); }
static inline v2s gap_sub2div4(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (x[i] - y[i]) >> 2); }

/* ---- saturation ---- */
/* Into [-2^p, 2^p - 1] (p.clip) and [0, 2^p - 1] (p.clipu). */
static inline int gap_clip(int x, unsigned p) { const int hi = (int) ((1u << p) - 1), lo = -hi - 1; return x < lo ? lo : x > hi ? hi : x; }
static inline int gap_clipu(int x, unsigned p) { const int hi = (int) ((1u << p) - 1); return x < 0 ? 0 : x > hi ? hi : x; }
/* Into [-(bound + 1), bound] (p.clipr) and [0, bound] (p.clipur). */
static inline int gap_clipr(int x, int bound) { return x < -bound - 1 ? -bound - 1 : x > bound ? bound : x; }
static inline int gap_clipur(int x, int bound) { return x < 0 ? 0 : x > bound ? bound : x; }
static inline int16_t gap_trunh(int x) { return (int16_t) x; }
static inline int8_t gap_trunb(int x) { return (int8_t) x; }

/* ---- 16 x 16 multiplies and multiply-accumulates ---- */
static inline int64_t GapLowS(int x) { return (int16_t) x; }
static inline int64_t GapLowU(int x) { return (uint16_t) x; }
static inline int64_t GapHighS(int x) { return (int16_t) ((uint32_t) x >> 16); }
static inline int64_t GapHighU(int x) { return (uint16_t) ((uint32_t) x >> 16); }

static inline int gap_muls(int x, int y) { return GapWrap32(GapLowS(x) * GapLowS(y)); }
static inline unsigned gap_mulu(int x, int y) { return (uint32_t) (GapLowU(x) * GapLowU(y)); }
static inline int gap_mulhhs(int x, int y) { return GapWrap32(GapHighS(x) * GapHighS(y)); }
static inline unsigned gap_mulhhu(int x, int y) { return (uint32_t) (GapHighU(x) * GapHighU(y)); }
#define gap_mulfs gap_muls
#define gap_mulfu gap_mulu
static inline int gap_mulsN(int x, int y, unsigned n) { return GapShiftRight(GapLowS(x) * GapLowS(y), n); }
static inline int gap_mulsRN(int x, int y, unsigned n) { return GapShiftRight(GapLowS(x) * GapLowS(y) + GapRounding(n), n); }
static inline unsigned gap_muluN(int x, int y, unsigned n) { return GapShiftRightU(GapLowU(x) * GapLowU(y), n); }
static inline unsigned gap_muluRN(int x, int y, unsigned n) { return GapShiftRightU(GapLowU(x) * GapLowU(y) + GapRounding(n), n); }
static inline int gap_mulhhsN(int x, int y, unsigned n) { return GapShiftRight(GapHighS(x) * GapHighS(y), n); }
static inline int gap_mulhhsRN(int x, int y, unsigned n) { return GapShiftRight(GapHighS(x) * GapHighS(y) + GapRounding(n), n); }
static inline unsigned gap_mulhhuN(int x, int y, unsigned n) { return GapShiftRightU(GapHighU(x) * GapHighU(y), n); }
static inline unsigned gap_mulhhuRN(int x, int y, unsigned n) { return GapShiftRightU(GapHighU(x) * GapHighU(y) + GapRounding(n), n); }
#define gap_mulfsN gap_mulsN
#define gap_mulfsRN gap_mulsRN
#define gap_mulfuN gap_muluN
#define gap_mulfuRN gap_muluRN

static inline int gap_macs(int Acc, int x, int y) { return GapWrap32((int64_t) Acc + GapLowS(x) * GapLowS(y)); }
static inline unsigned gap_macu(int Acc, int x, int y) { return (uint32_t) ((int64_t) (uint32_t) Acc + GapLowU(x) * GapLowU(y)); }
static inline int gap_machhs(int Acc, int x, int y) { return GapWrap32((int64_t) Acc + GapHighS(x) * GapHighS(y)); }
static inline unsigned gap_machhu(int Acc, int x, int y) { return (uint32_t) ((int64_t) (uint32_t) Acc + GapHighU(x) * GapHighU(y)); }
#define gap_macfs gap_macs
#define gap_macfu gap_macu
/* The accumulation wraps in 32 bits before the shift, as in the register. */
static inline int gap_macsN(int Acc, int x, int y, unsigned n) { return gap_macs(Acc, x, y) >> n; }
static inline int gap_macsRN(int Acc, int x, int y, unsigned n) { return GapShiftRight((int64_t) gap_macs(Acc, x, y) + GapRounding(n), n); }
static inline unsigned gap_macuN(int Acc, int x, int y, unsigned n) { return gap_macu(Acc, x, y) >> n; }
static inline unsigned gap_macuRN(int Acc, int x, int y, unsigned n) { return GapShiftRightU((int64_t) gap_macu(Acc, x, y) + GapRounding(n), n); }
static inline int gap_machhsN(int Acc, int x, int y, unsigned n) { return gap_machhs(Acc, x, y) >> n; }
static inline int gap_machhsRN(int Acc, int x, int y, unsigned n) { return GapShiftRight((int64_t) gap_machhs(Acc, x, y) + GapRounding(n), n); }
static inline unsigned gap_machhuN(int Acc, int x, int y, unsigned n) { return gap_machhu(Acc, x, y) >> n; }
static inline unsigned gap_machhuRN(int Acc, int x, int y, unsigned n) { return GapShiftRightU((int64_t) gap_machhu(Acc, x, y) + GapRounding(n), n); }
#define gap_macfsN gap_macsN
#define gap_macfsRN gap_macsRN
#define gap_macfuN gap_macuN
#define gap_macfuRN gap_macuRN

/* The high 32 bits of the 64-bit product: signed x signed, unsigned x unsigned, unsigned x signed. */
static inline int gap_mul64h(int x, int y) { return (int32_t) (((int64_t) x * (int64_t) y) >> 32); }
static inline unsigned gap_mul64uh(unsigned x, unsigned y) { return (uint32_t) (((uint64_t) x * (uint64_t) y) >> 32); }
static inline int gap_mul64ush(unsigned x, int y) { return (int32_t) (((int64_t) x * (int64_t) y) >> 32); }

/* ---- dot products (32-bit sums) ---- */
static inline int gap_sumdotp2(v2s x, v2s y, int Acc) { return GapWrap32((int64_t) Acc + x[0] * y[0] + x[1] * y[1]); }
static inline unsigned gap_sumdotpu2(v2u x, v2u y, unsigned Acc) { return (uint32_t) ((uint64_t) Acc + (uint64_t) x[0] * y[0] + (uint64_t) x[1] * y[1]); }
static inline int gap_sumdotpus2(v2u x, v2s y, int Acc) { return GapWrap32((int64_t) Acc + (int64_t) x[0] * y[0] + (int64_t) x[1] * y[1]); }
static inline int gap_sumdotp4(v4s x, v4s y, int Acc) { return GapWrap32((int64_t) Acc + x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]); }
static inline unsigned gap_sumdotpu4(v4u x, v4u y, unsigned Acc) { return (uint32_t) ((uint64_t) Acc + x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]); }
static inline int gap_sumdotpus4(v4u x, v4s y, int Acc) { return GapWrap32((int64_t) Acc + x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]); }
#define gap_dotp2(x, y) gap_sumdotp2((x), (y), 0)
#define gap_dotpu2(x, y) gap_sumdotpu2((x), (y), 0)
#define gap_dotpus2(x, y) gap_sumdotpus2((x), (y), 0)
#define gap_dotp4(x, y) gap_sumdotp4((x), (y), 0)
#define gap_dotpu4(x, y) gap_sumdotpu4((x), (y), 0)
#define gap_dotpus4(x, y) gap_sumdotpus4((x), (y), 0)

/* ---- complex arithmetic on v2s {re, im} in Q15 ---- */
/* The full products' sums, shifted by 15 (+1, +2, +3 for the div forms), kept in 16 bits. */
static inline v2s GapComplexMultiply(v2s x, v2s y, unsigned Shift)
{
    const int64_t Re = (int64_t) x[0] * y[0] - (int64_t) x[1] * y[1], Im = (int64_t) x[0] * y[1] + (int64_t) x[1] * y[0];
    return (v2s) {(int16_t) GapShiftRight(Re, Shift), (int16_t) GapShiftRight(Im, Shift)};
}
static inline v2s gap_cplxmuls(v2s x, v2s y) { return GapComplexMultiply(x, y, 15); }
static inline v2s gap_cplxmulsdiv2(v2s x, v2s y) { return GapComplexMultiply(x, y, 16); }
static inline v2s gap_cplxmulsdiv4(v2s x, v2s y) { return GapComplexMultiply(x, y, 17); }
static inline v2s gap_cplxmulsdiv8(v2s x, v2s y) { return GapComplexMultiply(x, y, 18); }
static inline v2s gap_cplxconj(v2s x) { return (v2s) {x[0], (int16_t) -x[1]}; }
/* Multiplication by -j, and (x - y) multiplied by -j. */
static inline v2s gap_cplxmj(v2s x) { return (v2s) {x[1], (int16_t) -x[0]}; }
static inline v2s gap_sub2rotmj(v2s x, v2s y) { return (v2s) {(int16_t) (x[1] - y[1]), (int16_t) (y[0] - x[0])}; }

/* ---- Viterbi: vitmax keeps each lane's maximum and remembers which side won (y when x <= y);
 * vitsel then returns, per lane, the winner's value shifted left by 1 with that choice in bit 0. */
__attribute__((weak)) int GapViterbiChoice[2];
static inline v2s gap_vitmax(v2s x, v2s y)
{
    for (int i = 0; i < 2; i++)
        GapViterbiChoice[i] = x[i] <= y[i];
    return gap_max2(x, y);
}
static inline v2s gap_vitsel(v2s x, v2s y) { GAP_LANES2(v2s, (int16_t) (((GapViterbiChoice[i] ? y[i] : x[i]) * 2) | GapViterbiChoice[i])); }

/* ---- bits ---- */
/* The index of the most significant 1 (32 for 0), and the number of leading bits equal to the
 * sign bit after it (0 for 0). */
static inline int gap_fl1(unsigned x) { return x ? 31 - __builtin_clz(x) : 32; }
static inline int gap_clb(int x) { return x ? __builtin_clrsb(x) : 0; }
/* The size-bit field at bit off: sign-extended, or not (u). The _r forms take the same operands
 * (a register on the chip), _r_safe ones clamp size to 32 and off to 0..31. */
static inline int gap_bitextract(int x, unsigned size, unsigned off)
{
    const uint32_t Field = ((uint32_t) x >> off) & (size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1);
    return size >= 32 ? (int32_t) Field : (int32_t) (Field << (32 - size)) >> (32 - size);
}
static inline unsigned gap_bitextractu(unsigned x, unsigned size, unsigned off) { return (x >> off) & (size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1); }
#define gap_bitextract_r gap_bitextract
#define gap_bitextractu_r gap_bitextractu
#define gap_bitextract_r_safe(x, size, off) gap_bitextract((x), (size) > 32 ? 32 : (size), (off) & 0x1F)
#define gap_bitextractu_r_safe(x, size, off) gap_bitextractu((x), (size) > 32 ? 32 : (size), (off) & 0x1F)
/* dst with its size-bit field at off replaced by the low bits of src. */
static inline int gap_bitinsert(int dst, int src, unsigned size, unsigned off)
{
    const uint32_t Mask = (size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1) << off;
    return (int32_t) (((uint32_t) dst & ~Mask) | (((uint32_t) src << off) & Mask));
}
#define gap_bitinsert_r gap_bitinsert
#define gap_bitinsert_r_safe(dst, src, size, off) gap_bitinsert((dst), (src), (size) > 32 ? 32 : (size), (off) & 0x1F)

/* ---- normalisation: (x + y) or (x - y) in 32 bits, then shifted right (arithmetic, or logical for
 * the u forms), rounded first in the round forms ---- */
static inline int gap_addnorm_reg(int x, int y, unsigned s) { return GapShiftRight((int64_t) x + y, s); }
static inline unsigned gap_addnormu_reg(int x, int y, unsigned s) { return GapShiftRightU((int64_t) x + y, s); }
static inline int gap_addroundnorm_reg(int x, int y, unsigned s) { return GapWrap32((int64_t) x + y + GapRounding(s)) >> s; }
static inline unsigned gap_addroundnormu_reg(int x, int y, unsigned s) { return GapShiftRightU((int64_t) x + y + GapRounding(s), s); }
static inline int gap_subnorm_reg(int x, int y, unsigned s) { return GapShiftRight((int64_t) x - y, s); }
static inline unsigned gap_subnormu_reg(int x, int y, unsigned s) { return GapShiftRightU((int64_t) x - y, s); }
static inline int gap_subroundnorm_reg(int x, int y, unsigned s) { return GapWrap32((int64_t) x - y + GapRounding(s)) >> s; }
static inline unsigned gap_subroundnormu_reg(int x, int y, unsigned s) { return GapShiftRightU((int64_t) x - y + GapRounding(s), s); }
#define gap_addnorm gap_addnorm_reg
#define gap_addnormu gap_addnormu_reg
#define gap_addroundnorm gap_addroundnorm_reg
#define gap_addroundnormu gap_addroundnormu_reg
#define gap_subnorm gap_subnorm_reg
#define gap_subnormu gap_subnormu_reg
#define gap_subroundnorm gap_subroundnorm_reg
#define gap_subroundnormu gap_subroundnormu_reg
#define gap_norm(x, s) gap_addnorm_reg((x), 0, (s))
#define gap_norm_reg(x, s) gap_addnorm_reg((x), 0, (s))
#define gap_normu(x, s) gap_addnormu_reg((x), 0, (s))
#define gap_normu_reg(x, s) gap_addnormu_reg((x), 0, (s))
#define gap_roundnorm(x, s) gap_addroundnorm_reg((x), 0, (s))
#define gap_roundnorm_reg(x, s) gap_addroundnorm_reg((x), 0, (s))
#define gap_roundnormu(x, s) gap_addroundnormu_reg((x), 0, (s))
#define gap_roundnormu_reg(x, s) gap_addroundnormu_reg((x), 0, (s))

/* ---- single-precision helpers ---- */
#define gap_f32min(a, b) fminf((a), (b))
#define gap_f32max(a, b) fmaxf((a), (b))
#define gap_f32sqrt(a) sqrtf(a)
#define gap_f32abs(a) fabsf(a)
#define gap_f32rdn(a) floorf(a)
#define gap_f32rup(a) ceilf(a)
/* Rounded to the nearest integer, halves away from zero. */
static inline int gap_f32rmm(float a) { return (int) roundf(a); }

/* Fixed point <-> floating point with `Precision` fractional bits. */
#define FIX2FP(Val, Precision) ((float) (Val) / (float) (1 << (Precision)))
#define FP2FIXR(Val, Precision) ((int) ((Val) * ((1 << (Precision)) - 1) + 0.5))
#define FP2FIX(Val, Precision) ((int) ((Val) * ((1 << (Precision)) - 1)))

/* GAP9's 16-bit floats (float16, and float16alt with 8 exponent bits) and their pairs, as the SDK's
 * host emulation has them, which GreenWaves' float16 libraries are written for: floats under
 * __FLOAT_EMUL__ (results may differ from the chip's in the last bits); otherwise, as for GAP8, which
 * has no 16-bit floats, 16-bit integers that only let such sources compile. */
#if defined(__FLOAT_EMUL__)
typedef float f16;
typedef float v2h __attribute__((vector_size(8)));
typedef float f16a;
typedef float v2ah __attribute__((vector_size(8)));
#else
typedef short int f16;
typedef short int v2h __attribute__((vector_size(4)));
typedef short int f16a;
typedef short int v2ah __attribute__((vector_size(4)));
#endif

/* The GAP8 runtime's spellings. */
#define gap8_clip gap_clip
#define gap8_clipu gap_clipu
#define gap8_abs gap_abs
#define gap8_max gap_max
#define gap8_min gap_min
#define gap8_pack2 gap_pack2
#define gap8_pack4 gap_pack4
#define gap8_max2 gap_max2
#define gap8_max4 gap_max4
#define gap8_min2 gap_min2
#define gap8_min4 gap_min4
#define gap8_add2 gap_add2
#define gap8_sub2 gap_sub2
#define gap8_macs gap_macs
#define gap8_muls gap_muls
#define gap8_mulsN gap_mulsN
#define gap8_mulsRN gap_mulsRN
#define gap8_dotp2 gap_dotp2
#define gap8_dotp4 gap_dotp4
#define gap8_sumdotp2 gap_sumdotp2
#define gap8_sumdotp4 gap_sumdotp4
#define gap8_cplxmuls gap_cplxmuls
#define gap8_cplxmulsdiv2 gap_cplxmulsdiv2
#define gap8_cplxmulsdiv4 gap_cplxmulsdiv4
#define gap8_cplxconj gap_cplxconj
#define gap8_sub2rotmj gap_sub2rotmj
#define gap8_add2div2 gap_add2div2
#define gap8_add2div4 gap_add2div4
#define gap8_sub2div2 gap_sub2div2
#define gap8_sub2div4 gap_sub2div4
#define gap8_fl1 gap_fl1
#define gap8_clb gap_clb
#define gap8_bitextract gap_bitextract
#define gap8_bitextractu gap_bitextractu
#define gap8_bitinsert gap_bitinsert
#define gap8_norm gap_norm
#define gap8_normu gap_normu
#define gap8_roundnorm gap_roundnorm
#define gap8_roundnorm_reg gap_roundnorm_reg
#define gap8_roundnormu gap_roundnormu
#define gap8_muluRN gap_muluRN
#define gap8_macsRN gap_macsRN
#define gap8_macuN gap_macuN
#define gap8_macuRN gap_macuRN
#define gap8_mulhhsN gap_mulhhsN
#define gap8_mulhhsRN gap_mulhhsRN
#define gap8_mulhhuN gap_mulhhuN
#define gap8_mulhhuRN gap_mulhhuRN
#define gap8_machhsN gap_machhsN
#define gap8_machhsRN gap_machhsRN
#define gap8_machhuN gap_machhuN
#define gap8_machhuRN gap_machhuRN
#define gap8_addnormu gap_addnormu
#define gap8_addnormu_reg gap_addnormu_reg
#define gap8_addroundnormu gap_addroundnormu
#define gap8_addroundnormu_reg gap_addroundnormu_reg
#define gap8_subnormu gap_subnormu
#define gap8_subnormu_reg gap_subnormu_reg
#define gap8_subroundnormu gap_subroundnormu
#define gap8_subroundnormu_reg gap_subroundnormu_reg
#define gap8_norm_reg gap_norm_reg
#define gap8_normu_reg gap_normu_reg
#define gap8_clipr gap_clipr
#define gap8_clipur gap_clipur
#define gap8_bitextract_r gap_bitextract_r
#define gap8_bitextractu_r gap_bitextractu_r
#define gap8_bitinsert_r gap_bitinsert_r
#define gap8_roundnormu_reg gap_roundnormu_reg
#define gap8_addroundnorm gap_addroundnorm
#define gap8_addroundnorm_reg gap_addroundnorm_reg
#define gap8_addnorm gap_addnorm
#define gap8_addnorm_reg gap_addnorm_reg
#define gap8_subnorm gap_subnorm
#define gap8_subnorm_reg gap_subnorm_reg
#define gap8_subroundnorm gap_subroundnorm
#define gap8_subroundnorm_reg gap_subroundnorm_reg
#define gap8_dotpu2 gap_dotpu2
#define gap8_dotpus2 gap_dotpus2
#define gap8_dotpu4 gap_dotpu4
#define gap8_dotpus4 gap_dotpus4
#define gap8_sumdotpu2 gap_sumdotpu2
#define gap8_sumdotpus2 gap_sumdotpus2
#define gap8_sumdotpu4 gap_sumdotpu4
#define gap8_sumdotpus4 gap_sumdotpus4
#define gap8_macu gap_macu
#define gap8_machhs gap_machhs
#define gap8_machhu gap_machhu
#define gap8_mulu gap_mulu
#define gap8_mulhhs gap_mulhhs
#define gap8_mulhhu gap_mulhhu
#define gap8_muluN gap_muluN
#define gap8_macsN gap_macsN
#define gap8_maxu2 gap_maxu2
#define gap8_maxu4 gap_maxu4
#define gap8_minu2 gap_minu2
#define gap8_minu4 gap_minu4
#define gap8_abs2 gap_abs2
#define gap8_abs4 gap_abs4
#define gap8_add4 gap_add4
#define gap8_sub4 gap_sub4
#define gap8_packu2 gap_packu2
#define gap8_packu4 gap_packu4
#define gap8_cplxmj gap_cplxmj

#undef GAP_LANES2
#undef GAP_LANES4

#endif
