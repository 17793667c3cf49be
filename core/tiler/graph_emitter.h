// The C of a graph: <Graph>_Construct (allocations, constants promoted from the flash image into
// L2), the runner calling every node's user kernel with its tensors' addresses, <Graph>_Destruct
// and <Graph>_Memory, with the return codes the Autotiler's graphs use (1 flash, 2 L3, 3 L2, 4 L1).
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>

namespace tessera::tiler {

struct GraphSymbols {
    std::string l1;          // the kernels' L1 symbol
    std::string l2;          // static L2 block (constants)
    std::string l2Dynamic;   // dynamic L2 block (buffers between nodes, staging buffers)
    std::string l3;          // static L3 RAM block (constants kept in L3)
    std::string l3Dynamic;   // dynamic L3 RAM block (buffers between nodes spilled to L3)
    std::string flashFile;   // constants image, opened by name at construction
    std::string privilegedFlashFile;  // the privileged flash's image (AT_GRAPH_PRIVILEGED_L3_HOME)
    std::uint64_t l1Bytes = 0;
    bool dynamicL1 = false;  // the L1 symbol is a pointer the constructor allocates
};

// The header part: the graph's functions and its memory blocks (the node kernels stage through them).
// The options choose the form: the warm mode (AT_GRAPH_WARM_CONSTRUCT) gives the constructor's and
// destructor's signatures; re-entrant graphs (-R) get a context, AllocCtxt / DeAllocCtxt /
// ControlCtxt, getters and setters, and a runner that yields after each layer.
// AT_GRAPH_MONITOR_CYCLES, _PRODUCE_NODE_NAMES and _PRODUCE_OPERINFOS add arrays indexed by node.
std::string graphDeclarations(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                              const GraphSymbols& symbols);
std::string emitGraph(const KernelModel& model, const GraphModel& graph, const GraphAllocation& allocation,
                      const GraphSymbols& symbols);

}  // namespace tessera::tiler
