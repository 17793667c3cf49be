// Reference kernels of the pools: MaxPool (with the indices of the maxima), AveragePool (padding
// counted or not), LpPool and the global pools.
#include "interp/kernels/nn_common.h"

#include <cmath>
#include <limits>

namespace tessera::nn {

namespace {

enum class PoolKind { Max, Average, Lp };

// Visits the input positions of one output window: f(flat index in the plane, d, h, w). `covered`
// counts the window positions inside the padded input (what count_include_pad divides by).
template <class F>
void forWindow(const Window3& win, int64_t od, int64_t oh, int64_t ow, int64_t& covered, F f)
{
    covered = 1;
    const std::array<int64_t, 3> o{od, oh, ow};
    std::array<int64_t, 3> start{}, inside{};
    for (size_t a = 0; a < 3; ++a) {
        start[a] = o[a] * win.stride[a] - win.padBegin[a];
        int64_t count = 0;
        for (int64_t k = 0; k < win.kernel[a]; ++k) {
            const int64_t i = start[a] + k * win.dilation[a];
            if (i >= -win.padBegin[a] && i < win.in[a] + win.padEnd[a])
                ++count;
        }
        inside[a] = count;
        covered *= count;
    }
    for (int64_t kd = 0; kd < win.kernel[0]; ++kd) {
        const int64_t d = start[0] + kd * win.dilation[0];
        if (d < 0 || d >= win.in[0])
            continue;
        for (int64_t kh = 0; kh < win.kernel[1]; ++kh) {
            const int64_t h = start[1] + kh * win.dilation[1];
            if (h < 0 || h >= win.in[1])
                continue;
            for (int64_t kw = 0; kw < win.kernel[2]; ++kw) {
                const int64_t w = start[2] + kw * win.dilation[2];
                if (w < 0 || w >= win.in[2])
                    continue;
                f((d * win.in[1] + h) * win.in[2] + w, d, h, w);
            }
        }
    }
}

Kernel pool(PoolKind kind)
{
    return [kind](KernelContext& ctx) {
        const TensorData& xt = ctx.input(0);
        const bool ceilMode = ctx.node.attrInt("ceil_mode", 0) != 0;
        const Window3 win =
            toWindow3(ctx, forwardWindow(ctx.node, xt.shape(), ctx.node.attrInts("kernel_shape"), ceilMode));
        const bool includePad = ctx.node.attrInt("count_include_pad", 0) != 0;
        const bool columnMajor = ctx.node.attrInt("storage_order", 0) != 0;
        const double p = static_cast<double>(ctx.node.attrInt("p", 2));
        const bool wantIndices = kind == PoolKind::Max && ctx.outputs.size() > 1;
        const int64_t planes = xt.shape()[0] * xt.shape()[1];
        const std::vector<double> x = xt.toDoubles();
        std::vector<double> y(static_cast<size_t>(planes * win.outPlane()));
        size_t at = 0;
        for (int64_t plane = 0; plane < planes; ++plane) {
            const double* in = x.data() + plane * win.inPlane();
            for (int64_t od = 0; od < win.out[0]; ++od)
                for (int64_t oh = 0; oh < win.out[1]; ++oh)
                    for (int64_t ow = 0; ow < win.out[2]; ++ow, ++at) {
                        double acc = kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
                        int64_t best = -1, count = 0, covered = 0;
                        forWindow(win, od, oh, ow, covered, [&](int64_t i, int64_t d, int64_t h, int64_t w) {
                            const double v = in[i];
                            ++count;
                            if (kind == PoolKind::Average)
                                acc += v;
                            else if (kind == PoolKind::Lp)
                                acc += std::pow(std::abs(v), p);
                            else if (v > acc || best < 0) {
                                acc = v;
                                best = columnMajor ? d + win.in[0] * (h + win.in[1] * w) : i;
                            }
                        });
                        if (kind == PoolKind::Average)
                            acc /= static_cast<double>(includePad ? covered : std::max<int64_t>(count, 1));
                        else if (kind == PoolKind::Lp)
                            acc = std::pow(acc, 1.0 / p);
                        y[at] = acc;
                        if (wantIndices)
                            ctx.output(1).data<int64_t>()[at] = plane * win.inPlane() + std::max<int64_t>(best, 0);
                    }
        }
        storeValues(ctx.output(0), y);
    };
}

Kernel globalPool(PoolKind kind)
{
    return [kind](KernelContext& ctx) {
        const TensorData& xt = ctx.input(0);
        const int64_t planes = xt.shape()[0] * xt.shape()[1];
        const int64_t size = planes == 0 ? 0 : xt.elements() / planes;
        const double p = static_cast<double>(ctx.node.attrInt("p", 2));
        const std::vector<double> x = xt.toDoubles();
        std::vector<double> y(static_cast<size_t>(planes));
        for (int64_t plane = 0; plane < planes; ++plane) {
            const double* in = x.data() + plane * size;
            double acc = kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
            for (int64_t i = 0; i < size; ++i) {
                if (kind == PoolKind::Max)
                    acc = std::max(acc, in[i]);
                else if (kind == PoolKind::Lp)
                    acc += std::pow(std::abs(in[i]), p);
                else
                    acc += in[i];
            }
            if (kind == PoolKind::Average)
                acc /= static_cast<double>(std::max<int64_t>(size, 1));
            else if (kind == PoolKind::Lp)
                acc = std::pow(acc, 1.0 / p);
            y[static_cast<size_t>(plane)] = acc;
        }
        storeValues(ctx.output(0), y);
    };
}

} // namespace

void registerPoolKernels(KernelTable& table)
{
    table["MaxPool"] = pool(PoolKind::Max);
    table["AveragePool"] = pool(PoolKind::Average);
    table["LpPool"] = pool(PoolKind::Lp);
    table["GlobalMaxPool"] = globalPool(PoolKind::Max);
    table["GlobalAveragePool"] = globalPool(PoolKind::Average);
    table["GlobalLpPool"] = globalPool(PoolKind::Lp);
}

} // namespace tessera::nn
