// SQ8 quantization of a GAP network (docs/gap-fixed-point.md, "SQ8"): symmetric int8 activations
// with one scale per tensor from the calibrated range, int8 filters with one scale per output
// feature, int32 biases in the accumulator's scale, and the integer multipliers that bring each
// layer's result to its output's scale.
#include "gap/compile/gap_quantizer.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessera::gap {
namespace {

namespace sq8 = fixed_point::sq8;

// The smallest scale given to a tensor: one whose values were all zero in calibration.
constexpr double kSmallestScale = 1e-8;

double scaleFor(double range)
{
    return std::max(range, 0.0) / 127.0 > kSmallestScale ? range / 127.0 : kSmallestScale;
}

// Per output feature: the filter's int8 values and scale, the int32 bias and the multiplier from
// the accumulator (input scale x filter scale) to the output scale.
void quantizeFilters(GapLayer& layer, int features, double inputScale, double outputScale)
{
    const size_t perFeature = layer.weights.size() / size_t(features);
    layer.weights8.resize(layer.weights.size());
    layer.bias32.resize(size_t(features));
    layer.channelScales.scale.resize(size_t(features));
    layer.channelScales.shift.resize(size_t(features));
    for (int f = 0; f < features; ++f) {
        const auto begin = layer.weights.begin() + std::ptrdiff_t(size_t(f) * perFeature);
        const std::vector<float> filter(begin, begin + std::ptrdiff_t(perFeature));
        double largest = 0.0;
        for (float w : filter)
            largest = std::max(largest, double(std::fabs(w)));
        const double filterScale = largest > 0.0 ? largest / 127.0 : 1.0;
        const std::vector<int8_t> quantized = sq8::quantize(filter, filterScale);
        std::copy(quantized.begin(), quantized.end(), layer.weights8.begin() + std::ptrdiff_t(size_t(f) * perFeature));

        const double accumulatorScale = inputScale * filterScale;
        const double bias = std::round(double(layer.bias[size_t(f)]) / accumulatorScale);
        if (!(std::fabs(bias) <= double(std::numeric_limits<int32_t>::max() / 2)))
            throw UnsupportedError(fmt::format(
                "layer {}: the bias of output feature {} ({:.4g}) is too large for an int32 accumulator at the "
                "input's 8-bit scale; rescale the model's weights or use --quant int16",
                layer.name, f, layer.bias[size_t(f)]));
        layer.bias32[size_t(f)] = int32_t(bias);
        const sq8::Multiplier multiplier = sq8::multiplierFor(accumulatorScale / outputScale);
        layer.channelScales.scale[size_t(f)] = uint8_t(multiplier.scale);
        layer.channelScales.shift[size_t(f)] = uint8_t(multiplier.shift);
    }
}

// The largest requantization factor an 8-bit multiplier can give is below 256: an output scale
// that small (a layer whose outputs were almost all zero in calibration) is raised to fit.
double outputScaleFor(const GapLayer& layer, int features, double inputScale, double outputScale)
{
    const size_t perFeature = layer.weights.size() / size_t(features);
    double largestFilterScale = 0.0;
    for (size_t k = 0; k < layer.weights.size(); k += perFeature) {
        double largest = 0.0;
        for (size_t i = k; i < k + perFeature; ++i)
            largest = std::max(largest, double(std::fabs(layer.weights[i])));
        largestFilterScale = std::max(largestFilterScale, largest > 0.0 ? largest / 127.0 : 1.0);
    }
    return std::max(outputScale, inputScale * largestFilterScale / 255.0);
}

// 8-bit products summed over `terms` items stay far from the int32 limit up to 2^17 terms.
void checkAccumulator(const GapLayer& layer, int64_t terms)
{
    if (terms > (int64_t(1) << 17))
        throw UnsupportedError(fmt::format("layer {}: {} products per output could overflow the int32 accumulator "
                                           "of 8-bit layers; use --quant int16",
                                           layer.name, terms));
}

// The linear layer computes on GAP's 32-bit arithmetic (the SDK's contract): its accumulator times
// its multiplier, plus the rounding half, must stay in int32 for any int8 input. Multipliers that
// could leave it lose low bits (scale halved, shift one less) until they cannot; shifts above 31
// are brought to 31 the same way.
void keepProductsIn32Bits(GapLayer& layer)
{
    const int64_t limit = std::numeric_limits<int32_t>::max();
    const size_t perFeature = layer.weights8.size() / layer.bias32.size();
    for (size_t f = 0; f < layer.bias32.size(); ++f) {
        int64_t largest = std::abs(int64_t(layer.bias32[f]));
        for (size_t i = f * perFeature; i < (f + 1) * perFeature; ++i)
            largest += 128 * std::abs(int64_t(layer.weights8[i]));
        int64_t scale = layer.channelScales.scale[f];
        int64_t shift = layer.channelScales.shift[f];
        auto fits = [&] { return shift <= 31 && largest * scale + (shift > 0 ? int64_t(1) << (shift - 1) : 0) <= limit; };
        while (!fits() && shift > 0) {
            scale = (scale + 1) / 2;
            --shift;
        }
        if (largest > limit || !fits())
            throw UnsupportedError(fmt::format("layer {}: output {} can reach {} before its requantization, beyond the "
                                               "32-bit arithmetic of the 8-bit linear kernels; use --quant int16",
                                               layer.name, f, largest * scale));
        layer.channelScales.scale[f] = uint8_t(scale);
        layer.channelScales.shift[f] = uint8_t(shift);
    }
}

// A tensor written in place into a concatenation takes its scale when that is coarser.
double tiedScale(const GapTensor& tensor, double scale)
{
    return std::max(scale, tensor.tiedScale);
}

// An addition on the SDK's contract: the first input is brought to the second's scale by an 8-bit
// multiplier, the sum to the output's by another. The second input is the finer one, so that the
// sum keeps its precision, unless the first's factor would reach 256 (then the other way round,
// the finer one scaled down). The inputs are reordered to match: an addition commutes.
void quantizeAddition(GapNetwork& network, GapLayer& layer, double normalizedRange, double outputRange)
{
    const auto scaleOf = [&](size_t k) { return network.tensors[size_t(layer.inputs.at(k))].scale; };
    const bool finerFirst = scaleOf(0) < scaleOf(1);
    if (finerFirst == (std::max(scaleOf(0), scaleOf(1)) / std::min(scaleOf(0), scaleOf(1)) < 255.0))
        std::swap(layer.inputs[0], layer.inputs[1]);
    const double in1Factor = scaleOf(0) / scaleOf(1);
    GapTensor& output = network.tensors[size_t(layer.output)];
    // The sum is in the second input's units; the output's multiplier must stay below 256.
    output.scale = tiedScale(output, std::max(scaleFor(std::max(normalizedRange, outputRange)), scaleOf(1) / 255.0));
    const sq8::Multiplier in1 = sq8::multiplierFor(in1Factor);
    const sq8::Multiplier out = sq8::multiplierFor(scaleOf(1) / output.scale);
    if (in1.scale == 0 || in1.shift > 31 || out.scale == 0 || out.shift > 31)
        throw UnsupportedError(fmt::format("layer {}: its inputs' scales differ by a factor of {:.3g}, beyond the 8-bit "
                                           "multipliers of the SDK's addition kernels; use --quant int16",
                                           layer.name, std::max(in1Factor, 1.0 / in1Factor)));
    layer.infos = sq8::LayerInfos{};
    layer.infos.in1Scale = in1.scale;
    layer.infos.in1ScaleN = in1.shift;
    layer.infos.outScale = out.scale;
    layer.infos.outScaleN = out.shift;
}

}  // namespace

void quantizeNetworkSq8(GapNetwork& network, const CalibrationRanges& ranges)
{
    network.quantization = GapQuantization::SymmetricInt8;
    auto rangeOf = [&](TensorId id, bool positiveOnly) {
        return double(positiveOnly ? ranges.maxPositive.at(size_t(id)) : ranges.maxAbs.at(size_t(id)));
    };
    for (GapTensor& tensor : network.tensors)
        tensor.dataSize = 1;
    for (int input : network.inputs)
        network.tensors[size_t(input)].scale = scaleFor(rangeOf(network.tensors[size_t(input)].source, false));

    for (GapLayer& layer : network.layers) {
        GapTensor& output = network.tensors[size_t(layer.output)];
        const double inputScale = network.tensors[size_t(layer.inputs.at(0))].scale;
        switch (layer.kind) {
        case GapLayerKind::GlobalAveragePool: {
            // A mean is far smaller than the values it averages (a squeeze-and-excitation block's
            // squeeze, the pooling before a classifier): it gets its own scale, at most 128 times
            // finer than the input's: the SDK's kernels compute the mean to 1/128 of the input's
            // unit, then bring it to the output's scale by the 8-bit multiplier of the layer's Infos
            // (docs/gap-fixed-point.md, "Global pooling").
            output.scale = std::clamp(scaleFor(rangeOf(output.source, false)), inputScale / 128.0, inputScale);
            const sq8::Multiplier toOutput = sq8::multiplierFor(inputScale / output.scale / 128.0);
            // The output's scale follows the multiplier (at most 1/256 away), so that it is exact.
            output.scale = inputScale / (128.0 * std::ldexp(double(toOutput.scale), -toOutput.shift));
            layer.infos = sq8::LayerInfos{};
            layer.infos.actScale = 0;
            layer.infos.sumScale = toOutput.scale;
            layer.infos.sumScaleN = toOutput.shift;
            break;
        }
        case GapLayerKind::Pooling:
            output.scale = inputScale;  // the pooling keeps the scale: no scaling in its Infos
            layer.infos = sq8::LayerInfos{};
            layer.infos.actScale = 0;
            break;
        case GapLayerKind::Slice:
        case GapLayerKind::Shuffle:
        case GapLayerKind::Upsample:
            output.scale = inputScale;  // the generators keep the scale
            break;
        case GapLayerKind::Softmax: {
            // The input goes to the largest Q format (at most Q12) that holds its int8 range in 16 bits.
            layer.softmaxInputQ = qFormatFor(127.0 * inputScale, 12);
            layer.softmaxInput = sq8::multiplier15For(inputScale * std::ldexp(1.0, layer.softmaxInputQ));
            output.dataSize = 2;
            output.q = 15;
            output.scale = std::ldexp(1.0, -15);
            break;
        }
        case GapLayerKind::Add:
            quantizeAddition(network, layer, rangeOf(layer.normalized, layer.relu), rangeOf(output.source, false));
            break;
        case GapLayerKind::Subtract: {
            const double largerInputScale = std::max(inputScale, network.tensors[size_t(layer.inputs.at(1))].scale);
            // A result much smaller than its inputs (a difference that cancels) keeps a scale of at
            // least 1/16384 of theirs, so that the factors stay within the 15-bit multipliers.
            output.scale = tiedScale(output, std::max(scaleFor(std::max(rangeOf(layer.normalized, layer.relu),
                                                                        rangeOf(output.source, false))),
                                                      largerInputScale / 16384.0));
            const double scale1 = inputScale / output.scale;
            const double scale2 = network.tensors[size_t(layer.inputs.at(1))].scale / output.scale;
            // One shift for both: the larger factor gets 15 significant bits.
            const sq8::Multiplier larger = sq8::multiplier15For(std::max(scale1, scale2));
            if (larger.shift < 0)
                throw UnsupportedError(fmt::format("layer {}: the inputs' scales are over 32768 times the output's",
                                                   layer.name));
            layer.addShift = larger.shift;
            layer.addScale1 = int(std::lround(std::ldexp(scale1, larger.shift)));
            layer.addScale2 = int(std::lround(std::ldexp(scale2, larger.shift)));
            layer.addScale1 = std::min(layer.addScale1, 32767);
            layer.addScale2 = std::min(layer.addScale2, 32767);
            break;
        }
        case GapLayerKind::ChannelScale: {
            output.scale = tiedScale(output, scaleFor(rangeOf(output.source, false)));
            const double factor = inputScale * network.tensors[size_t(layer.inputs.at(1))].scale / output.scale;
            if (!(factor < 32768.0))
                throw UnsupportedError(fmt::format("layer {}: the product of its inputs' scales is over 32768 times "
                                                   "the output's",
                                                   layer.name));
            layer.inputScales = {sq8::multiplier15For(factor)};
            break;
        }
        case GapLayerKind::ChannelPRelu: {
            output.scale = tiedScale(output, scaleFor(rangeOf(output.source, false)));
            float largest = 0.0f;
            for (float slope : layer.weights)
                largest = std::max(largest, std::fabs(slope));
            layer.weightsQ = qFormatFor(largest, 15);
            layer.quantizedWeights = fixed_point::quantizeQ(layer.weights, layer.weightsQ);
            const double factor = inputScale / output.scale;
            const sq8::Multiplier multiplier = sq8::multiplier15For(std::min(factor, 32767.0));
            if (!(factor < 32768.0) || multiplier.shift + layer.weightsQ > 62)
                throw UnsupportedError(fmt::format("layer {}: its input's scale is {:.4g} times the output's, beyond "
                                                   "what the PRelu's multiplier reaches",
                                                   layer.name, factor));
            layer.inputScales = {multiplier};
            break;
        }
        case GapLayerKind::Activation:
            output.scale = tiedScale(output, scaleFor(rangeOf(output.source, false)));
            quantizeActivation(layer, inputScale, output.scale);
            break;
        case GapLayerKind::Concat: {
            // At least every input's scale, so that the copies only round, never saturate.
            output.scale = scaleFor(rangeOf(output.source, false));
            for (int input : layer.inputs)
                output.scale = std::max(output.scale, network.tensors[size_t(input)].scale);
            layer.inputScales.clear();
            for (int input : layer.inputs) {
                const double factor = network.tensors[size_t(input)].scale / output.scale;
                layer.inputScales.push_back(factor == 1.0 ? sq8::Multiplier{1, 0} : sq8::multiplier15For(factor));
            }
            break;
        }
        case GapLayerKind::Convolution:
        case GapLayerKind::Linear: {
            const bool conv = layer.kind == GapLayerKind::Convolution;
            const bool relu = conv ? layer.conv.relu : layer.relu;
            const int features = conv ? layer.conv.outFeatures : layer.outDim;
            checkAccumulator(layer, conv ? int64_t(layer.conv.depthwise ? 1 : layer.conv.inFeatures) *
                                               layer.conv.filterWidth * layer.conv.filterHeight
                                         : int64_t(layer.inDim));
            // Results are requantized before pooling and ReLU: the scale holds the normalized range
            // (its positive part when a ReLU follows, at most 6 for ReLU6).
            double range = std::max(rangeOf(layer.normalized, relu), rangeOf(output.source, false));
            if (layer.relu6)
                range = std::min(range, 6.0);
            output.scale = outputScaleFor(layer, features, inputScale, tiedScale(output, scaleFor(range)));
            if (layer.relu6)
                layer.actCap = std::clamp(int(std::lround(6.0 / output.scale)), 2, 127);
            quantizeFilters(layer, features, inputScale, output.scale);
            if (conv) {
                layer.conv.reluCap = layer.actCap;
            } else {
                keepProductsIn32Bits(layer);
                layer.infos = sq8::LayerInfos{};
                layer.infos.a0 = layer.actCap;
            }
            break;
        }
        }
    }
}

}  // namespace tessera::gap
