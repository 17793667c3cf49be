#include "tiler/graph_code_parts.h"

#include "tiler/kernel_emitter.h"

namespace tessera::tiler::graph_code {

std::vector<CArgument> runnerArguments(const GraphModel& graph)
{
    std::vector<CArgument> arguments;
    for (const GraphArgument& argument : graph.arguments)
        if (argument.scope == GraphArgScope::Argument)
            arguments.push_back(argument.carg);
    return arguments;
}

std::string graphFunctionPrefix(const KernelModel& model)
{
    return model.options.sizeOptimizedGraph ? "AT_SIZE_OPT\n" : "";
}

std::string signature(const std::string& returns, const std::string& name, const std::vector<CArgument>& args)
{
    std::string text = functionSignature(name, args);
    return returns + text.substr(4);  // functionSignature starts with "void"
}

// The C expression of a graph symbol's address as a node sees it.
std::string symbolAddress(const GraphTensor& tensor, const GraphSymbols& symbols)
{
    if (tensor.prefetchNode >= 0)  // every node using it comes after its copy to L2 is waited for
        return symbols.l2Dynamic + "+" + std::to_string(tensor.prefetchOffset);
    switch (tensor.placement) {
    case GraphTensor::Placement::Caller: return tensor.name;
    case GraphTensor::Placement::L2Static: return symbols.l2 + "+" + std::to_string(tensor.offset);
    case GraphTensor::Placement::L2Dynamic: return symbols.l2Dynamic + "+" + std::to_string(tensor.offset);
    case GraphTensor::Placement::L3Static: return symbols.l3 + "+" + std::to_string(tensor.offset);
    case GraphTensor::Placement::L3Dynamic: return symbols.l3Dynamic + "+" + std::to_string(tensor.offset);
    case GraphTensor::Placement::Flash: return "AT_FLASH_ADDRESS(" + std::to_string(tensor.flashOffset) + ")";
    }
    return tensor.name;
}

bool readsConstantsFromFlash(const GraphAllocation& allocation, bool privileged)
{
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.placement == GraphTensor::Placement::Flash && tensor.privilegedFlash == privileged)
            return true;
    return false;
}

// The graph's memory blocks that are in use, with their sizes.
std::vector<std::pair<std::uint64_t, std::string>> graphBlocks(const GraphAllocation& allocation,
                                                               const GraphSymbols& symbols)
{
    std::vector<std::pair<std::uint64_t, std::string>> blocks;
    for (const auto& [bytes, name] : {std::pair{allocation.l2Static, symbols.l2}, {allocation.l2Dynamic, symbols.l2Dynamic},
                                      {allocation.l3Static, symbols.l3}, {allocation.l3Dynamic, symbols.l3Dynamic}})
        if (bytes)
            blocks.push_back({bytes, name});
    return blocks;
}

// One node's kernel call with its tensors' addresses; graph arguments are read through
// `argumentPrefix` (the re-entrant context).
std::string nodeCall(const KernelModel& model, const GraphNode& node, const GraphAllocation& allocation,
                     const GraphSymbols& symbols, const std::string& in, const std::string& argumentPrefix)
{
    const UserKernel* kernel = model.findUserKernel(node.kernel);
    const KernelGroup* group = nullptr;
    for (const KernelGroup& candidate : model.groups)
        if (candidate.name == node.kernel)
            group = &candidate;
    const std::vector<CArgument>* cargs = kernel ? &kernel->cargs : group ? &group->cargs : nullptr;
    std::ostringstream out;
    out << in << node.kernel << "(";
    for (std::size_t i = 0; i < node.bindings.size(); ++i) {
        const GraphNodeBinding& binding = node.bindings[i];
        std::string value;
        if (binding.kind == GraphNodeBinding::Kind::Immediate) {
            value = std::to_string(binding.immediate);
        } else if (binding.kind == GraphNodeBinding::Kind::Value) {
            value = argumentPrefix + binding.symbol;  // checkModel: always a runner argument
        } else {
            const GraphTensor* tensor = allocation.find(binding.symbol);
            value = tensor ? symbolAddress(*tensor, symbols) : binding.symbol;
            if (tensor && tensor->placement == GraphTensor::Placement::Caller &&
                tensor->argument->scope == GraphArgScope::Argument)
                value = argumentPrefix + value;
            if (binding.offset != 0)  // a stacked member: its part of the tensor, in bytes
                value = "(char *) (" + value + ") + " + std::to_string(binding.offset);
        }
        const std::string type = cargs && i < cargs->size() ? (*cargs)[i].type : "void *";
        out << (i ? ",\n" : "\n") << in << "    (" << type << ") (" << value << ")";
    }
    if (model.options.kernelDescriptorArgument)
        out << (node.bindings.empty() ? "0" : ", 0");
    out << ");\n";
    return out.str();
}

// Before node n: wait for the prefetches of the constants it is the first to use, then start the
// prefetches that begin at it. `events` prefixes the AT_L3_EVENT variables (the re-entrant context).
std::string prefetchStatements(const GraphAllocation& allocation, const GraphSymbols& symbols, std::size_t n,
                               const std::string& events)
{
    std::ostringstream out;
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.prefetchNode >= 0 && tensor.firstNode == int(n))
            out << "    AT_L3_WAIT(AT_L3_DEFAULT_DEVICE, &" << events << "Prefetch_" << tensor.name << ");\n";
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.prefetchNode == int(n))
            out << "    /* Prefetching " << tensor.name << " (" << tensor.bytes << " bytes) for node " << tensor.firstNode
                << " */\n    AT_L3_COPY(AT_L3_DEFAULT_DEVICE, (AT_L3_EXT_ADDR_TYPE) (" << symbols.l3 << "+"
                << tensor.offset << "), (AT_L2_INT_ADDR_TYPE) (" << symbols.l2Dynamic << "+" << tensor.prefetchOffset
                << "), " << tensor.bytes << ", AT_L3_EXT2LOC, &" << events << "Prefetch_" << tensor.name << ");\n";
    return out.str();
}

// The AT_L3_EVENT of each prefetched constant, as `prefix`-indented declarations.
std::string prefetchEvents(const GraphAllocation& allocation, const std::string& prefix)
{
    std::string out;
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.prefetchNode >= 0)
            out += prefix + "AT_L3_EVENT Prefetch_" + tensor.name + ";\n";
    return out;
}

// A node's call, timed into the cycles array when AT_GRAPH_MONITOR_CYCLES asks for it.
namespace {

// The bytes of one element of a tensor whose C argument has `type` ("short int * __restrict__").
int elementBytes(const std::string& type)
{
    if (type.find("char") != std::string::npos)
        return 1;
    if (type.find("short") != std::string::npos)
        return 2;
    if (type.find("long long") != std::string::npos)
        return 8;
    return 4;
}

// An AT_TraceTensor call (at_graph_trace.h) for one activation tensor.
std::string traceCall(const std::string& node, const GraphTensor& tensor, const GraphSymbols& symbols,
                      const std::string& argumentPrefix, const char* what)
{
    std::string address = symbolAddress(tensor, symbols);
    if (tensor.placement == GraphTensor::Placement::Caller && tensor.argument->scope == GraphArgScope::Argument)
        address = argumentPrefix + address;
    const bool inL3 = tensor.prefetchNode < 0 && (tensor.placement == GraphTensor::Placement::L3Static ||
                                                  tensor.placement == GraphTensor::Placement::L3Dynamic ||
                                                  (tensor.placement == GraphTensor::Placement::Caller &&
                                                   isL3RamMemory(tensor.argument->home)));
    const int bytes = elementBytes(tensor.argument->carg.type);
    return "    AT_TraceTensor(\"" + node + "\", \"" + tensor.name + "\", (const void *) (" + address + "), " +
           (inL3 ? "AT_TRACE_IN_L3" : "AT_TRACE_IN_L2") + ", " + std::to_string(tensor.bytes / std::uint64_t(bytes)) +
           ", " + std::to_string(bytes) + ", " + what + ");\n";
}

// After node n: the checksums and dumps AT_GRAPH_CHECKSUM, AT_GRAPH_DUMP_TENSOR (and _ONE_NODE)
// ask for, and after the last node the graph outputs for AT_GRAPH_DUMP_GRAPH_OUTPUTS. Constants
// are not traced. AT_GRAPH_DUMP_TENSOR_TO_FILE sends every dump to a file of its own.
std::string tensorTraces(const KernelModel& model, const GraphModel& graph, std::size_t n,
                         const GraphAllocation& allocation, const GraphSymbols& symbols,
                         const std::string& argumentPrefix)
{
    const GenerationOptions& options = model.options;
    const GraphNode& node = graph.nodes[n];
    const bool dumpNode = options.dumpTensorMask != 0 && (options.dumpOneNode.empty() || options.dumpOneNode == node.kernel);
    const char* dump = options.dumpTensorsToFile ? "AT_TRACE_DUMP_TO_FILE" : "AT_TRACE_DUMP";
    std::string out;
    for (const GraphNodeBinding& binding : node.bindings) {
        const GraphTensor* tensor = allocation.find(binding.symbol);
        // A stacked member is not traced alone: its tensor is, where a node binds it whole.
        if (!binding.stackMember.empty() || !binding.bindsTensor())
            continue;
        if (tensor == nullptr || tensor->argument == nullptr || tensor->argument->hasConstant ||
            tensor->placement == GraphTensor::Placement::Flash)
            continue;
        const bool output = binding.direction != GraphNodeBinding::Direction::In;
        if (options.checksumTensors && output)
            out += traceCall(node.kernel, *tensor, symbols, argumentPrefix, "AT_TRACE_CHECKSUM");
        if (dumpNode && (output ? (options.dumpTensorMask & 1u) : (options.dumpTensorMask & 2u)))
            out += traceCall(node.kernel, *tensor, symbols, argumentPrefix, dump);
    }
    if (options.dumpGraphOutputs && n + 1 == graph.nodes.size())
        for (const GraphArgument& argument : graph.arguments)
            if (isGraphArgument(argument.scope) && argument.direction != GraphArgDirection::In &&
                argument.direction != GraphArgDirection::ConstIn)
                if (const GraphTensor* tensor = allocation.find(argument.carg.name))
                    out += traceCall(graph.name, *tensor, symbols, argumentPrefix, dump);
    return out;
}

}  // namespace

std::string instrumentedCall(const KernelModel& model, const GraphModel& graph, std::size_t n,
                             const GraphAllocation& allocation, const GraphSymbols& symbols,
                             const std::string& argumentPrefix)
{
    const std::string call = nodeCall(model, graph.nodes[n], allocation, symbols, "    ", argumentPrefix);
    const std::string traces = tensorTraces(model, graph, n, allocation, symbols, argumentPrefix);
    if (!model.options.monitorCycles)
        return call + traces;
    const std::string slot = model.options.cyclesVariable + "[" + std::to_string(n) + "]";
    return "    " + slot + " = gap_cl_readhwtimer();\n" + call + "    " + slot + " = gap_cl_readhwtimer() - " + slot +
           ";\n" + traces;
}

// The arrays AT_GRAPH_MONITOR_CYCLES, _PRODUCE_NODE_NAMES and _PRODUCE_OPERINFOS ask for: their
// declarations (`definitions` false) or definitions.
std::string instrumentationArrays(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                                  bool definitions)
{
    const GenerationOptions& options = model.options;
    const std::string count = std::to_string(graph.nodes.size());
    const std::string storage = definitions ? "" : "extern ";
    std::ostringstream out;
    if (options.monitorCycles)
        out << storage << "unsigned int " << options.cyclesVariable << "[" << count << "];"
            << (definitions ? "" : " /* cycles of each node in the last run */") << "\n";
    if (options.nodeNames) {
        out << storage << "char *" << options.nodeNamesVariable << "[" << count << "]";
        if (definitions) {
            out << " = {";
            for (std::size_t n = 0; n < allocation.nodes.size(); ++n)
                out << (n ? ", " : "") << "\"" << allocation.nodes[n].sourceKernel << "\"";
            out << "}";
        }
        out << ";\n";
    }
    if (options.operationInfos) {
        out << storage << "unsigned int " << options.operationInfosVariable << "[" << count << "]";
        if (definitions) {
            out << " = {";
            for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
                const UserKernel* kernel = model.findUserKernel(graph.nodes[n].kernel);
                out << (n ? ", " : "") << (kernel ? kernel->operations : 0);
            }
            out << "}";
        }
        out << ";" << (definitions ? "" : " /* operations (MACs) of each node */") << "\n";
    }
    return out.str();
}

std::string memoryFunction(const GraphModel& graph, const GraphAllocation& allocation, const GraphSymbols& symbols,
                           const std::string& contextBytes)
{
    std::ostringstream out;
    out << "int " << graph.name << "_Memory(AT_MEM_TYPE Which)\n{\n    switch (Which) {\n"
        << "    case AT_L1_MEM: return " << symbols.l1Bytes << ";\n"
        << "    case AT_L2_MEM: return " << allocation.l2Static + allocation.l2Arguments << ";\n"
        << "    case AT_L2_DYN_MEM: return " << allocation.l2Dynamic << ";\n"
        << "    case AT_L3_MEM: return " << allocation.l3Static << ";\n"
        << "    case AT_L3_DYN_MEM: return " << allocation.l3Dynamic << ";\n"
        << "    case AT_CTXT_MEM: return " << contextBytes << ";\n"
        << "    }\n    return 0;\n}\n";
    return out.str();
}

}  // namespace tessera::tiler::graph_code
