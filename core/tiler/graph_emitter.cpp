#include "tiler/graph_emitter.h"

#include "tiler/graph_code_parts.h"
#include "tiler/kernel_emitter.h"

#include <sstream>

namespace tessera::tiler {
namespace {

using namespace graph_code;

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

}  // namespace

using namespace graph_code;

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
    if (readsConstantsFromFlash(allocation))  // the nodes' kernels read through it
        out << "extern AT_FLASH_FS_T " << graph.name << "_Flash;\n";
    for (const GraphArgument& argument : graph.arguments)
        if (argument.scope == GraphArgScope::AllocatedArgument)
            out << "/* Allocated by " << graph.name << "_Construct (ARG_SCOPE_ARG_ALLOC), freed by its destructor */\n"
                << "extern " << argument.carg.type << " " << argument.carg.name << ";\n";
    if (readsConstantsFromFlash(allocation, true))
        out << "extern AT_FLASH_FS_T " << graph.name << "_PrivilegedFlash;\n";
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
    const LifecycleCode code(allocation, symbols, "&" + graph.name + "_Flash", "&" + graph.name + "_PrivilegedFlash");
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
    for (const GraphArgument& argument : graph.arguments)
        if (argument.scope == GraphArgScope::AllocatedArgument)
            out << argument.carg.type << " " << argument.carg.name << ";\n";
    if (code.hasConstants())
        out << (readsConstantsFromFlash(allocation) ? "" : "static ") << "AT_FLASH_FS_T " << graph.name << "_Flash;\n";
    if (allocation.privilegedFlashBytes > 0)
        out << (readsConstantsFromFlash(allocation, true) ? "" : "static ") << "AT_FLASH_FS_T " << graph.name
            << "_PrivilegedFlash;\n";
    out << instrumentationArrays(model, graph, allocation, true) << "\n";

    const std::string in = "    ", in2 = "        ";
    out << graphFunctionPrefix(model) << constructSignature(graph, warm) << "\n{\n";
    if (warm == 0) {
        out << code.openFlash(in) << code.allocL2(in) << code.allocArguments(in) << code.allocL2Dynamic(in) << code.allocL1(in) << code.allocL3(in)
            << code.promote(in);
    } else if (warm < 3) {
        // Warm: only L1 (and with WARM_L2_DYN_L1 the dynamic L2 block) is taken again.
        out << "    if (Warm) {\n" << code.allocL1(in2);
        if (warm == 2 && allocation.l2Dynamic)
            out << "        if (Warm == 2) {\n" << code.allocL2Dynamic("            ") << "        }\n";
        out << "        return 0;\n    }\n"
            << code.openFlash(in) << code.allocL2(in) << code.allocArguments(in) << code.allocL2Dynamic(in) << code.allocL1(in) << code.allocL3(in)
            << code.promote(in);
    } else {
        out << guarded("DoL3Init", code.openFlash(in2)) << guarded("DoL2Alloc", code.allocL2(in2) + code.allocArguments(in2))
            << guarded("DoL2DynAlloc", code.allocL2Dynamic(in2)) << guarded("DoL1Alloc", code.allocL1(in2))
            << guarded("DoL3Alloc", code.allocL3(in2)) << guarded("DoPromotion", code.promote(in2));
    }
    out << "    return 0;\n}\n\n";

    out << graphFunctionPrefix(model) << destructSignature(graph, warm) << "\n{\n";
    if (warm == 0) {
        out << code.freeL2(in) << code.freeArguments(in) << code.freeL2Dynamic(in) << code.freeL1(in) << code.freeL3(in) << code.closeFlash(in);
    } else if (warm < 3) {
        out << "    if (Warm) {\n" << code.freeL1(in2);
        if (warm == 2 && allocation.l2Dynamic)
            out << "        if (Warm == 2) {\n" << code.freeL2Dynamic("            ") << "        }\n";
        out << "        return 0;\n    }\n"
            << code.freeL2(in) << code.freeArguments(in) << code.freeL2Dynamic(in) << code.freeL1(in) << code.freeL3(in) << code.closeFlash(in);
    } else {
        out << guarded("DoL2Dealloc", code.freeL2(in2) + code.freeArguments(in2)) << guarded("DoL2DynDealloc", code.freeL2Dynamic(in2))
            << guarded("DoL1Dealloc", code.freeL1(in2)) << guarded("DoL3Dealloc", code.freeL3(in2))
            << guarded("DoL3DeInit", code.closeFlash(in2));
    }
    out << "    return 0;\n}\n\n";

    out << graphFunctionPrefix(model) << runnerSignature(graph, warm) << "\n{\n";
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
