/* Every gap_* instruction of Gap.h against its definition, written here a second way: in exact
 * (64-bit or bit-by-bit) arithmetic, then reduced to the register's width. Random operands from a
 * seeded LCG plus the edge values of each width. Prints "CHECKED <n>" and "RESULT ok" (exit 0), or
 * the first mismatches (exit 1). */
#include "Gap8.h" /* the GAP8 runtime name of Gap.h: the same instructions, and their gap8_* spellings */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long Seed = 0x9E3779B97F4A7C15ull;
static unsigned Failures, Checks;

static uint32_t Next(void)
{
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t) (Seed >> 32);
}

/* An operand: mostly random, sometimes an edge value of 8, 16 or 32 bits. */
static int32_t Operand(void)
{
    static const int64_t Edges[] = {0, 1, -1, 127, -128, 255, 32767, -32768, 65535, 0x7FFFFFFF, -0x7FFFFFFF - 1, 0x10000, 0x7FFF7FFF};
    const uint32_t r = Next();
    if (r % 8 == 0)
        return (int32_t) (uint32_t) (uint64_t) Edges[Next() % (sizeof(Edges) / sizeof(Edges[0]))];
    return (int32_t) Next();
}

static void Check(const char *Name, long long Got, long long Want, int32_t a, int32_t b, int32_t c)
{
    Checks++;
    if (Got == Want)
        return;
    if (Failures++ < 20)
        printf("MISMATCH %s(0x%08x, 0x%08x, 0x%08x): %lld, expected %lld\n", Name, (uint32_t) a, (uint32_t) b, (uint32_t) c, Got, Want);
}

/* The definitions. */
static int32_t Wrap(long long v) { return (int32_t) (uint32_t) (unsigned long long) v; }
static long long Floor2(long long v, int n) { /* floor(v / 2^n) by division, in 128 bits */
    __int128 d = 1, w = v;
    for (int i = 0; i < n; i++) d *= 2;
    return (long long) (w >= 0 ? w / d : -((-w + d - 1) / d));
}
static int32_t Lane16(int32_t v, int i) { return (int16_t) (((uint32_t) v >> (16 * i)) & 0xFFFF); }
static int32_t Lane16u(int32_t v, int i) { return ((uint32_t) v >> (16 * i)) & 0xFFFF; }
static int32_t Lane8(int32_t v, int i) { return (int8_t) (((uint32_t) v >> (8 * i)) & 0xFF); }
static int32_t Lane8u(int32_t v, int i) { return ((uint32_t) v >> (8 * i)) & 0xFF; }
static v2s AsV2s(int32_t v) { v2s r; memcpy(&r, &v, 4); return r; }
static v2u AsV2u(int32_t v) { v2u r; memcpy(&r, &v, 4); return r; }
static v4s AsV4s(int32_t v) { v4s r; memcpy(&r, &v, 4); return r; }
static v4u AsV4u(int32_t v) { v4u r; memcpy(&r, &v, 4); return r; }
static int32_t Bits(const void *Vector) { int32_t r; memcpy(&r, Vector, 4); return r; }
static int32_t Pack16(long long l0, long long l1) { return (int32_t) (((uint32_t) (l1 & 0xFFFF) << 16) | (uint32_t) (l0 & 0xFFFF)); }
static int32_t Pack8(long long l0, long long l1, long long l2, long long l3)
{
    return (int32_t) (((uint32_t) (l3 & 0xFF) << 24) | ((uint32_t) (l2 & 0xFF) << 16) | ((uint32_t) (l1 & 0xFF) << 8) | (uint32_t) (l0 & 0xFF));
}
static long long Clamp(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }
static long long Pow2(int n) { long long p = 1; while (n-- > 0) p *= 2; return p; }
static int32_t Max(int32_t a, int32_t b) { return a > b ? a : b; }
static int32_t Min(int32_t a, int32_t b) { return a < b ? a : b; }

static void CheckScalar(int32_t a, int32_t b, int32_t c)
{
    const int p = (uint32_t) c % 31, n = 1 + (uint32_t) c % 30, s = (uint32_t) c % 32;
    const long long al = Lane16(a, 0), bl = Lane16(b, 0), ah = Lane16(a, 1), bh = Lane16(b, 1);
    const long long alu = Lane16u(a, 0), blu = Lane16u(b, 0), ahu = Lane16u(a, 1), bhu = Lane16u(b, 1);
    const uint32_t au = (uint32_t) a, bu = (uint32_t) b;

    Check("gap_clip", gap_clip(a, p), Clamp(a, -Pow2(p), Pow2(p) - 1), a, p, 0);
    Check("gap_clipu", gap_clipu(a, p), Clamp(a, 0, Pow2(p) - 1), a, p, 0);
    Check("gap_clipr", gap_clipr(a, b & 0x7FFF), Clamp(a, -(long long) (b & 0x7FFF) - 1, b & 0x7FFF), a, b, 0);
    Check("gap_clipur", gap_clipur(a, b & 0x7FFF), Clamp(a, 0, b & 0x7FFF), a, b, 0);
    Check("gap_max", gap_max(a, b), Max(a, b), a, b, 0);
    Check("gap_min", gap_min(a, b), Min(a, b), a, b, 0);
    Check("gap_abs", gap_abs((long long) a), a < 0 ? -(long long) a : a, a, 0, 0);
    Check("gap_trunh", gap_trunh(a), al, a, 0, 0);
    Check("gap_trunb", gap_trunb(a), Lane8(a, 0), a, 0, 0);

    Check("gap_muls", gap_muls(a, b), al * bl, a, b, 0);
    Check("gap_mulu", gap_mulu(a, b), alu * blu, a, b, 0);
    Check("gap_mulhhs", gap_mulhhs(a, b), ah * bh, a, b, 0);
    Check("gap_mulhhu", gap_mulhhu(a, b), ahu * bhu, a, b, 0);
    Check("gap_mulsN", gap_mulsN(a, b, n), Floor2(al * bl, n), a, b, n);
    Check("gap_mulsRN", gap_mulsRN(a, b, n), Floor2(al * bl + Pow2(n - 1), n), a, b, n);
    Check("gap_muluN", gap_muluN(a, b, n), Floor2(alu * blu, n), a, b, n);
    Check("gap_muluRN", gap_muluRN(a, b, n), Floor2((uint32_t) Wrap(alu * blu + Pow2(n - 1)), n), a, b, n);
    Check("gap_mulhhsN", gap_mulhhsN(a, b, n), Floor2(ah * bh, n), a, b, n);
    Check("gap_mulhhsRN", gap_mulhhsRN(a, b, n), Floor2(ah * bh + Pow2(n - 1), n), a, b, n);
    Check("gap_mulhhuN", gap_mulhhuN(a, b, n), Floor2(ahu * bhu, n), a, b, n);
    Check("gap_mulhhuRN", gap_mulhhuRN(a, b, n), Floor2((uint32_t) Wrap(ahu * bhu + Pow2(n - 1)), n), a, b, n);

    Check("gap_macs", gap_macs(c, a, b), Wrap(c + al * bl), c, a, b);
    Check("gap_macu", gap_macu(c, a, b), (uint32_t) Wrap((long long) (uint32_t) c + alu * blu), c, a, b);
    Check("gap_machhs", gap_machhs(c, a, b), Wrap(c + ah * bh), c, a, b);
    Check("gap_machhu", gap_machhu(c, a, b), (uint32_t) Wrap((long long) (uint32_t) c + ahu * bhu), c, a, b);
    Check("gap_macsN", gap_macsN(c, a, b, n), Floor2(Wrap(c + al * bl), n), c, a, b);
    /* The register wraps before the shift. */
    Check("gap_macsRN", gap_macsRN(c, a, b, n), Floor2(Wrap((long long) Wrap(c + al * bl) + Pow2(n - 1)), n), c, a, b);
    Check("gap_macuN", gap_macuN(c, a, b, n), Floor2((uint32_t) Wrap((long long) (uint32_t) c + alu * blu), n), c, a, b);
    Check("gap_machhsN", gap_machhsN(c, a, b, n), Floor2(Wrap(c + ah * bh), n), c, a, b);
    Check("gap_machhuN", gap_machhuN(c, a, b, n), Floor2((uint32_t) Wrap((long long) (uint32_t) c + ahu * bhu), n), c, a, b);

    Check("gap_mul64h", gap_mul64h(a, b), Floor2((long long) a * b, 32), a, b, 0);
    Check("gap_mul64uh", gap_mul64uh(au, bu), (long long) (((unsigned long long) au * bu) / 4294967296ull), a, b, 0);
    Check("gap_mul64ush", gap_mul64ush(au, b), Wrap(Floor2((long long) au * b, 32)), a, b, 0);

    /* Bits, by looking at each one. */
    int Highest = 32;
    for (int i = 31; i >= 0; i--)
        if ((au >> i) & 1) { Highest = i; break; }
    Check("gap_fl1", gap_fl1(au), Highest, a, 0, 0);
    int Same = 0;
    for (int i = 30; i >= 0 && a != 0; i--) {
        if (((au >> i) & 1) != (au >> 31)) break;
        Same++;
    }
    Check("gap_clb", gap_clb(a), Same, a, 0, 0);
    const int size = 1 + (uint32_t) b % 32, off = (uint32_t) c % (33 - size);
    long long Field = 0;
    for (int i = 0; i < size; i++)
        Field += (long long) ((au >> (off + i)) & 1) << i;
    const long long Signed = (Field >> (size - 1)) & 1 ? Field - Pow2(size) : Field;
    Check("gap_bitextractu", gap_bitextractu(au, size, off), Field, a, size, off);
    Check("gap_bitextract", gap_bitextract(a, size, off), Signed, a, size, off);
    /* The safe forms keep off to 0..31 and size to 32 at most. */
    Check("gap_bitextract_r_safe", gap_bitextract_r_safe(a, size, off + 32), Signed, a, size, off);
    Check("gap_bitextract_r_safe", gap_bitextract_r_safe(a, size + 64, off), (int32_t) (au >> off), a, size + 64, off);
    Check("gap_bitextractu_r_safe", gap_bitextractu_r_safe(au, size, off + 64), Field, a, size, off);
    uint32_t Inserted = au;
    for (int i = 0; i < size; i++) {
        const uint32_t Bit = ((uint32_t) b >> i) & 1;
        Inserted = (Inserted & ~(1u << (off + i))) | (Bit << (off + i));
    }
    Check("gap_bitinsert", gap_bitinsert(a, b, size, off), (int32_t) Inserted, a, b, size * 100 + off);

    /* Normalisation, in exact arithmetic. */
    const long long Rounding = s ? Pow2(s - 1) : 0;
    Check("gap_addnorm_reg", gap_addnorm_reg(a, b, s), Floor2(Wrap((long long) a + b), s), a, b, s);
    Check("gap_addnormu_reg", gap_addnormu_reg(a, b, s), Floor2((uint32_t) Wrap((long long) a + b), s), a, b, s);
    Check("gap_addroundnorm_reg", gap_addroundnorm_reg(a, b, s), Floor2(Wrap((long long) a + b + Rounding), s), a, b, s);
    Check("gap_addroundnormu_reg", gap_addroundnormu_reg(a, b, s), Floor2((uint32_t) Wrap((long long) a + b + Rounding), s), a, b, s);
    Check("gap_subnorm_reg", gap_subnorm_reg(a, b, s), Floor2(Wrap((long long) a - b), s), a, b, s);
    Check("gap_subnormu_reg", gap_subnormu_reg(a, b, s), Floor2((uint32_t) Wrap((long long) a - b), s), a, b, s);
    Check("gap_subroundnorm_reg", gap_subroundnorm_reg(a, b, s), Floor2(Wrap((long long) a - b + Rounding), s), a, b, s);
    Check("gap_subroundnormu_reg", gap_subroundnormu_reg(a, b, s), Floor2((uint32_t) Wrap((long long) a - b + Rounding), s), a, b, s);
    Check("gap_roundnorm_reg", gap_roundnorm_reg(a, s), Floor2(Wrap((long long) a + Rounding), s), a, s, 0);
    Check("gap_roundnorm", gap_roundnorm(a, n), Floor2(Wrap((long long) a + Pow2(n - 1)), n), a, n, 0);
    Check("gap_roundnormu", gap_roundnormu(a, n), Floor2((uint32_t) Wrap((long long) a + Pow2(n - 1)), n), a, n, 0);
    Check("gap_norm", gap_norm(a, s), Floor2(a, s), a, s, 0);
    Check("gap_normu", gap_normu(a, s), Floor2(au, s), a, s, 0);
    /* Mnist's reference convolution: a rounded Q-format product clipped to 16 bits. */
    Check("gap_clip(gap_roundnorm_reg)", gap_clip(gap_roundnorm_reg(a, s), 15), Clamp(Floor2(Wrap((long long) a + Rounding), s), -32768, 32767), a, s, 0);
}

static void CheckVectors(int32_t a, int32_t b, int32_t c)
{
    const v2s a2 = AsV2s(a), b2 = AsV2s(b);
    const v2u a2u = AsV2u(a), b2u = AsV2u(b);
    const v4s a4 = AsV4s(a), b4 = AsV4s(b);
    const v4u a4u = AsV4u(a), b4u = AsV4u(b);
    v2s r2;

#define CHECK_V(Name, Result, Want) do { __typeof__(Result) V_ = (Result); Check(Name, Bits(&V_), (Want), a, b, c); } while (0)
    CHECK_V("gap_pack2", gap_pack2(a, b), Pack16(a, b));
    CHECK_V("gap_packu2", gap_packu2(a, b), Pack16(a, b));
    CHECK_V("gap_pack4", gap_pack4(a, b, c, a >> 8), Pack8(a, b, c, a >> 8));
    CHECK_V("gap_packu4", gap_packu4(a, b, c, a >> 8), Pack8(a, b, c, a >> 8));
    CHECK_V("gap_max2", gap_max2(a2, b2), Pack16(Max(Lane16(a, 0), Lane16(b, 0)), Max(Lane16(a, 1), Lane16(b, 1))));
    CHECK_V("gap_min2", gap_min2(a2, b2), Pack16(Min(Lane16(a, 0), Lane16(b, 0)), Min(Lane16(a, 1), Lane16(b, 1))));
    CHECK_V("gap_maxu2", gap_maxu2(a2u, b2u), Pack16(Max(Lane16u(a, 0), Lane16u(b, 0)), Max(Lane16u(a, 1), Lane16u(b, 1))));
    CHECK_V("gap_minu2", gap_minu2(a2u, b2u), Pack16(Min(Lane16u(a, 0), Lane16u(b, 0)), Min(Lane16u(a, 1), Lane16u(b, 1))));
    CHECK_V("gap_abs2", gap_abs2(a2), Pack16(llabs(Lane16(a, 0)), llabs(Lane16(a, 1))));
    CHECK_V("gap_add2", gap_add2(a2, b2), Pack16(Lane16(a, 0) + Lane16(b, 0), Lane16(a, 1) + Lane16(b, 1)));
    CHECK_V("gap_sub2", gap_sub2(a2, b2), Pack16(Lane16(a, 0) - Lane16(b, 0), Lane16(a, 1) - Lane16(b, 1)));
    CHECK_V("gap_add2div2", gap_add2div2(a2, b2), Pack16(Floor2((int16_t) (Lane16(a, 0) + Lane16(b, 0)), 1), Floor2((int16_t) (Lane16(a, 1) + Lane16(b, 1)), 1)));
    CHECK_V("gap_add2div4", gap_add2div4(a2, b2), Pack16(Floor2((int16_t) (Lane16(a, 0) + Lane16(b, 0)), 2), Floor2((int16_t) (Lane16(a, 1) + Lane16(b, 1)), 2)));
    CHECK_V("gap_sub2div2", gap_sub2div2(a2, b2), Pack16(Floor2((int16_t) (Lane16(a, 0) - Lane16(b, 0)), 1), Floor2((int16_t) (Lane16(a, 1) - Lane16(b, 1)), 1)));
    CHECK_V("gap_sub2div4", gap_sub2div4(a2, b2), Pack16(Floor2((int16_t) (Lane16(a, 0) - Lane16(b, 0)), 2), Floor2((int16_t) (Lane16(a, 1) - Lane16(b, 1)), 2)));
    long long m4[4], n4[4], mu4[4], nu4[4], abs4[4], add4[4], sub4[4];
    for (int i = 0; i < 4; i++) {
        m4[i] = Max(Lane8(a, i), Lane8(b, i));
        n4[i] = Min(Lane8(a, i), Lane8(b, i));
        mu4[i] = Max(Lane8u(a, i), Lane8u(b, i));
        nu4[i] = Min(Lane8u(a, i), Lane8u(b, i));
        abs4[i] = llabs(Lane8(a, i));
        add4[i] = Lane8(a, i) + Lane8(b, i);
        sub4[i] = Lane8(a, i) - Lane8(b, i);
    }
    CHECK_V("gap_max4", gap_max4(a4, b4), Pack8(m4[0], m4[1], m4[2], m4[3]));
    CHECK_V("gap_min4", gap_min4(a4, b4), Pack8(n4[0], n4[1], n4[2], n4[3]));
    CHECK_V("gap_maxu4", gap_maxu4(a4u, b4u), Pack8(mu4[0], mu4[1], mu4[2], mu4[3]));
    CHECK_V("gap_minu4", gap_minu4(a4u, b4u), Pack8(nu4[0], nu4[1], nu4[2], nu4[3]));
    CHECK_V("gap_abs4", gap_abs4(a4), Pack8(abs4[0], abs4[1], abs4[2], abs4[3]));
    CHECK_V("gap_add4", gap_add4(a4, b4), Pack8(add4[0], add4[1], add4[2], add4[3]));
    CHECK_V("gap_sub4", gap_sub4(a4, b4), Pack8(sub4[0], sub4[1], sub4[2], sub4[3]));

    /* Dot products. */
    long long d2 = 0, d2u = 0, d2us = 0, d4 = 0, d4u = 0, d4us = 0;
    for (int i = 0; i < 2; i++) {
        d2 += (long long) Lane16(a, i) * Lane16(b, i);
        d2u += (long long) Lane16u(a, i) * Lane16u(b, i);
        d2us += (long long) Lane16u(a, i) * Lane16(b, i);
    }
    for (int i = 0; i < 4; i++) {
        d4 += (long long) Lane8(a, i) * Lane8(b, i);
        d4u += (long long) Lane8u(a, i) * Lane8u(b, i);
        d4us += (long long) Lane8u(a, i) * Lane8(b, i);
    }
    Check("gap_dotp2", gap_dotp2(a2, b2), Wrap(d2), a, b, 0);
    Check("gap_sumdotp2", gap_sumdotp2(a2, b2, c), Wrap(c + d2), a, b, c);
    Check("gap_dotpu2", gap_dotpu2(a2u, b2u), (uint32_t) Wrap(d2u), a, b, 0);
    Check("gap_sumdotpu2", gap_sumdotpu2(a2u, b2u, (uint32_t) c), (uint32_t) Wrap((uint32_t) c + d2u), a, b, c);
    Check("gap_sumdotpus2", gap_sumdotpus2(a2u, b2, c), Wrap(c + d2us), a, b, c);
    Check("gap_dotp4", gap_dotp4(a4, b4), d4, a, b, 0);
    Check("gap_sumdotp4", gap_sumdotp4(a4, b4, c), Wrap(c + d4), a, b, c);
    Check("gap_dotpu4", gap_dotpu4(a4u, b4u), d4u, a, b, 0);
    Check("gap_sumdotpu4", gap_sumdotpu4(a4u, b4u, (uint32_t) c), (uint32_t) Wrap((uint32_t) c + d4u), a, b, c);
    Check("gap_sumdotpus4", gap_sumdotpus4(a4u, b4, c), Wrap(c + d4us), a, b, c);

    /* Complex Q15 products: (a0 + j a1)(b0 + j b1), exact, then floor(/2^k) into 16 bits. */
    const long long Re = (long long) Lane16(a, 0) * Lane16(b, 0) - (long long) Lane16(a, 1) * Lane16(b, 1);
    const long long Im = (long long) Lane16(a, 0) * Lane16(b, 1) + (long long) Lane16(a, 1) * Lane16(b, 0);
    CHECK_V("gap_cplxmuls", gap_cplxmuls(a2, b2), Pack16(Floor2(Re, 15), Floor2(Im, 15)));
    CHECK_V("gap_cplxmulsdiv2", gap_cplxmulsdiv2(a2, b2), Pack16(Floor2(Re, 16), Floor2(Im, 16)));
    CHECK_V("gap_cplxmulsdiv4", gap_cplxmulsdiv4(a2, b2), Pack16(Floor2(Re, 17), Floor2(Im, 17)));
    CHECK_V("gap_cplxmulsdiv8", gap_cplxmulsdiv8(a2, b2), Pack16(Floor2(Re, 18), Floor2(Im, 18)));
    CHECK_V("gap_cplxconj", gap_cplxconj(a2), Pack16(Lane16(a, 0), -Lane16(a, 1)));
    CHECK_V("gap_cplxmj", gap_cplxmj(a2), Pack16(Lane16(a, 1), -Lane16(a, 0)));
    CHECK_V("gap_sub2rotmj", gap_sub2rotmj(a2, b2), Pack16(Lane16(a, 1) - Lane16(b, 1), Lane16(b, 0) - Lane16(a, 0)));

    /* Viterbi: the maximum, then the winner doubled with the choice (1: y) in bit 0. */
    r2 = gap_vitmax(a2, b2);
    CHECK_V("gap_vitmax", r2, Pack16(Max(Lane16(a, 0), Lane16(b, 0)), Max(Lane16(a, 1), Lane16(b, 1))));
    const int c0 = Lane16(a, 0) <= Lane16(b, 0), c1 = Lane16(a, 1) <= Lane16(b, 1);
    CHECK_V("gap_vitsel", gap_vitsel(a2, b2), Pack16((c0 ? Lane16(b, 0) : Lane16(a, 0)) * 2 + c0, (c1 ? Lane16(b, 1) : Lane16(a, 1)) * 2 + c1));
#undef CHECK_V
}

/* On 24-bit operands, so that a / 2^16 is exact in a float. */
static void CheckFloats(int32_t a32, int32_t b32)
{
    const int32_t a = a32 >> 8, b = b32 >> 8;
    const float x = (float) a / 65536.0f, y = (float) b / 4096.0f;
    Check("gap_f32min", gap_f32min(x, y) == (x < y ? x : y), 1, a, b, 0);
    Check("gap_f32max", gap_f32max(x, y) == (x > y ? x : y), 1, a, b, 0);
    Check("gap_f32abs", gap_f32abs(x) == (x < 0 ? -x : x), 1, a, b, 0);
    Check("gap_f32rdn", (long long) gap_f32rdn(x), Floor2(a, 16), a, 0, 0);
    Check("gap_f32rup", (long long) gap_f32rup(x), -Floor2(-(long long) a, 16), a, 0, 0);
    /* Halves away from zero: 2.5 -> 3, -2.5 -> -3. */
    const long long Magnitude = Floor2(llabs(a) + 32768, 16);
    Check("gap_f32rmm", gap_f32rmm(x), a < 0 ? -Magnitude : Magnitude, a, 0, 0);
    Check("gap_f32sqrt", fabsf(gap_f32sqrt(fabsf(x)) * gap_f32sqrt(fabsf(x)) - fabsf(x)) <= 1e-6f * (1 + fabsf(x)), 1, a, 0, 0);
}

int main(void)
{
    for (int i = 0; i < 200000; i++) {
        const int32_t a = Operand(), b = Operand(), c = Operand();
        CheckScalar(a, b, c);
        CheckVectors(a, b, c);
        CheckFloats(a, b);
    }
    /* The GAP8 spellings are the same instructions. */
    Check("gap8_sumdotp2", gap8_sumdotp2(gap_pack2(3, -4), gap_pack2(5, 6), 7), 3 * 5 - 4 * 6 + 7, 0, 0, 0);
    Check("gap8_clip", gap8_clip(-70000, 15), -32768, 0, 0, 0);
    Check("rt_nb_pe", rt_nb_pe(), gap_ncore(), 0, 0, 0);
    printf("CHECKED %u\n", Checks);
    if (Failures) {
        printf("RESULT %u mismatches\n", Failures);
        return 1;
    }
    printf("RESULT ok\n");
    return 0;
}
