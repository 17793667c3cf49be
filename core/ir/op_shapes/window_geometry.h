#pragma once
// Geometry of sliding-window operators (Conv, ConvTranspose and the pools): kernel size, strides,
// dilations and the padding each side, resolved from the node's attributes (auto_pad included),
// and the output size they give. Shape rules and reference kernels share it so they cannot
// disagree about an output's size.
#include "ir/graph.h"

#include <cstdint>
#include <vector>

namespace tessera {

struct WindowGeometry {
    std::vector<int64_t> input;     // spatial input dims
    std::vector<int64_t> kernel;    // spatial kernel dims
    std::vector<int64_t> strides;
    std::vector<int64_t> dilations;
    std::vector<int64_t> padBegin;
    std::vector<int64_t> padEnd;
    std::vector<int64_t> output;    // spatial output dims

    size_t rank() const { return input.size(); }
    // Extent of the dilated kernel along dim d.
    int64_t span(size_t d) const { return (kernel[d] - 1) * dilations[d] + 1; }
};

// Window over `inputShape` = [N, C, spatial...] for Conv and the pools; `kernel` comes from the
// weights (Conv) or kernel_shape (pools). `ceilMode` rounds the output size up (pools only).
// Throws ShapeError naming the node for inconsistent attributes or windows larger than the input.
WindowGeometry forwardWindow(const Node& node, const Shape& inputShape, const std::vector<int64_t>& kernel,
                             bool ceilMode);

// Window of ConvTranspose: strides and pads apply to the output, output_padding and output_shape
// are honoured.
WindowGeometry transposedWindow(const Node& node, const Shape& inputShape, const std::vector<int64_t>& kernel);

} // namespace tessera
