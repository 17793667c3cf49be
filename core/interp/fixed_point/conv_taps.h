#pragma once
// The exact integer sum of a convolution output feature, shared by the 16-bit and the SQ8
// reference kernels. The sums are exact (int64), so they are formed one filter tap at a time over
// the whole output plane, which reads the input plane in order; the positions a tap reads in the
// zero padding contribute nothing and are skipped by range, not tested per value.
#include "interp/fixed_point/pow2_kernels.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace tessera::fixed_point {

// First and one-past-last output positions o whose input o * stride + offset lies in [0, size).
inline std::pair<int64_t, int64_t> tapOutputRange(int64_t offset, int64_t stride, int64_t size, int64_t outSize)
{
    const int64_t first = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
    const int64_t last = size - 1 - offset < 0 ? -1 : (size - 1 - offset) / stride;
    return {first, std::max(first, std::min(outSize, last + 1))};
}

// Adds to acc (Hc x Wc, already holding the bias) the products of the filter of output feature co
// with its input features. Input is CHW; filter [outFeatures][inFeatures or 1][Fy][Fx].
template <typename Value>
void accumulateConvTaps(const ConvPoolReluParams& p, const std::vector<Value>& input, const std::vector<Value>& filter,
                        int64_t co, int64_t Hc, int64_t Wc, std::vector<int64_t>& acc)
{
    const int64_t H = p.height, W = p.width;
    const int64_t filterInputs = p.depthwise ? 1 : p.inFeatures;
    const int64_t firstInput = p.depthwise ? co : 0, endInput = p.depthwise ? co + 1 : p.inFeatures;
    for (int64_t ci = firstInput; ci < endInput; ++ci) {
        const Value* plane = input.data() + ci * H * W;
        const Value* taps = filter.data() + (co * filterInputs + (ci - firstInput)) * p.filterHeight * p.filterWidth;
        for (int64_t ky = 0; ky < p.filterHeight; ++ky) {
            const int64_t offY = ky * p.dilationY - p.pad;
            const auto [y0, y1] = tapOutputRange(offY, p.strideY, H, Hc);
            for (int64_t kx = 0; kx < p.filterWidth; ++kx) {
                const int64_t weight = taps[ky * p.filterWidth + kx];
                if (weight == 0)
                    continue;
                const int64_t offX = kx * p.dilationX - p.pad;
                const auto [x0, x1] = tapOutputRange(offX, p.strideX, W, Wc);
                for (int64_t y = y0; y < y1; ++y) {
                    const Value* row = plane + (y * p.strideY + offY) * W + offX;
                    int64_t* out = acc.data() + y * Wc;
                    for (int64_t x = x0; x < x1; ++x)
                        out[x] += int64_t(row[x * p.strideX]) * weight;
                }
            }
        }
    }
}

}  // namespace tessera::fixed_point
