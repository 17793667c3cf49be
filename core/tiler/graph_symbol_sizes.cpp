#include "tiler/graph_symbol_sizes.h"

#include "base/error.h"

#include <algorithm>

namespace tessera::tiler {
namespace {

// The bytes one C argument of a node's function spans, as its kernel arguments imply, and which
// argument decided; 0 when none tells. A kernel group's C argument spans what its KerGroupArg says,
// else what its calls bind to it: the member's argument, moved by the call's offset
// (C_ArgPlusImmOffset, in the member argument's items, as the C pointer arithmetic of the SDK's
// generators, whose group and member types agree).
struct ImpliedBytes {
    std::uint64_t bytes = 0;
    std::string argument;
};

ImpliedBytes impliedCArgBytes(const std::unordered_map<std::string, const UserKernel*>& kernels,
                              const std::unordered_map<std::string, const KernelGroup*>& groups,
                              const std::string& function, const std::string& cargName)
{
    ImpliedBytes implied;
    if (const auto kernel = kernels.find(function); kernel != kernels.end()) {
        for (const KernelArgument& arg : kernel->second->args)
            if (arg.cArgName == cargName) {
                implied.bytes = std::max(implied.bytes, argumentHomeBytes(*kernel->second, arg));
                implied.argument = arg.name;
            }
        return implied;
    }
    const auto group = groups.find(function);
    if (group == groups.end())
        return implied;
    // Described by KerGroupArg: what one iteration uses, times the iterations that move it.
    for (const GroupArgument& argument : group->second->arguments)
        if (argument.cArgName == cargName) {
            implied.bytes = argument.bytesPerIteration * (argument.sameEachIteration ? 1 : group->second->iterations);
            implied.argument = "its KerGroupArg " + cargName;
            return implied;
        }
    for (const KernelCall& call : group->second->calls) {
        const auto member = kernels.find(call.callee);
        if (member == kernels.end())
            continue;
        for (std::size_t b = 0; b < call.bindings.size() && b < member->second->cargs.size(); ++b) {
            const Binding& binding = call.bindings[b];
            if (binding.kind != Binding::Kind::CArg || binding.name != cargName || binding.value < 0)
                continue;
            for (const KernelArgument& arg : member->second->args) {
                if (arg.cArgName != member->second->cargs[b].name)
                    continue;
                const std::uint64_t end = std::uint64_t(binding.value) * arg.itemSize + argumentHomeBytes(*member->second, arg);
                if (end > implied.bytes) {
                    implied.bytes = end;
                    implied.argument = call.callee + "'s " + arg.name;
                }
            }
        }
    }
    return implied;
}

}  // namespace

std::unordered_map<std::string, SymbolUse> graphSymbolUses(const KernelModel& model, const GraphModel& graph)
{
    std::unordered_map<std::string, const UserKernel*> kernels;
    for (const UserKernel& kernel : model.userKernels)
        kernels.emplace(kernel.name, &kernel);
    std::unordered_map<std::string, const KernelGroup*> groups;
    for (const KernelGroup& group : model.groups)
        groups.emplace(group.name, &group);
    std::unordered_map<std::string, SymbolUse> uses;
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        const GraphNode& node = graph.nodes[n];
        for (const GraphNodeBinding& binding : node.bindings) {
            if (!binding.bindsTensor())
                continue;  // a value or a constant: nothing the graph sizes or places
            SymbolUse& use = uses[binding.symbol];
            if (use.firstNode < 0)
                use.firstNode = int(n);
            use.lastNode = int(n);
        }
        const std::vector<CArgument>* cargs = nullptr;
        if (const auto kernel = kernels.find(node.kernel); kernel != kernels.end())
            cargs = &kernel->second->cargs;
        else if (const auto group = groups.find(node.kernel); group != groups.end())
            cargs = &group->second->cargs;
        if (cargs == nullptr)
            continue;
        for (std::size_t i = 0; i < node.bindings.size() && i < cargs->size(); ++i) {
            // A stacked member is a part of its symbol: the stack's sizes were checked when the graph was closed.
            if (!node.bindings[i].bindsTensor() || !node.bindings[i].stackMember.empty())
                continue;
            SymbolUse& use = uses[node.bindings[i].symbol];
            const ImpliedBytes implied = impliedCArgBytes(kernels, groups, node.kernel, (*cargs)[i].name);
            if (implied.bytes == 0 || !use.error.empty())
                continue;
            if (use.bytes != 0 && implied.bytes != use.bytes) {
                use.error = "graph " + graph.name + ": " + node.bindings[i].symbol + " is " + std::to_string(use.bytes) +
                            " bytes for " + use.decidedBy + " but " + std::to_string(implied.bytes) + " bytes for node " +
                            node.kernel + " (argument " + implied.argument + "); bind tensors of one size";
                continue;
            }
            use.bytes = implied.bytes;
            use.decidedBy = "node " + node.kernel + " (argument " + implied.argument + ")";
        }
    }
    return uses;
}

std::uint64_t symbolBytes(const GraphModel& graph, const std::string& name, const SymbolUse& use)
{
    if (!use.error.empty())
        throw ModelError(use.error);
    if (use.bytes == 0)
        throw ModelError("graph " + graph.name + ": the size of " + name +
                         " is unknown: no node binds it to a tiled kernel argument");
    return use.bytes;
}

}  // namespace tessera::tiler
