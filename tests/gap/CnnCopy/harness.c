/* Host harness of tests/gap/CnnCopy: runs every generated layer on inputs from a seeded LCG
 * (`harness [seed]`) and compares its output, item by item, with the copy, transposition or
 * permutation computed here. Prints `DMA <Layer> <l2_read> <l2_write>` per layer, `MISMATCH ...`
 * for the first differences and `RESULT ok` last (exit status 0 only then). */
#include "GenKernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned int Seed = 1;
static int Mismatches;

static unsigned char NextByte(void)
{
    Seed = Seed * 1103515245u + 12345u;
    return (unsigned char) (Seed >> 16);
}

static void *Random(size_t Bytes)
{
    unsigned char *Data = (unsigned char *) malloc(Bytes);
    for (size_t i = 0; i < Bytes; i++)
        Data[i] = NextByte();
    return Data;
}

static void Compare(const char *Layer, const unsigned char *Out, const unsigned char *Expected, size_t Bytes,
                    size_t ItemSize)
{
    printf("DMA %s %u %u\n", Layer, __L2_Read, __L2_Write);
    for (size_t i = 0; i < Bytes; i++)
        if (Out[i] != Expected[i]) {
            if (Mismatches++ < 10)
                printf("MISMATCH %s item %zu byte %zu: %d, expected %d\n", Layer, i / ItemSize, i % ItemSize, Out[i],
                       Expected[i]);
        }
}

/* Where item (c, h, w) of a tensor of C channels, H lines and W columns sits when its dimensions
 * are stored in Order ("CHW", "HWC", ...), outermost first. */
static size_t Position(const char *Order, size_t c, size_t h, size_t w, size_t C, size_t H, size_t W)
{
    size_t Index = 0;
    for (int k = 0; k < 3; k++) {
        const char D = Order[k];
        Index = Index * (D == 'C' ? C : D == 'H' ? H : W) + (D == 'C' ? c : D == 'H' ? h : w);
    }
    return Index;
}

typedef void (*Layer_T)(void *In, void *Out);

/* Runs Layer on a random C x H x W tensor stored in From, expects it stored in To. */
static void RunPermutation(const char *Name, Layer_T Layer, const char *From, const char *To, size_t C, size_t H,
                           size_t W, size_t ItemSize)
{
    const size_t Bytes = C * H * W * ItemSize;
    unsigned char *In = (unsigned char *) Random(Bytes), *Out = (unsigned char *) calloc(Bytes, 1);
    unsigned char *Expected = (unsigned char *) malloc(Bytes);
    for (size_t c = 0; c < C; c++)
        for (size_t h = 0; h < H; h++)
            for (size_t w = 0; w < W; w++)
                memcpy(Expected + Position(To, c, h, w, C, H, W) * ItemSize,
                       In + Position(From, c, h, w, C, H, W) * ItemSize, ItemSize);
    __L2_Read = __L2_Write = 0;
    Layer(In, Out);
    Compare(Name, Out, Expected, Bytes, ItemSize);
    free(In);
    free(Out);
    free(Expected);
}

/* Runs Layer on Bytes random bytes; Out must be NRepeat copies of them. */
static void RunCopy(const char *Name, Layer_T Layer, size_t Bytes, size_t NRepeat, size_t ItemSize)
{
    unsigned char *In = (unsigned char *) Random(Bytes), *Out = (unsigned char *) calloc(Bytes * NRepeat, 1);
    unsigned char *Expected = (unsigned char *) malloc(Bytes * NRepeat);
    for (size_t r = 0; r < NRepeat; r++)
        memcpy(Expected + r * Bytes, In, Bytes);
    __L2_Read = __L2_Write = 0;
    Layer(In, Out);
    Compare(Name, Out, Expected, Bytes * NRepeat, ItemSize);
    free(In);
    free(Out);
    free(Expected);
}

/* Typed calls of the generated layers, one per layer. */
#define LAYER(Name, Type)                                \
    static void Call##Name(void *In, void *Out)          \
    {                                                    \
        Name((Type *) In, (Type *) Out);                 \
    }
#define PERMUTATIONS(Suffix, Type)                                                                    \
    LAYER(PermuteCHW2CWH##Suffix, Type) LAYER(PermuteCHW2HWC##Suffix, Type)                             \
    LAYER(PermuteCHW2WHC##Suffix, Type) LAYER(PermuteCHW2WCH##Suffix, Type)                             \
    LAYER(PermuteCHW2HCW##Suffix, Type) LAYER(PermuteHWC2HCW##Suffix, Type)                             \
    LAYER(PermuteHWC2WCH##Suffix, Type) LAYER(PermuteHWC2WHC##Suffix, Type)                             \
    LAYER(PermuteHWC2CHW##Suffix, Type) LAYER(PermuteHWC2CWH##Suffix, Type)
LAYER(Transpose8, signed char)
LAYER(Transpose16, short int)
LAYER(TransposeColumns, unsigned char)
LAYER(TransposeHwc, signed char)
LAYER(TransposeWide, signed char)
PERMUTATIONS(8, signed char)
PERMUTATIONS(16, short int)
LAYER(Copy16, short int)
LAYER(CopyBytes, unsigned char)
LAYER(Repeat, short int)

#define RUN_PERMUTATIONS(Suffix, ItemSize)                                                                  \
    do {                                                                                                    \
        static const char *const Orders[][2] = {{"CHW", "CWH"}, {"CHW", "HWC"}, {"CHW", "WHC"}, {"CHW", "WCH"}, \
                                                {"CHW", "HCW"}, {"HWC", "HCW"}, {"HWC", "WCH"}, {"HWC", "WHC"}, \
                                                {"HWC", "CHW"}, {"HWC", "CWH"}};                            \
        const Layer_T Layers[] = {CallPermuteCHW2CWH##Suffix, CallPermuteCHW2HWC##Suffix,                   \
                                  CallPermuteCHW2WHC##Suffix, CallPermuteCHW2WCH##Suffix,                   \
                                  CallPermuteCHW2HCW##Suffix, CallPermuteHWC2HCW##Suffix,                   \
                                  CallPermuteHWC2WCH##Suffix, CallPermuteHWC2WHC##Suffix,                   \
                                  CallPermuteHWC2CHW##Suffix, CallPermuteHWC2CWH##Suffix};                  \
        for (int i = 0; i < 10; i++) {                                                                      \
            char Name[64];                                                                                  \
            snprintf(Name, sizeof Name, "Permute%s2%s%s", Orders[i][0], Orders[i][1], #Suffix);             \
            RunPermutation(Name, Layers[i], Orders[i][0], Orders[i][1], 6, 9, 13, ItemSize);                \
        }                                                                                                   \
    } while (0)

int main(int argc, char **argv)
{
    if (argc > 1)
        Seed = (unsigned int) strtoul(argv[1], 0, 10);
    L1_Memory = (char *) Random(_L1_Memory_SIZE);
    L2_Memory = (char *) Random(_L2_Memory_SIZE > 0 ? _L2_Memory_SIZE : 1);
    /* A transposition is the permutation CHW -> CWH of its matrices. */
    RunPermutation("Transpose8", CallTranspose8, "CHW", "CWH", 5, 23, 37, 1);
    RunPermutation("Transpose16", CallTranspose16, "CHW", "CWH", 3, 41, 30, 2);
    RunPermutation("TransposeColumns", CallTransposeColumns, "CHW", "CWH", 2, 19, 50, 1);
    RunPermutation("TransposeHwc", CallTransposeHwc, "HWC", "WHC", 4, 7, 11, 1);
    RunPermutation("TransposeWide", CallTransposeWide, "CHW", "CWH", 1, 2, 4000, 1);
    RUN_PERMUTATIONS(8, 1);
    RUN_PERMUTATIONS(16, 2);
    RunCopy("Copy16", CallCopy16, 1001 * 2, 1, 2);
    RunCopy("CopyBytes", CallCopyBytes, 3333, 1, 1);
    RunCopy("Repeat", CallRepeat, 77 * 2, 5, 2);
    free(L1_Memory);
    free(L2_Memory);
    if (Mismatches)
        return 1;
    printf("RESULT ok\n");
    return 0;
}
