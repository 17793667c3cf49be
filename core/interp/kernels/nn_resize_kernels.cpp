// Reference kernel of Resize and Upsample, nearest and linear (N-linear over every resized axis):
// one axis at a time, since both are separable, in double.
#include "interp/kernels/nn_common.h"

#include "base/error.h"
#include "ir/op_shapes/resize_geometry.h"

#include <cmath>

namespace tessera::nn {

namespace {

// Resamples axis `axis` of `values` (shape `shape`) to `outSize` positions.
std::vector<double> resizeAxis(const ResizeGeometry& g, size_t axis, const std::vector<double>& values, Shape& shape)
{
    const int64_t inSize = shape[axis], outSize = g.output[axis];
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d)
        outer *= shape[d];
    for (size_t d = axis + 1; d < shape.size(); ++d)
        inner *= shape[d];
    // Per output position: the two input indices and the weight of the second.
    std::vector<int64_t> first(static_cast<size_t>(outSize)), second(static_cast<size_t>(outSize));
    std::vector<double> weight(size_t(outSize), 0.0);
    for (int64_t o = 0; o < outSize; ++o) {
        if (g.mode == "nearest") {
            first[size_t(o)] = second[size_t(o)] = g.nearestIndex(axis, o);
            continue;
        }
        const double x = std::clamp(g.sourceCoordinate(axis, o), 0.0, double(inSize - 1));
        first[size_t(o)] = int64_t(std::floor(x));
        second[size_t(o)] = std::min(first[size_t(o)] + 1, inSize - 1);
        weight[size_t(o)] = x - double(first[size_t(o)]);
    }
    std::vector<double> out(size_t(outer * outSize * inner));
    for (int64_t b = 0; b < outer; ++b)
        for (int64_t o = 0; o < outSize; ++o) {
            const double* a = values.data() + (b * inSize + first[size_t(o)]) * inner;
            const double* c = values.data() + (b * inSize + second[size_t(o)]) * inner;
            const double w = weight[size_t(o)];
            double* y = out.data() + (b * outSize + o) * inner;
            for (int64_t i = 0; i < inner; ++i)
                y[i] = w == 0.0 ? a[i] : a[i] + w * (c[i] - a[i]);
        }
    shape[axis] = outSize;
    return out;
}

void resize(KernelContext& ctx)
{
    const ResizeInputs where = resizeInputs(ctx.node, ctx.opset);
    auto given = [&](int index) { return index >= 0 && ctx.hasInput(size_t(index)) ? &ctx.input(size_t(index)) : nullptr; };
    const TensorData& x = ctx.input(0);
    const ResizeGeometry g = resizeGeometry(ctx.node, ctx.opset, x.shape(), given(where.scales), given(where.sizes));
    if (g.mode == "cubic")
        throw UnsupportedError(ctx.node.describe() + ": cubic interpolation is not supported (nearest and linear are)");
    Shape shape = x.shape();
    std::vector<double> values = x.toDoubles();
    for (size_t axis = 0; axis < shape.size(); ++axis)
        if (g.output[axis] != shape[axis] || g.scales[axis] != 1.0)
            values = resizeAxis(g, axis, values, shape);
    storeValues(ctx.output(0), values);
}

}  // namespace

void registerResizeKernels(KernelTable& table)
{
    table["Resize"] = resize;
    table["Upsample"] = resize;
}

}  // namespace tessera::nn
