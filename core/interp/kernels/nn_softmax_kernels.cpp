// Reference kernels of Softmax, LogSoftmax and Hardmax. Before opset 13 the input is seen as a
// matrix [prod(dims before axis), prod(dims from axis)]; from 13 on the operators work along one axis.
#include "interp/kernels/nn_common.h"

#include <cmath>

namespace tessera::nn {

namespace {

enum class SoftmaxKind { Softmax, LogSoftmax, Hardmax };

Kernel softmax(SoftmaxKind kind)
{
    return [kind](KernelContext& ctx) {
        const Shape& shape = ctx.input(0).shape();
        const int64_t rank = static_cast<int64_t>(shape.size());
        const bool coerce2d = ctx.opset < 13;
        const int64_t axis = normalizeAxis(ctx.node.attrInt("axis", coerce2d ? 1 : -1), std::max<int64_t>(rank, 1),
                                           ctx.node.describe());
        int64_t outer = 1, length = 1, inner = 1;
        for (int64_t d = 0; d < rank; ++d) {
            const int64_t dim = shape[static_cast<size_t>(d)];
            if (d < axis)
                outer *= dim;
            else if (d == axis || coerce2d)
                length *= dim;
            else
                inner *= dim;
        }
        const std::vector<double> x = ctx.input(0).toDoubles();
        std::vector<double> y(x.size());
        for (int64_t o = 0; o < outer; ++o)
            for (int64_t i = 0; i < inner; ++i) {
                auto at = [&](int64_t k) { return static_cast<size_t>((o * length + k) * inner + i); };
                if (length == 0)
                    continue;
                int64_t best = 0;
                for (int64_t k = 1; k < length; ++k)
                    if (x[at(k)] > x[at(best)])
                        best = k;
                if (kind == SoftmaxKind::Hardmax) {
                    y[at(best)] = 1.0;
                    continue;
                }
                const double top = x[at(best)];
                double sum = 0.0;
                for (int64_t k = 0; k < length; ++k)
                    sum += std::exp(x[at(k)] - top);
                for (int64_t k = 0; k < length; ++k)
                    y[at(k)] = kind == SoftmaxKind::Softmax ? std::exp(x[at(k)] - top) / sum
                                                            : x[at(k)] - top - std::log(sum);
            }
        storeValues(ctx.output(0), y);
    };
}

} // namespace

void registerSoftmaxKernels(KernelTable& table)
{
    table["Softmax"] = softmax(SoftmaxKind::Softmax);
    table["LogSoftmax"] = softmax(SoftmaxKind::LogSoftmax);
    table["Hardmax"] = softmax(SoftmaxKind::Hardmax);
}

} // namespace tessera::nn
