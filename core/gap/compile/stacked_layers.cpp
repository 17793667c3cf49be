#include "gap/compile/stacked_layers.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace tessera::gap {
namespace {

// Layers whose output format the quantizer chooses freely (and so can tie to a concatenation's).
bool writesAnyFormat(GapLayerKind kind)
{
    switch (kind) {
    case GapLayerKind::Convolution:
    case GapLayerKind::Linear:
    case GapLayerKind::Add:
    case GapLayerKind::Subtract:
    case GapLayerKind::Activation:
    case GapLayerKind::ChannelScale:
    case GapLayerKind::ChannelPRelu:
        return true;
    default:
        return false;
    }
}

bool sameFormat(const GapNetwork& network, const GapTensor& a, const GapTensor& b)
{
    if (a.dataSize != b.dataSize)
        return false;
    return network.quantization == GapQuantization::SymmetricInt8 ? a.scale == b.scale : a.q == b.q;
}

// The graph's inputs and outputs: the caller's buffers, which no stack can hold.
std::set<int> callerTensors(const GapNetwork& network)
{
    std::set<int> caller(network.inputs.begin(), network.inputs.end());
    caller.insert(network.outputs.begin(), network.outputs.end());
    return caller;
}

}  // namespace

std::vector<TensorStack> tensorStacks(const GapNetwork& network)
{
    std::vector<TensorStack> stacks;
    std::map<int, std::vector<const GapLayer*>> slicesOf;
    for (const GapLayer& layer : network.layers) {
        if (!layer.stacked)
            continue;
        if (layer.kind == GapLayerKind::Slice)
            slicesOf[layer.inputs.at(0)].push_back(&layer);
        else
            stacks.push_back({layer.output, layer.inputs});
    }
    for (auto& [input, slices] : slicesOf) {
        std::sort(slices.begin(), slices.end(),
                  [](const GapLayer* a, const GapLayer* b) { return a->sliceBegin < b->sliceBegin; });
        TensorStack stack{input, {}};
        for (const GapLayer* slice : slices)
            stack.parts.push_back(slice->output);
        stacks.push_back(std::move(stack));
    }
    return stacks;
}

std::set<int> tensorsInStacks(const GapNetwork& network)
{
    std::set<int> tensors;
    for (const TensorStack& stack : tensorStacks(network)) {
        tensors.insert(stack.whole);
        tensors.insert(stack.parts.begin(), stack.parts.end());
    }
    return tensors;
}

void markStackedConcats(GapNetwork& network)
{
    std::vector<int> producer(network.tensors.size(), -1);
    for (size_t k = 0; k < network.layers.size(); ++k)
        producer[size_t(network.layers[k].output)] = int(k);
    const std::set<int> caller = callerTensors(network);
    std::set<int> stacked;  // tensors already members of a stack
    for (GapLayer& layer : network.layers) {
        if (layer.kind != GapLayerKind::Concat || layer.concatLines > 0)
            continue;
        bool eligible = !layer.inputs.empty();
        std::set<int> members;
        for (int input : layer.inputs) {
            const int by = producer[size_t(input)];
            eligible = eligible && by >= 0 && writesAnyFormat(network.layers[size_t(by)].kind) &&
                       !caller.count(input) && !stacked.count(input) && members.insert(input).second;
        }
        if (!eligible)
            continue;
        layer.stacked = true;
        stacked.insert(members.begin(), members.end());
    }
}

void markStackedSplits(GapNetwork& network)
{
    const std::set<int> caller = callerTensors(network);
    std::set<int> inStacks = tensorsInStacks(network);  // grows with each Split marked
    std::map<int, std::vector<size_t>> slicesOf;  // input tensor: its Slice layers
    for (size_t k = 0; k < network.layers.size(); ++k)
        if (network.layers[k].kind == GapLayerKind::Slice)
            slicesOf[network.layers[k].inputs.at(0)].push_back(k);
    for (auto& [input, slices] : slicesOf) {
        std::sort(slices.begin(), slices.end(), [&](size_t a, size_t b) {
            return network.layers[a].sliceBegin < network.layers[b].sliceBegin;
        });
        bool eligible = !caller.count(input) && !inStacks.count(input);
        int next = 0;
        for (size_t k : slices) {
            const GapLayer& slice = network.layers[k];
            eligible = eligible && slice.sliceBegin == next && slice.sliceCount > 0 && !caller.count(slice.output) &&
                       !inStacks.count(slice.output);
            next = slice.sliceBegin + slice.sliceCount;
        }
        if (!eligible || next != network.layers[slices.front()].channels.at(0))
            continue;
        for (size_t k : slices) {
            network.layers[k].stacked = true;
            inStacks.insert(network.layers[k].output);
        }
        inStacks.insert(input);
    }
}

bool tieStackedFormats(GapNetwork& network)
{
    const bool sq8 = network.quantization == GapQuantization::SymmetricInt8;
    std::vector<int> readers(network.tensors.size(), 0);
    for (const GapLayer& layer : network.layers)
        for (int input : layer.inputs)
            ++readers[size_t(input)];
    bool changed = false;
    for (GapLayer& layer : network.layers) {
        if (!layer.stacked || layer.kind != GapLayerKind::Concat)
            continue;
        const GapTensor& output = network.tensors[size_t(layer.output)];
        std::vector<int> toTie;
        for (int input : layer.inputs)
            if (!sameFormat(network, network.tensors[size_t(input)], output))
                toTie.push_back(input);
        // A coarser format would cost the input's other readers precision the copy keeps them.
        bool sharedInput = false;
        for (int input : toTie)
            sharedInput = sharedInput || readers[size_t(input)] > 1;
        if (sharedInput) {
            layer.stacked = false;
            continue;
        }
        for (int input : toTie) {
            GapTensor& tensor = network.tensors[size_t(input)];
            if (sq8)
                tensor.tiedScale = output.scale;
            else
                tensor.tiedQ = output.q;
            changed = true;
        }
    }
    return changed;
}

void unstackMismatchedConcats(GapNetwork& network)
{
    for (GapLayer& layer : network.layers) {
        if (!layer.stacked || layer.kind != GapLayerKind::Concat)
            continue;
        for (int input : layer.inputs)
            if (!sameFormat(network, network.tensors[size_t(input)], network.tensors[size_t(layer.output)]))
                layer.stacked = false;
    }
}

}  // namespace tessera::gap
