#include "tiler/graph_emitter.h"

#include "tiler/kernel_emitter.h"

#include <sstream>

namespace tessera::tiler {
namespace {

std::vector<CArgument> runnerArguments(const GraphModel& graph)
{
    std::vector<CArgument> arguments;
    for (const GraphArgument& argument : graph.arguments)
        if (argument.scope == GraphArgScope::Argument)
            arguments.push_back(argument.carg);
    return arguments;
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
    }
    return tensor.name;
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


// The pieces of <Graph>_Construct and <Graph>_Destruct, each at a given indentation, so that the
// warm modes can put them under the conditions their signatures give.
class LifecycleCode {
public:
    // `flash`: a C expression of the AT_FLASH_FS_T pointer of the constants image.
    LifecycleCode(const GraphAllocation& allocation, const GraphSymbols& symbols, std::string flash)
        : allocation_(allocation), symbols_(symbols), flash_(std::move(flash))
    {
    }

    bool hasConstants() const { return allocation_.flashBytes > 0; }
    bool hasL3() const { return allocation_.l3Static > 0 || allocation_.l3Dynamic > 0; }

    std::string openFlash(const std::string& in) const
    {
        if (!hasConstants())
            return {};
        return in + "int Error = 0;\n" + in + "AT_FLASH_FS_OPEN(" + flash_ + ", \"" + symbols_.flashFile +
               "\", &Error);\n" + in + "if (Error) return 1;\n";
    }
    std::string allocL2(const std::string& in) const { return alloc(in, "AT_L2_ALLOC(0, ", allocation_.l2Static, symbols_.l2, 3); }
    std::string allocL2Dynamic(const std::string& in) const
    {
        return alloc(in, "AT_L2_ALLOC(0, ", allocation_.l2Dynamic, symbols_.l2Dynamic, 3);
    }
    std::string allocL1(const std::string& in) const
    {
        return symbols_.dynamicL1 ? alloc(in, "AT_L1_ALLOC(0, ", symbols_.l1Bytes, symbols_.l1, 4) : std::string();
    }
    std::string allocL3(const std::string& in) const
    {
        return alloc(in, "AT_L3_ALLOC(AT_L3_DEFAULT_DEVICE, ", allocation_.l3Static, symbols_.l3, 2) +
               alloc(in, "AT_L3_ALLOC(AT_L3_DEFAULT_DEVICE, ", allocation_.l3Dynamic, symbols_.l3Dynamic, 2);
    }
    // Constants from the flash image to L2, and to L3 RAM through an L2 buffer of `chunk` bytes:
    // by default the dynamic L2 block, free before the first run (it must be allocated by then).
    std::string promote(const std::string& in, std::string bounce = {}, std::uint64_t chunk = 0) const
    {
        if (bounce.empty()) {
            bounce = symbols_.l2Dynamic;
            chunk = allocation_.l2Dynamic;
        }
        std::ostringstream out;
        for (const GraphTensor& tensor : allocation_.tensors)
            if (tensor.placement == GraphTensor::Placement::L2Static)
                out << in << "/* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at "
                    << tensor.flashOffset << " to L2 at " << tensor.offset << " */\n"
                    << in << "if (AT_FLASH_FS_COPY(" << flash_ << ", " << tensor.flashOffset << ", " << symbols_.l2
                    << "+" << tensor.offset << ", " << tensor.bytes << ")) return 1;\n";
        for (const GraphTensor& tensor : allocation_.tensors)
            if (tensor.placement == GraphTensor::Placement::L3Static)
                out << in << "/* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at "
                    << tensor.flashOffset << " to L3 at " << tensor.offset << " through L2 */\n"
                    << in << "for (unsigned int Done = 0; Done < " << tensor.bytes << ";) {\n"
                    << in << "    unsigned int Size = " << tensor.bytes << " - Done < " << chunk << " ? "
                    << tensor.bytes << " - Done : " << chunk << ";\n"
                    << in << "    if (AT_FLASH_FS_COPY(" << flash_ << ", " << tensor.flashOffset << " + Done, "
                    << bounce << ", Size)) return 1;\n"
                    << in << "    AT_L3_FC_WRITE(AT_L3_DEFAULT_DEVICE, " << symbols_.l3 << "+" << tensor.offset
                    << "+Done, " << bounce << ", Size);\n"
                    << in << "    Done += Size;\n" << in << "}\n";
        return out.str();
    }

    std::string freeL2(const std::string& in) const { return release(in, "AT_L2_FREE(0, ", allocation_.l2Static, symbols_.l2); }
    std::string freeL2Dynamic(const std::string& in) const
    {
        return release(in, "AT_L2_FREE(0, ", allocation_.l2Dynamic, symbols_.l2Dynamic);
    }
    std::string freeL1(const std::string& in) const
    {
        return symbols_.dynamicL1 ? release(in, "AT_L1_FREE(0, ", symbols_.l1Bytes, symbols_.l1) : std::string();
    }
    std::string freeL3(const std::string& in) const
    {
        return release(in, "AT_L3_FREE(AT_L3_DEFAULT_DEVICE, ", allocation_.l3Static, symbols_.l3) +
               release(in, "AT_L3_FREE(AT_L3_DEFAULT_DEVICE, ", allocation_.l3Dynamic, symbols_.l3Dynamic);
    }
    std::string closeFlash(const std::string& in) const
    {
        return hasConstants() ? in + "AT_FLASH_FS_CLOSE(" + flash_ + ");\n" : std::string();
    }

private:
    static std::string alloc(const std::string& in, const std::string& call, std::uint64_t bytes,
                             const std::string& symbol, int error)
    {
        if (bytes == 0)
            return {};
        return in + symbol + " = (char *) " + call + std::to_string(bytes) + ");\n" + in + "if (" + symbol +
               " == 0) return " + std::to_string(error) + ";\n";
    }
    static std::string release(const std::string& in, const std::string& call, std::uint64_t bytes,
                               const std::string& symbol)
    {
        return bytes ? in + call + symbol + ", " + std::to_string(bytes) + ");\n" : std::string();
    }

    const GraphAllocation& allocation_;
    const GraphSymbols& symbols_;
    std::string flash_;
};

// A block of statements under `if (condition)`, or nothing when the block is empty.
std::string guarded(const std::string& condition, const std::string& body)
{
    return body.empty() ? std::string() : "    if (" + condition + ") {\n" + body + "    }\n";
}

std::string constructSignature(const GraphModel& graph, unsigned warm)
{
    const std::string name = "int " + graph.name + "_Construct(";
    if (warm == 0)
        return name + "void)";
    if (warm < 3)
        return name + "int Warm)";
    return name + "int DoL1Alloc, int DoL2Alloc, int DoL2DynAlloc, int DoL3Init, int DoL3Alloc, int DoPromotion)";
}

std::string destructSignature(const GraphModel& graph, unsigned warm)
{
    const std::string name = "int " + graph.name + "_Destruct(";
    if (warm == 0)
        return name + "void)";
    if (warm < 3)
        return name + "int Warm)";
    return name + "int DoL1Dealloc, int DoL2Dealloc, int DoL2DynDealloc, int DoL3Dealloc, int DoL3DeInit)";
}

// The runner's C arguments; with WARM_ALL it also takes the L1 block (NULL: the constructed one).
std::string runnerSignature(const GraphModel& graph, unsigned warm)
{
    std::vector<CArgument> arguments = runnerArguments(graph);
    if (warm == 3)
        arguments.push_back({"void *", "_L1_Memory"});
    return signature("int", graph.name, arguments);
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
        const GraphTensor* tensor = allocation.find(node.bindings[i].symbol);
        std::string address = tensor ? symbolAddress(*tensor, symbols) : node.bindings[i].symbol;
        if (tensor && tensor->placement == GraphTensor::Placement::Caller &&
            tensor->argument->scope == GraphArgScope::Argument)
            address = argumentPrefix + address;
        const std::string type = cargs && i < cargs->size() ? (*cargs)[i].type : "void *";
        out << (i ? ",\n" : "\n") << in << "    (" << type << ") (" << address << ")";
    }
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
                << "), " << tensor.bytes << ", DMA_COPY_IN, &" << events << "Prefetch_" << tensor.name << ");\n";
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
std::string instrumentedCall(const KernelModel& model, const GraphModel& graph, std::size_t n,
                             const GraphAllocation& allocation, const GraphSymbols& symbols,
                             const std::string& argumentPrefix)
{
    const std::string call = nodeCall(model, graph.nodes[n], allocation, symbols, "    ", argumentPrefix);
    if (!model.options.monitorCycles)
        return call;
    const std::string slot = model.options.cyclesVariable + "[" + std::to_string(n) + "]";
    return "    " + slot + " = gap_cl_readhwtimer();\n" + call + "    " + slot + " = gap_cl_readhwtimer() - " + slot +
           ";\n";
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
        << "    case AT_L2_MEM: return " << allocation.l2Static << ";\n"
        << "    case AT_L2_DYN_MEM: return " << allocation.l2Dynamic << ";\n"
        << "    case AT_L3_MEM: return " << allocation.l3Static << ";\n"
        << "    case AT_L3_DYN_MEM: return " << allocation.l3Dynamic << ";\n"
        << "    case AT_CTXT_MEM: return " << contextBytes << ";\n"
        << "    }\n    return 0;\n}\n";
    return out.str();
}


// ---- Re-entrant graphs (-R): the state of one execution lives in a context; each layer is a
// function of the context and the runner yields after each one.

// The memory blocks a context carries: C field (the block's symbol) and the getter/setter name.
struct ContextBlock {
    std::string symbol;
    std::string accessor;  // ...CtxtGet<accessor>Pointer
    std::uint64_t bytes;
};

std::vector<ContextBlock> contextBlocks(const GraphAllocation& allocation, const GraphSymbols& symbols)
{
    std::vector<ContextBlock> blocks;
    if (symbols.dynamicL1)
        blocks.push_back({symbols.l1, "L1Memory", symbols.l1Bytes});
    const ContextBlock candidates[] = {{symbols.l2, "L2Memory", allocation.l2Static},
                                       {symbols.l2Dynamic, "L2MemoryDyn", allocation.l2Dynamic},
                                       {symbols.l3, "L3Memory", allocation.l3Static},
                                       {symbols.l3Dynamic, "L3MemoryDyn", allocation.l3Dynamic}};
    for (const ContextBlock& block : candidates)
        if (block.bytes)
            blocks.push_back(block);
    return blocks;
}

std::string reentrantRunnerSignature(const GraphModel& graph)
{
    std::vector<CArgument> arguments{{"void *", "_Ctxt"}};
    for (const CArgument& argument : runnerArguments(graph))
        arguments.push_back(argument);
    arguments.push_back({"void *", "_L1_Memory"});
    return signature("int", graph.name, arguments);
}

std::string reentrantDeclarations(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                                  const GraphSymbols& symbols)
{
    const std::string& g = graph.name;
    const std::string context = g + "_Ctxt_T";
    std::ostringstream out;
    out << instrumentationArrays(model, graph, allocation, false);
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "extern char *" << block.second << ";\n";
    out << "/* Graph " << g << ", re-entrant: one execution's state. */\ntypedef struct {\n";
    for (const ContextBlock& block : contextBlocks(allocation, symbols))
        out << "    char *" << block.symbol << ";\n";
    out << "    AT_FLASH_FS_T *Flash;\n";
    for (const CArgument& argument : runnerArguments(graph))
        out << "    " << argument.type << " " << argument.name << ";\n";
    out << prefetchEvents(allocation, "    ")
        << "    int LayerIndex;            /* the next layer to run */\n"
        << "    void (*const *Layer)(void *);\n} " << context << ";\n\n"
        << "/* Construct: 0 when ready; 1 flash, 2 L3, 3 L2 allocation failed. AllocCtxt sets *Status: 0, or\n"
        << "   1 context, 2 L3, 3 L2, 4 L1 allocation failed. A non-zero Free_* argument frees that memory. */\n"
        << "int " << g << "_Construct(CNN_Graph_Descr_T *Descr);\n"
        << "int " << g << "_Destruct(CNN_Graph_Descr_T *Descr, int Free_L2_Memory, int Free_L3_Memory);\n"
        << context << " *" << g << "_AllocCtxt(CNN_Graph_Descr_T *Descr, " << context
        << " *_Ctxt_Memory, AT_L1_POINTER _L1_Memory, AT_L2_POINTER _L2_DynMemory, AT_L3_POINTER _L3_DynMemory, "
           "int *Status);\n"
        << "void " << g << "_DeAllocCtxt(" << context
        << " *Ctxt, int Free_Ctxt_Memory, int Free_L1_Memory, int Free_L2_DynMemory, int Free_L3_DynMemory);\n"
        << "/* Action 0: start again from the first layer; 1: abort (the next call finishes at once). */\n"
        << "void " << g << "_ControlCtxt(void *_Ctxt, int Action);\n"
        << reentrantRunnerSignature(graph) << ";\n"
        << "int " << g << "_Memory(AT_MEM_TYPE Which);\n"
        << "int " << g << "_CtxtGetLayerIndex(AT_CTXT_TYPE _Ctxt);\n";
    for (const ContextBlock& block : contextBlocks(allocation, symbols)) {
        const std::string type = block.accessor.rfind("L1", 0) == 0 ? "AT_L1_POINTER"
                                 : block.accessor.rfind("L2", 0) == 0 ? "AT_L2_POINTER"
                                                                      : "AT_L3_POINTER";
        out << type << " " << g << "_CtxtGet" << block.accessor << "Pointer(AT_CTXT_TYPE _Ctxt);\n"
            << "void " << g << "_CtxtSet" << block.accessor << "Pointer(AT_CTXT_TYPE _Ctxt, " << type
            << " MemPointer);\n";
    }
    return out.str();
}

std::string emitReentrantGraph(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                               const GraphSymbols& symbols)
{
    const std::string& g = graph.name;
    const std::string context = g + "_Ctxt_T";
    const std::string cast = "    " + context + " *Ctxt = (" + context + " *) _Ctxt;\n";
    const LifecycleCode code(allocation, symbols, "((AT_FLASH_FS_T *) Descr->Flash)");
    const std::vector<ContextBlock> blocks = contextBlocks(allocation, symbols);
    std::ostringstream out;
    out << "/* Graph " << g << " (re-entrant): L2 " << allocation.l2Static << " B static, " << allocation.l2Dynamic
        << " B dynamic; L3 " << allocation.l3Static << " B static, " << allocation.l3Dynamic << " B dynamic; L1 "
        << symbols.l1Bytes << " B */\n";
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "char *" << block.second << ";\n";
    out << instrumentationArrays(model, graph, allocation, true) << "\n";

    // The static blocks come from the descriptor or are allocated, then the constants promoted.
    out << "int " << g << "_Construct(CNN_Graph_Descr_T *Descr)\n{\n";
    if (code.hasConstants())
        out << "    if (Descr->Flash == 0) return 1;\n" << code.openFlash("    ");
    struct StaticBlock {
        std::uint64_t bytes;
        std::string symbol, field, alloc;
        int error;
    };
    const StaticBlock staticBlocks[] = {{allocation.l2Static, symbols.l2, "L2_Memory", "AT_L2_ALLOC(0, ", 3},
                                        {allocation.l3Static, symbols.l3, "L3_Memory", "AT_L3_ALLOC(AT_L3_DEFAULT_DEVICE, ", 2}};
    for (const StaticBlock& block : staticBlocks) {
        if (!block.bytes)
            continue;
        out << "    if (Descr->" << block.field << " == 0) {\n        Descr->" << block.field << " = (void *) "
            << block.alloc << block.bytes << ");\n        if (Descr->" << block.field << " == 0) return " << block.error
            << ";\n    }\n    " << block.symbol << " = (char *) Descr->" << block.field << ";\n";
    }
    if (allocation.l3Static) {
        // Constants for L3 pass through a temporary L2 buffer: the dynamic blocks belong to contexts.
        out << "    char *Bounce = (char *) AT_L2_ALLOC(0, " << allocation.l2Dynamic << ");\n"
            << "    if (Bounce == 0) return 3;\n"
            << code.promote("    ", "Bounce", allocation.l2Dynamic) << "    AT_L2_FREE(0, Bounce, " << allocation.l2Dynamic
            << ");\n";
    } else {
        out << code.promote("    ");
    }
    out << "    return 0;\n}\n\n";

    out << "int " << g << "_Destruct(CNN_Graph_Descr_T *Descr, int Free_L2_Memory, int Free_L3_Memory)\n{\n";
    if (allocation.l2Static)
        out << "    if (Free_L2_Memory && Descr->L2_Memory) {\n        AT_L2_FREE(0, Descr->L2_Memory, "
            << allocation.l2Static << ");\n        Descr->L2_Memory = 0;\n    }\n";
    else
        out << "    (void) Free_L2_Memory;\n";
    if (allocation.l3Static)
        out << "    if (Free_L3_Memory && Descr->L3_Memory) {\n        AT_L3_FREE(AT_L3_DEFAULT_DEVICE, Descr->L3_Memory, "
            << allocation.l3Static << ");\n        Descr->L3_Memory = 0;\n    }\n";
    else
        out << "    (void) Free_L3_Memory;\n";
    out << code.closeFlash("    ") << (code.hasConstants() ? "" : "    (void) Descr;\n") << "    return 0;\n}\n\n";

    // Layers: each loads the context's blocks into the symbols the kernels address, then runs.
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        out << "static void " << g << "_Layer" << n << "(void *_Ctxt)\n{\n" << cast;
        for (const ContextBlock& block : blocks)
            out << "    " << block.symbol << " = Ctxt->" << block.symbol << ";\n";
        out << prefetchStatements(allocation, symbols, n, "Ctxt->")
            << instrumentedCall(model, graph, n, allocation, symbols, "Ctxt->") << "}\n\n";
    }
    out << "static void (*const " << g << "_AllLayers[])(void *) = {";
    for (std::size_t n = 0; n < graph.nodes.size(); ++n)
        out << (n ? ", " : "") << g << "_Layer" << n;
    out << "};\n\n";

    out << context << " *" << g << "_AllocCtxt(CNN_Graph_Descr_T *Descr, " << context
        << " *_Ctxt_Memory, AT_L1_POINTER _L1_Memory, AT_L2_POINTER _L2_DynMemory, AT_L3_POINTER _L3_DynMemory, "
           "int *Status)\n{\n"
        << "    " << context << " *Ctxt = _Ctxt_Memory;\n    *Status = 0;\n"
        << "    if (Ctxt == 0) {\n        Ctxt = (" << context << " *) AT_L2_ALLOC(0, sizeof(" << context
        << "));\n        if (Ctxt == 0) {\n            *Status = 1;\n            return 0;\n        }\n    }\n"
        << "    memset(Ctxt, 0, sizeof(" << context << "));\n"
        << "    Ctxt->Flash = (AT_FLASH_FS_T *) Descr->Flash;\n    Ctxt->LayerIndex = 0;\n    Ctxt->Layer = " << g
        << "_AllLayers;\n";
    if (allocation.l2Static)
        out << "    Ctxt->" << symbols.l2 << " = (char *) Descr->L2_Memory;\n";
    if (allocation.l3Static)
        out << "    Ctxt->" << symbols.l3 << " = (char *) Descr->L3_Memory;\n";
    const auto provided = [&](const std::string& symbol, const std::string& parameter, const std::string& alloc,
                              std::uint64_t bytes, int status) {
        if (!bytes) {
            out << "    (void) " << parameter << ";\n";
            return;
        }
        out << "    if (" << parameter << " == 0) {\n        Ctxt->" << symbol << " = (char *) " << alloc << bytes
            << ");\n        if (Ctxt->" << symbol << " == 0) {\n            *Status = " << status
            << ";\n            return Ctxt;\n        }\n    } else {\n        Ctxt->" << symbol << " = (char *) "
            << parameter << ";\n    }\n";
    };
    provided(symbols.l2Dynamic, "_L2_DynMemory", "AT_L2_ALLOC(0, ", allocation.l2Dynamic, 3);
    provided(symbols.l1, "_L1_Memory", "AT_L1_ALLOC(0, ", symbols.dynamicL1 ? symbols.l1Bytes : 0, 4);
    provided(symbols.l3Dynamic, "_L3_DynMemory", "AT_L3_ALLOC(AT_L3_DEFAULT_DEVICE, ", allocation.l3Dynamic, 2);
    out << "    return Ctxt;\n}\n\n";

    out << "void " << g << "_DeAllocCtxt(" << context
        << " *Ctxt, int Free_Ctxt_Memory, int Free_L1_Memory, int Free_L2_DynMemory, int Free_L3_DynMemory)\n{\n"
        << "    if (Ctxt == 0) return;\n";
    const auto release = [&](const std::string& flag, const std::string& symbol, const std::string& call,
                             std::uint64_t bytes) {
        if (!bytes) {
            out << "    (void) " << flag << ";\n";
            return;
        }
        out << "    if (" << flag << " && Ctxt->" << symbol << ") " << call << "Ctxt->" << symbol << ", " << bytes
            << ");\n";
    };
    release("Free_L1_Memory", symbols.l1, "AT_L1_FREE(0, ", symbols.dynamicL1 ? symbols.l1Bytes : 0);
    release("Free_L2_DynMemory", symbols.l2Dynamic, "AT_L2_FREE(0, ", allocation.l2Dynamic);
    release("Free_L3_DynMemory", symbols.l3Dynamic, "AT_L3_FREE(AT_L3_DEFAULT_DEVICE, ", allocation.l3Dynamic);
    out << "    if (Free_Ctxt_Memory) AT_L2_FREE(0, Ctxt, sizeof(" << context << "));\n}\n\n";

    const std::size_t layers = graph.nodes.size();
    out << "void " << g << "_ControlCtxt(void *_Ctxt, int Action)\n{\n" << cast
        << "    if (Action == 0) Ctxt->LayerIndex = 0;\n    else if (Action == 1) Ctxt->LayerIndex = " << layers
        << ";\n}\n\n";

    out << reentrantRunnerSignature(graph) << "\n{\n" << cast;
    if (symbols.dynamicL1)
        out << "    if (_L1_Memory) Ctxt->" << symbols.l1 << " = (char *) _L1_Memory;\n";
    else
        out << "    (void) _L1_Memory;\n";
    out << "    while (Ctxt->LayerIndex < " << layers << ") {\n        if (Ctxt->LayerIndex == 0) {\n";
    for (const CArgument& argument : runnerArguments(graph))
        out << "            Ctxt->" << argument.name << " = " << argument.name << ";\n";
    out << "        }\n        Ctxt->Layer[Ctxt->LayerIndex++](Ctxt);\n"
        << "        if (AT_YIELD()) return 0; /* suspended: the next call resumes at the next layer */\n    }\n"
        << "    Ctxt->LayerIndex = 0;\n";
    if (symbols.dynamicL1)
        out << "    if (_L1_Memory) Ctxt->" << symbols.l1 << " = 0;\n";
    out << "    return 0;\n}\n\n";

    out << "int " << g << "_CtxtGetLayerIndex(AT_CTXT_TYPE _Ctxt)\n{\n" << cast << "    return Ctxt->LayerIndex;\n}\n";
    for (const ContextBlock& block : blocks) {
        const std::string type = block.accessor.rfind("L1", 0) == 0 ? "AT_L1_POINTER"
                                 : block.accessor.rfind("L2", 0) == 0 ? "AT_L2_POINTER"
                                                                      : "AT_L3_POINTER";
        out << type << " " << g << "_CtxtGet" << block.accessor << "Pointer(AT_CTXT_TYPE _Ctxt)\n{\n" << cast
            << "    return Ctxt->" << block.symbol << ";\n}\n"
            << "void " << g << "_CtxtSet" << block.accessor << "Pointer(AT_CTXT_TYPE _Ctxt, " << type
            << " MemPointer)\n{\n" << cast << "    Ctxt->" << block.symbol << " = MemPointer;\n}\n";
    }
    out << "\n" << memoryFunction(graph, allocation, symbols, "sizeof(" + context + ")");
    return out.str();
}

}  // namespace

std::string graphDeclarations(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                              const GraphSymbols& symbols)
{
    if (model.options.reentrant)
        return reentrantDeclarations(model, graph, allocation, symbols);
    const unsigned warm = model.options.warmConstruct;
    std::ostringstream out;
    out << instrumentationArrays(model, graph, allocation, false);
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "extern char *" << block.second << ";\n";
    out << "/* Graph " << graph.name << ": construct (0 when ready; 1 flash, 2 L3, 3 L2, 4 L1 allocation failed), run, "
        << "destruct, memory used */\n"
        << constructSignature(graph, warm) << ";\n"
        << destructSignature(graph, warm) << ";\n"
        << runnerSignature(graph, warm) << ";\n"
        << "int " << graph.name << "_Memory(AT_MEM_TYPE Which);\n";
    return out.str();
}

std::string emitGraph(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                      const GraphSymbols& symbols)
{
    if (model.options.reentrant)
        return emitReentrantGraph(model, graph, allocation, symbols);
    std::ostringstream out;
    const unsigned warm = model.options.warmConstruct;
    const LifecycleCode code(allocation, symbols, "&" + graph.name + "_Flash");
    out << "/* Graph " << graph.name << ": tensors\n";
    for (const GraphTensor& tensor : allocation.tensors)
        out << "     " << tensor.name << ", " << tensor.bytes << " B: " << tensor.reason
            << (tensor.placement == GraphTensor::Placement::Caller ? "" : ", at " + std::to_string(tensor.offset))
            << "\n";
    out << "     L2: " << allocation.l2Static << " B static, " << allocation.l2Dynamic << " B dynamic; L3: "
        << allocation.l3Static << " B static, " << allocation.l3Dynamic << " B dynamic, " << allocation.l3Traffic
        << " B of L3 traffic per run; L1: " << symbols.l1Bytes << " B\n*/\n";
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "char *" << block.second << ";\n";
    if (code.hasConstants())
        out << "static AT_FLASH_FS_T " << graph.name << "_Flash;\n";
    out << instrumentationArrays(model, graph, allocation, true) << "\n";

    const std::string in = "    ", in2 = "        ";
    out << constructSignature(graph, warm) << "\n{\n";
    if (warm == 0) {
        out << code.openFlash(in) << code.allocL2(in) << code.allocL2Dynamic(in) << code.allocL1(in) << code.allocL3(in)
            << code.promote(in);
    } else if (warm < 3) {
        // Warm: only L1 (and with WARM_L2_DYN_L1 the dynamic L2 block) is taken again.
        out << "    if (Warm) {\n" << code.allocL1(in2);
        if (warm == 2 && allocation.l2Dynamic)
            out << "        if (Warm == 2) {\n" << code.allocL2Dynamic("            ") << "        }\n";
        out << "        return 0;\n    }\n"
            << code.openFlash(in) << code.allocL2(in) << code.allocL2Dynamic(in) << code.allocL1(in) << code.allocL3(in)
            << code.promote(in);
    } else {
        out << guarded("DoL3Init", code.openFlash(in2)) << guarded("DoL2Alloc", code.allocL2(in2))
            << guarded("DoL2DynAlloc", code.allocL2Dynamic(in2)) << guarded("DoL1Alloc", code.allocL1(in2))
            << guarded("DoL3Alloc", code.allocL3(in2)) << guarded("DoPromotion", code.promote(in2));
    }
    out << "    return 0;\n}\n\n";

    out << destructSignature(graph, warm) << "\n{\n";
    if (warm == 0) {
        out << code.freeL2(in) << code.freeL2Dynamic(in) << code.freeL1(in) << code.freeL3(in) << code.closeFlash(in);
    } else if (warm < 3) {
        out << "    if (Warm) {\n" << code.freeL1(in2);
        if (warm == 2 && allocation.l2Dynamic)
            out << "        if (Warm == 2) {\n" << code.freeL2Dynamic("            ") << "        }\n";
        out << "        return 0;\n    }\n"
            << code.freeL2(in) << code.freeL2Dynamic(in) << code.freeL1(in) << code.freeL3(in) << code.closeFlash(in);
    } else {
        out << guarded("DoL2Dealloc", code.freeL2(in2)) << guarded("DoL2DynDealloc", code.freeL2Dynamic(in2))
            << guarded("DoL1Dealloc", code.freeL1(in2)) << guarded("DoL3Dealloc", code.freeL3(in2))
            << guarded("DoL3DeInit", code.closeFlash(in2));
    }
    out << "    return 0;\n}\n\n";

    out << runnerSignature(graph, warm) << "\n{\n";
    if (warm == 3 && symbols.dynamicL1)
        out << "    if (_L1_Memory) " << symbols.l1 << " = (char *) _L1_Memory;\n";
    else if (warm == 3)
        out << "    (void) _L1_Memory;\n";
    out << prefetchEvents(allocation, "    ");
    for (std::size_t n = 0; n < graph.nodes.size(); ++n)
        out << prefetchStatements(allocation, symbols, n, "") << instrumentedCall(model, graph, n, allocation, symbols, "");
    if (warm == 3 && symbols.dynamicL1)
        out << "    if (_L1_Memory) " << symbols.l1 << " = 0;\n";
    out << "    return 0;\n}\n\n";

    out << memoryFunction(graph, allocation, symbols, "0");
    return out.str();
}

}  // namespace tessera::tiler
