#include "ir/node_cost.h"

namespace tessera {

namespace {

int64_t product(const Shape& shape, size_t from = 0)
{
    int64_t result = 1;
    for (size_t k = from; k < shape.size(); ++k)
        result *= shape[k];
    return result;
}

} // namespace

int64_t nodeMacs(const Graph& graph, const Node& node)
{
    auto shapeOf = [&](size_t k) -> const Shape& { return graph.tensor(node.inputs.at(k)).shape; };
    if (node.outputs.empty() || node.inputs.size() < 2)
        return 0;
    const Shape& out = graph.tensor(node.outputs.front()).shape;
    if (node.opType == "Conv") {
        // Every output element sums over in_channels/group x kernel window.
        return elementCount(out) * product(shapeOf(1), 1);
    }
    if (node.opType == "ConvTranspose") {
        // Every input element scatters into out_channels/group x kernel window.
        const Shape& w = shapeOf(1);
        return elementCount(shapeOf(0)) * product(w, 1);
    }
    if (node.opType == "Gemm") {
        const Shape& a = shapeOf(0);
        if (a.size() != 2)
            return 0;
        const int64_t k = node.attrInt("transA", 0) ? a[0] : a[1];
        return elementCount(out) * k;
    }
    if (node.opType == "MatMul") {
        const Shape& a = shapeOf(0);
        return a.empty() ? 0 : elementCount(out) * a.back();
    }
    return 0;
}

} // namespace tessera
