#include "interp/interpreter.h"

#include "interp/kernel.h"
#include "base/error.h"
#include "ir/shape_inference.h"
#include "ir/topology.h"

#include <optional>

namespace tessera {

namespace {

// The largest value the interpreter computes: what a tensor file (a protobuf message) can hold. A
// model whose node would make more (a Tile or Expand gone wild) is refused before the allocation.
constexpr double kLargestValueBytes = double(int64_t(1) << 31);

void requireHoldable(const Node& node, size_t output, const TensorType& type)
{
    const double bytes = double(elementCount(type.shape)) * double(dtypeSize(type.dtype));
    if (bytes > kLargestValueBytes)
        throw UnsupportedError(node.describe() + ": output " + std::to_string(output) + " would be " +
                               std::string(dtypeName(type.dtype)) + " " + shapeToString(type.shape) + ", " +
                               std::to_string(int64_t(bytes / double(1 << 20))) +
                               " MB, beyond the 2048 MB the reference interpreter holds per value (what a tensor "
                               "file can store); reduce the shapes that lead to it");
}

}  // namespace

Interpreter::Interpreter(const Graph& graph) : graph_(graph), order_(topologicalOrder(graph))
{
    for (NodeId n : order_) {
        const Node& node = graph.node(n);
        if (!hasKernel(node.opType) || !isKnownOperator(node.opType))
            throw UnsupportedError("unsupported operator " + node.opType + " (opset " +
                                   std::to_string(graph.opset) + ") at node '" + node.name + "'");
    }
}

std::vector<TensorData> Interpreter::run(const std::vector<TensorData>& inputs,
                                         const StepObserver& observer) const
{
    if (inputs.size() != graph_.inputs.size())
        throw ShapeError("graph '" + graph_.name + "' has " + std::to_string(graph_.inputs.size()) +
                         " inputs, " + std::to_string(inputs.size()) + " were given");

    // Values by tensor id; constants are read from the graph without copying.
    std::vector<std::optional<TensorData>> values(graph_.tensorCount());
    auto valueOf = [&](TensorId id) -> const TensorData* {
        const Tensor& tensor = graph_.tensor(id);
        if (tensor.constant)
            return tensor.constant.get();
        return values[static_cast<size_t>(id)] ? &*values[static_cast<size_t>(id)] : nullptr;
    };

    for (size_t k = 0; k < inputs.size(); ++k) {
        const Tensor& declared = graph_.tensor(graph_.inputs[k]);
        if (declared.typed && (inputs[k].dtype() != declared.dtype || inputs[k].shape() != declared.shape))
            throw ShapeError("input '" + declared.name + "' expects " +
                             std::string(dtypeName(declared.dtype)) + " " + shapeToString(declared.shape) +
                             ", got " + std::string(dtypeName(inputs[k].dtype())) + " " +
                             shapeToString(inputs[k].shape()));
        values[static_cast<size_t>(graph_.inputs[k])] = inputs[k];
    }

    // Free each intermediate value after its last consumer has run.
    const TensorUses uses = computeUses(graph_);
    std::vector<size_t> remainingUses(graph_.tensorCount(), 0);
    for (size_t t = 0; t < graph_.tensorCount(); ++t)
        remainingUses[t] = uses.consumers[t].size();
    std::vector<bool> isOutput(graph_.tensorCount(), false);
    for (TensorId id : graph_.outputs)
        isOutput[static_cast<size_t>(id)] = true;

    for (size_t step = 0; step < order_.size(); ++step) {
        const Node& node = graph_.node(order_[step]);
        std::vector<InputInfo> infos;
        std::vector<const TensorData*> inputValues;
        for (size_t k = 0; k < node.inputs.size(); ++k) {
            InputInfo info;
            const TensorData* value = nullptr;
            if (node.inputs[k] != kNoTensor) {
                value = valueOf(node.inputs[k]);
                if (!value)
                    throw ModelError(node.describe() + ": input '" + graph_.tensor(node.inputs[k]).name +
                                     "' has no value (not an input, constant or node output)");
                info.present = true;
                info.dtype = value->dtype();
                info.shape = value->shape();
                info.value = value;
            }
            infos.push_back(std::move(info));
            inputValues.push_back(value);
        }
        const std::vector<TensorType> types = inferNode(node, infos, graph_.opset);
        // Kernels see as many outputs as the node asks for; optional trailing ones are skipped.
        std::vector<TensorData> outputs;
        outputs.reserve(node.outputs.size());
        for (size_t k = 0; k < node.outputs.size(); ++k) {
            requireHoldable(node, k, types[k]);
            outputs.emplace_back(types[k].dtype, types[k].shape);
        }

        KernelContext context{node, graph_.opset, inputValues, outputs};
        kernels().at(node.opType)(context);
        if (observer)
            observer(step, node, outputs);

        for (size_t k = 0; k < node.outputs.size(); ++k)
            values[static_cast<size_t>(node.outputs[k])] = std::move(outputs[k]);
        for (size_t k = 0; k < node.inputs.size(); ++k) {
            const TensorId id = node.inputs[k];
            bool seenBefore = false; // a node that reads a tensor twice counts as one use
            for (size_t j = 0; j < k; ++j)
                seenBefore = seenBefore || node.inputs[j] == id;
            if (id != kNoTensor && !seenBefore && --remainingUses[static_cast<size_t>(id)] == 0 &&
                !isOutput[static_cast<size_t>(id)])
                values[static_cast<size_t>(id)].reset();
        }
    }

    std::vector<TensorData> results;
    for (TensorId id : graph_.outputs) {
        const TensorData* value = valueOf(id);
        if (!value)
            throw ModelError("graph output '" + graph_.tensor(id).name + "' is never computed");
        results.push_back(*value);
    }
    return results;
}

} // namespace tessera
