#include "gap/compile/gap_reference.h"

#include "base/error.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace tessera::gap {
namespace {

namespace sq8 = fixed_point::sq8;

std::vector<int8_t> narrow(const std::vector<int16_t>& values)
{
    return {values.begin(), values.end()};
}

std::vector<int16_t> widen(const std::vector<int8_t>& values)
{
    return {values.begin(), values.end()};
}

// The activation a kernel on the SDK's contract applies (as the graph builder's reluOperation).
sq8::Activation sdkActivation(bool relu, bool relu6 = false)
{
    if (relu6)
        return sq8::Activation::ReLUN;
    return relu ? sq8::Activation::ReLU : sq8::Activation::None;
}

// One SQ8 layer on its int8 inputs (widened in `values`).
std::vector<int16_t> runSq8Layer(const GapLayer& layer, const std::vector<std::vector<int16_t>>& values)
{
    const std::vector<int8_t> in = narrow(values[size_t(layer.inputs.at(0))]);
    switch (layer.kind) {
    case GapLayerKind::Convolution:
        return widen(sq8::convPoolAct(layer.conv, in, layer.weights8, layer.bias32, layer.channelScales));
    case GapLayerKind::Pooling:
        if (layer.poolsOnSdkContract())
            return widen(sq8::sdkPoolAct(layer.pool, sdkActivation(layer.pool.relu), layer.infos, in));
        return widen(sq8::poolAct(layer.pool, in));
    case GapLayerKind::GlobalAveragePool:
        return widen(sq8::sdkGlobalPoolAct(layer.pool.features, layer.pool.width, layer.pool.height, false,
                                           sq8::Activation::None, layer.infos, in));
    case GapLayerKind::Linear:
        return widen(sq8::linearAct(layer.inDim, layer.outDim, sdkActivation(layer.relu, layer.relu6), layer.infos, in,
                                    layer.weights8, layer.bias32, layer.channelScales));
    case GapLayerKind::Softmax:
        return sq8::softmaxQ15(in, layer.softmaxInput.scale, layer.softmaxInput.shift, layer.softmaxInputQ);
    case GapLayerKind::Add:
        return widen(sq8::matAddAct(in, narrow(values[size_t(layer.inputs.at(1))]),
                                    sdkActivation(layer.relu), layer.infos));
    case GapLayerKind::Subtract:
        return widen(sq8::matAdd(in, layer.addScale1, narrow(values[size_t(layer.inputs.at(1))]), -layer.addScale2,
                                 layer.addShift, layer.relu));
    case GapLayerKind::Slice:
        return widen(fixed_point::sliceChannels(in, layer.plane, layer.sliceBegin, layer.sliceCount));
    case GapLayerKind::Shuffle:
        return widen(fixed_point::shuffleChannels(in, layer.channels.at(0), layer.plane, layer.groups));
    case GapLayerKind::ChannelPRelu:
        return widen(sq8::preluChannels(in, layer.quantizedWeights, layer.plane, layer.weightsQ, layer.inputScales.at(0)));
    case GapLayerKind::Upsample:
        return widen(fixed_point::upsampleNearest(in, int64_t(layer.pool.features) * layer.pool.height,
                                                  layer.pool.width, layer.factorX, layer.factorY));
    case GapLayerKind::Concat: {
        std::vector<std::vector<int8_t>> inputs;
        for (int input : layer.inputs)
            inputs.push_back(narrow(values[size_t(input)]));
        const std::vector<int8_t> blocks = sq8::concatenate(inputs, layer.inputScales);
        return widen(layer.concatLines > 0 ? fixed_point::joinLines(blocks, layer.concatLines, layer.channels) : blocks);
    }
    case GapLayerKind::Activation:
        return widen(fixed_point::activate(layer.activation, in));
    case GapLayerKind::ChannelScale:
        return widen(sq8::scaleChannels(in, narrow(values[size_t(layer.inputs.at(1))]), layer.plane,
                                        layer.inputScales.at(0)));
    }
    return {};
}

}  // namespace

std::vector<int16_t> runLayer(const GapNetwork& network, const GapLayer& layer,
                              const std::vector<std::vector<int16_t>>& values)
{
    if (network.quantization == GapQuantization::SymmetricInt8)
        return runSq8Layer(layer, values);
    const std::vector<int16_t>& in = values[size_t(layer.inputs.at(0))];
    const int inQ = network.tensors[size_t(layer.inputs.at(0))].q;
    const int outQ = network.tensors[size_t(layer.output)].q;
    std::vector<int16_t> out;
    switch (layer.kind) {
    case GapLayerKind::Convolution:
        out = fixed_point::convPoolRelu(layer.conv, in, layer.quantizedWeights, layer.quantizedBias);
        break;
    case GapLayerKind::Pooling:
        out = fixed_point::poolRelu(layer.pool, in);
        break;
    case GapLayerKind::GlobalAveragePool:
        out = fixed_point::globalAveragePool(layer.pool.features, layer.pool.width, layer.pool.height, in);
        break;
    case GapLayerKind::Linear:
        out = fixed_point::linearRelu(layer.inDim, layer.outDim, layer.relu, inQ, layer.weightsQ, layer.biasQ,
                                      outQ, in, layer.quantizedWeights, layer.quantizedBias,
                                      layer.relu6 ? 6 << outQ : 0);
        break;
    case GapLayerKind::Softmax:
        out = fixed_point::softmaxQ15(in, inQ);
        break;
    case GapLayerKind::Add:
    case GapLayerKind::Subtract:
        out = fixed_point::matAdd(in, inQ, values[size_t(layer.inputs.at(1))],
                                  network.tensors[size_t(layer.inputs.at(1))].q, outQ, layer.relu,
                                  layer.kind == GapLayerKind::Subtract);
        break;
    case GapLayerKind::Slice:
        out = fixed_point::sliceChannels(in, layer.plane, layer.sliceBegin, layer.sliceCount);
        break;
    case GapLayerKind::Shuffle:
        out = fixed_point::shuffleChannels(in, layer.channels.at(0), layer.plane, layer.groups);
        break;
    case GapLayerKind::ChannelPRelu:
        out = fixed_point::preluChannels(in, layer.quantizedWeights, layer.plane, layer.weightsQ, inQ - outQ);
        break;
    case GapLayerKind::Upsample:
        out = fixed_point::upsampleNearest(in, int64_t(layer.pool.features) * layer.pool.height, layer.pool.width,
                                           layer.factorX, layer.factorY);
        break;
    case GapLayerKind::Concat: {
        std::vector<std::vector<int16_t>> inputs;
        std::vector<int> inputQ;
        for (int input : layer.inputs) {
            inputs.push_back(values[size_t(input)]);
            inputQ.push_back(network.tensors[size_t(input)].q);
        }
        out = fixed_point::concatenate(inputs, inputQ, outQ);
        if (layer.concatLines > 0)
            out = fixed_point::joinLines(out, layer.concatLines, layer.channels);
        break;
    }
    case GapLayerKind::Activation:
        out = fixed_point::activate(layer.activation, in);
        break;
    case GapLayerKind::ChannelScale:
        out = fixed_point::scaleChannels(in, values[size_t(layer.inputs.at(1))], layer.plane,
                                         inQ + network.tensors[size_t(layer.inputs.at(1))].q - outQ);
        break;
    }
    return out;
}

std::vector<std::vector<int16_t>> runFixedPoint(const GapNetwork& network,
                                                const std::vector<std::vector<int16_t>>& inputs)
{
    if (inputs.size() != network.inputs.size())
        throw ShapeError(fmt::format("the network has {} inputs, {} were given", network.inputs.size(), inputs.size()));
    std::vector<std::vector<int16_t>> values(network.tensors.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        const GapTensor& tensor = network.tensors[size_t(network.inputs[k])];
        if (int64_t(inputs[k].size()) != tensor.elements)
            throw ShapeError(fmt::format("input {} has {} values, {} expected", tensor.name, inputs[k].size(),
                                         tensor.elements));
        values[size_t(network.inputs[k])] = inputs[k];
    }
    for (const GapLayer& layer : network.layers)
        values[size_t(layer.output)] = runLayer(network, layer, values);
    return values;
}

std::vector<int16_t> quantizeInput(const GapNetwork& network, int tensor, const TensorData& value)
{
    const GapTensor& target = network.tensors.at(size_t(tensor));
    if (target.dataSize == 1)
        return widen(sq8::quantize(value.toFloats(), target.scale));
    return fixed_point::quantizeQ(value.toFloats(), network.tensors.at(size_t(tensor)).q);
}

std::vector<float> dequantizeTensor(const GapNetwork& network, int tensor, const std::vector<int16_t>& values)
{
    const GapTensor& source = network.tensors.at(size_t(tensor));
    if (source.dataSize == 1)
        return sq8::dequantize(narrow(values), source.scale);
    return fixed_point::dequantizeQ(values, network.tensors.at(size_t(tensor)).q);
}

double sqnrDb(const std::vector<float>& signal, const std::vector<float>& approximation)
{
    double power = 0.0;
    double noise = 0.0;
    for (size_t k = 0; k < signal.size() && k < approximation.size(); ++k) {
        power += double(signal[k]) * signal[k];
        const double error = double(signal[k]) - approximation[k];
        noise += error * error;
    }
    if (noise == 0.0)
        return std::numeric_limits<double>::infinity();
    return 10.0 * std::log10(power / noise);
}

}  // namespace tessera::gap
