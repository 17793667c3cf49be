#include "gap/compile/channel_split.h"

#include "gap/compile/pooling_split.h"
#include "gap/compile/stacked_layers.h"

#include <algorithm>
#include <set>

namespace tessera::gap {
namespace {

// The items of `values` (perFeature of them per output feature) of features [begin, end).
template <class T>
std::vector<T> featureSlice(const std::vector<T>& values, int features, int begin, int end)
{
    if (values.empty())
        return {};
    const size_t perFeature = values.size() / size_t(features);
    return {values.begin() + std::ptrdiff_t(size_t(begin) * perFeature),
            values.begin() + std::ptrdiff_t(size_t(end) * perFeature)};
}

// Features [begin, end) of a convolution layer, its output in `output`.
GapLayer featureRun(const GapLayer& layer, int begin, int end, int output)
{
    const int features = layer.conv.outFeatures;
    GapLayer part = layer;
    part.output = output;
    part.conv.outFeatures = end - begin;
    part.weights = featureSlice(layer.weights, features, begin, end);
    part.bias = featureSlice(layer.bias, features, begin, end);
    part.quantizedWeights = featureSlice(layer.quantizedWeights, features, begin, end);
    part.quantizedBias = featureSlice(layer.quantizedBias, features, begin, end);
    part.weights8 = featureSlice(layer.weights8, features, begin, end);
    part.bias32 = featureSlice(layer.bias32, features, begin, end);
    part.channelScales.scale = featureSlice(layer.channelScales.scale, features, begin, end);
    part.channelScales.shift = featureSlice(layer.channelScales.shift, features, begin, end);
    return part;
}

// First feature of part k of `parts` over `features`: runs of ceil(features / parts), the last shorter.
int partBegin(int features, int parts, int k)
{
    const int run = (features + parts - 1) / parts;
    return std::min(features, k * run);
}

bool tilesInL1(const GapNetwork& network, const GapLayer& layer, int parts, const GapBudgets& budgets,
               const tiler::TilerCostModel& costModel)
{
    // The first part is the largest: a network of it alone, its input and its output.
    GapNetwork alone;
    alone.name = "Part";
    alone.quantization = network.quantization;
    GapTensor input = network.tensors[size_t(layer.inputs.at(0))];
    input.name = "In";
    GapTensor output = network.tensors[size_t(layer.output)];
    output.name = "Out";
    const fixed_point::ConvPoolReluShape shape = fixed_point::convPoolReluOutputShape(layer.conv);
    const int run = partBegin(layer.conv.outFeatures, parts, 1);
    output.shape = {run, shape.height, shape.width};
    output.elements = int64_t(run) * shape.height * shape.width;
    alone.tensors = {input, output};
    alone.inputs = {0};
    alone.outputs = {1};
    GapLayer part = featureRun(layer, 0, run, 1);
    part.inputs = {0};
    alone.layers = {part};
    const tiler::KernelModel model = buildGapKernelModel(alone, budgets, costModel, {});
    return kernelTilesInL1(model, part.name, budgets.l1);
}

}  // namespace

std::map<std::string, int> convolutionsToSplit(const GapNetwork& network, const tiler::KernelModel& model,
                                               const GapBudgets& budgets, const tiler::TilerCostModel& costModel)
{
    std::map<std::string, int> split;
    for (const GapLayer& layer : network.layers) {
        if (layer.kind != GapLayerKind::Convolution || layer.conv.depthwise || layer.conv.outFeatures < 2 ||
            kernelTilesInL1(model, layer.name, budgets.l1))
            continue;
        // Halving the features roughly halves the accumulators; try counts up to the features.
        for (int parts = 2; parts <= layer.conv.outFeatures; parts = parts < 8 ? parts + 1 : parts * 2) {
            const int clamped = std::min(parts, layer.conv.outFeatures);
            if (tilesInL1(network, layer, clamped, budgets, costModel)) {
                split[layer.name] = clamped;
                break;
            }
        }
    }
    return split;
}

GapNetwork splitOutputFeatures(const GapNetwork& network, const std::map<std::string, int>& parts)
{
    // Tensors of a stack already: their parts are joined by a copy, since a tensor is in one stack
    // at most.
    const std::set<int> inStacks = tensorsInStacks(network);
    GapNetwork split = network;
    split.layers.clear();
    for (const GapLayer& layer : network.layers) {
        const auto found = parts.find(layer.name);
        if (found == parts.end() || layer.kind != GapLayerKind::Convolution) {
            split.layers.push_back(layer);
            continue;
        }
        const int features = layer.conv.outFeatures;
        const fixed_point::ConvPoolReluShape shape = fixed_point::convPoolReluOutputShape(layer.conv);
        GapLayer concat;
        concat.kind = GapLayerKind::Concat;
        concat.name = layer.name;
        concat.nodes = layer.nodes;
        concat.output = layer.output;
        concat.plane = shape.height * shape.width;
        // The parts write their features straight into the output (stacked_layers.h).
        concat.stacked = !inStacks.count(layer.output);
        for (int k = 0; k < found->second; ++k) {
            const int begin = partBegin(features, found->second, k), end = partBegin(features, found->second, k + 1);
            if (begin >= end)
                break;
            // Each part's output has the whole output's format: the join is a plain copy, or none.
            GapTensor output = network.tensors[size_t(layer.output)];
            output.name = layer.name + "_part" + std::to_string(k) + "_Out";
            output.source = kNoTensor;
            output.shape = {end - begin, shape.height, shape.width};
            output.elements = int64_t(end - begin) * shape.height * shape.width;
            split.tensors.push_back(output);
            GapLayer part = featureRun(layer, begin, end, int(split.tensors.size()) - 1);
            part.name = layer.name + "_part" + std::to_string(k);
            split.layers.push_back(std::move(part));
            concat.inputs.push_back(int(split.tensors.size()) - 1);
            concat.channels.push_back(end - begin);
            concat.inputScales.push_back({1, 0});
        }
        split.layers.push_back(std::move(concat));
    }
    return split;
}

}  // namespace tessera::gap
