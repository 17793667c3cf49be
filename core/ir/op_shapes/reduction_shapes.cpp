// Shape rules of the reductions ReduceSum, ReduceMean, ReduceMax, ReduceMin, ReduceProd, ReduceL1,
// ReduceL2, ReduceLogSum, ReduceLogSumExp and ReduceSumSquare.
#include "ir/op_shapes/op_shapes.h"
#include "ir/op_shapes/reduction_axes.h"
#include "ir/op_shapes/rule_helpers.h"

#include "base/error.h"

#include <string>

namespace tessera {

namespace {

using namespace rules;

const char* const kReductions[] = {"ReduceSum", "ReduceMean",   "ReduceMax",      "ReduceMin",
                                   "ReduceProd", "ReduceL1",    "ReduceL2",       "ReduceLogSum",
                                   "ReduceLogSumExp", "ReduceSumSquare"};

std::vector<TensorType> reductionRule(const InferContext& ctx)
{
    requireType(ctx, 0, kNumeric);
    const TensorData* axes = nullptr;
    if (ctx.hasInput(1)) {
        ctx.require(ctx.opset() >= reductionAxesInputOpset(ctx.node().opType),
                    "takes its axes from an attribute before opset " +
                        std::to_string(reductionAxesInputOpset(ctx.node().opType)) + ", not from an input");
        axes = &ctx.constant(1, "axes");
    }
    const std::vector<bool> reduced = reducedAxes(ctx.node(), ctx.opset(), ctx.shape(0), axes);
    const bool keepDims = ctx.node().attrInt("keepdims", 1) != 0;
    Shape out;
    for (size_t d = 0; d < reduced.size(); ++d) {
        if (!reduced[d])
            out.push_back(ctx.shape(0)[d]);
        else if (keepDims)
            out.push_back(1);
    }
    return {{ctx.dtype(0), out}};
}

} // namespace

int64_t reductionAxesInputOpset(const std::string& opType) { return opType == "ReduceSum" ? 13 : 18; }

std::vector<bool> reducedAxes(const Node& node, int64_t opset, const Shape& shape, const TensorData* axesInput)
{
    const bool fromInput = opset >= reductionAxesInputOpset(node.opType);
    const std::vector<int64_t> axes = fromInput ? (axesInput ? axesInput->toInts() : std::vector<int64_t>())
                                                : node.attrInts("axes");
    const int64_t rank = static_cast<int64_t>(shape.size());
    if (axes.empty()) {
        const bool noop = fromInput && node.attrInt("noop_with_empty_axes", 0) != 0;
        return std::vector<bool>(shape.size(), !noop);
    }
    std::vector<bool> reduced(shape.size(), false);
    for (int64_t axis : axes) {
        const int64_t a = normalizeAxis(axis, rank, node.describe() + " axes");
        if (reduced[static_cast<size_t>(a)])
            throw ShapeError(node.describe() + ": axis " + std::to_string(axis) + " is listed twice in axes");
        reduced[static_cast<size_t>(a)] = true;
    }
    return reduced;
}

void registerReductionShapes(ShapeRuleTable& rules)
{
    for (const char* op : kReductions)
        rules[op] = reductionRule;
}

} // namespace tessera
