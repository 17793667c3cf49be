/* Host harness of tests/gap/CnnCopy: runs every generated layer on inputs from a seeded LCG
 * (`harness [seed]`) and compares its output, item by item, with the copy, transposition,
 * permutation, conversion or normalization computed here. Prints `DMA <Layer> <l2_read> <l2_write>` per layer, `MISMATCH ...`
 * for the first differences and `RESULT ok` last (exit status 0 only then). */
#include "GenKernels.h"

#include <stdint.h>
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

/* ---- Conversions ---- */

/* Item i of a buffer of items of Size bytes (negative: unsigned). */
static int32_t ReadItem(const void *Data, int Size, size_t i)
{
    switch (Size) {
    case 1: return ((const int8_t *) Data)[i];
    case -1: return ((const uint8_t *) Data)[i];
    case 2: return ((const int16_t *) Data)[i];
    default: return ((const uint16_t *) Data)[i];
    }
}

/* Stores the low bits of Value as item i. */
static void WriteItem(void *Data, int Size, size_t i, int64_t Value)
{
    if (Size == 1 || Size == -1)
        ((uint8_t *) Data)[i] = (uint8_t) (uint64_t) Value;
    else
        ((uint16_t *) Data)[i] = (uint16_t) (uint64_t) Value;
}

static int32_t Wrap32(int64_t X)
{
    return (int32_t) (uint32_t) (uint64_t) X;
}

/* GAP's rounded shifts of a 32-bit value: arithmetic, or of its bits as unsigned. */
static int32_t RoundShift(int32_t X, unsigned N)
{
    return Wrap32((int64_t) X + (N ? (int64_t) 1 << (N - 1) : 0)) >> N;
}

static uint32_t RoundShiftUnsigned(int32_t X, unsigned N)
{
    return (uint32_t) (uint64_t) ((int64_t) X + (N ? (int64_t) 1 << (N - 1) : 0)) >> N;
}

/* The range of an item type, a value clipped to it. */
static int64_t Clip(int64_t X, int Size)
{
    const int64_t Lo = Size == 1 ? -128 : Size == 2 ? -32768 : 0;
    const int64_t Hi = Size == 1 ? 127 : Size == -1 ? 255 : Size == 2 ? 32767 : 65535;
    return X < Lo ? Lo : X > Hi ? Hi : X;
}

typedef void (*Convert_T)(void *In, void *Out, signed char *Infos);
enum { ZERO_POINT, WIDEN_OR_NARROW, SCALED };

/* Runs a conversion of 999 items from In to Out items with random constants. */
static void RunConversion(const char *Name, Convert_T Layer, int Kind, int In, int Out)
{
    enum { N = 999 };
    const size_t InBytes = (size_t) (In < 0 ? -In : In), OutBytes = (size_t) (Out < 0 ? -Out : Out);
    unsigned char *Input = (unsigned char *) Random(N * InBytes), *Output = (unsigned char *) calloc(N, OutBytes);
    unsigned char *Expected = (unsigned char *) malloc(N * OutBytes);
    signed char Infos[8];
    const int32_t ZeroDiff = (int32_t) (NextByte() % 601) - 300;
    const uint16_t Scale = (uint16_t) (NextByte() | (NextByte() << 8));
    const unsigned Norm = NextByte() % 32;
    memcpy(Infos, &ZeroDiff, 4);
    memcpy(Infos + 4, &Scale, 2);
    Infos[6] = (signed char) Norm;
    Infos[7] = 0;
    const int Widening = InBytes == 1 && OutBytes == 2;
    for (size_t i = 0; i < N; i++) {
        const int32_t V = ReadItem(Input, In, i);
        int64_t R;
        if (Kind == ZERO_POINT)
            R = V + (InBytes == 1 ? (uint8_t) Infos[0] : (uint16_t) ZeroDiff); /* Infos[0], or [0..1] */
        else if (Kind == WIDEN_OR_NARROW)
            R = Widening ? V * 256 : Clip(In > 0 ? RoundShift(V, 8) : (int32_t) RoundShiftUnsigned(V, 8), Out);
        else if (Widening) { /* 8 to 16 bits: the 16-bit scale, then the zero point */
            const int32_t Product = Wrap32((int64_t) V * Scale);
            const int32_t Scaled = (In == -1 && Out == -2) ? (int32_t) RoundShiftUnsigned(Product, Norm) : RoundShift(Product, Norm);
            R = Clip(Wrap32((int64_t) Scaled + ZeroDiff), Out);
        } else { /* the zero point, then the 8-bit scale */
            const int32_t Product = Wrap32((int64_t) Wrap32((int64_t) V + ZeroDiff) * (uint8_t) Scale);
            const int32_t Scaled = (In == 2 && Out == -1) ? (int32_t) RoundShiftUnsigned(Product, Norm) : RoundShift(Product, Norm);
            R = Clip(Scaled, Out);
        }
        WriteItem(Expected, Out, i, R);
    }
    __L2_Read = __L2_Write = 0;
    Layer(Input, Output, Infos);
    Compare(Name, Output, Expected, N * OutBytes, OutBytes);
    free(Input);
    free(Output);
    free(Expected);
}

/* ---- Image normalization ---- */

enum { RGB565, RGB888, GREY };

/* Runs a normalization of a 37 x 23 image in Format into Channels planes of OutSize-byte values;
 * Offset: centred on 0, Sixteen: v << 7, else halved. */
static void RunNormalization(const char *Name, Layer_T Layer, int Format, int Offset, int Sixteen)
{
    enum { W = 37, H = 23, P = W * H };
    const int Channels = Format == GREY ? 1 : 3;
    const size_t InBytes = Format == RGB565 ? 2 * P : (size_t) Channels * P, OutSize = Sixteen ? 2 : 1;
    unsigned char *Input = (unsigned char *) Random(InBytes);
    unsigned char *Output = (unsigned char *) calloc((size_t) Channels * P, OutSize);
    unsigned char *Expected = (unsigned char *) malloc((size_t) Channels * P * OutSize);
    for (int c = 0; c < Channels; c++)
        for (int p = 0; p < P; p++) {
            int64_t R;
            if (Format == RGB565) {
                const unsigned Pixel = ((const uint16_t *) Input)[p];
                const int Bits = c == 1 ? 6 : 5;
                const int Field = (int) (Pixel >> (c == 0 ? 11 : c == 1 ? 5 : 0)) & ((1 << Bits) - 1);
                /* the field to 8 bits: centred (-128 .. 127) or in 0 .. 127 */
                R = Offset ? (Field - (1 << (Bits - 1))) * (1 << (8 - Bits)) : Field << (7 - Bits);
            } else {
                const int V = Input[(size_t) p * Channels + c];
                R = Sixteen ? V * 128 : Offset ? V - 128 : V / 2;
            }
            WriteItem(Expected, Sixteen ? 2 : 1, (size_t) c * P + p, R);
        }
    __L2_Read = __L2_Write = 0;
    Layer(Input, Output);
    Compare(Name, Output, Expected, (size_t) Channels * P * OutSize, OutSize);
    free(Input);
    free(Output);
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
#define NORMALIZATION(Name, InType, OutType)      \
    static void Call##Name(void *In, void *Out)    \
    {                                              \
        Name((InType *) In, (OutType *) Out);      \
    }
NORMALIZATION(NormRGB565Offset, unsigned short int, signed char)
NORMALIZATION(NormRGB565Shift, unsigned short int, signed char)
NORMALIZATION(NormRGB888Offset, unsigned char, signed char)
NORMALIZATION(NormRGB888Shift, unsigned char, signed char)
NORMALIZATION(NormRGB16, unsigned char, short int)
NORMALIZATION(NormBWOffset, unsigned char, signed char)
NORMALIZATION(NormBWShift, unsigned char, signed char)
NORMALIZATION(NormBW16, unsigned char, short int)
#define CONVERSION(Name, InType, OutType)                          \
    static void Call##Name(void *In, void *Out, signed char *Infos) \
    {                                                              \
        Name((InType *) In, (OutType *) Out, Infos);               \
    }
#define PLAIN_CONVERSION(Name, InType, OutType)                    \
    static void Call##Name(void *In, void *Out, signed char *Infos) \
    {                                                              \
        (void) Infos;                                              \
        Name((InType *) In, (OutType *) Out);                      \
    }
CONVERSION(ConvertFpsUFps, signed char, unsigned char)
CONVERSION(ConvertUFpsFps, unsigned char, signed char)
CONVERSION(ConvertFpUFp, short int, unsigned short int)
CONVERSION(ConvertUFpFp, unsigned short int, short int)
PLAIN_CONVERSION(ConvertFpsFp, signed char, short int)
PLAIN_CONVERSION(ConvertUFpsUFp, unsigned char, unsigned short int)
PLAIN_CONVERSION(ConvertFpFps, short int, signed char)
PLAIN_CONVERSION(ConvertUFpUFps, unsigned short int, unsigned char)
#define SCALED_FROM(In, InType)                                  \
    CONVERSION(Convert##In##FpsScaled, InType, signed char)      \
    CONVERSION(Convert##In##UFpsScaled, InType, unsigned char)   \
    CONVERSION(Convert##In##FpScaled, InType, short int)         \
    CONVERSION(Convert##In##UFpScaled, InType, unsigned short int)
SCALED_FROM(Fps, signed char)
SCALED_FROM(UFps, unsigned char)
SCALED_FROM(Fp, short int)
SCALED_FROM(UFp, unsigned short int)

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
    RunConversion("ConvertFpsUFps", CallConvertFpsUFps, ZERO_POINT, 1, -1);
    RunConversion("ConvertUFpsFps", CallConvertUFpsFps, ZERO_POINT, -1, 1);
    RunConversion("ConvertFpUFp", CallConvertFpUFp, ZERO_POINT, 2, -2);
    RunConversion("ConvertUFpFp", CallConvertUFpFp, ZERO_POINT, -2, 2);
    RunConversion("ConvertFpsFp", CallConvertFpsFp, WIDEN_OR_NARROW, 1, 2);
    RunConversion("ConvertUFpsUFp", CallConvertUFpsUFp, WIDEN_OR_NARROW, -1, -2);
    RunConversion("ConvertFpFps", CallConvertFpFps, WIDEN_OR_NARROW, 2, 1);
    RunConversion("ConvertUFpUFps", CallConvertUFpUFps, WIDEN_OR_NARROW, -2, -1);
    {
        static const int Sizes[] = {1, -1, 2, -2};
        static const char *const Codes[] = {"Fps", "UFps", "Fp", "UFp"};
        const Convert_T Layers[4][4] = {
            {CallConvertFpsFpsScaled, CallConvertFpsUFpsScaled, CallConvertFpsFpScaled, CallConvertFpsUFpScaled},
            {CallConvertUFpsFpsScaled, CallConvertUFpsUFpsScaled, CallConvertUFpsFpScaled, CallConvertUFpsUFpScaled},
            {CallConvertFpFpsScaled, CallConvertFpUFpsScaled, CallConvertFpFpScaled, CallConvertFpUFpScaled},
            {CallConvertUFpFpsScaled, CallConvertUFpUFpsScaled, CallConvertUFpFpScaled, CallConvertUFpUFpScaled}};
        for (int i = 0; i < 4; i++)
            for (int o = 0; o < 4; o++) {
                char Name[64];
                snprintf(Name, sizeof Name, "Convert%s%sScaled", Codes[i], Codes[o]);
                RunConversion(Name, Layers[i][o], SCALED, Sizes[i], Sizes[o]);
            }
    }
    RunNormalization("NormRGB565Offset", CallNormRGB565Offset, RGB565, 1, 0);
    RunNormalization("NormRGB565Shift", CallNormRGB565Shift, RGB565, 0, 0);
    RunNormalization("NormRGB888Offset", CallNormRGB888Offset, RGB888, 1, 0);
    RunNormalization("NormRGB888Shift", CallNormRGB888Shift, RGB888, 0, 0);
    RunNormalization("NormRGB16", CallNormRGB16, RGB888, 0, 1);
    RunNormalization("NormBWOffset", CallNormBWOffset, GREY, 1, 0);
    RunNormalization("NormBWShift", CallNormBWShift, GREY, 0, 0);
    RunNormalization("NormBW16", CallNormBW16, GREY, 0, 1);
    free(L1_Memory);
    free(L2_Memory);
    if (Mismatches)
        return 1;
    printf("RESULT ok\n");
    return 0;
}
