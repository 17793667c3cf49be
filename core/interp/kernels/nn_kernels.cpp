// Reference kernels of the neural-network operators; the operators live in nn_*_kernels.cpp.
#include "interp/kernels/kernels.h"
#include "interp/kernels/nn_common.h"

#include "base/error.h"

namespace tessera {

namespace nn {

void storeValues(TensorData& out, const std::vector<double>& values)
{
    const int64_t n = out.elements();
    if (out.dtype() == DType::Float32) {
        float* data = out.data<float>();
        for (int64_t i = 0; i < n; ++i)
            data[i] = static_cast<float>(values[static_cast<size_t>(i)]);
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        out.setDouble(i, values[static_cast<size_t>(i)]);
}

Window3 toWindow3(const KernelContext& ctx, const WindowGeometry& g)
{
    if (g.rank() > 3)
        throw UnsupportedError(ctx.node.describe() + ": " + std::to_string(g.rank()) +
                               " spatial dims; the reference kernels handle 1 to 3");
    Window3 w;
    const size_t skip = 3 - g.rank();
    for (size_t d = 0; d < g.rank(); ++d) {
        w.in[skip + d] = g.input[d];
        w.kernel[skip + d] = g.kernel[d];
        w.stride[skip + d] = g.strides[d];
        w.dilation[skip + d] = g.dilations[d];
        w.padBegin[skip + d] = g.padBegin[d];
        w.padEnd[skip + d] = g.padEnd[d];
        w.out[skip + d] = g.output[d];
    }
    return w;
}

} // namespace nn

void registerNnKernels(KernelTable& table)
{
    nn::registerConvKernels(table);
    nn::registerPoolKernels(table);
    nn::registerMatrixKernels(table);
    nn::registerNormalizationKernels(table);
    nn::registerSoftmaxKernels(table);
    nn::registerResizeKernels(table);
}

} // namespace tessera
