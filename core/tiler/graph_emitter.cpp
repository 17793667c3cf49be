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
    LifecycleCode(const GraphModel& graph, const GraphAllocation& allocation, const GraphSymbols& symbols)
        : graph_(graph), allocation_(allocation), symbols_(symbols), flash_(graph.name + "_Flash")
    {
    }

    const std::string& flash() const { return flash_; }
    bool hasConstants() const { return allocation_.flashBytes > 0; }
    bool hasL3() const { return allocation_.l3Static > 0 || allocation_.l3Dynamic > 0; }

    std::string openFlash(const std::string& in) const
    {
        if (!hasConstants())
            return {};
        return in + "int Error = 0;\n" + in + "AT_FLASH_FS_OPEN(&" + flash_ + ", \"" + symbols_.flashFile +
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
    // Constants from the flash image to L2, and to L3 RAM through the dynamic L2 block (free before
    // the first run, so it must be allocated when this runs).
    std::string promote(const std::string& in) const
    {
        std::ostringstream out;
        for (const GraphTensor& tensor : allocation_.tensors)
            if (tensor.placement == GraphTensor::Placement::L2Static)
                out << in << "/* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at "
                    << tensor.flashOffset << " to L2 at " << tensor.offset << " */\n"
                    << in << "if (AT_FLASH_FS_COPY(&" << flash_ << ", " << tensor.flashOffset << ", " << symbols_.l2
                    << "+" << tensor.offset << ", " << tensor.bytes << ")) return 1;\n";
        const std::uint64_t chunk = allocation_.l2Dynamic;
        for (const GraphTensor& tensor : allocation_.tensors)
            if (tensor.placement == GraphTensor::Placement::L3Static)
                out << in << "/* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at "
                    << tensor.flashOffset << " to L3 at " << tensor.offset << " through L2 */\n"
                    << in << "for (unsigned int Done = 0; Done < " << tensor.bytes << ";) {\n"
                    << in << "    unsigned int Size = " << tensor.bytes << " - Done < " << chunk << " ? "
                    << tensor.bytes << " - Done : " << chunk << ";\n"
                    << in << "    if (AT_FLASH_FS_COPY(&" << flash_ << ", " << tensor.flashOffset << " + Done, "
                    << symbols_.l2Dynamic << ", Size)) return 1;\n"
                    << in << "    AT_L3_FC_WRITE(AT_L3_DEFAULT_DEVICE, " << symbols_.l3 << "+" << tensor.offset
                    << "+Done, " << symbols_.l2Dynamic << ", Size);\n"
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
        return hasConstants() ? in + "AT_FLASH_FS_CLOSE(&" + flash_ + ");\n" : std::string();
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

    const GraphModel& graph_;
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

}  // namespace

std::string graphDeclarations(const GraphModel& graph, const GraphAllocation& allocation, const GraphSymbols& symbols,
                              unsigned warm)
{
    std::ostringstream out;
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
    std::ostringstream out;
    const unsigned warm = model.options.warmConstruct;
    const LifecycleCode code(graph, allocation, symbols);
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
        out << "static AT_FLASH_FS_T " << code.flash() << ";\n";
    out << "\n";

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
    for (const GraphNode& node : graph.nodes) {
        const UserKernel* kernel = model.findUserKernel(node.kernel);
        const KernelGroup* group = nullptr;
        for (const KernelGroup& candidate : model.groups)
            if (candidate.name == node.kernel)
                group = &candidate;
        const std::vector<CArgument>* cargs = kernel ? &kernel->cargs : group ? &group->cargs : nullptr;
        out << "    " << node.kernel << "(";
        for (std::size_t i = 0; i < node.bindings.size(); ++i) {
            const GraphTensor* tensor = allocation.find(node.bindings[i].symbol);
            const std::string address = tensor ? symbolAddress(*tensor, symbols) : node.bindings[i].symbol;
            const std::string type = cargs && i < cargs->size() ? (*cargs)[i].type : "void *";
            out << (i ? ",\n        " : "\n        ") << "(" << type << ") (" << address << ")";
        }
        out << ");\n";
    }
    if (warm == 3 && symbols.dynamicL1)
        out << "    if (_L1_Memory) " << symbols.l1 << " = 0;\n";
    out << "    return 0;\n}\n\n";

    out << "int " << graph.name << "_Memory(AT_MEM_TYPE Which)\n{\n    switch (Which) {\n"
        << "    case AT_L1_MEM: return " << symbols.l1Bytes << ";\n"
        << "    case AT_L2_MEM: return " << allocation.l2Static << ";\n"
        << "    case AT_L2_DYN_MEM: return " << allocation.l2Dynamic << ";\n"
        << "    case AT_L3_MEM: return " << allocation.l3Static << ";\n"
        << "    case AT_L3_DYN_MEM: return " << allocation.l3Dynamic << ";\n    case AT_CTXT_MEM: return 0;\n"
        << "    }\n    return 0;\n}\n";
    return out.str();
}

}  // namespace tessera::tiler
