// The graph calls of the model API: CreateGraph() with its TCArgInfo() symbols and ConstInfo()
// constants, AddNode() with GNodeArg(), GNodeCArg() and Imm() bindings, CloseGraph(). Each stops at
// once on what it can see alone (values out of range, NULL names, duplicate symbols, calls out of
// sequence); what needs the whole model (kernels named by nodes, binding counts, directions) is
// left to checkModel().
#include "AutoTilerLib.h"
#include "builder_support.h"

#include <algorithm>
#include <cstdarg>
#include <map>
#include <set>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

std::string quoted(const std::string& name)
{
    return "\"" + name + "\"";
}

tiler::MemoryLocation memoryLocationOf(int value, const std::string& context, const char* role)
{
    if (value < int(AT_MEM_UNDEF) || value > int(AT_MEM_L3_DEFAULTFLASH))
        failModel(format("%s: %s location %d is not an AT_MEM_* value; use AT_MEM_UNDEF to let the tiler choose",
                         context.c_str(), role, value));
    return tiler::MemoryLocation(value);
}

// The SDK numbers ArgDirection_T and GNodeArgDirection_T from an UNDEF value; the tiler's
// enumerations have no such value, so each is translated by name.
tiler::GraphArgDirection symbolDirectionOf(ArgDirection_T direction, const std::string& context)
{
    switch (direction) {
    case ARG_DIR_IN: return tiler::GraphArgDirection::In;
    case ARG_DIR_CONSTIN: return tiler::GraphArgDirection::ConstIn;
    case ARG_DIR_OUT: return tiler::GraphArgDirection::Out;
    case ARG_DIR_INOUT: return tiler::GraphArgDirection::InOut;
    default:
        failModel(format("%s: direction %d is not ARG_DIR_IN, ARG_DIR_CONSTIN, ARG_DIR_OUT or ARG_DIR_INOUT",
                         context.c_str(), int(direction)));
    }
}

tiler::GraphNodeBinding::Direction nodeDirectionOf(int direction, const std::string& context)
{
    switch (direction) {
    case GNA_IN: return tiler::GraphNodeBinding::Direction::In;
    case GNA_OUT: return tiler::GraphNodeBinding::Direction::Out;
    case GNA_INOUT: return tiler::GraphNodeBinding::Direction::InOut;
    default:
        failModel(format("%s: direction %d is not GNA_IN, GNA_OUT or GNA_INOUT", context.c_str(), direction));
    }
}

// The symbols of one CreateGraph list. A plain TCArg() becomes an in-out symbol of the list's scope.
std::vector<tiler::GraphArgument> symbolsOf(CKernel_Arg_T** list, const std::string& graphName, bool localsList)
{
    const std::string context = "CreateGraph(" + quoted(graphName) + ")";
    const char* listName = localsList ? "second list (locals)" : "first list (arguments and globals)";
    std::vector<tiler::GraphArgument> symbols;
    for (const CKernel_Arg_T* item : listItems(list, context + ": " + listName, "symbol")) {
        tiler::GraphArgument symbol;
        if (item->graphSymbol) {
            symbol = *item->graphSymbol;
        } else {
            symbol.carg = item->value;
            symbol.scope = localsList ? tiler::GraphArgScope::Local : tiler::GraphArgScope::Argument;
            symbol.direction = tiler::GraphArgDirection::InOut;
        }
        const bool isLocal = symbol.scope == tiler::GraphArgScope::Local;
        if (isLocal != localsList)
            failModel(context + ": symbol " + symbol.carg.name + " is " + tiler::graphArgScopeName(symbol.scope)
                      + " but is in the " + listName + "; "
                      + (localsList ? "move it to the first list or make it ARG_SCOPE_LOCAL"
                                    : "move it to the second list or make it ARG_SCOPE_ARG, ARG_SCOPE_ARG_ALLOC or "
                                      "ARG_SCOPE_GLOBAL"));
        symbols.push_back(std::move(symbol));
    }
    return symbols;
}

void requireUniqueSymbols(const tiler::GraphModel& graph)
{
    std::set<std::string> seen;
    for (const std::vector<tiler::GraphArgument>* list : {&graph.arguments, &graph.locals})
        for (const tiler::GraphArgument& symbol : *list)
            if (!seen.insert(symbol.carg.name).second)
                failModel("CreateGraph(" + quoted(graph.name) + "): symbol " + symbol.carg.name
                          + " is declared twice; the arguments, globals and locals of a graph need unique names");
}

tiler::GraphModel& openGraph(const std::string& caller)
{
    ModelRegistry& state = registry();
    if (!state.openGraph)
        failModel(caller + ": no graph is open; call CreateGraph(\"Name\", CArgs(...), CArgs(...)) first");
    return state.model.graphs[*state.openGraph];
}

// The bytes a node's binding `b` gives a stacked member: those of the kernel argument it is bound to.
std::uint64_t memberBytes(const tiler::GraphNode& node, std::size_t b, const std::string& context)
{
    const tiler::UserKernel* kernel = currentModel().findUserKernel(node.kernel);
    if (kernel == nullptr)
        failModel(context + " is bound by node " + node.kernel + ", which is no user kernel declared before the "
                  "graph; bind stacked members to user kernel arguments");
    if (b < kernel->cargs.size())
        for (const tiler::KernelArgument& arg : kernel->args)
            if (arg.cArgName == kernel->cargs[b].name)
                return tiler::argumentHomeBytes(*kernel, arg);
    failModel(context + " is bound by node " + node.kernel + " to a C argument no kernel argument uses, so its "
              "size is unknown; bind stacked members to tiled arguments");
}

// AddStackedTensors, resolved when the graph closes: each member's size from the kernel argument
// bound to it, its offset in the stack, and every binding of a member turned into its part of the
// stacked tensor (the SDK's "In_k = Out + offset").
void resolveStackedTensors(tiler::GraphModel& graph)
{
    std::map<std::string, std::pair<std::size_t, std::size_t>> memberOf;  // member: stack, position
    for (std::size_t s = 0; s < graph.stacks.size(); ++s) {
        tiler::StackedTensors& stack = graph.stacks[s];
        const std::string context = "graph " + graph.name + ": AddStackedTensors(" + quoted(stack.out) + ")";
        // A member is never a symbol and an out always is, so stacks cannot nest.
        const tiler::GraphArgument* out = graph.findSymbol(stack.out);
        if (out == nullptr)
            failModel(context + ": " + stack.out + " is no symbol of the graph; declare it as a local or an "
                      "output argument");
        if (out->hasConstant || out->direction == tiler::GraphArgDirection::ConstIn)
            failModel(context + ": " + stack.out + " is a constant; only buffers between nodes and outputs stack");
        for (std::size_t k = 0; k < stack.members.size(); ++k) {
            const std::string& member = stack.members[k];
            if (graph.findSymbol(member) != nullptr)
                failModel(context + ": member " + member + " is also declared as a graph symbol; a member is a "
                          "part of " + stack.out + ", leave it out of CreateGraph's lists");
            if (member == stack.out || !memberOf.emplace(member, std::pair{s, k}).second)
                failModel(context + ": " + member + " is stacked twice; a tensor is a member of one stack once");
        }
        stack.bytes.assign(stack.members.size(), 0);
    }
    if (memberOf.empty())
        return;
    for (const tiler::GraphNode& node : graph.nodes)
        for (std::size_t b = 0; b < node.bindings.size(); ++b) {
            const auto found = memberOf.find(node.bindings[b].symbol);
            if (found == memberOf.end() || !node.bindings[b].bindsTensor())
                continue;
            tiler::StackedTensors& stack = graph.stacks[found->second.first];
            const std::string context = "graph " + graph.name + ": stacked member " + found->first + " of " + stack.out;
            const std::uint64_t bytes = memberBytes(node, b, context);
            std::uint64_t& known = stack.bytes[found->second.second];
            if (known != 0 && known != bytes)
                failModel(context + " is " + std::to_string(known) + " bytes for one node but " + std::to_string(bytes) +
                          " for node " + node.kernel + "; bind it to arguments of one size");
            known = bytes;
        }
    for (tiler::StackedTensors& stack : graph.stacks) {
        stack.offsets.assign(stack.members.size(), 0);
        std::uint64_t offset = 0;
        for (std::size_t k = 0; k < stack.members.size(); ++k) {
            if (stack.bytes[k] == 0)
                failModel("graph " + graph.name + ": stacked member " + stack.members[k] + " of " + stack.out +
                          " is bound by no node, so its size is unknown; bind it to a node's argument");
            stack.offsets[k] = offset;
            offset += stack.bytes[k];
        }
    }
    for (tiler::GraphNode& node : graph.nodes)
        for (tiler::GraphNodeBinding& binding : node.bindings)
            if (const auto found = memberOf.find(binding.symbol);
                found != memberOf.end() && binding.bindsTensor()) {
                const tiler::StackedTensors& stack = graph.stacks[found->second.first];
                binding.stackMember = binding.symbol;
                binding.symbol = stack.out;
                binding.offset = stack.offsets[found->second.second];
            }
}

}  // namespace

void tessera::gap::stackTensors(const std::string& out, const std::vector<std::string>& members)
{
    const std::string context = "AddStackedTensors(" + quoted(out) + ", " + std::to_string(members.size()) + ")";
    tiler::GraphModel& graph = openGraph(context);
    for (std::size_t k = 0; k < members.size(); ++k)
        if (members[k].empty())
            failModel(context + ": member " + std::to_string(k + 1) + " has no name");
    graph.stacks.push_back({out, members, {}, {}});
}

extern "C" {

CKernel_Arg_T* TCArgInfo(const char* Type, const char* Name, ArgScope_T Scope, ArgDirection_T Dir,
                         AT_MemLocation_T Home, AT_MemLocation_T Exec, ConstInit_T* Init)
{
    const std::string name = requireName(Name, "TCArgInfo", "the symbol name");
    const std::string context = "TCArgInfo(" + quoted(name) + ")";
    tiler::GraphArgument symbol;
    symbol.carg = {requireName(Type, context, "the C type"), name};
    switch (Scope) {
    case ARG_SCOPE_ARG: symbol.scope = tiler::GraphArgScope::Argument; break;
    case ARG_SCOPE_ARG_ALLOC: symbol.scope = tiler::GraphArgScope::AllocatedArgument; break;
    case ARG_SCOPE_GLOBAL: symbol.scope = tiler::GraphArgScope::Global; break;
    case ARG_SCOPE_LOCAL: symbol.scope = tiler::GraphArgScope::Local; break;
    default:
        failModel(format("%s: scope %d is not ARG_SCOPE_ARG, ARG_SCOPE_ARG_ALLOC, ARG_SCOPE_GLOBAL or ARG_SCOPE_LOCAL",
                         context.c_str(), int(Scope)));
    }
    symbol.direction = symbolDirectionOf(Dir, context);
    symbol.home = memoryLocationOf(int(Home), context, "home");
    symbol.execution = memoryLocationOf(int(Exec), context, "execution");
    if (Init != nullptr) {
        symbol.hasConstant = true;
        symbol.constant = Init->value;
    }
    const tiler::CArgument carg = symbol.carg;
    return registry().arena.make(CKernel_Arg_S{carg, std::move(symbol)});
}

ConstInit_T* ConstInfo(const char* FileName, int Format, int Binary, int Size, int Fract)
{
    const std::string file = requireName(FileName, "ConstInfo", "the file name");
    const std::string context = "ConstInfo(" + quoted(file) + ")";
    if (Format != 0 && Format != 1)
        failModel(format("%s: format %d is neither 0 (floating-point values to convert) nor 1 (fixed-point values)",
                         context.c_str(), Format));
    if (Binary != 0 && Binary != 1)
        failModel(format("%s: binary flag %d is neither 1 (raw binary file) nor 0 (text file)", context.c_str(), Binary));
    if (Size != 8 && Size != 16 && Size != 32)
        failModel(format("%s: item size %d bits is not 8, 16 or 32", context.c_str(), Size));
    if (Fract < 0 || Fract >= Size)
        failModel(format("%s: %d fractional bits do not fit a %d-bit item; use 0 to %d", context.c_str(), Fract, Size,
                         Size - 1));
    tiler::ConstantSource source;
    source.file = file;
    source.floatValues = Format == 0;  // as in the SDK: 0 floating point, 1 fixed point
    source.binary = Binary == 1;
    source.bits = Size;
    source.fractionalBits = Fract;
    return registry().arena.make(ConstInit_S{std::move(source)});
}

void CreateGraph(const char* Name, CKernel_Arg_T** Globals, CKernel_Arg_T** Locals)
{
    const std::string name = requireName(Name, "CreateGraph", "the graph name");
    ModelRegistry& state = registry();
    tiler::KernelModel& model = state.model;
    if (state.openGraph)
        failModel("CreateGraph(" + quoted(name) + "): graph " + model.graphs[*state.openGraph].name
                  + " is still open; graphs do not nest, call CloseGraph() first");
    if (std::any_of(model.graphs.begin(), model.graphs.end(),
                    [&](const tiler::GraphModel& graph) { return graph.name == name; }))
        failModel("CreateGraph(" + quoted(name) + "): a graph named " + name + " already exists; graph names must be unique");

    tiler::GraphModel graph;
    graph.name = name;
    graph.arguments = symbolsOf(Globals, name, false);
    graph.locals = symbolsOf(Locals, name, true);
    requireUniqueSymbols(graph);
    state.openGraph = model.graphs.size();
    model.graphs.push_back(std::move(graph));
}

void AddNode(const char* Name, ArgBindingDescr_T** Bindings)
{
    const std::string kernel = requireName(Name, "AddNode", "the user kernel name");
    const std::string caller = "AddNode(" + quoted(kernel) + ")";
    tiler::GraphModel& graph = openGraph(caller);
    const std::string context = "graph " + graph.name + ": " + caller;

    tiler::GraphNode node;
    node.kernel = kernel;
    for (const ArgBindingDescr_T* binding : listItems(Bindings, context, "binding")) {
        if (binding->nodeBinding) {
            node.bindings.push_back(*binding->nodeBinding);
        } else if (binding->value.kind == tiler::Binding::Kind::Immediate) {
            tiler::GraphNodeBinding immediate;  // NNTool passes Imm(0) where a layer has no Reset
            immediate.kind = tiler::GraphNodeBinding::Kind::Immediate;
            immediate.immediate = int(binding->value.value);
            node.bindings.push_back(std::move(immediate));
        } else {
            failModel(format("%s: binding %zu is neither GNodeArg(), GNodeCArg() nor Imm(); bind graph symbols with "
                             "GNodeArg(GNA_IN, \"Symbol\", 0), runner arguments passed by value with "
                             "GNodeCArg(\"Name\"), constants with Imm(Value)",
                             context.c_str(), node.bindings.size() + 1));
        }
    }
    graph.nodes.push_back(std::move(node));
}

ArgBindingDescr_T* GNodeArg(int Dir, const char* Name, const char* AliasedArgName)
{
    const std::string symbol = requireName(Name, "GNodeArg", "the symbol name");
    const std::string context = format("GNodeArg(%d, \"%s\")", Dir, symbol.c_str());
    tiler::GraphNodeBinding binding;
    binding.direction = nodeDirectionOf(Dir, context);
    binding.symbol = symbol;
    // The SDK's meaning: an in-out node writes Name in place of the symbol it reads, AliasedArgName
    // (resolveInPlaceAliases). Models pass 0 or Name itself for one symbol read and written; the
    // alias is not read for GNA_IN and GNA_OUT.
    if (binding.direction == tiler::GraphNodeBinding::Direction::InOut && AliasedArgName != nullptr &&
        symbol != AliasedArgName)
        binding.aliasOf = AliasedArgName;
    // No call binding: Call() and UserKernelCall() reject GNodeArg() (callBindingsOf).
    return registry().arena.make(ArgBindingDescr_S{tiler::Binding{}, std::move(binding)});
}

ArgBindingDescr_T* GNodeCArg(const char* ArgName)
{
    tiler::GraphNodeBinding binding;
    binding.kind = tiler::GraphNodeBinding::Kind::Value;
    binding.symbol = requireName(ArgName, "GNodeCArg", "the graph argument's name");
    // Whether it names a runner argument is checked with the whole graph (checkModel).
    return registry().arena.make(ArgBindingDescr_S{tiler::Binding{}, std::move(binding)});
}

void AddStackedTensors(const char* OutTensorName, int Count, ...)
{
    const std::string out = requireName(OutTensorName, "AddStackedTensors", "the stacked tensor's name");
    if (Count < 1 || Count > 4096)
        failModel("AddStackedTensors(" + quoted(out) + ", " + std::to_string(Count) + "): " + std::to_string(Count) +
                  " members; stack 1 to 4096 tensors");
    std::vector<std::string> members;
    va_list args;
    va_start(args, Count);
    for (int k = 0; k < Count; ++k) {
        const char* member = variadicString(va_arg(args, const void*));
        members.push_back(member ? member : "");
    }
    va_end(args);
    stackTensors(out, members);
}

void CloseGraph(void)
{
    tiler::GraphModel& graph = openGraph("CloseGraph()");
    resolveInPlaceAliases(graph);
    resolveStackedTensors(graph);
    graph.closed = true;
    registry().openGraph.reset();
}

}  // extern "C"
