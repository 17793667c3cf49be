// depth-to-space-order: DepthToSpace in CRD order (PyTorch's PixelShuffle) reads channel c*b*b + phase;
// RUBIK's contract reads phase*C + c (DCR). When a convolution writes the input for this
// DepthToSpace alone (through pointwise activations), its output channels are reordered so that the
// DCR order gives the same result.
//
// channel-shuffle: Reshape [1,C,H,W] -> [1,g,C/g,H,W], Transpose [0,2,1,3,4], Reshape back (the
// channel shuffle as exporters write it) becomes one Gather of the channels with the permutation as
// constant indices: still ONNX, and one operation to map (RUBIK and BDMA move the channels).
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <numeric>

namespace tessera::nvdla {

namespace {

// Activations that act on each element alone: a channel order passes through them unchanged.
bool isPointwise(const Node& node)
{
    return node.inputs.size() == 1 && node.outputs.size() == 1 &&
           (node.opType == "Relu" || node.opType == "Clip" || node.opType == "Sigmoid" || node.opType == "Tanh" ||
            node.opType == "LeakyRelu");
}

// `values` [K, ...] with its first dimension in the order of `order` (new k takes old order[k]).
TensorData permuteFirstDimension(const TensorData& values, const std::vector<std::int64_t>& order)
{
    TensorData result = values;
    const std::int64_t perItem = values.elements() / values.shape().at(0);
    for (std::size_t k = 0; k < order.size(); ++k)
        for (std::int64_t i = 0; i < perItem; ++i)
            result.setDouble(std::int64_t(k) * perItem + i, values.getDouble(order[k] * perItem + i));
    return result;
}

}  // namespace

void depthToSpaceOrderPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node node = graph.node(NodeId(n));
        if (node.opType != "DepthToSpace" || node.attrString("mode", "DCR") != "CRD")
            continue;
        // Back through single-reader pointwise activations to the convolution.
        TensorId tensor = node.inputs[0];
        std::optional<NodeId> producer = producerOf(graph, tensor);
        while (producer && isPointwise(graph.node(*producer)) && soleConsumer(graph, tensor)) {
            tensor = graph.node(*producer).inputs[0];
            producer = producerOf(graph, tensor);
        }
        if (!producer || !soleConsumer(graph, tensor))
            continue;
        Node& conv = graph.node(*producer);
        if (conv.opType != "Conv" || conv.attrInt("group", 1) != 1 || !graph.tensor(conv.inputs[1]).isConstant() ||
            (conv.inputs.size() > 2 && conv.inputs[2] != kNoTensor && !graph.tensor(conv.inputs[2]).isConstant()))
            continue;
        const std::int64_t b = node.attrInt("blocksize", 1), kernels = graph.tensor(conv.inputs[1]).shape.at(0);
        if (b < 1 || kernels % (b * b) != 0)
            continue;
        // New channel phase*C + c takes old channel c*b*b + phase.
        const std::int64_t channels = kernels / (b * b);
        std::vector<std::int64_t> order(static_cast<std::size_t>(kernels), 0);
        for (std::int64_t phase = 0; phase < b * b; ++phase)
            for (std::int64_t c = 0; c < channels; ++c)
                order[std::size_t(phase * channels + c)] = c * b * b + phase;
        conv.inputs[1] = addConstant(graph, conv.name + "_dcr_weight",
                                     permuteFirstDimension(*graph.tensor(conv.inputs[1]).constant, order));
        if (conv.inputs.size() > 2 && conv.inputs[2] != kNoTensor)
            conv.inputs[2] = addConstant(graph, conv.name + "_dcr_bias",
                                         permuteFirstDimension(*graph.tensor(conv.inputs[2]).constant, order));
        graph.node(NodeId(n)).attributes["mode"] = Attribute::ofString("DCR");
        log.add("depth-to-space-order", conv.name,
                fmt::format("output channels reordered for DepthToSpace '{}' in DCR order", node.name));
        log.add("depth-to-space-order", node.name,
                fmt::format("CRD order made DCR by reordering the output channels of Conv '{}'", conv.name));
    }
}

void channelShufflePass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    std::vector<bool> remove(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node split = graph.node(NodeId(n));
        if (split.opType != "Reshape" || remove[n])
            continue;
        const Shape in = graph.tensor(split.inputs[0]).shape;
        const Shape grouped = graph.tensor(split.outputs[0]).shape;
        if (in.size() != 4 || in[0] != 1 || grouped.size() != 5 || grouped[0] != 1 || grouped[3] != in[2] ||
            grouped[4] != in[3] || grouped[1] * grouped[2] != in[1])
            continue;
        const auto transpose = soleConsumer(graph, split.outputs[0]);
        if (!transpose || graph.node(*transpose).opType != "Transpose" ||
            graph.node(*transpose).attrInts("perm", {}) != std::vector<std::int64_t>{0, 2, 1, 3, 4})
            continue;
        const TensorId transposed = graph.node(*transpose).outputs[0];
        const auto join = soleConsumer(graph, transposed);
        if (!join || graph.node(*join).opType != "Reshape" || graph.tensor(graph.node(*join).outputs[0]).shape != in)
            continue;
        // Output channel i*g + a is input channel a*(C/g) + i.
        const std::int64_t groups = grouped[1], perGroup = grouped[2];
        std::vector<std::int64_t> order(static_cast<std::size_t>(in[1]), 0);
        for (std::int64_t a = 0; a < groups; ++a)
            for (std::int64_t i = 0; i < perGroup; ++i)
                order[std::size_t(i * groups + a)] = a * perGroup + i;
        const std::string name = graph.node(*join).name;
        const TensorId output = graph.node(*join).outputs[0];
        const TensorId indices =
            addConstant(graph, name + "_channel_order", TensorData::fromInts(DType::Int64, {in[1]}, order));
        Node gather;
        gather.name = name + "_channel_shuffle";
        gather.opType = "Gather";
        gather.inputs = {split.inputs[0], indices};
        gather.outputs = {output};
        gather.attributes["axis"] = Attribute::ofInt(1);
        remove[n] = remove[std::size_t(*transpose)] = remove[std::size_t(*join)] = true;
        for (const std::string& removed : {split.name, graph.node(*transpose).name, name})
            log.addRemoved("channel-shuffle", removed, gather.name, "part of the channel shuffle '" + gather.name + "'");
        log.add("channel-shuffle", gather.name,
                fmt::format("Reshape '{}', Transpose '{}' and Reshape '{}' (a shuffle of {} groups of {} channels) as "
                            "one Gather of the channels",
                            split.name, graph.node(*transpose).name, name, groups, perGroup));
        graph.addNode(std::move(gather));
        remove.push_back(false);
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
