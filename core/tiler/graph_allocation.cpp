#include "tiler/graph_allocation.h"

#include "memory/memory_planner.h"

#include <algorithm>
#include <exception>

namespace tessera::tiler {
namespace {

constexpr std::uint64_t kAlignment = 4;

std::uint64_t alignTo(std::uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

// Bytes of a kernel argument in its home memory: every plane the kernel's dimensions give it.
std::uint64_t homeBytes(const UserKernel& kernel, const KernelArgument& arg)
{
    std::uint64_t planes = 1;
    if (arg.has(ArgFlag::FourD))
        planes = std::uint64_t(kernel.inPlanes) * kernel.outPlanes;
    else if (arg.has(ArgFlag::ThreeD))
        planes = arg.has(ArgFlag::Out) && !arg.has(ArgFlag::In) ? kernel.outPlanes : kernel.inPlanes;
    const std::uint64_t plane = std::uint64_t(arg.width) * arg.height * arg.itemSize;
    return plane * planes;
}

}  // namespace

const GraphTensor* GraphAllocation::find(const std::string& name) const
{
    for (const GraphTensor& tensor : tensors)
        if (tensor.name == name)
            return &tensor;
    return nullptr;
}

std::uint64_t graphSymbolBytes(const KernelModel& model, const GraphModel& graph, const std::string& name,
                               std::string* error)
{
    std::uint64_t bytes = 0;
    std::string decidedBy;
    for (const GraphNode& node : graph.nodes) {
        const UserKernel* kernel = model.findUserKernel(node.kernel);
        if (!kernel)
            continue;
        for (std::size_t i = 0; i < node.bindings.size() && i < kernel->cargs.size(); ++i) {
            if (node.bindings[i].symbol != name)
                continue;
            for (const KernelArgument& arg : kernel->args) {
                if (arg.cArgName != kernel->cargs[i].name)
                    continue;
                const std::uint64_t implied = homeBytes(*kernel, arg);
                if (bytes != 0 && implied != bytes) {
                    *error = "graph " + graph.name + ": " + name + " is " + std::to_string(bytes) + " bytes for " +
                             decidedBy + " but " + std::to_string(implied) + " bytes for node " + node.kernel +
                             " (argument " + arg.name + "); bind tensors of one size";
                    return 0;
                }
                bytes = implied;
                decidedBy = "node " + node.kernel + " (argument " + arg.name + ")";
            }
        }
    }
    if (bytes == 0)
        *error = "graph " + graph.name + ": the size of " + name +
                 " is unknown: no node binds it to a tiled kernel argument";
    return bytes;
}

GraphAllocation allocateGraph(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget)
{
    GraphAllocation allocation;
    std::vector<const GraphArgument*> symbols;
    for (const GraphArgument& argument : graph.arguments)
        symbols.push_back(&argument);
    for (const GraphArgument& argument : graph.locals)
        symbols.push_back(&argument);

    for (const GraphArgument* argument : symbols) {
        GraphTensor tensor;
        tensor.name = argument->carg.name;
        tensor.argument = argument;
        for (std::size_t n = 0; n < graph.nodes.size(); ++n)
            for (const GraphNodeBinding& binding : graph.nodes[n].bindings)
                if (binding.symbol == tensor.name) {
                    if (tensor.firstNode < 0)
                        tensor.firstNode = int(n);
                    tensor.lastNode = int(n);
                }
        if (tensor.firstNode >= 0) {
            tensor.bytes = graphSymbolBytes(model, graph, tensor.name, &allocation.error);
            if (tensor.bytes == 0)
                return allocation;
        }
        allocation.tensors.push_back(tensor);
    }

    // Constants, largest first (equal sizes in declaration order): one static block whose layout is
    // also the flash image's, so promotion is one copy per constant at construction.
    std::vector<GraphTensor*> constants;
    for (GraphTensor& tensor : allocation.tensors)
        if (tensor.argument->direction == GraphArgDirection::ConstIn && tensor.firstNode >= 0)
            constants.push_back(&tensor);
    std::stable_sort(constants.begin(), constants.end(),
                     [](const GraphTensor* a, const GraphTensor* b) { return a->bytes > b->bytes; });
    for (GraphTensor* constant : constants) {
        constant->placement = GraphTensor::Placement::L2Static;
        constant->offset = constant->flashOffset = allocation.l2Static;
        allocation.l2Static = alignTo(allocation.l2Static + constant->bytes);
        constant->reason = "constant promoted to L2 at construction (used by nodes " +
                           std::to_string(constant->firstNode) + " to " + std::to_string(constant->lastNode) + ")";
    }
    if (!constants.empty())
        allocation.l2Static = constants.back()->offset + constants.back()->bytes;
    allocation.flashBytes = allocation.l2Static;

    // Buffers between nodes: live from the node writing them to the last node reading them.
    std::vector<GraphTensor*> locals;
    std::vector<Buffer> buffers;
    for (GraphTensor& tensor : allocation.tensors) {
        if (tensor.argument->scope != GraphArgScope::Local || tensor.firstNode < 0)
            continue;
        locals.push_back(&tensor);
        Buffer buffer;
        buffer.id = tensor.name;
        buffer.lower = tensor.firstNode;
        buffer.upper = tensor.lastNode + 1;
        buffer.size = std::int64_t(tensor.bytes);
        buffer.alignment = std::int64_t(kAlignment);
        buffers.push_back(buffer);
    }
    if (!buffers.empty()) {
        PlanOptions options;
        options.minimize = true;
        options.timeoutSeconds = 2.0;
        PlanResult plan;
        try {
            plan = planMemory(buffers, options);
        } catch (const std::exception& error) {
            allocation.error = "graph " + graph.name + ": " + error.what();
            return allocation;
        }
        allocation.l2Dynamic = std::uint64_t(plan.peak);
        allocation.l2DynamicLowerBound = std::uint64_t(plan.lowerBound);
        for (std::size_t i = 0; i < locals.size(); ++i) {
            locals[i]->placement = GraphTensor::Placement::L2Dynamic;
            locals[i]->offset = std::uint64_t(plan.offsets[i]);
            locals[i]->reason = "between nodes " + std::to_string(locals[i]->firstNode) + " and " +
                                std::to_string(locals[i]->lastNode) + ", in the dynamic L2 block (" +
                                planStatusName(plan.status) + " plan, peak " + std::to_string(plan.peak) +
                                " bytes, lower bound " + std::to_string(plan.lowerBound) + ")";
        }
    }
    for (GraphTensor& tensor : allocation.tensors)
        if (tensor.placement == GraphTensor::Placement::Caller)
            tensor.reason = tensor.firstNode < 0 ? "not used by any node" : "graph argument: the caller provides it";

    const std::uint64_t needed = allocation.l2Static + allocation.l2Dynamic;
    if (needed > l2Budget) {
        allocation.error = "graph " + graph.name + ": needs " + std::to_string(needed) + " bytes of L2 (constants " +
                           std::to_string(allocation.l2Static) + ", buffers between nodes " +
                           std::to_string(allocation.l2Dynamic) + "), the L2 budget is " + std::to_string(l2Budget) +
                           "; raise the L2 budget (keeping constants in L3 is not available yet)";
        return allocation;
    }
    allocation.ok = true;
    return allocation;
}

}  // namespace tessera::tiler
