// Reference kernels of the Reduce* operators. Values accumulate in double per output element;
// an empty reduction gives the operator's identity (0 for sums, 1 for products, -inf/+inf for
// max/min, NaN for the mean of nothing).
#include "interp/kernels/broadcast.h"
#include "interp/kernels/kernels.h"
#include "interp/kernels/nn_common.h"
#include "ir/op_shapes/reduction_axes.h"

#include <cmath>
#include <limits>

namespace tessera {

namespace {

enum class Reduction { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

double identity(Reduction kind)
{
    switch (kind) {
    case Reduction::Prod: return 1.0;
    case Reduction::Max: return -std::numeric_limits<double>::infinity();
    case Reduction::Min: return std::numeric_limits<double>::infinity();
    default: return 0.0;
    }
}

Kernel reduce(Reduction kind)
{
    return [kind](KernelContext& ctx) {
        const TensorData& x = ctx.input(0);
        const std::vector<bool> reduced =
            reducedAxes(ctx.node, ctx.opset, x.shape(), ctx.hasInput(1) ? &ctx.input(1) : nullptr);
        size_t groups = 0;
        const std::vector<int64_t> group = collapsedIndexMap(x.shape(), reduced, groups);
        const std::vector<double> values = x.toDoubles();
        std::vector<double> acc(groups, identity(kind));
        std::vector<double> top(groups, -std::numeric_limits<double>::infinity());
        std::vector<int64_t> count(groups, 0);
        if (kind == Reduction::LogSumExp)
            for (size_t i = 0; i < values.size(); ++i)
                top[static_cast<size_t>(group[i])] = std::max(top[static_cast<size_t>(group[i])], values[i]);
        for (size_t i = 0; i < values.size(); ++i) {
            const size_t g = static_cast<size_t>(group[i]);
            const double v = values[i];
            ++count[g];
            switch (kind) {
            case Reduction::Sum:
            case Reduction::Mean:
            case Reduction::LogSum: acc[g] += v; break;
            case Reduction::Max: acc[g] = std::max(acc[g], v); break;
            case Reduction::Min: acc[g] = std::min(acc[g], v); break;
            case Reduction::Prod: acc[g] *= v; break;
            case Reduction::L1: acc[g] += std::abs(v); break;
            case Reduction::L2:
            case Reduction::SumSquare: acc[g] += v * v; break;
            case Reduction::LogSumExp: acc[g] += std::exp(v - top[g]); break;
            }
        }
        for (size_t g = 0; g < groups; ++g) {
            if (kind == Reduction::Mean)
                acc[g] /= static_cast<double>(count[g]);
            else if (kind == Reduction::L2)
                acc[g] = std::sqrt(acc[g]);
            else if (kind == Reduction::LogSum)
                acc[g] = std::log(acc[g]);
            else if (kind == Reduction::LogSumExp)
                acc[g] = count[g] == 0 ? -std::numeric_limits<double>::infinity() : top[g] + std::log(acc[g]);
        }
        nn::storeValues(ctx.output(0), acc);
    };
}

} // namespace

void registerReductionKernels(KernelTable& table)
{
    table["ReduceSum"] = reduce(Reduction::Sum);
    table["ReduceMean"] = reduce(Reduction::Mean);
    table["ReduceMax"] = reduce(Reduction::Max);
    table["ReduceMin"] = reduce(Reduction::Min);
    table["ReduceProd"] = reduce(Reduction::Prod);
    table["ReduceL1"] = reduce(Reduction::L1);
    table["ReduceL2"] = reduce(Reduction::L2);
    table["ReduceLogSum"] = reduce(Reduction::LogSum);
    table["ReduceLogSumExp"] = reduce(Reduction::LogSumExp);
    table["ReduceSumSquare"] = reduce(Reduction::SumSquare);
}

} // namespace tessera
