#include "memory/lifetimes.h"

#include "ir/topology.h"

#include <algorithm>
#include <unordered_set>

namespace tessera {

namespace {

// Operators whose output element i depends only on input element i.
bool isElementwise(const std::string& op)
{
    static const std::unordered_set<std::string> ops = {
        "Relu", "LeakyRelu", "Clip", "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "Elu", "Selu", "Abs", "Neg",
        "Exp", "Log", "Sqrt", "Add", "Sub", "Mul", "Div", "Max", "Min", "Identity", "Dropout"};
    return ops.count(op) != 0;
}

} // namespace

GraphLifetimes computeLifetimes(const Graph& graph)
{
    GraphLifetimes result;
    result.schedule = topologicalOrder(graph);
    const auto steps = int64_t(result.schedule.size());
    const TensorUses uses = computeUses(graph);
    std::vector<int64_t> stepOf(graph.nodeCount(), 0);
    for (int64_t s = 0; s < steps; ++s)
        stepOf[size_t(result.schedule[size_t(s)])] = s;
    std::vector<bool> isOutput(graph.tensorCount(), false);
    for (TensorId id : graph.outputs)
        isOutput[size_t(id)] = true;

    for (size_t t = 0; t < graph.tensorCount(); ++t) {
        const Tensor& tensor = graph.tensors()[t];
        const bool used = uses.producer[t] >= 0 || !uses.consumers[t].empty() || isOutput[t];
        if (!used || !tensor.typed)
            continue;
        TensorLifetime life;
        life.tensor = TensorId(t);
        life.bytes = tensor.bytes();
        for (NodeId consumer : uses.consumers[t])
            life.uses.push_back(stepOf[size_t(consumer)]);
        std::sort(life.uses.begin(), life.uses.end());
        life.uses.erase(std::unique(life.uses.begin(), life.uses.end()), life.uses.end());
        if (tensor.constant) {
            if (life.uses.empty())
                continue;
            life.firstStep = life.uses.front();
            life.endStep = life.uses.back() + 1;
            result.constants.push_back(std::move(life));
            continue;
        }
        life.firstStep = uses.producer[t] >= 0 ? stepOf[size_t(uses.producer[t])] : 0;
        life.endStep = isOutput[t] ? steps : (life.uses.empty() ? life.firstStep + 1 : life.uses.back() + 1);
        life.endStep = std::max(life.endStep, life.firstStep + 1);
        result.activations.push_back(std::move(life));
    }

    std::vector<int64_t> lastUse(graph.tensorCount(), -1);
    for (const TensorLifetime& life : result.activations)
        lastUse[size_t(life.tensor)] = life.endStep - 1;
    std::vector<bool> isInput(graph.tensorCount(), false);
    for (TensorId id : graph.inputs)
        isInput[size_t(id)] = true;
    for (int64_t s = 0; s < steps; ++s) {
        const NodeId n = result.schedule[size_t(s)];
        const Node& node = graph.node(n);
        if (!isElementwise(node.opType) || node.outputs.size() != 1)
            continue;
        const TensorId out = node.outputs[0];
        for (TensorId in : node.inputs) {
            if (in == kNoTensor || graph.tensor(in).constant || isInput[size_t(in)] || isOutput[size_t(in)])
                continue;
            if (lastUse[size_t(in)] == s && graph.tensor(in).bytes() == graph.tensor(out).bytes()) {
                result.inPlace.push_back({n, in, out});
                break;
            }
        }
    }
    return result;
}

std::vector<ActivationBuffer> activationBuffers(const Graph& graph, const GraphLifetimes& lifetimes, int64_t alignment,
                                                bool mergeInPlace)
{
    std::vector<ActivationBuffer> buffers;
    std::vector<int64_t> bufferOf(graph.tensorCount(), -1);
    for (const TensorLifetime& life : lifetimes.activations) {
        bufferOf[size_t(life.tensor)] = int64_t(buffers.size());
        buffers.push_back({{graph.tensor(life.tensor).name, life.firstStep, life.endStep, life.bytes, alignment, std::nullopt},
                           {life.tensor}});
    }
    if (!mergeInPlace)
        return buffers;
    // Each output takes over its input's buffer; chains (a -> relu -> clip) collapse into one.
    std::vector<bool> merged(buffers.size(), false);
    for (const InPlaceCandidate& candidate : lifetimes.inPlace) {
        const int64_t from = bufferOf[size_t(candidate.input)];
        const int64_t into = bufferOf[size_t(candidate.output)];
        if (from < 0 || into < 0 || from == into)
            continue;
        ActivationBuffer& target = buffers[size_t(from)];
        ActivationBuffer& source = buffers[size_t(into)];
        target.buffer.upper = std::max(target.buffer.upper, source.buffer.upper);
        target.buffer.id += "+" + source.buffer.id;
        target.members.insert(target.members.end(), source.members.begin(), source.members.end());
        merged[size_t(into)] = true;
        for (TensorId member : source.members)
            bufferOf[size_t(member)] = from;
    }
    std::vector<ActivationBuffer> kept;
    for (size_t k = 0; k < buffers.size(); ++k)
        if (!merged[k])
            kept.push_back(std::move(buffers[k]));
    return kept;
}

} // namespace tessera
