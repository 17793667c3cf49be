// Parts of the generated C of a graph shared by the standard and the re-entrant forms: the
// runner's arguments, the tensors' addresses, the memory blocks, the construction and destruction
// steps, node calls with their prefetches and counters, and <Graph>_Memory.
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/graph_emitter.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tessera::tiler::graph_code {

// What precedes the definitions of the constructor, runner and destructor: AT_SIZE_OPT and a
// newline with AT_GRAPH_SIZE_OPT, else nothing.
std::string graphFunctionPrefix(const KernelModel& model);

// The runner's C arguments: the graph arguments of scope ARG_SCOPE_ARG, in order.
std::vector<CArgument> runnerArguments(const GraphModel& graph);

// A function's C prototype returning `returns`.
std::string signature(const std::string& returns, const std::string& name, const std::vector<CArgument>& args);

// The C expression of a graph symbol's address as a node sees it.
std::string symbolAddress(const GraphTensor& tensor, const GraphSymbols& symbols);

// The graph's memory blocks that are in use, with their sizes.
std::vector<std::pair<std::uint64_t, std::string>> graphBlocks(const GraphAllocation& allocation,
                                                               const GraphSymbols& symbols);

// One node's kernel call with its tensors' addresses; graph arguments are read through
// `argumentPrefix` (the re-entrant context).
std::string nodeCall(const KernelModel& model, const GraphNode& node, const GraphAllocation& allocation,
                     const GraphSymbols& symbols, const std::string& in, const std::string& argumentPrefix);

// Before node n: wait for the prefetches of the constants it is the first to use, then start the
// prefetches that begin at it. `events` prefixes the AT_L3_EVENT variables (the re-entrant context).
std::string prefetchStatements(const GraphAllocation& allocation, const GraphSymbols& symbols, std::size_t n,
                               const std::string& events);

// The AT_L3_EVENT of each prefetched constant, as `prefix`-indented declarations.
std::string prefetchEvents(const GraphAllocation& allocation, const std::string& prefix);

// A node's call, timed into the cycles array when AT_GRAPH_MONITOR_CYCLES asks for it, then the
// tensor traces AT_GRAPH_CHECKSUM, AT_GRAPH_DUMP_TENSOR and AT_GRAPH_DUMP_GRAPH_OUTPUTS ask for.
std::string instrumentedCall(const KernelModel& model, const GraphModel& graph, std::size_t n,
                             const GraphAllocation& allocation, const GraphSymbols& symbols,
                             const std::string& argumentPrefix);

// The arrays AT_GRAPH_MONITOR_CYCLES, _PRODUCE_NODE_NAMES and _PRODUCE_OPERINFOS ask for: their
// declarations (`definitions` false) or definitions.
std::string instrumentationArrays(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                                  bool definitions);

// <Graph>_Memory(Which); `contextBytes` is what AT_CTXT_MEM reports.
std::string memoryFunction(const GraphModel& graph, const GraphAllocation& allocation, const GraphSymbols& symbols,
                           const std::string& contextBytes);

// The pieces of <Graph>_Construct and <Graph>_Destruct, each at a given indentation, so that the
// warm modes can put them under the conditions their signatures give.
// Whether nodes read constants from the flash image (or from the privileged flash's) while the
// graph runs (AT_GRAPH_CONST_EXEC_FROM_FLASH).
bool readsConstantsFromFlash(const GraphAllocation& allocation, bool privileged = false);

class LifecycleCode {
public:
    // `flash`, `privilegedFlash`: C expressions of the AT_FLASH_FS_T pointers of the constants
    // images (the privileged one used when the allocation filled a privileged flash).
    LifecycleCode(const GraphAllocation& allocation, const GraphSymbols& symbols, std::string flash,
                  std::string privilegedFlash = {})
        : allocation_(allocation), symbols_(symbols), flash_(std::move(flash)),
          privilegedFlash_(std::move(privilegedFlash))
    {
    }

    bool hasConstants() const { return allocation_.flashBytes > 0; }
    bool hasL3() const { return allocation_.l3Static > 0 || allocation_.l3Dynamic > 0; }

    std::string openFlash(const std::string& in) const
    {
        if (!hasConstants())
            return {};
        std::string code = in + "int Error = 0;\n" + in + "AT_FLASH_FS_OPEN(" + flash_ + ", \"" + symbols_.flashFile +
                           "\", &Error);\n" + in + "if (Error) return 1;\n";
        if (allocation_.privilegedFlashBytes > 0)
            code += in + "AT_FLASH_FS_OPEN(" + privilegedFlash_ + ", \"" + symbols_.privilegedFlashFile +
                    "\", &Error);\n" + in + "if (Error) {\n" + in + "    AT_FLASH_FS_CLOSE(" + flash_ + ");\n" + in +
                    "    return 1;\n" + in + "}\n";
        return code;
    }
    std::string allocL2(const std::string& in) const { return alloc(in, "AT_L2_ALLOC(0, ", allocation_.l2Static, symbols_.l2, 3); }
    std::string allocL2Dynamic(const std::string& in) const
    {
        return alloc(in, "AT_L2_ALLOC(0, ", allocation_.l2Dynamic, symbols_.l2Dynamic, 3);
    }
    // The ARG_SCOPE_ARG_ALLOC arguments: an L2 block each, behind the global pointer of its name.
    std::string allocArguments(const std::string& in) const
    {
        std::string code;
        for (const GraphTensor* tensor : allocatedArguments())
            code += in + tensor->name + " = (" + tensor->argument->carg.type + ") AT_L2_ALLOC(0, " +
                    std::to_string(tensor->bytes) + ");\n" + in + "if (" + tensor->name + " == 0) return 3;\n";
        return code;
    }
    std::string freeArguments(const std::string& in) const
    {
        std::string code;
        for (const GraphTensor* tensor : allocatedArguments())
            code += in + "AT_L2_FREE(0, " + tensor->name + ", " + std::to_string(tensor->bytes) + ");\n" + in +
                    tensor->name + " = 0;\n";
        return code;
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
                    << in << "    if (AT_FLASH_FS_COPY(" << imageOf(tensor) << ", " << tensor.flashOffset << " + Done, "
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
        std::string code = hasConstants() ? in + "AT_FLASH_FS_CLOSE(" + flash_ + ");\n" : std::string();
        if (allocation_.privilegedFlashBytes > 0)
            code += in + "AT_FLASH_FS_CLOSE(" + privilegedFlash_ + ");\n";
        return code;
    }

private:
    std::vector<const GraphTensor*> allocatedArguments() const
    {
        std::vector<const GraphTensor*> tensors;
        for (const GraphTensor& tensor : allocation_.tensors)
            if (tensor.argument->scope == GraphArgScope::AllocatedArgument && tensor.bytes > 0)
                tensors.push_back(&tensor);
        return tensors;
    }
    const std::string& imageOf(const GraphTensor& tensor) const
    {
        return tensor.privilegedFlash ? privilegedFlash_ : flash_;
    }

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
    std::string privilegedFlash_;
};

// The re-entrant form (-R): see graph_reentrant_emitter.cpp.
// The AT_FLASH_FS_T pointer through which the kernels of a re-entrant graph read constants from
// the (privileged) flash image: each layer sets it from its context before running.
std::string flashHandle(const std::string& graph, bool privileged);
std::string reentrantDeclarations(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                                  const GraphSymbols& symbols);
std::string emitReentrantGraph(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                               const GraphSymbols& symbols);

}  // namespace tessera::tiler::graph_code
