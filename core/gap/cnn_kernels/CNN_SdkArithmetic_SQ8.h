/* Internal helpers of Tessera's basic kernels on the SDK's contract (CNN_BasicKernels_SQ8.c,
 * CNN_Conv_SQ8.c, CNN_Copy.c): GAP's wrapping 32-bit arithmetic and the activations with their
 * scaling from the layer's Infos, as docs/gap-fixed-point.md ("SQ8") writes them. Not part of the kernels' interface;
 * everything is static inline. */
#ifndef TESSERA_CNN_SDK_ARITHMETIC_SQ8_H
#define TESSERA_CNN_SDK_ARITHMETIC_SQ8_H

#include <stdint.h>

#include "CNN_Infos_SQ8.h"
#include "Gap.h"

/* GAP's 32-bit arithmetic: sums and products wrap, as the SDK's kernels compute on the cores. */
static inline int32_t wrap_mul(int32_t X, uint32_t Y)
{
    return (int32_t) ((uint32_t) X * Y);
}

static inline int32_t wrap_add(int32_t X, int32_t Y)
{
    return (int32_t) ((uint32_t) X + (uint32_t) Y);
}

/* The activations of the kernels on the SDK's contract. */
enum { SDK_ACT_NONE, SDK_ACT_RELU, SDK_ACT_RELUN };

/* ReLU max(v, 0) or ReLU-N min(max(v, 0), A0) (gap_clipur: a negative A0 gives itself for v >= 0). */
static inline int32_t sdk_rectify(int32_t V, int Activation, int A0)
{
    return Activation == SDK_ACT_RELU ? (V < 0 ? 0 : V) : gap_clipur(V, A0);
}

/* V * ActScale / 2^ActScaleN, rounded, from the layer's Infos. */
static inline int32_t sdk_act_scale(int32_t V, const unsigned char *Infos)
{
    return gap_roundnorm_reg(wrap_mul(V, Infos[AT_INF_ACTSCALE]), Infos[AT_INF_ACTSCALEN]);
}

/* The standalone activations (Ker_<act>_SQ8), also applied by the convolutions' reductions. */
enum { SDK_STANDALONE_NONE, SDK_STANDALONE_RELU, SDK_STANDALONE_RELUN, SDK_STANDALONE_RELUM, SDK_STANDALONE_RELUMN,
       SDK_STANDALONE_HSIGMOID, SDK_STANDALONE_HSWISH, SDK_STANDALONE_LEAKYRELU };

/* One value through a standalone activation (see CNN_BasicKernels_SQ8.h), in GAP's 32 bits: an int8 for
 * Ker_*_SQ8, a scaled 32-bit accumulator for the convolutions' reductions. */
static inline int32_t sdk_standalone_act(int32_t V, int Activation, const unsigned char *Infos)
{
    const int A0 = (signed char) Infos[AT_INF_A0], B0 = (signed char) Infos[AT_INF_B0];
    const int C0 = (signed char) Infos[AT_INF_C0];

    switch (Activation) {
    case SDK_STANDALONE_NONE: return V;
    case SDK_STANDALONE_RELU: return sdk_act_scale(sdk_rectify(V, SDK_ACT_RELU, A0), Infos);
    case SDK_STANDALONE_RELUN: return sdk_act_scale(sdk_rectify(V, SDK_ACT_RELUN, A0), Infos);
    case SDK_STANDALONE_RELUM: return sdk_act_scale(V > A0 ? V : A0, Infos);
    case SDK_STANDALONE_RELUMN: V = V < B0 ? V : B0; return sdk_act_scale(V > A0 ? V : A0, Infos);
    case SDK_STANDALONE_HSIGMOID: return sdk_act_scale(gap_clipur(V + B0, A0), Infos) + C0;
    case SDK_STANDALONE_HSWISH: return sdk_act_scale(wrap_mul(gap_clipur(V + B0, A0), (uint32_t) V), Infos) + C0;
    default: /* SDK_STANDALONE_LEAKYRELU: the negative side times A0 / 2^7 */
        return sdk_act_scale(V < 0 ? gap_roundnorm_reg(wrap_mul(V, (uint32_t) A0), 7) : V, Infos) + B0;
    }
}

#endif
