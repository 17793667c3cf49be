#pragma once
// Registration of the shape rules, one function per operator family.
#include "ir/shape_inference.h"

namespace tessera {

// Unary/binary/variadic element-wise arithmetic, activations, comparisons, Cast, Clip, ...
void registerElementwiseShapes(ShapeRuleTable& rules);
// Conv, ConvTranspose, Gemm, MatMul, pooling, normalization, Softmax, LRN, ...
void registerNnShapes(ShapeRuleTable& rules);
// Reshape, Transpose, Concat, Split, Slice, Gather, Pad, Squeeze, reductions, Shape, Constant, ...
void registerTensorShapes(ShapeRuleTable& rules);

} // namespace tessera
