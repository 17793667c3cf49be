// Reference kernels of Conv and ConvTranspose over 1 to 3 spatial dims, with groups, strides,
// dilations and padding.
#include "interp/kernels/nn_common.h"

#include <algorithm>

namespace tessera::nn {

namespace {

std::vector<int64_t> weightKernel(const TensorData& w) { return {w.shape().begin() + 2, w.shape().end()}; }

// Range [first, last] of output positions o whose input o * stride + offset lies in [0, size).
std::pair<int64_t, int64_t> validOutputs(int64_t offset, int64_t stride, int64_t size, int64_t outSize)
{
    const int64_t first = std::max<int64_t>(0, ceilDiv(-offset, stride));
    const int64_t last = std::min<int64_t>(outSize - 1, floorDiv(size - 1 - offset, stride));
    return {first, last};
}

// The operands of Conv and ConvTranspose as flat float arrays, with the group layout.
struct ConvOperands {
    std::vector<float> x, w, bias;
    int64_t batch = 0, inChannels = 0, group = 1, groupIn = 0;
};

ConvOperands convOperands(const KernelContext& ctx)
{
    ConvOperands o;
    o.x = ctx.input(0).toFloats();
    o.w = ctx.input(1).toFloats();
    if (ctx.hasInput(2))
        o.bias = ctx.input(2).toFloats();
    o.batch = ctx.input(0).shape()[0];
    o.inChannels = ctx.input(0).shape()[1];
    o.group = ctx.node.attrInt("group", 1);
    o.groupIn = o.inChannels / o.group;
    return o;
}

double biasOf(const ConvOperands& o, int64_t channel)
{
    return o.bias.empty() ? 0.0 : double(o.bias[static_cast<size_t>(channel)]);
}

void conv(KernelContext& ctx)
{
    const TensorData& xt = ctx.input(0);
    const TensorData& wt = ctx.input(1);
    const Window3 win = toWindow3(ctx, forwardWindow(ctx.node, xt.shape(), weightKernel(wt), false));
    const ConvOperands o = convOperands(ctx);
    const auto& [x, w, bias, batch, inChannels, group, groupIn] = o;
    const int64_t outChannels = wt.shape()[0];
    const int64_t groupOut = outChannels / group;
    const int64_t inPlane = win.inPlane();
    const int64_t outPlane = win.outPlane();
    std::vector<double> y(static_cast<size_t>(batch * outChannels * outPlane));

    for (int64_t n = 0; n < batch; ++n)
        for (int64_t m = 0; m < outChannels; ++m) {
            double* acc = y.data() + (n * outChannels + m) * outPlane;
            std::fill(acc, acc + outPlane, biasOf(o, m));
            const int64_t g = m / groupOut;
            for (int64_t c = 0; c < groupIn; ++c) {
                const float* plane = x.data() + (n * inChannels + g * groupIn + c) * inPlane;
                const float* kernel = w.data() + (m * groupIn + c) * win.kernelSize();
                for (int64_t kd = 0; kd < win.kernel[0]; ++kd)
                    for (int64_t kh = 0; kh < win.kernel[1]; ++kh)
                        for (int64_t kw = 0; kw < win.kernel[2]; ++kw) {
                            const double weight = kernel[(kd * win.kernel[1] + kh) * win.kernel[2] + kw];
                            if (weight == 0.0)
                                continue;
                            const int64_t offD = kd * win.dilation[0] - win.padBegin[0];
                            const int64_t offH = kh * win.dilation[1] - win.padBegin[1];
                            const int64_t offW = kw * win.dilation[2] - win.padBegin[2];
                            const auto [d0, d1] = validOutputs(offD, win.stride[0], win.in[0], win.out[0]);
                            const auto [h0, h1] = validOutputs(offH, win.stride[1], win.in[1], win.out[1]);
                            const auto [w0, w1] = validOutputs(offW, win.stride[2], win.in[2], win.out[2]);
                            for (int64_t od = d0; od <= d1; ++od)
                                for (int64_t oh = h0; oh <= h1; ++oh) {
                                    const float* row = plane + ((od * win.stride[0] + offD) * win.in[1] +
                                                                oh * win.stride[1] + offH) * win.in[2];
                                    double* out = acc + (od * win.out[1] + oh) * win.out[2];
                                    for (int64_t ow = w0; ow <= w1; ++ow)
                                        out[ow] += weight * row[ow * win.stride[2] + offW];
                                }
                        }
            }
        }
    storeValues(ctx.output(0), y);
}

void convTranspose(KernelContext& ctx)
{
    const TensorData& xt = ctx.input(0);
    const TensorData& wt = ctx.input(1);
    const Window3 win = toWindow3(ctx, transposedWindow(ctx.node, xt.shape(), weightKernel(wt)));
    const ConvOperands o = convOperands(ctx);
    const auto& [x, w, bias, batch, inChannels, group, groupIn] = o;
    const int64_t groupOut = wt.shape()[1];
    const int64_t outChannels = groupOut * group;
    const int64_t inPlane = win.inPlane();
    const int64_t outPlane = win.outPlane();
    std::vector<double> y(static_cast<size_t>(batch * outChannels * outPlane));

    for (int64_t n = 0; n < batch; ++n)
        for (int64_t m = 0; m < outChannels; ++m) {
            double* acc = y.data() + (n * outChannels + m) * outPlane;
            std::fill(acc, acc + outPlane, biasOf(o, m));
            const int64_t g = m / groupOut;
            for (int64_t c = 0; c < groupIn; ++c) {
                const int64_t ic = g * groupIn + c;
                const float* plane = x.data() + (n * inChannels + ic) * inPlane;
                const float* kernel = w.data() + (ic * groupOut + m % groupOut) * win.kernelSize();
                for (int64_t id = 0; id < win.in[0]; ++id)
                    for (int64_t ih = 0; ih < win.in[1]; ++ih)
                        for (int64_t iw = 0; iw < win.in[2]; ++iw) {
                            const double value = plane[(id * win.in[1] + ih) * win.in[2] + iw];
                            for (int64_t kd = 0; kd < win.kernel[0]; ++kd) {
                                const int64_t od = id * win.stride[0] + kd * win.dilation[0] - win.padBegin[0];
                                if (od < 0 || od >= win.out[0])
                                    continue;
                                for (int64_t kh = 0; kh < win.kernel[1]; ++kh) {
                                    const int64_t oh = ih * win.stride[1] + kh * win.dilation[1] - win.padBegin[1];
                                    if (oh < 0 || oh >= win.out[1])
                                        continue;
                                    for (int64_t kw = 0; kw < win.kernel[2]; ++kw) {
                                        const int64_t ow = iw * win.stride[2] + kw * win.dilation[2] - win.padBegin[2];
                                        if (ow < 0 || ow >= win.out[2])
                                            continue;
                                        acc[(od * win.out[1] + oh) * win.out[2] + ow] +=
                                            value * kernel[(kd * win.kernel[1] + kh) * win.kernel[2] + kw];
                                    }
                                }
                            }
                        }
            }
        }
    storeValues(ctx.output(0), y);
}

} // namespace

void registerConvKernels(KernelTable& table)
{
    table["Conv"] = conv;
    table["ConvTranspose"] = convTranspose;
}

} // namespace tessera::nn
