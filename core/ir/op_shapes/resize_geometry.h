#pragma once
// What Resize (opset 10 to 19) and Upsample (opset 7 and 9) compute, shared by the shape rule, the
// reference kernel and the targets: the output shape, the scale of every axis, and for every
// output position the input coordinate it samples (ONNX's coordinate transformation modes) and,
// in nearest mode, the input index it copies (ONNX's nearest modes).
#include "ir/graph.h"

#include <string>
#include <vector>

namespace tessera {

struct ResizeGeometry {
    Shape input, output;
    std::vector<double> scales;   // per axis; output / input when the sizes were given
    std::string mode;             // "nearest", "linear" or "cubic"
    std::string coordinateMode;   // "half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric",
                                  // "tf_half_pixel_for_nn", "tf_crop_and_resize"
    std::vector<double> roi;      // tf_crop_and_resize: the starts, then the ends, of every axis (0..1)
    double extrapolationValue = 0.0;  // tf_crop_and_resize: for positions outside the input
    std::string nearestMode;      // "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", or
                                  // "simple" (Upsample and Resize-10: floor up, ceil down)

    // The input coordinate output position `index` of `axis` samples (not clamped).
    double sourceCoordinate(size_t axis, int64_t index) const;
    // tf_crop_and_resize: whether that coordinate lies outside the input (the position then takes
    // extrapolationValue).
    bool extrapolates(size_t axis, int64_t index) const;
    // The input index output position `index` of `axis` copies in nearest mode, within the input.
    int64_t nearestIndex(size_t axis, int64_t index) const;
};

// Where the scales and sizes inputs are (-1: the operator version has none): Resize-10 and
// Upsample-9 take scales second; Resize-11 and later take roi, scales, sizes after the data.
struct ResizeInputs {
    int roi = -1, scales = -1, sizes = -1;
};
ResizeInputs resizeInputs(const Node& node, int64_t opset);

// Reads the node's attributes and its scales / sizes inputs (the constants given, nullptr when
// absent or unknown). Throws ShapeError naming the node for what ONNX forbids or Tessera does not
// take (half_pixel_symmetric, antialias, axes, a keep_aspect_ratio_policy other than stretch).
ResizeGeometry resizeGeometry(const Node& node, int64_t opset, const Shape& input, const TensorData* roi,
                              const TensorData* scales, const TensorData* sizes);

}  // namespace tessera
