// Where the tensors of a graph live. The caller's arguments stay where the caller puts them;
// constants are promoted into one static L2 block, largest first, and keep the same offsets in the
// constants flash image; the buffers between nodes share one dynamic L2 block, placed by the memory
// planner from their lifetimes so that buffers never live at the same time share bytes.
//
// When L2 cannot hold all that, tensors move to L3 RAM one at a time, each time the one that frees
// the most L2 for the least L3 traffic per run: a node touching an L3 tensor is tiled again with
// that argument homed in L3 (O_L2DB), and its L2 staging buffers join the dynamic block for the
// duration of the node. The order of moves does not depend on the budget, so a smaller budget only
// moves more tensors: L3 traffic grows as the budget shrinks. Constants left in L3 are then
// prefetched into L2 ahead of their first use where the budget leaves room, starting late enough
// to hold L2 briefly but early enough that the estimated compute of the nodes before hides the copy.
#pragma once

#include "base/error.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tiler {

struct GraphTensor {
    // Flash: a constant the nodes read from the constants image (AT_GRAPH_CONST_EXEC_FROM_FLASH).
    enum class Placement { Caller, L2Static, L2Dynamic, L3Static, L3Dynamic, Flash };
    std::string name;
    const GraphArgument* argument = nullptr;
    std::uint64_t bytes = 0;
    int firstNode = -1;            // first node that uses it
    int lastNode = -1;             // last node that uses it
    Placement placement = Placement::Caller;
    std::uint64_t offset = 0;      // in its block (L2 or L3, static or dynamic)
    std::uint64_t flashOffset = 0; // constants: in the flash image
    bool privilegedFlash = false;  // constants: stored in the privileged flash's image (flashOffset in it)
    // Constants kept in L3 may be prefetched into the dynamic L2 block: the copy starts before
    // node prefetchNode and is waited for before the first node using it, which reads the L2 copy.
    int prefetchNode = -1;
    std::uint64_t prefetchOffset = 0;
    std::string reason;            // why it is where it is, for reports and the studio
};

const char* placementName(GraphTensor::Placement placement);  // "l2_static", "l3_dynamic", ...

// How one node runs: the user kernel it calls (a variant of the model's kernel when some of its
// arguments are homed in L3) and the L2 staging buffers those arguments stream through.
struct NodeExecution {
    std::string kernel;                     // the kernel the runner calls
    std::string sourceKernel;               // the model's kernel it is derived from
    std::vector<std::string> l3Arguments;   // kernel arguments homed in L3
    std::vector<std::string> flashArguments;  // those of them read from the flash image
    std::vector<std::string> privilegedFlashArguments;  // those read from the privileged flash's image
    std::uint64_t stagingOffset = 0;        // in the dynamic L2 block
    std::uint64_t stagingBytes = 0;
    std::uint64_t stagingLimit = 0;         // UserKernel::l2StagingLimit of its variant (0: none)
    std::uint64_t l3Read = 0;               // predicted bytes per run, L3 -> L2
    std::uint64_t l3Write = 0;              // L2 -> L3
};

struct GraphAllocation {
    bool ok = false;
    std::string error;             // names the graph, the tensor and the fix
    std::vector<GraphTensor> tensors;
    std::vector<NodeExecution> nodes;   // one per graph node
    std::uint64_t l2Static = 0;    // constants
    // The ARG_SCOPE_ARG_ALLOC arguments, each in an L2 block of its own allocated with the graph
    // (aligned sizes); the rest of the graph is placed within what they leave of the budget.
    std::uint64_t l2Arguments = 0;
    std::uint64_t l2Dynamic = 0;   // buffers between nodes and staging buffers (the planner's peak)
    std::uint64_t l2DynamicLowerBound = 0;
    std::uint64_t l3Static = 0;    // constants kept in L3 RAM
    std::uint64_t l3Dynamic = 0;   // buffers between nodes spilled to L3 RAM
    std::uint64_t l3Traffic = 0;   // predicted L3 <-> L2 bytes per run
    std::uint64_t flashBytes = 0;            // the constants image of the ordinary flash
    std::uint64_t privilegedFlashBytes = 0;  // the privileged flash's image (AT_GRAPH_PRIVILEGED_L3_HOME)
    // When the budget is too small: the smallest L2 any placement found needs (0 when unknown), and
    // how many tensors were in L3 when nothing more could move.
    std::uint64_t smallestL2 = 0;
    std::size_t tensorsInL3 = 0;
    // The budget that does not work, as facts (the L2, L3 RAM or flash budget); unset when the
    // failure is of another kind.
    std::optional<BudgetShortfall> shortfall;

    const GraphTensor* find(const std::string& name) const;
    std::uint64_t l2Total() const { return l2Static + l2Dynamic + l2Arguments; }
};

// What placing a graph learns that holds at other L2 budgets, kept for the next placement of the
// same graph (the studio's drag re-places one model at budget after budget). Valid for one graph
// with one L1 budget, cost model and set of L3 devices; used by one placement at a time.
class AllocationMemo {
public:
    AllocationMemo();
    ~AllocationMemo();
    AllocationMemo(const AllocationMemo&) = delete;
    AllocationMemo& operator=(const AllocationMemo&) = delete;
    struct State;

private:
    friend GraphAllocation allocateGraph(const KernelModel&, const GraphModel&, std::uint64_t, AllocationMemo*);
    std::unique_ptr<State> state_;
};

// Places the graph's tensors within l2Budget bytes of L2 (and the model's L3 size). A node that
// streams L3 tensors is tiled with the model's L1 budget as it would be without an L2 budget when
// its staging buffers fit the L2 budget, otherwise with the best tiling whose staging fits. With a
// memo the result is the same, found faster when the memo has seen the graph at other budgets.
GraphAllocation allocateGraph(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget,
                              AllocationMemo* memo = nullptr);

// The user kernel a node runs when `l3Arguments` of `source` are homed in L3, with its staging
// buffers at `stagingBase` (a C expression of an L2 address).
// `flashArguments` (among l3Arguments) are read from flash images: each with the C expression of
// its image's AT_FLASH_FS_T pointer.
UserKernel l3HomedVariant(const UserKernel& source, const std::vector<std::string>& l3Arguments,
                          const std::string& name, const std::string& stagingBase, std::uint64_t stagingLimit = 0,
                          const std::vector<std::pair<std::string, std::string>>& flashArguments = {});

}  // namespace tessera::tiler
