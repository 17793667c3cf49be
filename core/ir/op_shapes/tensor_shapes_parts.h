#pragma once
// Internal to the tensor operator family (tensor_*_shapes.cpp and the matching reference kernels):
// the registration of the family's second file and the parameter resolution that the shape rules
// and the kernels share, so both read Slice and Pad parameters the same way.
#include "ir/shape_inference.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tensor_rules {

// Slice, Gather*, Scatter*, ArgMax/ArgMin, CumSum, Trilu, OneHot, Compress, TopK, NonZero.
void registerTensorIndexShapes(ShapeRuleTable& rules);

// `axis` normalized against `rank` (negative counts from the end); fails naming the valid range.
int64_t axisIn(const InferContext& ctx, int64_t axis, int64_t rank, const std::string& what = "axis");

// One dimension of a Slice: the first input index, the step and how many elements are taken.
struct SliceDim {
    int64_t start = 0;
    int64_t step = 1;
    int64_t count = 0;
};

// Per dimension of `shape`, what Slice takes given its starts/ends/axes/steps (empty axes means
// the leading dimensions, empty steps means 1). Out-of-range starts and ends are clamped as ONNX
// specifies. Throws ShapeError prefixed with `where` for inconsistent parameters.
std::vector<SliceDim> resolveSlice(const std::string& where, const Shape& shape, const std::vector<int64_t>& starts,
                                   const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                                   const std::vector<int64_t>& steps);

// Pad amounts of every dimension, [begin_0 .. begin_r-1, end_0 .. end_r-1], from `pads` given for
// `axes` (all dimensions when empty). Throws ShapeError prefixed with `where`.
std::vector<int64_t> resolvePads(const std::string& where, int64_t rank, const std::vector<int64_t>& pads,
                                 const std::vector<int64_t>& axes);

// Tessera type of an ONNX TensorProto element type code; throws UnsupportedError naming `where`
// for types Tessera lacks.
DType requireOnnxDtype(const std::string& where, int64_t code);

} // namespace tessera::tensor_rules
