// Reference kernel of Resize and Upsample, nearest, linear and cubic (over every resized axis): one
// axis at a time, since all three are separable, in double.
#include "interp/kernels/nn_common.h"

#include "base/error.h"
#include "ir/op_shapes/resize_geometry.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::nn {

namespace {

// ONNX's cubic convolution weights of the four neighbours floor(x) - 1 .. floor(x) + 2 for the
// fraction t = x - floor(x), with the coefficient a (cubic_coeff_a).
std::array<double, 4> cubicWeights(double t, double a)
{
    const double s = 1.0 - t;
    return {((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a, ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * s - (a + 3)) * s * s + 1, ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a};
}

struct Tap {
    int64_t index;
    double weight;
};

// The input positions (and weights) output position o of `axis` reads; none when it extrapolates.
std::vector<Tap> tapsOf(const ResizeGeometry& g, size_t axis, int64_t o, double cubicA, bool excludeOutside)
{
    const int64_t inSize = g.input[axis];
    if (g.extrapolates(axis, o))
        return {};
    if (g.mode == "nearest")
        return {{g.nearestIndex(axis, o), 1.0}};
    if (g.mode == "linear") {
        const double x = std::clamp(g.sourceCoordinate(axis, o), 0.0, double(inSize - 1));
        const int64_t first = int64_t(std::floor(x));
        const double w = x - double(first);
        return {{first, 1.0 - w}, {std::min(first + 1, inSize - 1), w}};
    }
    // Cubic: the neighbours beyond the edges repeat the edge, or (exclude_outside) drop out with
    // the other weights renormalized.
    const double x = g.sourceCoordinate(axis, o);
    const int64_t base = int64_t(std::floor(x));
    const std::array<double, 4> weights = cubicWeights(x - double(base), cubicA);
    std::vector<Tap> taps;
    double total = 0.0;
    for (int k = 0; k < 4; ++k) {
        const int64_t index = base - 1 + k;
        const bool outside = index < 0 || index >= inSize;
        if (outside && excludeOutside)
            continue;
        taps.push_back({std::clamp<int64_t>(index, 0, inSize - 1), weights[size_t(k)]});
        total += weights[size_t(k)];
    }
    if (excludeOutside && total != 0.0)
        for (Tap& tap : taps)
            tap.weight /= total;
    return taps;
}

// Resamples axis `axis` of `values` (shape `shape`) to the output's size along it.
std::vector<double> resizeAxis(const ResizeGeometry& g, size_t axis, const std::vector<double>& values, Shape& shape,
                               double cubicA, bool excludeOutside)
{
    const int64_t inSize = shape[axis], outSize = g.output[axis];
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d)
        outer *= shape[d];
    for (size_t d = axis + 1; d < shape.size(); ++d)
        inner *= shape[d];
    std::vector<std::vector<Tap>> taps;
    for (int64_t o = 0; o < outSize; ++o)
        taps.push_back(tapsOf(g, axis, o, cubicA, excludeOutside));
    std::vector<double> out(size_t(outer * outSize * inner));
    for (int64_t b = 0; b < outer; ++b)
        for (int64_t o = 0; o < outSize; ++o) {
            double* y = out.data() + (b * outSize + o) * inner;
            const std::vector<Tap>& reads = taps[size_t(o)];
            if (reads.empty()) {
                std::fill(y, y + inner, g.extrapolationValue);
                continue;
            }
            for (const Tap& tap : reads) {
                const double* x = values.data() + (b * inSize + tap.index) * inner;
                if (reads.size() == 1) {
                    std::copy(x, x + inner, y);  // nearest: an exact copy
                    continue;
                }
                for (int64_t i = 0; i < inner; ++i)
                    y[i] += tap.weight * x[i];
            }
        }
    shape[axis] = outSize;
    return out;
}

void resize(KernelContext& ctx)
{
    const ResizeInputs where = resizeInputs(ctx.node, ctx.opset);
    auto given = [&](int index) { return index >= 0 && ctx.hasInput(size_t(index)) ? &ctx.input(size_t(index)) : nullptr; };
    const TensorData& x = ctx.input(0);
    const ResizeGeometry g =
        resizeGeometry(ctx.node, ctx.opset, x.shape(), given(where.roi), given(where.scales), given(where.sizes));
    const double cubicA = ctx.node.attrFloat("cubic_coeff_a", -0.75f);
    const bool excludeOutside = ctx.node.attrInt("exclude_outside", 0) != 0;
    Shape shape = x.shape();
    std::vector<double> values = x.toDoubles();
    for (size_t axis = 0; axis < shape.size(); ++axis)
        if (g.output[axis] != shape[axis] || g.scales[axis] != 1.0)
            values = resizeAxis(g, axis, values, shape, cubicA, excludeOutside);
    storeValues(ctx.output(0), values);
}

}  // namespace

void registerResizeKernels(KernelTable& table)
{
    table["Resize"] = resize;
    table["Upsample"] = resize;
}

}  // namespace tessera::nn
