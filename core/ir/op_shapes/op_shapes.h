#pragma once
// Registration of the shape rules, one function per operator family.
#include "ir/shape_inference.h"

namespace tessera {

// Unary/binary/variadic element-wise arithmetic, activations, comparisons, Cast, Clip, ...
void registerElementwiseShapes(ShapeRuleTable& rules);
// Conv, ConvTranspose, Gemm, MatMul, pooling, normalization, Softmax, LRN, ...
void registerNnShapes(ShapeRuleTable& rules);
// Reshape, Transpose, Concat, Split, Slice, Gather, Pad, Squeeze, ArgMax, Shape, Range, ...
void registerTensorShapes(ShapeRuleTable& rules);
// ReduceSum, ReduceMean, ReduceMax, ... (axes as attribute or, from opset 13/18, as input)
void registerReductionShapes(ShapeRuleTable& rules);

} // namespace tessera
