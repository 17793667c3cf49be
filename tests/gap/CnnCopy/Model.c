/* Copies, transpositions, permutations, conversions and image normalization through the SDK's copy generators, as NNTool's model
 * programs declare them (CNN_Generators_SQ8.h, LoadCNN_SQ8_Library); the L1 budget comes from the
 * command line (--l1). Layer sizes are the harness's. */
#include <stdio.h>

#include "AutoTilerLib.h"
#include "CNN_Generators_SQ8.h"

/* Every permutation of a 6 x 13 x 9 tensor (channels, width, height) of Size-byte items. */
static void Permutations(const char *Suffix, int Size)
{
    static const struct {
        const char *Name;
        KernelOper_T Oper;
        int Hwc;
    } Perms[] = {
        {"CHW2CWH", KOP_MATPERM_CHW2CWH, 0}, {"CHW2HWC", KOP_MATPERM_CHW2HWC, 0}, {"CHW2WHC", KOP_MATPERM_CHW2WHC, 0},
        {"CHW2WCH", KOP_MATPERM_CHW2WCH, 0}, {"CHW2HCW", KOP_MATPERM_CHW2HCW, 0}, {"HWC2HCW", KOP_MATPERM_HWC2HCW, 1},
        {"HWC2WCH", KOP_MATPERM_HWC2WCH, 1}, {"HWC2WHC", KOP_MATPERM_HWC2WHC, 1}, {"HWC2CHW", KOP_MATPERM_HWC2CHW, 1},
        {"HWC2CWH", KOP_MATPERM_HWC2CWH, 1},
    };
    for (unsigned i = 0; i < sizeof Perms / sizeof Perms[0]; i++) {
        CNN_GenControl_T Ctrl;
        char Name[64];
        CNN_InitGenCtrl(&Ctrl);
        CNN_SetGenCtrl(&Ctrl, "HWC", (void *) (long) Perms[i].Hwc);
        snprintf(Name, sizeof Name, "Permute%s%s", Perms[i].Name, Suffix);
        CNN_3DTensorPermute(Name, &Ctrl, Size, 6, 13, 9, Perms[i].Oper);
    }
}

/* Every conversion of the library: zero points, 8 <-> 16 bits, and scaled ones between any two item
 * types (1, 2 bytes, negative for unsigned), 999 items each. */
static void Conversions(void)
{
    static const struct {
        const char *Name;
        int In, Out;
        KernelOper_T Oper;
    } Plain[] = {
        {"FpsUFps", 1, -1, KOP_CONVERT_FP_FP_ZEROPOINT}, {"UFpsFps", -1, 1, KOP_CONVERT_FP_FP_ZEROPOINT},
        {"FpUFp", 2, -2, KOP_CONVERT_FP_FP_ZEROPOINT},   {"UFpFp", -2, 2, KOP_CONVERT_FP_FP_ZEROPOINT},
        {"FpsFp", 1, 2, KOP_CONVERT_FP_FP},              {"UFpsUFp", -1, -2, KOP_CONVERT_FP_FP},
        {"FpFps", 2, 1, KOP_CONVERT_FP_FP},              {"UFpUFps", -2, -1, KOP_CONVERT_FP_FP},
    };
    static const int Sizes[] = {1, -1, 2, -2};
    static const char *const Codes[] = {"Fps", "UFps", "Fp", "UFp"};
    char Name[64];
    for (unsigned i = 0; i < sizeof Plain / sizeof Plain[0]; i++) {
        snprintf(Name, sizeof Name, "Convert%s", Plain[i].Name);
        CNN_Convert(Name, Plain[i].In, Plain[i].Out, 999, Plain[i].Oper);
    }
    for (int i = 0; i < 4; i++)
        for (int o = 0; o < 4; o++) {
            snprintf(Name, sizeof Name, "Convert%s%sScaled", Codes[i], Codes[o]);
            CNN_Convert(Name, Sizes[i], Sizes[o], 999, KOP_CONVERT_FP_FP_SCALE);
        }
}

int main(int argc, char **argv)
{
    if (TilerParseOptions(argc, argv)) {
        printf("Failed to initialize or incorrect output arguments directory.\n");
        return 1;
    }
    SetSymbolDynamics();
    SetUsedFilesNames(0, 1, "CNN_BasicKernels_SQ8.h");
    LoadCNN_SQ8_Library();

    CNN_GenControl_T Columns, Hwc;
    CNN_InitGenCtrl(&Columns);
    CNN_SetGenCtrl(&Columns, "TILEORIENTATION", (void *) 1);
    CNN_SetGenCtrl(&Columns, "PARALLELFEATURES", (void *) 0);
    CNN_InitGenCtrl(&Hwc);
    CNN_SetGenCtrl(&Hwc, "HWC", (void *) 1);

    CNN_MatTranspose_SQ8("Transpose8", 0, 5, 37, 23, KOP_MATTRANSP);
    CNN_MatTranspose("Transpose16", 0, 2, 3, 30, 41, KOP_MATTRANSP);
    CNN_MatTranspose("TransposeColumns", &Columns, -1, 2, 50, 19, KOP_MATTRANSP);
    CNN_MatTranspose_SQ8("TransposeHwc", &Hwc, 4, 11, 7, KOP_MATTRANSP);
    /* One line of it needs 16000 bytes of L1: below that it becomes the permutation CHW2CWH. */
    CNN_MatTranspose_SQ8("TransposeWide", 0, 1, 4000, 2, KOP_MATTRANSP);
    Permutations("8", 1);
    Permutations("16", 2);
    CNN_Copy("Copy16", 0, 1001, 2);
    CNN_Copy("CopyBytes", 0, 3333, -1);
    CNN_Repeat("Repeat", 0, 77, 2, 5);
    Conversions();
    /* Image normalization of 37 x 23 images (an RGB one is a kernel group). */
    CNN_Norm("NormRGB565Offset", 37, 23, 1, KOP_NORM_RGB565);
    CNN_Norm("NormRGB565Shift", 37, 23, 0, KOP_NORM_RGB565);
    CNN_Norm("NormRGB888Offset", 37, 23, 1, KOP_NORM_RGB888);
    CNN_Norm("NormRGB888Shift", 37, 23, 0, KOP_NORM_RGB888);
    CNN_Norm("NormRGB16", 37, 23, 0, KOP_NORM_RGB16);
    CNN_Norm("NormBWOffset", 37, 23, 1, KOP_NORM_BW);
    CNN_Norm("NormBWShift", 37, 23, 0, KOP_NORM_BW);
    CNN_Norm("NormBW16", 37, 23, 0, KOP_NORM_BW16);
    GenerateTilingCode();
    return 0;
}
