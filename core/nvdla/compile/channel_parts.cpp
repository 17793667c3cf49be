// Which channels of its input each output of a Slice, Split or Gather along the channels takes.
#include "nvdla/compile/legalization_passes.h"

#include <algorithm>

namespace tessera::nvdla {

namespace {

// One int64 of a constant input or an ints attribute; nullopt when it is neither a single constant.
std::optional<std::int64_t> singleBound(const Graph& graph, const Node& node, std::size_t input, const char* attribute)
{
    if (graph.opset < 10) {
        const std::vector<std::int64_t> values = node.attrInts(attribute, {});
        return values.size() == 1 ? std::optional(values[0]) : std::nullopt;
    }
    if (input >= node.inputs.size() || node.inputs[input] == kNoTensor)
        return std::nullopt;
    const Tensor& tensor = graph.tensor(node.inputs[input]);
    if (!tensor.isConstant() || tensor.elements() != 1)
        return std::nullopt;
    return tensor.constant->getInt(0);
}

// A Slice of the channels: the first channel and the count.
std::optional<std::pair<std::int64_t, std::int64_t>> channelSlice(const Graph& graph, const Node& node)
{
    if (node.opType != "Slice" || node.inputs.empty())
        return std::nullopt;
    const Shape& in = graph.tensor(node.inputs[0]).shape;
    if (in.size() != 4 || in[0] != 1)
        return std::nullopt;
    const auto axis = singleBound(graph, node, 3, "axes");
    if (!axis || (*axis != 1 && *axis != -3))
        return std::nullopt;
    if (graph.opset >= 10 && node.inputs.size() > 4 && node.inputs[4] != kNoTensor && singleBound(graph, node, 4, "") != 1)
        return std::nullopt;
    auto start = singleBound(graph, node, 1, "starts"), end = singleBound(graph, node, 2, "ends");
    if (!start || !end)
        return std::nullopt;
    const std::int64_t channels = in[1];
    const auto clampBound = [&](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + channels : v, 0, channels); };
    const std::int64_t first = clampBound(*start), last = clampBound(*end);
    if (last <= first)
        return std::nullopt;
    return std::pair{first, last - first};
}

}  // namespace

std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> channelParts(const Graph& graph, const Node& node)
{
    if (node.opType == "Slice") {
        const auto slice = channelSlice(graph, node);
        if (!slice)
            return std::nullopt;
        return std::vector{*slice};
    }
    if (node.opType != "Split" || node.inputs.empty())
        return std::nullopt;
    const Shape& in = graph.tensor(node.inputs[0]).shape;
    std::int64_t axis = node.attrInt("axis", 0);
    if (axis < 0)
        axis += std::int64_t(in.size());
    if (in.size() != 4 || in[0] != 1 || axis != 1)
        return std::nullopt;
    std::vector<std::pair<std::int64_t, std::int64_t>> parts;
    std::int64_t first = 0;
    for (TensorId output : node.outputs) {
        const Shape& shape = graph.tensor(output).shape;
        if (shape.size() != 4 || shape[1] < 1)
            return std::nullopt;
        parts.push_back({first, shape[1]});
        first += shape[1];
    }
    if (first != in[1])
        return std::nullopt;
    return parts;
}

std::optional<std::vector<std::int64_t>> channelPermutation(const Graph& graph, const Node& node)
{
    if (node.opType != "Gather" || node.inputs.size() != 2)
        return std::nullopt;
    const Shape& in = graph.tensor(node.inputs[0]).shape;
    const Tensor& indices = graph.tensor(node.inputs[1]);
    std::int64_t axis = node.attrInt("axis", 0);
    if (axis < 0)
        axis += std::int64_t(in.size());
    if (in.size() != 4 || in[0] != 1 || axis != 1 || !indices.isConstant() || indices.shape.size() != 1 ||
        indices.shape[0] != in[1])
        return std::nullopt;
    std::vector<std::int64_t> order;
    std::vector<bool> seen(std::size_t(in[1]), false);
    for (std::int64_t c : indices.constant->toInts()) {
        if (c < 0)
            c += in[1];
        if (c < 0 || c >= in[1] || seen[std::size_t(c)])
            return std::nullopt;
        seen[std::size_t(c)] = true;
        order.push_back(c);
    }
    return order;
}

}  // namespace tessera::nvdla
