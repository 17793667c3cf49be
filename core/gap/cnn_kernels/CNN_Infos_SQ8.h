/* Byte offsets into the per-layer "Infos" constant of GreenWaves' SQ8 layers: the same offsets as
 * the SDK's CNN_Infos_SQ8.h, so a layer's Infos written for the SDK's basic kernels works with
 * Tessera's and the other way round. The layers whose basic kernels follow the SDK's contract read
 * them (docs/gap-fixed-point.md, "The SDK's Infos"); the generator declares Infos as an
 * AT_INF_DIM-byte constant argument of the layer. */
#ifndef TESSERA_CNN_INFOS_SQ8_H
#define TESSERA_CNN_INFOS_SQ8_H

#define AT_INF_ACTSCALE 0   /* unsigned 8-bit multiplier applied after the activation */
#define AT_INF_BIASL_SM 0   /* softmax: the input's left shift into Q15 (the ACTSCALE byte) */
#define AT_INF_ACTSCALEN 1  /* its shift */
#define AT_INF_A0 2         /* first activation parameter: the bound of ReLU-N (2 bytes, low byte read) */
#define AT_INF_B0 4         /* second activation parameter (2 bytes) */
#define AT_INF_C0 6         /* third activation parameter (2 bytes) */
#define AT_INF_BIASN 8      /* left shift of the biases into the accumulator's scale */
#define AT_INF_IN1SCALE 8   /* additions: the multiplier of the first input (the bias shift's byte) */
#define AT_INF_GLOBAL_SUM_SCALE 8 /* global average pooling: the multiplier of the mean (x 128) */
#define AT_INF_SCALEN 9
#define AT_INF_GLOBAL_SUM_SCALEN 9 /* its shift */
#define AT_INF_IN1SCALEN 9  /* its shift */
#define AT_INF_OUTSCALE 10  /* additions: the multiplier of the sum */
#define AT_INF_OUTSCALEN 11 /* its shift */
#define AT_INF_PRENORM 12
#define AT_INF_DIM 13       /* bytes of an SQ8 layer's Infos */

#endif
