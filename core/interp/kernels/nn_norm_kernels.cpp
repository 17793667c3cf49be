// Reference kernels of the normalizations: BatchNormalization (inference and training mode),
// InstanceNormalization, LayerNormalization, LRN, LpNormalization, MeanVarianceNormalization.
#include "interp/kernels/broadcast.h"
#include "interp/kernels/nn_common.h"

#include <cmath>

namespace tessera::nn {

namespace {

// Mean and (population) variance of each group of elements; groupOf[i] is element i's group.
struct GroupMoments {
    std::vector<double> mean;
    std::vector<double> variance;
};

GroupMoments moments(const std::vector<double>& x, const std::vector<int64_t>& groupOf, size_t groups)
{
    GroupMoments m{std::vector<double>(groups), std::vector<double>(groups)};
    std::vector<int64_t> count(groups);
    for (size_t i = 0; i < x.size(); ++i) {
        m.mean[static_cast<size_t>(groupOf[i])] += x[i];
        ++count[static_cast<size_t>(groupOf[i])];
    }
    for (size_t g = 0; g < groups; ++g)
        m.mean[g] /= static_cast<double>(std::max<int64_t>(count[g], 1));
    for (size_t i = 0; i < x.size(); ++i) {
        const double d = x[i] - m.mean[static_cast<size_t>(groupOf[i])];
        m.variance[static_cast<size_t>(groupOf[i])] += d * d;
    }
    for (size_t g = 0; g < groups; ++g)
        m.variance[g] /= static_cast<double>(std::max<int64_t>(count[g], 1));
    return m;
}

// Channel (axis 1) of each element of a [N, C, ...] tensor.
std::vector<int64_t> channelOf(const Shape& shape)
{
    std::vector<bool> reduced(shape.size(), true);
    reduced[1] = false;
    size_t groups = 0;
    return collapsedIndexMap(shape, reduced, groups);
}

void batchNorm(KernelContext& ctx)
{
    const std::vector<double> x = ctx.input(0).toDoubles();
    const std::vector<double> scale = ctx.input(1).toDoubles();
    const std::vector<double> bias = ctx.input(2).toDoubles();
    std::vector<double> mean = ctx.input(3).toDoubles();
    std::vector<double> variance = ctx.input(4).toDoubles();
    const double epsilon = ctx.node.attrFloat("epsilon", 1e-5f);
    const std::vector<int64_t> channel = channelOf(ctx.input(0).shape());
    const bool training = ctx.opset >= 14 && ctx.node.attrInt("training_mode", 0) != 0;
    if (training) {
        // Normalize with the batch statistics and blend them into the running ones.
        const GroupMoments batch = moments(x, channel, scale.size());
        const double momentum = ctx.node.attrFloat("momentum", 0.9f);
        std::vector<double> runningMean(mean.size()), runningVar(mean.size());
        for (size_t c = 0; c < mean.size(); ++c) {
            runningMean[c] = mean[c] * momentum + batch.mean[c] * (1.0 - momentum);
            runningVar[c] = variance[c] * momentum + batch.variance[c] * (1.0 - momentum);
        }
        if (ctx.outputs.size() > 1)
            storeValues(ctx.output(1), runningMean);
        if (ctx.outputs.size() > 2)
            storeValues(ctx.output(2), runningVar);
        mean = batch.mean;
        variance = batch.variance;
    }
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t c = static_cast<size_t>(channel[i]);
        y[i] = scale[c] * (x[i] - mean[c]) / std::sqrt(variance[c] + epsilon) + bias[c];
    }
    storeValues(ctx.output(0), y);
}

void instanceNorm(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    const std::vector<double> x = ctx.input(0).toDoubles();
    const std::vector<double> scale = ctx.input(1).toDoubles();
    const std::vector<double> bias = ctx.input(2).toDoubles();
    const double epsilon = ctx.node.attrFloat("epsilon", 1e-5f);
    std::vector<bool> reduced(shape.size(), true);
    reduced[0] = reduced[1] = false;
    size_t groups = 0;
    const std::vector<int64_t> group = collapsedIndexMap(shape, reduced, groups);
    const GroupMoments m = moments(x, group, groups);
    const int64_t channels = shape[1];
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t g = static_cast<size_t>(group[i]);
        const size_t c = static_cast<size_t>(group[i] % channels);
        y[i] = scale[c] * (x[i] - m.mean[g]) / std::sqrt(m.variance[g] + epsilon) + bias[c];
    }
    storeValues(ctx.output(0), y);
}

void layerNorm(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    const int64_t axis = normalizeAxis(ctx.node.attrInt("axis", -1), static_cast<int64_t>(shape.size()), ctx.node.describe());
    const double epsilon = ctx.node.attrFloat("epsilon", 1e-5f);
    const Shape normalized(shape.begin() + axis, shape.end());
    const int64_t inner = elementCount(normalized);
    const std::vector<double> x = ctx.input(0).toDoubles();
    const size_t rows = inner == 0 ? 0 : x.size() / static_cast<size_t>(inner);
    auto parameter = [&](size_t index, double fallback) {
        std::vector<double> values(static_cast<size_t>(inner), fallback);
        if (ctx.hasInput(index)) {
            const std::vector<double> given = ctx.input(index).toDoubles();
            const std::vector<int64_t> map = broadcastIndexMap(ctx.input(index).shape(), normalized);
            for (size_t i = 0; i < values.size(); ++i)
                values[i] = given[static_cast<size_t>(map[i])];
        }
        return values;
    };
    const std::vector<double> scale = parameter(1, 1.0);
    const std::vector<double> bias = parameter(2, 0.0);
    std::vector<double> y(x.size()), means(rows), invStd(rows);
    for (size_t r = 0; r < rows; ++r) {
        const double* row = x.data() + r * static_cast<size_t>(inner);
        double mean = 0.0, variance = 0.0;
        for (int64_t i = 0; i < inner; ++i)
            mean += row[i];
        mean /= static_cast<double>(inner);
        for (int64_t i = 0; i < inner; ++i)
            variance += (row[i] - mean) * (row[i] - mean);
        variance /= static_cast<double>(inner);
        means[r] = mean;
        invStd[r] = 1.0 / std::sqrt(variance + epsilon);
        for (int64_t i = 0; i < inner; ++i)
            y[r * static_cast<size_t>(inner) + static_cast<size_t>(i)] =
                (row[i] - mean) * invStd[r] * scale[static_cast<size_t>(i)] + bias[static_cast<size_t>(i)];
    }
    storeValues(ctx.output(0), y);
    if (ctx.outputs.size() > 1)
        storeValues(ctx.output(1), means);
    if (ctx.outputs.size() > 2)
        storeValues(ctx.output(2), invStd);
}

void lrn(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    const int64_t size = ctx.node.attrInt("size", 1);
    const double alpha = ctx.node.attrFloat("alpha", 1e-4f);
    const double beta = ctx.node.attrFloat("beta", 0.75f);
    const double bias = ctx.node.attrFloat("bias", 1.0f);
    const int64_t channels = shape[1];
    const int64_t plane = channels == 0 ? 0 : ctx.input(0).elements() / (shape[0] * channels);
    const std::vector<double> x = ctx.input(0).toDoubles();
    std::vector<double> y(x.size());
    const int64_t below = (size - 1) / 2;
    const int64_t above = size - 1 - below;
    for (int64_t n = 0; n < shape[0]; ++n)
        for (int64_t c = 0; c < channels; ++c)
            for (int64_t i = 0; i < plane; ++i) {
                double squares = 0.0;
                for (int64_t k = std::max<int64_t>(0, c - below); k <= std::min(channels - 1, c + above); ++k) {
                    const double v = x[static_cast<size_t>((n * channels + k) * plane + i)];
                    squares += v * v;
                }
                const size_t at = static_cast<size_t>((n * channels + c) * plane + i);
                y[at] = x[at] / std::pow(bias + alpha / static_cast<double>(size) * squares, beta);
            }
    storeValues(ctx.output(0), y);
}

// Divides each element by a statistic of its group: the Lp norm (LpNormalization) or, after
// centring, the standard deviation (MeanVarianceNormalization).
void lpNorm(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    const int64_t axis = normalizeAxis(ctx.node.attrInt("axis", -1), std::max<int64_t>(static_cast<int64_t>(shape.size()), 1),
                                       ctx.node.describe());
    const int64_t p = ctx.node.attrInt("p", 2);
    std::vector<bool> reduced(shape.size(), false);
    if (!shape.empty())
        reduced[static_cast<size_t>(axis)] = true;
    size_t groups = 0;
    const std::vector<int64_t> group = collapsedIndexMap(shape, reduced, groups);
    const std::vector<double> x = ctx.input(0).toDoubles();
    std::vector<double> norm(groups);
    for (size_t i = 0; i < x.size(); ++i)
        norm[static_cast<size_t>(group[i])] += p == 1 ? std::abs(x[i]) : x[i] * x[i];
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const double n = norm[static_cast<size_t>(group[i])];
        y[i] = x[i] / (p == 1 ? n : std::sqrt(n));
    }
    storeValues(ctx.output(0), y);
}

void meanVarianceNorm(KernelContext& ctx)
{
    const Shape& shape = ctx.input(0).shape();
    std::vector<bool> reduced(shape.size(), false);
    for (int64_t axis : ctx.node.attrInts("axes", {0, 2, 3}))
        reduced[static_cast<size_t>(normalizeAxis(axis, static_cast<int64_t>(shape.size()), ctx.node.describe()))] = true;
    size_t groups = 0;
    const std::vector<int64_t> group = collapsedIndexMap(shape, reduced, groups);
    const std::vector<double> x = ctx.input(0).toDoubles();
    const GroupMoments m = moments(x, group, groups);
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t g = static_cast<size_t>(group[i]);
        y[i] = (x[i] - m.mean[g]) / (std::sqrt(m.variance[g]) + 1e-9);
    }
    storeValues(ctx.output(0), y);
}

} // namespace

void registerNormalizationKernels(KernelTable& table)
{
    table["BatchNormalization"] = batchNorm;
    table["InstanceNormalization"] = instanceNorm;
    table["LayerNormalization"] = layerNorm;
    table["LRN"] = lrn;
    table["LpNormalization"] = lpNorm;
    table["MeanVarianceNormalization"] = meanVarianceNorm;
}

} // namespace tessera::nn
