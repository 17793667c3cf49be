/* Tessera's copy generators on the SDK's contract: the declarations of GreenWaves'
 * CNN_Copy_Generators.h that NNTool's model programs call, with the SDK's signatures. The layers
 * call the basic kernels of CNN_Copy.h (Tessera's own or the SDK's) by the SDK's names. Each layer
 * function has the C arguments (In, Out), pointers to the tensors' items.
 *
 * LoadCNN_SQ8_Library() and LoadCNNLibrary() load this library too; LoadCNN_Copy_Library() alone is
 * enough for these generators. A negative item size (Size, FeatureSize) means unsigned items: the
 * same bytes move, the C arguments are unsigned. The guard is the SDK's: with GreenWaves' header
 * included first, its declarations are the ones kept. */
#ifndef __CNN_COPY_GENERATORS_H__
#define __CNN_COPY_GENERATORS_H__

#include "AutoTilerLib.h"

#ifdef __cplusplus
extern "C" {
#endif

void LoadCNN_Copy_Library(void);

/* Transposes Feat matrices of Height lines of Width items (Size 1 or 2 bytes): Out[f][x][y] =
 * In[f][y][x]. MatTransOper must be KOP_MATTRANSP. Ctrl: TileOrientation (the input tiled by lines,
 * the default, or by columns), ParallelFeatures (0: one matrix at a time, its lines over the cores)
 * and HWC (the tensor is [Height][Width][Feat]: the same as CNN_3DTensorPermute with
 * KOP_MATPERM_HWC2WHC). When no tiling fits the L1 budget it becomes the permutation
 * KOP_MATPERM_CHW2CWH, as in the SDK. */
int CNN_MatTranspose(const char *Name, CNN_GenControl_T *Ctrl, int Size, int InFeat, int Width, int Height,
                     KernelOper_T MatTransOper);
#define CNN_MatTranspose_SQ8(__name, __ctrl, __feat, __width, __height, __oper) \
    CNN_MatTranspose(__name, __ctrl, 1, __feat, __width, __height, __oper)
#define CNN_MatTranspose_fp16(__name, __ctrl, __feat, __width, __height, __oper) \
    CNN_MatTranspose(__name, __ctrl, 2, __feat, __width, __height, __oper)

/* Permutes a tensor of InFeat channels of Height x Width items (Size 1 or 2 bytes), CHW
 * ([InFeat][Height][Width]) or, with Ctrl->HWC, HWC ([Height][Width][InFeat]), into the order
 * MatPermOper names after the "2": KOP_MATPERM_CHW2CWH, _CHW2HWC, _CHW2WHC, _CHW2WCH, _CHW2HCW, or
 * KOP_MATPERM_HWC2HCW, _HWC2WCH, _HWC2WHC, _HWC2CHW, _HWC2CWH. Tiled in bands of the input's
 * columns (CHW) or channels (HWC); a layer whose one-column band does not fit the L1 budget is
 * refused with the budget it needs. */
int CNN_3DTensorPermute(const char *Name, CNN_GenControl_T *Ctrl, int Size, int InFeat, int Width, int Height,
                        KernelOper_T MatPermOper);
#define CNN_3DTensorPermute_SQ8(__name, __ctrl, __feat, __width, __height, __oper) \
    CNN_3DTensorPermute(__name, __ctrl, 1, __feat, __width, __height, __oper)
#define CNN_3DTensorPermute_fp16(__name, __ctrl, __feat, __width, __height, __oper) \
    CNN_3DTensorPermute(__name, __ctrl, 2, __feat, __width, __height, __oper)

/* Copies Sz items of FeatureSize bytes (1, 2 or 4) from In to Out. */
int CNN_Copy(const char *Name, CNN_GenControl_T *Ctrl, int Sz, int FeatureSize);

/* Writes the Sz items of FeatureSize bytes of In NRepeat times, one after the other, into Out. */
int CNN_Repeat(const char *Name, CNN_GenControl_T *Ctrl, int Sz, int FeatureSize, int NRepeat);

/* Converts Sz items of In_DataSize bytes into items of Out_DataSize bytes (1 or 2, negative for
 * unsigned), with the C arguments (In, Out, Infos), (In, Out) for KOP_CONVERT_FP_FP:
 *   KOP_CONVERT_FP_FP_ZEROPOINT, between the signed and unsigned items of one size: adds the offset
 *     in the Infos' first byte (two bytes for 16-bit items), wrapping (128 turns int8 into uint8);
 *   KOP_CONVERT_FP_FP, between 8 and 16 bits of the same sign: times 256, or rounded to 8 bits;
 *   KOP_CONVERT_FP_FP_SCALE, any pair: a new zero point and scale from the Infos (CNN_Copy.h).
 * Conversions from and to floating point (KOP_CONVERT_FL_FP, KOP_CONVERT_FP_FL) are refused. */
int CNN_Convert(const char *Name, int In_DataSize, int Out_DataSize, int Sz, KernelOper_T kop);

/* Normalizes a Width x Height image into int8 (int16 for the *16 operations) planes, with the C
 * arguments (In, Out): KOP_NORM_RGB565 (16-bit pixels) and KOP_NORM_RGB888 (three bytes per pixel)
 * give the red, green and blue planes one after the other in Out, centred on 0 with DoOffset,
 * else halved into 0..127 (CNN_Copy.h); KOP_NORM_RGB16 gives v << 7. KOP_NORM_BW and KOP_NORM_BW16
 * do the same for one byte per pixel. An RGB layer is a kernel group, its body kernel <Name>Body,
 * as in the SDK. Returns 1 when the layer was generated (the SDK's returns 0). */
int CNN_Norm(const char *Name, int Width, int Height, int DoOffset, KernelOper_T kop);

/* Declared as in the SDK; Tessera's generators refuse them with a message naming the layer. */
int CNN_ConcatLastAxis_Generator(const char *Name, CNN_GenControl_T *Ctrl, int Size, int Height, int In1Width,
                                 int In2Width, int In3Width, int In4Width, KernelOper_T ConcatOper);
int CNN_SplitLastAxis_Generator(const char *Name, CNN_GenControl_T *Ctrl, int Size, int Height, int Out1Width,
                                int Out2Width, int Out3Width, int Out4Width, KernelOper_T SplitOper);

#ifdef __cplusplus
}
#endif

#endif
