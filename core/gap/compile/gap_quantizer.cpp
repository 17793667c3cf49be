#include "gap/compile/gap_quantizer.h"

#include "interp/interpreter.h"
#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <thread>
#include <random>

namespace tessera::gap {
namespace {

// Accumulators keep two bits of headroom below int32 for partial sums beyond the calibrated range.
constexpr double kAccumulatorLimit = double(1u << 29);
// Activations, filters and biases in at most Q15; softmax inputs and accumulators go further.
constexpr int kMaxQ = 15;
// ReLU6 caps at 6 in the output's format, which int16 holds up to Q12.
constexpr int kMaxRelu6Q = 12;

float largestMagnitude(const std::vector<float>& values)
{
    float largest = 0.0f;
    for (float v : values)
        largest = std::max(largest, std::fabs(v));
    return largest;
}

// A tensor written in place into a concatenation takes its format when that is coarser.
int tiedFormat(const GapTensor& tensor, int q)
{
    return tensor.tiedQ >= 0 ? std::min(q, tensor.tiedQ) : q;
}

}  // namespace

int qFormatFor(double maxAbs, int limit)
{
    if (!(maxAbs > 0.0))
        return limit;
    const int q = int(std::floor(std::log2(32767.0 / maxAbs)));
    return std::clamp(q, 0, limit);
}


void quantizeNetwork(GapNetwork& network, const CalibrationRanges& ranges)
{
    auto rangeOf = [&](TensorId id, bool positiveOnly) {
        return double(positiveOnly ? ranges.maxPositive.at(size_t(id)) : ranges.maxAbs.at(size_t(id)));
    };
    for (int input : network.inputs)
        network.tensors[size_t(input)].q = qFormatFor(rangeOf(network.tensors[size_t(input)].source, false), kMaxQ);

    for (GapLayer& layer : network.layers) {
        GapTensor& output = network.tensors[size_t(layer.output)];
        const int inQ = network.tensors[size_t(layer.inputs.at(0))].q;
        switch (layer.kind) {
        case GapLayerKind::Pooling:
        case GapLayerKind::GlobalAveragePool:
        case GapLayerKind::Slice:
        case GapLayerKind::Shuffle:
        case GapLayerKind::Upsample:
            output.q = inQ;  // the generators keep the format
            break;
        case GapLayerKind::Softmax:
            output.q = 15;
            break;
        case GapLayerKind::ChannelScale:
            output.q = tiedFormat(output, qFormatFor(rangeOf(output.source, false), kMaxQ));
            break;
        case GapLayerKind::ChannelPRelu:
            output.q = tiedFormat(output, qFormatFor(rangeOf(output.source, false), kMaxQ));
            layer.weightsQ = qFormatFor(largestMagnitude(layer.weights), kMaxQ);
            layer.quantizedWeights = fixed_point::quantizeQ(layer.weights, layer.weightsQ);
            break;
        case GapLayerKind::Activation:
            output.q = tiedFormat(output, qFormatFor(rangeOf(output.source, false), kMaxQ));
            quantizeActivation(layer, std::ldexp(1.0, -inQ), std::ldexp(1.0, -output.q));
            break;
        case GapLayerKind::Concat:
            // No finer than any input, so that the copies only round, never saturate.
            output.q = qFormatFor(rangeOf(output.source, false), kMaxQ);
            for (int input : layer.inputs)
                output.q = std::min(output.q, network.tensors[size_t(input)].q);
            break;
        case GapLayerKind::Add:
        case GapLayerKind::Subtract: {
            const double range = std::max(rangeOf(layer.normalized, layer.relu), rangeOf(output.source, false));
            output.q = tiedFormat(output, qFormatFor(range, kMaxQ));
            break;
        }
        case GapLayerKind::Convolution:
        case GapLayerKind::Linear: {
            const bool relu = layer.kind == GapLayerKind::Linear ? layer.relu : layer.conv.relu;
            // Values are normalized to the output format before pooling and ReLU, so the format holds
            // the normalized range (its positive part when a ReLU follows).
            output.q = qFormatFor(std::max(rangeOf(layer.normalized, relu), rangeOf(output.source, false)), kMaxQ);
            if (layer.relu6)
                output.q = std::min(output.q, kMaxRelu6Q);
            output.q = tiedFormat(output, output.q);
            layer.weightsQ = qFormatFor(largestMagnitude(layer.weights), kMaxQ);
            const double accumulatorRange = rangeOf(layer.normalized, false);
            if (accumulatorRange > 0.0) {
                const int accumulatorQ = int(std::floor(std::log2(kAccumulatorLimit / accumulatorRange)));
                if (accumulatorQ < inQ)
                    throw UnsupportedError(fmt::format(
                        "layer {}: its values reach {:.4g}, beyond what a 32-bit accumulator holds with the input "
                        "in Q{}; rescale the model's weights",
                        layer.name, accumulatorRange, inQ));
                layer.weightsQ = std::min(layer.weightsQ, accumulatorQ - inQ);
            }
            layer.biasQ = std::min(qFormatFor(largestMagnitude(layer.bias), kMaxQ), inQ + layer.weightsQ);
            layer.quantizedWeights = fixed_point::quantizeQ(layer.weights, layer.weightsQ);
            layer.quantizedBias = fixed_point::quantizeQ(layer.bias, layer.biasQ);
            if (layer.kind == GapLayerKind::Convolution) {
                layer.conv.inQ = inQ;
                layer.conv.filterQ = layer.weightsQ;
                layer.conv.biasQ = layer.biasQ;
                layer.conv.outQ = output.q;
                layer.conv.reluCap = layer.relu6 ? 6 << output.q : 0;
            }
            break;
        }
        }
    }
}

}  // namespace tessera::gap
