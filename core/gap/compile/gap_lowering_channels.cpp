// Lowering of the channel copies: Concat, Split and Slice along channels, and the
// Reshape-Transpose-Reshape channel shuffle.
#include "gap/compile/gap_lowering_pass.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::gap::lowering {

// Concat along the channels of NCHW tensors (or of [1, N] vectors): a copy layer writing each
// input after the channels of the ones before it, which CHW order keeps contiguous. Along H or W,
// a copy layer joining the lines of its inputs.
void Lowering::lowerConcat(const Node& node)
{
    const Shape& first = graph_.tensor(node.inputs.at(0)).shape;
    const int64_t rank = int64_t(first.size());
    int64_t axis = node.attrInt("axis", 1);
    if (axis < 0)
        axis += rank;
    if (!(rank == 4 && axis >= 1 && axis <= 3) && !(rank == 2 && axis == 1))
        throw NodeProblem(fmt::format("only a concatenation along C, H or W of NCHW tensors, or of [1, N] vectors, "
                                      "maps onto a copy layer; this one joins axis {} of rank {} tensors",
                                      node.attrInt("axis", 1), rank));
    std::vector<int> inputs;
    std::vector<int> sizes;  // along the axis
    for (TensorId input : node.inputs) {
        const Shape& shape = graph_.tensor(input).shape;
        Shape other = shape, expected = first;
        if (shape.size() == first.size())
            other[size_t(axis)] = expected[size_t(axis)] = 0;
        if (other != expected)
            throw NodeProblem(fmt::format("input '{}' has shape {}, which differs from {} outside axis {}",
                                          graph_.tensor(input).name, shapeToString(shape), shapeToString(first), axis));
        inputs.push_back(activation(input));
        sizes.push_back(int(shape[size_t(axis)]));
    }
    GapLayer& layer = addLayer(GapLayerKind::Concat, node, inputs);
    layer.plane = rank == 4 ? int(first[2] * first[3]) : 1;
    layer.channels = std::move(sizes);
    if (axis == 2) {  // C lines of H_k x W values each
        layer.concatLines = int(first[1]);
        for (int& height : layer.channels)
            height *= int(first[3]);
    } else if (axis == 3) {  // C x H lines of W_k values each
        layer.concatLines = int(first[1] * first[2]);
    }
    finishLayer(layer, node.outputs.at(0));
}

// Channels [begin, begin + count) of an NCHW activation into `output`: a copy layer.
void Lowering::addSlice(const Node& node, TensorId input, int64_t begin, TensorId output, const std::string& name)
{
    const Shape& shape = graph_.tensor(input).shape;
    const int source = activation(input);
    GapLayer& layer = addLayer(GapLayerKind::Slice, node, {source});
    if (name != node.name)  // a Split's outputs after the first
        layer.name = uniqueLayerName(name);
    layer.plane = int(shape[2] * shape[3]);
    layer.channels = {int(shape[1])};
    layer.sliceBegin = int(begin);
    layer.sliceCount = int(graph_.tensor(output).shape.at(1));
    if (layer.sliceCount < 1 || begin + layer.sliceCount > shape[1])
        throw NodeProblem(fmt::format("channels {} to {} are not within the input's {}", begin,
                                      begin + layer.sliceCount - 1, shape[1]));
    finishLayer(layer, output);
}

void Lowering::requireChannelsOfNchw(const Shape& shape, int64_t axis, const char* what)
{
    if (shape.size() != 4 || (axis != 1 && axis != -3))
        throw NodeProblem(fmt::format("only a {} along the channels (axis 1) of an NCHW tensor maps onto a copy "
                                      "layer; this one takes axis {} of a rank {} tensor",
                                      what, axis, shape.size()));
}

// Split along channels, as PyTorch writes x.chunk(n, 1) or x.split(sizes, 1): one copy layer
// per output.
void Lowering::lowerSplit(const Node& node)
{
    const Shape& shape = graph_.tensor(node.inputs.at(0)).shape;
    requireChannelsOfNchw(shape, node.attrInt("axis", 0), "Split");
    std::vector<int64_t> sizes = node.attrInts("split", {});
    if (node.inputs.size() > 1 && node.inputs[1] != kNoTensor)
        sizes = constantInput(node, 1, "split").toInts();
    if (sizes.empty())
        for (TensorId output : node.outputs)
            sizes.push_back(graph_.tensor(output).shape.at(1));
    int64_t begin = 0;
    for (size_t k = 0; k < node.outputs.size() && k < sizes.size(); ++k) {
        addSlice(node, node.inputs[0], begin, node.outputs[k], k == 0 ? node.name : node.name + "_" + std::to_string(k));
        begin += sizes[k];
    }
}

// Slice of the channels only, step 1 (starts/ends/axes as inputs, opset 10 and later).
void Lowering::lowerSlice(const Node& node)
{
    const Shape& shape = graph_.tensor(node.inputs.at(0)).shape;
    if (node.inputs.size() < 3)
        throw NodeProblem("only Slice with starts and ends as inputs (opset 10 and later) is supported");
    const std::vector<int64_t> starts = constantInput(node, 1, "starts").toInts();
    std::vector<int64_t> axes(starts.size());
    for (size_t k = 0; k < axes.size(); ++k)
        axes[k] = int64_t(k);
    if (node.inputs.size() > 3 && node.inputs[3] != kNoTensor)
        axes = constantInput(node, 3, "axes").toInts();
    if (node.inputs.size() > 4 && node.inputs[4] != kNoTensor)
        for (int64_t step : constantInput(node, 4, "steps").toInts())
            if (step != 1)
                throw NodeProblem("only a Slice of step 1 maps onto a copy layer");
    if (axes.size() != 1)
        throw NodeProblem("only a Slice of one axis, the channels, maps onto a copy layer");
    requireChannelsOfNchw(shape, axes[0], "Slice");
    int64_t begin = starts.at(0);
    if (begin < 0)
        begin += shape[1];
    begin = std::clamp<int64_t>(begin, 0, shape[1]);
    addSlice(node, node.inputs[0], begin, node.outputs.at(0), node.name);
}

// ShuffleNet's channel shuffle as PyTorch writes it: Reshape [1, C, H, W] to [1, g, C/g, H, W],
// Transpose perm [0, 2, 1, 3, 4], Reshape back to [1, C, H, W]. Returns false (a plain view)
// for any other Reshape.
bool Lowering::lowerChannelShuffle(const Node& reshape)
{
    const Shape& in = graph_.tensor(reshape.inputs.at(0)).shape;
    const Shape& grouped = graph_.tensor(reshape.outputs.at(0)).shape;
    if (in.size() != 4 || grouped.size() != 5 || grouped[0] != in[0] || grouped[1] * grouped[2] != in[1] ||
        grouped[3] != in[2] || grouped[4] != in[3])
        return false;
    const auto transpose = soleConsumerOfType(reshape.outputs.at(0), {"Transpose"});
    if (!transpose || graph_.node(*transpose).attrInts("perm", {}) != std::vector<int64_t>{0, 2, 1, 3, 4})
        return false;
    const auto back = soleConsumerOfType(graph_.node(*transpose).outputs.at(0), {"Reshape"});
    if (!back || graph_.tensor(graph_.node(*back).outputs.at(0)).shape != in)
        return false;
    GapLayer& layer = addLayer(GapLayerKind::Shuffle, reshape, {activation(reshape.inputs.at(0))});
    layer.plane = int(in[2] * in[3]);
    layer.channels = {int(in[1])};
    layer.groups = int(grouped[1]);
    fuse(layer, *transpose);
    fuse(layer, *back);
    finishLayer(layer, graph_.node(*back).outputs.at(0));
    return true;
}

}  // namespace tessera::gap::lowering
