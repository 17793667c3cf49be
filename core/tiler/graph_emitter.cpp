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

}  // namespace

std::string graphDeclarations(const GraphModel& graph, const GraphAllocation& allocation, const GraphSymbols& symbols)
{
    std::ostringstream out;
    for (const auto& block : graphBlocks(allocation, symbols))
        out << "extern char *" << block.second << ";\n";
    out << "/* Graph " << graph.name << ": construct (0 when ready; 1 flash, 2 L3, 3 L2, 4 L1 allocation failed), run, "
        << "destruct, memory used */\n"
        << "int " << graph.name << "_Construct(void);\n"
        << "int " << graph.name << "_Destruct(void);\n"
        << signature("int", graph.name, runnerArguments(graph)) << ";\n"
        << "int " << graph.name << "_Memory(AT_MEM_TYPE Which);\n";
    return out.str();
}

std::string emitGraph(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                      const GraphSymbols& symbols)
{
    std::ostringstream out;
    const std::string flash = graph.name + "_Flash";
    const bool hasConstants = allocation.flashBytes > 0;
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
    if (hasConstants)
        out << "static AT_FLASH_FS_T " << flash << ";\n";
    out << "\n";

    out << "int " << graph.name << "_Construct(void)\n{\n";
    if (hasConstants)
        out << "    int Error = 0;\n    AT_FLASH_FS_OPEN(&" << flash << ", \"" << symbols.flashFile
            << "\", &Error);\n    if (Error) return 1;\n";
    if (allocation.l2Static)
        out << "    " << symbols.l2 << " = (char *) AT_L2_ALLOC(0, " << allocation.l2Static << ");\n    if ("
            << symbols.l2 << " == 0) return 3;\n";
    if (allocation.l2Dynamic)
        out << "    " << symbols.l2Dynamic << " = (char *) AT_L2_ALLOC(0, " << allocation.l2Dynamic << ");\n    if ("
            << symbols.l2Dynamic << " == 0) return 3;\n";
    if (symbols.dynamicL1)
        out << "    " << symbols.l1 << " = (char *) AT_L1_ALLOC(0, " << symbols.l1Bytes << ");\n    if (" << symbols.l1
            << " == 0) return 4;\n";
    for (const auto& [bytes, name] : {std::pair{allocation.l3Static, symbols.l3}, {allocation.l3Dynamic, symbols.l3Dynamic}})
        if (bytes)
            out << "    " << name << " = (char *) AT_L3_ALLOC(AT_L3_DEFAULT_DEVICE, " << bytes << ");\n    if (" << name
                << " == 0) return 2;\n";
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.placement == GraphTensor::Placement::L2Static)
            out << "    /* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at " << tensor.flashOffset
                << " to L2 at " << tensor.offset << " */\n    if (AT_FLASH_FS_COPY(&" << flash << ", "
                << tensor.flashOffset << ", " << symbols.l2 << "+" << tensor.offset << ", " << tensor.bytes
                << ")) return 1;\n";
    // Constants kept in L3 RAM travel from flash through the dynamic L2 block, free before the first run.
    for (const GraphTensor& tensor : allocation.tensors)
        if (tensor.placement == GraphTensor::Placement::L3Static)
            out << "    /* Moving " << tensor.name << ", size " << tensor.bytes << " from flash at " << tensor.flashOffset
                << " to L3 at " << tensor.offset << " through L2 */\n"
                << "    for (unsigned int Done = 0; Done < " << tensor.bytes << ";) {\n"
                << "        unsigned int Size = " << tensor.bytes << " - Done < " << allocation.l2Dynamic << " ? "
                << tensor.bytes << " - Done : " << allocation.l2Dynamic << ";\n"
                << "        if (AT_FLASH_FS_COPY(&" << flash << ", " << tensor.flashOffset << " + Done, "
                << symbols.l2Dynamic << ", Size)) return 1;\n"
                << "        AT_L3_FC_WRITE(AT_L3_DEFAULT_DEVICE, " << symbols.l3 << "+" << tensor.offset << "+Done, "
                << symbols.l2Dynamic << ", Size);\n        Done += Size;\n    }\n";
    out << "    return 0;\n}\n\n";

    out << "int " << graph.name << "_Destruct(void)\n{\n";
    if (allocation.l2Static)
        out << "    AT_L2_FREE(0, " << symbols.l2 << ", " << allocation.l2Static << ");\n";
    if (allocation.l2Dynamic)
        out << "    AT_L2_FREE(0, " << symbols.l2Dynamic << ", " << allocation.l2Dynamic << ");\n";
    if (symbols.dynamicL1)
        out << "    AT_L1_FREE(0, " << symbols.l1 << ", " << symbols.l1Bytes << ");\n";
    for (const auto& [bytes, name] : {std::pair{allocation.l3Static, symbols.l3}, {allocation.l3Dynamic, symbols.l3Dynamic}})
        if (bytes)
            out << "    AT_L3_FREE(AT_L3_DEFAULT_DEVICE, " << name << ", " << bytes << ");\n";
    if (hasConstants)
        out << "    AT_FLASH_FS_CLOSE(&" << flash << ");\n";
    out << "    return 0;\n}\n\n";

    out << signature("int", graph.name, runnerArguments(graph)) << "\n{\n";
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
