/* What the exact checks of the CNN basic kernels (cnn_kernels_check.c, cnn_sq8_kernels_check.c)
 * share: a seeded generator (define KERNEL_CHECK_SEED before including), case and mismatch
 * counting, and the arithmetic helpers of docs/gap-fixed-point.md ("Numbers"). */
#ifndef TESSERA_KERNEL_CHECK_COMMON_H
#define TESSERA_KERNEL_CHECK_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CNN_BasicKernels.h"

static uint32_t Seed = KERNEL_CHECK_SEED;
static int Failures;      /* mismatching values over all cases */
static int CaseFailures;  /* in the current case */
static int Cases;

static inline uint32_t lcg(void)
{
    Seed = Seed * 1664525u + 1013904223u;
    return Seed;
}

/* Uniform-ish integer in [Lo, Hi]. */
static inline int32_t rnd(int32_t Lo, int32_t Hi)
{
    uint64_t Span = (uint64_t) ((int64_t) Hi - Lo + 1);
    uint64_t r = ((uint64_t) lcg() << 32) | lcg();
    return (int32_t) (Lo + (int64_t) (r % Span));
}

static inline void *xmalloc(size_t Size)
{
    void *p = malloc(Size ? Size : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memset(p, 0xA5, Size ? Size : 1); /* garbage: the kernels must write every output */
    return p;
}

static inline void begin_case(const char *Name)
{
    Cases++;
    CaseFailures = 0;
    printf("case %s\n", Name);
}

static inline void mismatch(const char *What, long Index, long Got, long Expected)
{
    Failures++;
    if (++CaseFailures <= 10)
        printf("  MISMATCH %s [%ld]: got %ld, expected %ld\n", What, Index, Got, Expected);
}

static inline void fail(const char *Message)
{
    Failures++;
    printf("  FAIL %s\n", Message);
}

/* The tests must use data whose int32 intermediate sums do not overflow (the doc's premise). */
static inline int32_t in_int32(int64_t x)
{
    if (x < INT32_MIN || x > INT32_MAX) {
        fprintf(stderr, "test data overflows int32: %lld\n", (long long) x);
        exit(2);
    }
    return (int32_t) x;
}

static inline int64_t ref_roundnorm(int64_t x, int s)
{
    if (s > 0)
        return (x + ((int64_t) 1 << (s - 1))) >> s;
    if (s == 0)
        return x;
    return x * ((int64_t) 1 << (-s)); /* x << -s, without C's UB on negative x */
}

static inline int64_t ref_ndiv(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b / 2) / b : -((-a + b / 2) / b);
}

static inline const char *pool_name(int PoolOper)
{
    return PoolOper == CNN_POOL_MAX ? "max" : PoolOper == CNN_POOL_AVG ? "avg" : "none";
}

#endif
