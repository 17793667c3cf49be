#include "ir/op_shapes/resize_geometry.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace tessera {

namespace {

[[noreturn]] void fail(const Node& node, const std::string& message)
{
    throw ShapeError(node.describe() + ": " + message);
}

std::string text(double value)
{
    std::ostringstream out;
    out << value;
    return out.str();
}

std::string text(int64_t value) { return std::to_string(value); }
std::string text(size_t value) { return std::to_string(value); }

// Output sizes beyond this are refused rather than allocated.
constexpr double kLargestDimension = double(int64_t(1) << 40);

}  // namespace

ResizeInputs resizeInputs(const Node& node, int64_t opset)
{
    if (node.opType == "Upsample")
        return {-1, opset >= 9 ? 1 : -1, -1};
    if (opset < 11)
        return {-1, 1, -1};
    return {1, 2, 3};
}

double ResizeGeometry::sourceCoordinate(size_t axis, int64_t index) const
{
    const double x = double(index), scale = scales[axis];
    const double in = double(input[axis]), out = double(output[axis]);
    // ONNX's length of the resized axis where the formulas divide by it: the input's times the
    // scale, before the output size is rounded down (equal to the output size when sizes are given).
    const double resized = in * scale;
    if (coordinateMode == "half_pixel")
        return (x + 0.5) / scale - 0.5;
    if (coordinateMode == "pytorch_half_pixel")
        return out > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
    if (coordinateMode == "align_corners")
        return resized == 1 ? 0.0 : x * (in - 1) / (resized - 1);
    if (coordinateMode == "tf_half_pixel_for_nn")
        return (x + 0.5) / scale;
    if (coordinateMode == "tf_crop_and_resize") {
        const double start = roi[axis], end = roi[axis + input.size()];
        return resized > 1 ? start * (in - 1) + x * (end - start) * (in - 1) / (resized - 1)
                           : 0.5 * (start + end) * (in - 1);
    }
    return x / scale;  // asymmetric
}

bool ResizeGeometry::extrapolates(size_t axis, int64_t index) const
{
    if (coordinateMode != "tf_crop_and_resize")
        return false;
    const double x = sourceCoordinate(axis, index);
    return !(x >= 0.0 && x <= double(input[axis] - 1));  // NaN extrapolates too
}

int64_t ResizeGeometry::nearestIndex(size_t axis, int64_t index) const
{
    const double x = sourceCoordinate(axis, index);
    double chosen;
    if (nearestMode == "floor")
        chosen = std::floor(x);
    else if (nearestMode == "ceil")
        chosen = std::ceil(x);
    else if (nearestMode == "simple")
        chosen = scales[axis] < 1.0 ? std::ceil(x) : std::floor(x);
    else if (x - std::floor(x) == 0.5)
        chosen = nearestMode == "round_prefer_ceil" ? std::ceil(x) : std::floor(x);
    else
        chosen = std::round(x);
    // Clamped as a double first: a roi of 1e300 or NaN must not reach the integer conversion.
    if (!(chosen > 0.0))
        return 0;
    return chosen >= double(input[axis] - 1) ? input[axis] - 1 : int64_t(chosen);
}

ResizeGeometry resizeGeometry(const Node& node, int64_t opset, const Shape& input, const TensorData* roi,
                              const TensorData* scales, const TensorData* sizes)
{
    ResizeGeometry g;
    g.input = input;
    const bool upsample = node.opType == "Upsample";
    const bool legacy = upsample || opset < 11;  // Upsample and Resize-10: asymmetric, simple nearest
    g.mode = node.attrString("mode", "nearest");
    if (g.mode == "bilinear" && upsample)
        g.mode = "linear";
    if (g.mode != "nearest" && g.mode != "linear" && g.mode != "cubic")
        fail(node, "mode '" + g.mode + "' is not one of nearest, linear, cubic");
    g.coordinateMode = legacy ? "asymmetric" : node.attrString("coordinate_transformation_mode", "half_pixel");
    g.nearestMode = legacy ? "simple" : node.attrString("nearest_mode", "round_prefer_floor");
    if (g.coordinateMode == "half_pixel_symmetric")
        fail(node, "coordinate_transformation_mode 'half_pixel_symmetric' is not supported");
    if (g.coordinateMode != "half_pixel" && g.coordinateMode != "pytorch_half_pixel" &&
        g.coordinateMode != "align_corners" && g.coordinateMode != "asymmetric" &&
        g.coordinateMode != "tf_half_pixel_for_nn" && g.coordinateMode != "tf_crop_and_resize")
        fail(node, "coordinate_transformation_mode '" + g.coordinateMode + "' is not an ONNX mode");
    if (g.coordinateMode == "tf_crop_and_resize") {
        if (!roi || size_t(roi->elements()) != 2 * input.size())
            fail(node, "tf_crop_and_resize needs a constant roi of " + text(2 * input.size()) +
                           " values (the starts and the ends of every axis)");
        for (int64_t i = 0; i < roi->elements(); ++i)
            g.roi.push_back(roi->getDouble(i));
        g.extrapolationValue = node.attrFloat("extrapolation_value", 0.0f);
    }
    if (g.nearestMode != "round_prefer_floor" && g.nearestMode != "round_prefer_ceil" && g.nearestMode != "floor" &&
        g.nearestMode != "ceil" && g.nearestMode != "simple")
        fail(node, "nearest_mode '" + g.nearestMode + "' is not an ONNX mode");
    if (node.attrInt("antialias", 0) != 0)
        fail(node, "antialias is not supported");
    if (node.hasAttr("axes"))
        fail(node, "the axes attribute is not supported; give scales or sizes for every axis");
    if (node.attrString("keep_aspect_ratio_policy", "stretch") != "stretch")
        fail(node, "keep_aspect_ratio_policy '" + node.attrString("keep_aspect_ratio_policy", "") +
                       "' is not supported (stretch is)");

    const size_t rank = input.size();
    std::vector<double> scaleValues;
    if (upsample && opset < 9) {
        for (float s : node.attrFloats("scales"))
            scaleValues.push_back(s);
    } else if (scales && scales->elements() > 0) {
        for (int64_t i = 0; i < scales->elements(); ++i)
            scaleValues.push_back(scales->getDouble(i));
    }
    if (!scaleValues.empty() && sizes && sizes->elements() > 0)
        fail(node, "both scales and sizes are given; ONNX takes one of them");
    g.output.resize(rank);
    g.scales.resize(rank);
    if (!scaleValues.empty()) {
        if (scaleValues.size() != rank)
            fail(node, text(scaleValues.size()) + " scales for an input of rank " + text(rank));
        for (size_t d = 0; d < rank; ++d) {
            const double s = scaleValues[d];
            const double out = std::floor(double(input[d]) * s);
            if (!(s > 0.0) || !std::isfinite(s) || out > kLargestDimension)
                fail(node, "scale " + text(s) + " of axis " + text(d) + " is not a positive size factor");
            if (upsample && s < 1.0)
                fail(node, "Upsample's scale " + text(s) + " of axis " + text(d) + " is below 1");
            g.scales[d] = s;
            g.output[d] = int64_t(out);
        }
    } else if (sizes && sizes->elements() > 0) {
        if (size_t(sizes->elements()) != rank)
            fail(node, text(sizes->elements()) + " sizes for an input of rank " + text(rank));
        for (size_t d = 0; d < rank; ++d) {
            const int64_t out = sizes->getInt(int64_t(d));
            if (out < 1 || double(out) > kLargestDimension)
                fail(node, "size " + text(out) + " of axis " + text(d) + " is not a positive size");
            if (input[d] == 0)
                fail(node, "axis " + text(d) + " is empty and cannot be resized to " + text(out));
            g.output[d] = out;
            g.scales[d] = input[d] > 0 ? double(out) / double(input[d]) : 1.0;
        }
    } else {
        fail(node, "neither scales nor sizes is given as a constant");
    }
    return g;
}

}  // namespace tessera
