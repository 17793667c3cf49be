#pragma once
// Helpers shared by the neural-network reference kernels (nn_*_kernels.cpp). Values are read as
// float or double and accumulated in double, then rounded once to the output type.
#include "interp/kernel.h"
#include "ir/op_shapes/window_geometry.h"

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::nn {

// Registration of the parts of the family, one file each.
void registerConvKernels(KernelTable& table);          // Conv, ConvTranspose
void registerPoolKernels(KernelTable& table);          // MaxPool, AveragePool, LpPool, Global*Pool
void registerMatrixKernels(KernelTable& table);        // Gemm, MatMul
void registerNormalizationKernels(KernelTable& table); // BatchNorm, InstanceNorm, LayerNorm, LRN, ...
void registerSoftmaxKernels(KernelTable& table);       // Softmax, LogSoftmax, Hardmax
void registerResizeKernels(KernelTable& table);        // Resize, Upsample

// Writes `values` (one per element, row-major) into `out`, rounding to its dtype.
void storeValues(TensorData& out, const std::vector<double>& values);

// A window geometry over exactly three spatial dims (depth, height, width); lower-rank windows get
// leading dims of size 1, so one loop nest serves 1-D, 2-D and 3-D operators.
struct Window3 {
    std::array<int64_t, 3> in{1, 1, 1};
    std::array<int64_t, 3> kernel{1, 1, 1};
    std::array<int64_t, 3> stride{1, 1, 1};
    std::array<int64_t, 3> dilation{1, 1, 1};
    std::array<int64_t, 3> padBegin{0, 0, 0};
    std::array<int64_t, 3> padEnd{0, 0, 0};
    std::array<int64_t, 3> out{1, 1, 1};

    int64_t inPlane() const { return in[0] * in[1] * in[2]; }
    int64_t outPlane() const { return out[0] * out[1] * out[2]; }
    int64_t kernelSize() const { return kernel[0] * kernel[1] * kernel[2]; }
};

// Throws UnsupportedError naming the node for more than three spatial dims.
Window3 toWindow3(const KernelContext& ctx, const WindowGeometry& geometry);

// Floor and ceiling of a / b for b > 0 and any sign of a.
inline int64_t floorDiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
inline int64_t ceilDiv(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

} // namespace tessera::nn
