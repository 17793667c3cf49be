// The re-entrant form of a graph (generator option -R): the state of one execution lives in a
// context; each layer is a function of the context and the runner yields after each one.
#include "tiler/graph_code_parts.h"

namespace tessera::tiler::graph_code {
namespace {

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

// The flash images nodes read while they run (AT_GRAPH_CONST_EXEC_FROM_FLASH): (privileged, handle).
std::vector<std::pair<bool, std::string>> flashHandles(const GraphModel& graph, const GraphAllocation& allocation)
{
    std::vector<std::pair<bool, std::string>> handles;
    for (const bool privileged : {false, true})
        if (readsConstantsFromFlash(allocation, privileged))
            handles.push_back({privileged, flashHandle(graph.name, privileged)});
    return handles;
}

}  // namespace

std::string flashHandle(const std::string& graph, bool privileged)
{
    return graph + (privileged ? "_PrivilegedFlashHandle" : "_FlashHandle");
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
    for (const auto& handle : flashHandles(graph, allocation))
        out << "extern AT_FLASH_FS_T *" << handle.second << ";\n";
    out << "/* Graph " << g << ", re-entrant: one execution's state. */\ntypedef struct {\n";
    for (const ContextBlock& block : contextBlocks(allocation, symbols))
        out << "    char *" << block.symbol << ";\n";
    out << "    AT_FLASH_FS_T *Flash;\n";
    if (allocation.privilegedFlashBytes > 0)
        out << "    AT_FLASH_FS_T *PrivilegedFlash;\n";
    for (const CArgument& argument : runnerArguments(graph))
        out << "    " << argument.type << " " << argument.name << ";\n";
    out << prefetchEvents(allocation, "    ")
        << "    int LayerIndex;            /* the next layer to run */\n"
        << "    void (*const *Layer)(void *);\n} " << context << ";\n\n"
        << "/* Construct: 0 when ready; 1 flash, 2 L3, 3 L2 allocation failed"
        << (allocation.privilegedFlashBytes > 0 ? " (Descr->PrivilegedFlash must point to the privileged flash's "
                                                  "AT_FLASH_FS_T)"
                                                : "")
        << ". AllocCtxt sets *Status: 0, or\n"
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
    const LifecycleCode code(allocation, symbols, "((AT_FLASH_FS_T *) Descr->Flash)",
                             "((AT_FLASH_FS_T *) Descr->PrivilegedFlash)");
    const std::vector<ContextBlock> blocks = contextBlocks(allocation, symbols);
    std::ostringstream out;
    out << "/* Graph " << g << " (re-entrant): L2 " << allocation.l2Static << " B static, " << allocation.l2Dynamic
        << " B dynamic; L3 " << allocation.l3Static << " B static, " << allocation.l3Dynamic << " B dynamic; L1 "
        << symbols.l1Bytes << " B */\n";
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "char *" << block.second << ";\n";
    for (const auto& handle : flashHandles(graph, allocation))
        out << "AT_FLASH_FS_T *" << handle.second << ";\n";
    out << instrumentationArrays(model, graph, allocation, true) << "\n";

    // The static blocks come from the descriptor or are allocated, then the constants promoted.
    out << graphFunctionPrefix(model) << "int " << g << "_Construct(CNN_Graph_Descr_T *Descr)\n{\n";
    if (code.hasConstants())
        out << "    if (Descr->Flash == 0) return 1;\n";
    if (allocation.privilegedFlashBytes > 0)
        out << "    if (Descr->PrivilegedFlash == 0) return 1;\n";
    out << code.openFlash("    ");
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
    // A graph without constants or static blocks has nothing to take from the descriptor.
    if (!code.hasConstants() && allocation.privilegedFlashBytes == 0 && !allocation.l2Static && !allocation.l3Static)
        out << "    (void) Descr;\n";
    out << "    return 0;\n}\n\n";

    out << graphFunctionPrefix(model) << "int " << g << "_Destruct(CNN_Graph_Descr_T *Descr, int Free_L2_Memory, int Free_L3_Memory)\n{\n";
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
        for (const auto& handle : flashHandles(graph, allocation))
            out << "    " << handle.second << " = Ctxt->" << (handle.first ? "PrivilegedFlash" : "Flash") << ";\n";
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
    if (allocation.privilegedFlashBytes > 0)
        out << "    Ctxt->PrivilegedFlash = (AT_FLASH_FS_T *) Descr->PrivilegedFlash;\n";
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

    out << graphFunctionPrefix(model) << reentrantRunnerSignature(graph) << "\n{\n" << cast;
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

}  // namespace tessera::tiler::graph_code
