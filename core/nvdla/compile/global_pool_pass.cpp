// global-pool: GlobalAveragePool / GlobalMaxPool and ReduceMean / ReduceMax over H and W (the global
// pool as PyTorch exports it) become AveragePool / MaxPool with the whole plane as window. PDP's
// windows are at most 8 x 8, so a larger plane is pooled in steps whose windows tile it exactly
// (14 x 14: 7 x 7 then 2 x 2); the mean of equal blocks' means is the mean.
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::nvdla {

namespace {

// Factors of `n`, each at most `most`, largest first; empty when none exist (a prime above `most`).
std::vector<std::int64_t> windowSteps(std::int64_t n, std::int64_t most)
{
    std::vector<std::int64_t> steps;
    while (n > most) {
        std::int64_t factor = 0;
        for (std::int64_t f = most; f >= 2; --f)
            if (n % f == 0) {
                factor = f;
                break;
            }
        if (factor == 0)
            return {};
        steps.push_back(factor);
        n /= factor;
    }
    steps.push_back(n);
    return steps;
}

bool reducesOverPlane(const Graph& graph, const Node& node)
{
    std::vector<std::int64_t> axes = node.attrInts("axes");
    if (axes.empty() && node.inputs.size() > 1 && node.inputs[1] != kNoTensor && graph.tensor(node.inputs[1]).isConstant())
        axes = graph.tensor(node.inputs[1]).constant->toInts();
    for (std::int64_t& axis : axes)
        if (axis < 0)
            axis += 4;
    std::sort(axes.begin(), axes.end());
    return axes == std::vector<std::int64_t>{2, 3};
}

}  // namespace

void globalPoolPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log)
{
    // Nodes added below lie past `remove`'s end and so are kept.
    std::vector<bool> remove(graph.nodeCount(), false);
    const std::size_t originalCount = graph.nodeCount();
    for (std::size_t n = 0; n < originalCount; ++n) {
        const Node node = graph.node(NodeId(n));
        const bool average = node.opType == "GlobalAveragePool" || node.opType == "ReduceMean";
        const bool maximum = node.opType == "GlobalMaxPool" || node.opType == "ReduceMax";
        if (!average && !maximum)
            continue;
        const Shape& shape = graph.tensor(node.inputs.at(0)).shape;
        if (shape.size() != 4 || shape[0] != 1)
            continue;
        const bool reduce = node.opType.rfind("Reduce", 0) == 0;
        if (reduce && !reducesOverPlane(graph, node))
            continue;
        const bool keepDims = !reduce || node.attrInt("keepdims", 1) != 0;
        const std::vector<std::int64_t> rows = windowSteps(shape[2], config.pdpMaxKernel);
        const std::vector<std::int64_t> columns = windowSteps(shape[3], config.pdpMaxKernel);
        if (rows.empty() || columns.empty()) {
            log.add("global-pool", node.name,
                    fmt::format("left as is: a {}x{} plane does not split into pooling windows of at most {}", shape[2],
                                shape[3], config.pdpMaxKernel));
            continue;
        }
        const std::size_t steps = std::max(rows.size(), columns.size());
        TensorId current = node.inputs[0];
        std::string described;
        for (std::size_t s = 0; s < steps; ++s) {
            const std::int64_t kh = s < rows.size() ? rows[s] : 1, kw = s < columns.size() ? columns[s] : 1;
            const bool last = s + 1 == steps;
            TensorId output;
            if (last && keepDims) {
                output = node.outputs[0];
            } else {
                output = addTensor(graph, node.name + (last ? "_pooled" : fmt::format("_step{}", s)));
            }
            Node pool;
            pool.name = steps == 1 ? node.name : fmt::format("{}_step{}", node.name, s);
            pool.opType = average ? "AveragePool" : "MaxPool";
            pool.inputs = {current};
            pool.outputs = {output};
            pool.attributes["kernel_shape"] = Attribute::ofInts({kh, kw});
            pool.attributes["strides"] = Attribute::ofInts({kh, kw});
            graph.addNode(pool);
            described += fmt::format("{}{}x{}", described.empty() ? "" : " then ", kh, kw);
            current = output;
        }
        if (!keepDims)
            addReshape(graph, node.name + "_squeeze", current, {1, shape[1]}, node.outputs[0]);
        remove[n] = true;
        log.add("global-pool", node.name,
                fmt::format("{} over {}x{} as {} pooling {}", node.opType, shape[2], shape[3], average ? "average" : "max",
                            described));
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
