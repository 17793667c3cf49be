// Where the tensors of a graph live. The caller's arguments stay where the caller puts them;
// constants are promoted into one static L2 block, largest first, and keep the same offsets in the
// constants flash image; the buffers between nodes share one dynamic L2 block, placed by the memory
// planner from their lifetimes so that buffers never live at the same time share bytes.
#pragma once

#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tiler {

struct GraphTensor {
    enum class Placement { Caller, L2Static, L2Dynamic };
    std::string name;
    const GraphArgument* argument = nullptr;
    std::uint64_t bytes = 0;
    int firstNode = -1;            // first node that uses it
    int lastNode = -1;             // last node that uses it
    Placement placement = Placement::Caller;
    std::uint64_t offset = 0;      // in its L2 block
    std::uint64_t flashOffset = 0; // constants: in the flash image
    std::string reason;            // why it is where it is, for reports and the studio
};

struct GraphAllocation {
    bool ok = false;
    std::string error;             // names the graph, the tensor and the fix
    std::vector<GraphTensor> tensors;
    std::uint64_t l2Static = 0;    // constants
    std::uint64_t l2Dynamic = 0;   // buffers between nodes (the planner's peak)
    std::uint64_t l2DynamicLowerBound = 0;
    std::uint64_t flashBytes = 0;

    const GraphTensor* find(const std::string& name) const;
};

// The bytes of graph symbol `name` implied by the C arguments it is bound to (0 with *error set when
// the nodes disagree or no kernel argument tells).
std::uint64_t graphSymbolBytes(const KernelModel& model, const GraphModel& graph, const std::string& name,
                               std::string* error);

GraphAllocation allocateGraph(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget);

}  // namespace tessera::tiler
