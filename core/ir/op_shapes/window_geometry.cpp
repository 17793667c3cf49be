#include "ir/op_shapes/window_geometry.h"

#include "base/error.h"

#include <string>

namespace tessera {

namespace {

// Kernel sizes, strides, dilations and pads beyond this are absurd; rejecting them keeps every
// size computation below well inside int64.
constexpr int64_t kMaxWindowAttribute = int64_t{1} << 20;

[[noreturn]] void fail(const Node& node, const std::string& message)
{
    throw ShapeError(node.describe() + ": " + message);
}

// An ints attribute with one entry per spatial dim (or `fallback` when absent), each >= minimum.
std::vector<int64_t> perDimAttr(const Node& node, const char* name, size_t rank, int64_t fallback, int64_t minimum)
{
    std::vector<int64_t> values = node.attrInts(name, std::vector<int64_t>(rank, fallback));
    if (values.size() != rank)
        fail(node, std::string("attribute ") + name + " has " + std::to_string(values.size()) +
                       " entries, the input has " + std::to_string(rank) + " spatial dims");
    for (int64_t v : values)
        if (v < minimum || v > kMaxWindowAttribute)
            fail(node, std::string("attribute ") + name + " has the value " + std::to_string(v) + ", it must be between " +
                           std::to_string(minimum) + " and " + std::to_string(kMaxWindowAttribute));
    return values;
}

WindowGeometry commonWindow(const Node& node, const Shape& inputShape, const std::vector<int64_t>& kernel)
{
    if (inputShape.size() < 3)
        fail(node, "input has rank " + std::to_string(inputShape.size()) +
                       ", sliding windows need [N, C, spatial...] (rank 3 or more)");
    WindowGeometry g;
    const size_t rank = inputShape.size() - 2;
    g.input.assign(inputShape.begin() + 2, inputShape.end());
    if (kernel.size() != rank)
        fail(node, "kernel has " + std::to_string(kernel.size()) + " dims, the input has " +
                       std::to_string(rank) + " spatial dims");
    for (int64_t k : kernel)
        if (k < 1 || k > kMaxWindowAttribute)
            fail(node, "kernel dims must be between 1 and " + std::to_string(kMaxWindowAttribute) + ", got " +
                           std::to_string(k));
    g.kernel = kernel;
    g.strides = perDimAttr(node, "strides", rank, 1, 1);
    g.dilations = perDimAttr(node, "dilations", rank, 1, 1);
    const std::vector<int64_t> pads = node.attrInts("pads", std::vector<int64_t>(2 * rank, 0));
    if (pads.size() != 2 * rank)
        fail(node, "attribute pads has " + std::to_string(pads.size()) + " entries, expected " +
                       std::to_string(2 * rank) + " (begin and end of each spatial dim)");
    for (int64_t p : pads)
        if (p < 0 || p > kMaxWindowAttribute)
            fail(node, "attribute pads has the entry " + std::to_string(p) + ", pads must be between 0 and " +
                           std::to_string(kMaxWindowAttribute));
    g.padBegin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(rank));
    g.padEnd.assign(pads.begin() + static_cast<std::ptrdiff_t>(rank), pads.end());
    return g;
}

std::string autoPad(const Node& node)
{
    const std::string mode = node.attrString("auto_pad", "NOTSET");
    if (mode != "NOTSET" && mode != "VALID" && mode != "SAME_UPPER" && mode != "SAME_LOWER")
        fail(node, "attribute auto_pad is '" + mode + "', expected NOTSET, VALID, SAME_UPPER or SAME_LOWER");
    return mode;
}

} // namespace

WindowGeometry forwardWindow(const Node& node, const Shape& inputShape, const std::vector<int64_t>& kernel,
                             bool ceilMode)
{
    WindowGeometry g = commonWindow(node, inputShape, kernel);
    const std::string mode = autoPad(node);
    g.output.resize(g.rank());
    for (size_t d = 0; d < g.rank(); ++d) {
        const int64_t in = g.input[d];
        const int64_t s = g.strides[d];
        if (mode == "SAME_UPPER" || mode == "SAME_LOWER") {
            const int64_t out = (in + s - 1) / s;
            const int64_t total = std::max<int64_t>(0, (out - 1) * s + g.span(d) - in);
            g.padBegin[d] = mode == "SAME_UPPER" ? total / 2 : total - total / 2;
            g.padEnd[d] = total - g.padBegin[d];
        } else if (mode == "VALID") {
            g.padBegin[d] = g.padEnd[d] = 0;
        }
        const int64_t room = in + g.padBegin[d] + g.padEnd[d] - g.span(d);
        if (room < 0)
            fail(node, "the window (" + std::to_string(g.span(d)) + " wide with dilation) is larger than the padded input (" +
                           std::to_string(in + g.padBegin[d] + g.padEnd[d]) + ") along spatial dim " + std::to_string(d));
        int64_t out = ceilMode ? (room + s - 1) / s + 1 : room / s + 1;
        // A window may not start in the end padding (the last one is dropped then).
        if (ceilMode && (out - 1) * s >= in + g.padBegin[d])
            --out;
        g.output[d] = out;
    }
    return g;
}

WindowGeometry transposedWindow(const Node& node, const Shape& inputShape, const std::vector<int64_t>& kernel)
{
    WindowGeometry g = commonWindow(node, inputShape, kernel);
    const size_t rank = g.rank();
    const std::string mode = autoPad(node);
    const std::vector<int64_t> outputPadding = perDimAttr(node, "output_padding", rank, 0, 0);
    std::vector<int64_t> outputShape = node.attrInts("output_shape");
    if (outputShape.size() == rank + 2) // some exporters give [N, C, spatial...]
        outputShape.erase(outputShape.begin(), outputShape.begin() + 2);
    if (!outputShape.empty() && outputShape.size() != rank)
        fail(node, "attribute output_shape has " + std::to_string(outputShape.size()) + " entries, expected " +
                       std::to_string(rank));
    for (int64_t dim : outputShape)
        if (dim < 1 || dim > kMaxElements)
            fail(node, "attribute output_shape has the entry " + std::to_string(dim) + ", which is not a valid size");
    if (outputShape.empty() && (mode == "SAME_UPPER" || mode == "SAME_LOWER"))
        for (size_t d = 0; d < rank; ++d)
            outputShape.push_back(g.input[d] * g.strides[d]);
    g.output.resize(rank);
    for (size_t d = 0; d < rank; ++d) {
        const int64_t full = g.strides[d] * (g.input[d] - 1) + outputPadding[d] + g.span(d);
        if (!outputShape.empty()) {
            // A negative total (output_shape beyond what the window produces) extends the output.
            const int64_t total = full - outputShape[d];
            const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
            g.padBegin[d] = mode == "SAME_UPPER" ? half : total - half;
            g.padEnd[d] = total - g.padBegin[d];
        } else if (mode == "VALID") {
            g.padBegin[d] = g.padEnd[d] = 0;
        }
        g.output[d] = full - g.padBegin[d] - g.padEnd[d];
        if (g.output[d] < 1)
            fail(node, "the pads remove the whole output along spatial dim " + std::to_string(d));
    }
    return g;
}

} // namespace tessera
