/* Helpers shared by the example harnesses (tests/gap/<Example>/harness.c).
 *
 * Include after GenKernels.h: it uses L1_Memory, L2_Memory and their _SIZE macros (GenKernelsInit.h,
 * the models call SetSymbolDynamics) and the emulation DMA counters __L2_Read / __L2_Write /
 * __L3_Read / __L3_Write (at_api_emul.h).
 *
 * Output protocol read by tests/tst_gap_examples.cpp:
 *   DMA <GeneratedFunction> <l2_read> <l2_write> <l3_read> <l3_write>
 *                                                   one line per generated function called
 *   MISMATCH <what> ...                             the first few differing elements
 *   RESULT ok | RESULT <n> mismatches                last line; exit status 0 only when ok
 */
#ifndef TESSERA_GAP_HARNESS_COMMON_H
#define TESSERA_GAP_HARNESS_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HARNESS_MAX_REPORTED 10

static uint32_t HarnessState = 1u;
static unsigned long HarnessMismatchCount = 0;

/* Seed from the first command-line argument (default 1). */
static inline void HarnessSeed(int argc, char **argv)
{
    HarnessState = argc > 1 ? (uint32_t) strtoul(argv[1], 0, 0) : 1u;
    printf("SEED %u\n", (unsigned) HarnessState);
}

/* Numerical Recipes' 32-bit LCG; the high half is returned (the low bits of an LCG are poor). */
static inline uint32_t HarnessRandom16(void)
{
    HarnessState = HarnessState * 1664525u + 1013904223u;
    return HarnessState >> 16;
}

static inline uint32_t HarnessRandom32(void) { return (HarnessRandom16() << 16) | HarnessRandom16(); }

/* Uniform-ish integer in [Low, High] (inclusive). */
static inline int32_t HarnessRandomRange(int32_t Low, int32_t High)
{
    uint32_t Span = (uint32_t) ((int64_t) High - (int64_t) Low + 1);
    return (int32_t) ((int64_t) Low + (int64_t) (HarnessRandom32() % Span));
}

static inline void HarnessFillGarbage(void *Ptr, size_t Size)
{
    unsigned char *Bytes = (unsigned char *) Ptr;
    for (size_t i = 0; i < Size; i++)
        Bytes[i] = (unsigned char) (HarnessRandom16() & 0xFF);
}

/* An "L2" buffer: malloc'ed with its exact size (so AddressSanitizer sees any overflow) and filled
 * with garbage, so that elements the generated code forgets to write show up as mismatches. */
static inline void *HarnessAllocL2(size_t Size)
{
    void *Ptr = malloc(Size ? Size : 1);
    if (!Ptr) {
        fprintf(stderr, "harness: cannot allocate %zu bytes\n", Size);
        exit(2);
    }
    HarnessFillGarbage(Ptr, Size);
    return Ptr;
}

/* L1 and the L2 staging area as the generated code expects them (dynamic symbols), filled with
 * garbage as well. */
static inline void HarnessAllocL1(void)
{
    printf("L1 %u\n", (unsigned) _L1_Memory_SIZE);
    L2_Memory = (char *) HarnessAllocL2(_L2_Memory_SIZE);
    L1_Memory = (char *) malloc(_L1_Memory_SIZE ? _L1_Memory_SIZE : 1);
    if (!L1_Memory) {
        fprintf(stderr, "harness: cannot allocate L1 (%u bytes)\n", (unsigned) _L1_Memory_SIZE);
        exit(2);
    }
    HarnessFillGarbage(L1_Memory, _L1_Memory_SIZE);
}

static inline void HarnessFreeL1(void)
{
    free(L1_Memory);
    L1_Memory = 0;
    free(L2_Memory);
    L2_Memory = 0;
}

static inline void HarnessDmaStart(void)
{
    __L2_Read = 0;
    __L2_Write = 0;
    __L3_Read = 0;
    __L3_Write = 0;
}

static inline void HarnessDmaReport(const char *Function)
{
    printf("DMA %s %u %u %u %u\n", Function, (unsigned) __L2_Read, (unsigned) __L2_Write, (unsigned) __L3_Read,
           (unsigned) __L3_Write);
}

/* Compare Count elements laid out as planes of Width x Height (Height*Width elements per plane). */
#define HARNESS_DEFINE_COMPARE(Suffix, Type, Format, Cast)                                                  \
    static inline void HarnessCompare##Suffix(const char *What, const Type *Got, const Type *Expected,     \
                                               size_t Width, size_t Height, size_t Planes)                  \
    {                                                                                                      \
        for (size_t p = 0; p < Planes; p++)                                                                \
            for (size_t y = 0; y < Height; y++)                                                            \
                for (size_t x = 0; x < Width; x++) {                                                       \
                    size_t i = (p * Height + y) * Width + x;                                               \
                    if (Got[i] == Expected[i])                                                             \
                        continue;                                                                          \
                    if (HarnessMismatchCount < HARNESS_MAX_REPORTED)                                       \
                        printf("MISMATCH %s plane %zu x %zu y %zu: got " Format " expected " Format "\n", \
                               What, p, x, y, Cast Got[i], Cast Expected[i]);                             \
                    HarnessMismatchCount++;                                                                \
                }                                                                                          \
    }

HARNESS_DEFINE_COMPARE(32, int32_t, "%ld", (long))
HARNESS_DEFINE_COMPARE(16, int16_t, "%d", (int))
HARNESS_DEFINE_COMPARE(8, unsigned char, "%d", (int))

/* Runs a parallel basic kernel on the whole emulated team, as generated code does: called directly
 * it would only do core 0's share. */
#define HarnessParallel(Kernel, Arg) AT_FORK(gap_ncore(), Kernel, Arg)

/* Prints the verdict and returns the exit status. */
static inline int HarnessFinish(void)
{
    if (HarnessMismatchCount) {
        printf("RESULT %lu mismatches\n", HarnessMismatchCount);
        return 1;
    }
    printf("RESULT ok\n");
    return 0;
}

#endif
