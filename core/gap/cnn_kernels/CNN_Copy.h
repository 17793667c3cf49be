/* Tessera's copy, transposition and permutation basic kernels on the SDK's contract, called by the
 * code the copy generators produce (CNN_Copy_Generators.h: CNN_Copy, CNN_MatTranspose,
 * CNN_3DTensorPermute). Names and argument structures are those of GreenWaves' CNN_Copy.h, so that
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

#endif
