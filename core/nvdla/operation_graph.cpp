#include "nvdla/operation_graph.h"

#include "nvdla/loadable_contents.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace tessera::nvdla {

namespace {

// One task's operations as nodes: their output tensors, and for each operation the indices of
// the operations it waits for.
struct TaskNodes {
    std::vector<Node> nodes;
    std::vector<std::set<std::size_t>> waitsFor;
};

TaskNodes dlaTaskNodes(const Loadable& loadable, const TaskEntry& task, Graph& graph)
{
    const DlaTaskView view = decodeDlaTask(loadable, task);
    TaskNodes result;
    result.waitsFor.resize(view.operations.size());
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const DlaOp type = view.operations[i].type;
        Tensor output;
        output.name = fmt::format("task {} op {} output", task.id, i);
        const ConstRecord surface = view.surface(i);
        const auto& cubes = view.interface->cubes.at(type);
        if (std::find(cubes.begin(), cubes.end(), std::string("dst_data")) != cubes.end()) {
            output.shape = {1, surface.get("dst_data.channel"), surface.get("dst_data.height"),
                            surface.get("dst_data.width")};
            output.typed = true;
        }
        Node node;
        node.name = fmt::format("task {} op {}", task.id, i);
        node.opType = dlaOpName(type);
        node.outputs = {graph.addTensor(std::move(output))};
        result.nodes.push_back(std::move(node));
        const ConstRecord common = view.common(i);
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit) {
            const std::int64_t consumer = common.get(fmt::format("consumers[{}].index", unit));
            if (consumer >= 0 && std::size_t(consumer) < view.operations.size() && std::size_t(consumer) != i)
                result.waitsFor[std::size_t(consumer)].insert(i);
        }
        const std::int64_t parent = common.get("fused_parent.index");
        if (parent >= 0 && std::size_t(parent) < view.operations.size() && std::size_t(parent) != i)
            result.waitsFor[i].insert(std::size_t(parent));
    }
    return result;
}

TaskNodes emuTaskNodes(const Loadable& loadable, const TaskEntry& task, Graph& graph)
{
    const EmuTaskView view = decodeEmuTask(loadable, task);
    TaskNodes result;
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const ConstRecord destination = view.destination(i);
        Tensor output;
        output.name = fmt::format("task {} op {} output", task.id, i);
        output.shape = {1, destination.get("channel"), destination.get("height"), destination.get("width")};
        output.typed = true;
        Node node;
        node.name = fmt::format("task {} op {}", task.id, i);
        node.opType = view.operations[i].opType == kEmuOpSoftmax ? "EMU SOFTMAX" : "EMU POWER";
        node.outputs = {graph.addTensor(std::move(output))};
        result.nodes.push_back(std::move(node));
        // The emulator runs its operations in order.
        result.waitsFor.push_back(i == 0 ? std::set<std::size_t>{} : std::set<std::size_t>{i - 1});
    }
    return result;
}

}  // namespace

Graph operationGraph(const Loadable& loadable)
{
    Graph graph;
    graph.name = "loadable";
    Tensor start;
    start.name = "submit";
    const TensorId submitted = graph.addTensor(std::move(start));
    graph.inputs.push_back(submitted);
    std::vector<TensorId> previousTaskEnds = {submitted};
    std::set<std::uint16_t> seen;
    for (const SubmitEntry& submit : loadable.submits)
        for (std::uint16_t id : submit.taskIds) {
            if (id >= loadable.tasks.size() || !seen.insert(id).second)
                continue;
            const TaskEntry& task = loadable.tasks[id];
            TaskNodes nodes;
            if (task.interface == kInterfaceDla1)
                nodes = dlaTaskNodes(loadable, task, graph);
            else if (task.interface == kInterfaceEmu1)
                nodes = emuTaskNodes(loadable, task, graph);
            else
                continue;
            // Operations nothing in the task waits for end it; the next task waits for them.
            std::vector<bool> awaited(nodes.nodes.size(), false);
            for (std::size_t i = 0; i < nodes.nodes.size(); ++i) {
                for (std::size_t producer : nodes.waitsFor[i]) {
                    nodes.nodes[i].inputs.push_back(nodes.nodes[producer].outputs[0]);
                    awaited[producer] = true;
                }
                if (nodes.waitsFor[i].empty())
                    nodes.nodes[i].inputs = previousTaskEnds;
            }
            std::vector<TensorId> ends;
            for (std::size_t i = 0; i < nodes.nodes.size(); ++i)
                if (!awaited[i])
                    ends.push_back(nodes.nodes[i].outputs[0]);
            for (Node& node : nodes.nodes)
                graph.addNode(std::move(node));
            if (!ends.empty())
                previousTaskEnds = ends;
        }
    graph.outputs = previousTaskEnds;
    return graph;
}

}  // namespace tessera::nvdla
