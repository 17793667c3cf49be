#include "tiler/graph_allocation.h"
#include "tiler/graph_symbol_sizes.h"
#include "tiler/l3_devices.h"
#include "tiler/placement_search.h"
#include "tiler/privileged_flash.h"

#include "memory/memory_planner.h"
#include "tiler/tile_solver.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>

namespace tessera::tiler {

const char* placementName(GraphTensor::Placement placement)
{
    switch (placement) {
    case GraphTensor::Placement::Caller: return "caller";
    case GraphTensor::Placement::L2Static: return "l2_static";
    case GraphTensor::Placement::L2Dynamic: return "l2_dynamic";
    case GraphTensor::Placement::L3Static: return "l3_static";
    case GraphTensor::Placement::L3Dynamic: return "l3_dynamic";
    case GraphTensor::Placement::Flash: return "flash";
    }
    return "caller";
}

const GraphTensor* GraphAllocation::find(const std::string& name) const
{
    for (const GraphTensor& tensor : tensors)
        if (tensor.name == name)
            return &tensor;
    return nullptr;
}


UserKernel l3HomedVariant(const UserKernel& source, const std::vector<std::string>& l3Arguments,
                          const std::string& name, const std::string& stagingBase, std::uint64_t stagingLimit,
                          const std::vector<std::pair<std::string, std::string>>& flashArguments)
{
    UserKernel variant = source;
    variant.name = name;
    variant.l2StagingBase = stagingBase;
    variant.l2StagingLimit = stagingLimit;
    for (KernelArgument& arg : variant.args) {
        if (std::find(l3Arguments.begin(), l3Arguments.end(), arg.name) != l3Arguments.end())
            arg.flags |= ArgFlag::L2DoubleBuffer;
        for (const auto& [flashArgument, image] : flashArguments)
            if (flashArgument == arg.name) {
                arg.flags |= ArgFlag::FlashHome;
                arg.flashImage = image;
            }
    }
    return variant;
}


using namespace placement_search;

namespace {

GraphAllocation allocateGraphWithin(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget,
                                    AllocationMemo::State* memo)
{
    GraphAllocation allocation;
    std::vector<const GraphArgument*> symbols;
    for (const GraphArgument& argument : graph.arguments)
        symbols.push_back(&argument);
    for (const GraphArgument& argument : graph.locals)
        symbols.push_back(&argument);

    std::unordered_map<std::string, SymbolUse> uses = graphSymbolUses(model, graph);
    // Stacked tensors are their members' total, also when no node binds them whole.
    for (const StackedTensors& stack : graph.stacks) {
        SymbolUse& use = uses[stack.out];
        if (use.error.empty() && use.bytes != 0 && use.bytes != stack.totalBytes())
            use.error = "graph " + graph.name + ": " + stack.out + " is " + std::to_string(use.bytes) + " bytes for " +
                        use.decidedBy + " but its stacked members take " + std::to_string(stack.totalBytes()) +
                        " bytes; stack members whose sizes add up to it";
        use.bytes = stack.totalBytes();
    }
    for (const GraphArgument* argument : symbols) {
        GraphTensor tensor;
        tensor.name = argument->carg.name;
        tensor.argument = argument;
        const auto use = uses.find(tensor.name);
        if (use != uses.end()) {
            tensor.firstNode = use->second.firstNode;
            tensor.lastNode = use->second.lastNode;
        }
        if (tensor.firstNode >= 0) {
            try {
                tensor.bytes = symbolBytes(graph, tensor.name, use->second);
            } catch (const ModelError& error) {
                allocation.error = error.what();
                return allocation;
            }
        }
        allocation.tensors.push_back(tensor);
    }
    std::vector<GraphTensor>& tensors = allocation.tensors;

    // ARG_SCOPE_ARG_ALLOC arguments take their L2 first: they live as long as the graph.
    for (const GraphTensor& tensor : tensors)
        if (tensor.argument->scope == GraphArgScope::AllocatedArgument)
            allocation.l2Arguments += alignTo(tensor.bytes);
    if (allocation.l2Arguments > l2Budget) {
        allocation.smallestL2 = allocation.l2Arguments;
        allocation.error = "graph " + graph.name + ": the arguments it allocates itself (ARG_SCOPE_ARG_ALLOC) need " +
                           bytesText(allocation.l2Arguments) + " of L2, more than the L2 budget of " +
                           std::to_string(l2Budget) + " bytes";
        return allocation;
    }
    const std::uint64_t argumentsBudget = l2Budget;
    l2Budget -= allocation.l2Arguments;

    // Everything in L2 first; then moves to L3, in an order that does not depend on the budget.
    Placer placer(model, graph, tensors, l2Budget, memo);
    // AT_GRAPH_DISABLE_CONST_L2_PROMOTION: constants start in L3.
    std::set<std::size_t> start;
    std::map<std::size_t, std::string> moveReasons;
    if (!model.options.promoteConstantsToL2)
        for (std::size_t i = 0; i < tensors.size(); ++i)
            if (isConstant(tensors[i]) && placer.movable(i)) {
                start.insert(i);
                moveReasons[i] = "constants are not promoted to L2 (AT_GRAPH_DISABLE_CONST_L2_PROMOTION)";
            }
    Placement current = placer.evaluate(start, 0.05);
    if (!current.ok) {
        allocation.error = current.error;
        return allocation;
    }
    std::uint64_t smallest = current.total();
    std::set<std::size_t> immovable;
    // AT_GRAPH_L2_STATIC_MEMORY_BUDGET bounds the constants promoted to L2.
    const std::uint64_t staticBudget = model.options.l2StaticBudget;
    const auto overStaticBudget = [&](const Placement& placement) {
        return staticBudget > 0 && placement.l2Static > staticBudget;
    };
    while (current.total() > l2Budget || overStaticBudget(current)) {
        const bool staticOnly = current.total() <= l2Budget;
        const std::uint64_t excess = staticOnly ? current.l2Static - staticBudget : current.total() - l2Budget;
        const bool manyCandidates = movableCount(placer, current, tensors, immovable, staticOnly) > kSingleMoveCandidates;
        if (manyCandidates || excess > l2Budget / kBatchExcessDivisor) {
            Placement next;
            const std::vector<std::size_t> batch =
                batchMove(placer, current, tensors, immovable, staticOnly, excess, next);
            if (batch.empty())
                break;
            const std::string why = manyCandidates ? "the graph has more than " + std::to_string(kSingleMoveCandidates) +
                                                         " tensors that could move"
                                                   : "the graph is more than " + bytesText(l2Budget / kBatchExcessDivisor) +
                                                         " over the budget";
            for (std::size_t i : batch)
                moveReasons[i] = "move " + std::to_string(moveReasons.size() + 1) + " to L3, in a batch of " +
                                 std::to_string(batch.size()) + " (" + why + ", so they move largest first): the graph "
                                 "then needs " + bytesText(next.total()) + " of L2 instead of " + bytesText(current.total());
            current = std::move(next);
            smallest = std::min(smallest, current.total());
            continue;
        }
        Move move = chooseMove(placer, current, tensors, immovable, staticOnly);
        if (!move.found())
            break;
        if (move.tensor < 0) {
            current = std::move(move.placement);
            smallest = std::min(smallest, current.total());
            continue;
        }
        const GraphTensor& tensor = tensors[std::size_t(move.tensor)];
        moveReasons[std::size_t(move.tensor)] =
            "move " + std::to_string(moveReasons.size() + 1) + " to L3: the graph then needs " +
            bytesText(move.placement.total()) + " of L2 instead of " + bytesText(current.total()) + " for " +
            bytesText(move.placement.traffic - std::min(move.placement.traffic, current.traffic)) +
            " more L3 traffic per run (" + tensor.name + " is " + bytesText(tensor.bytes) + ")";
        current = std::move(move.placement);
        smallest = std::min(smallest, current.total());
    }
    if (overStaticBudget(current) && current.total() <= l2Budget) {
        allocation.error = "graph " + graph.name + ": the constants promoted to L2 need " +
                           bytesText(current.l2Static) + " and no other constant can move to L3; "
                           "AT_GRAPH_L2_STATIC_MEMORY_BUDGET is " + std::to_string(staticBudget) + "; raise it";
        return allocation;
    }
    if (current.total() > l2Budget) {
        std::string moved;
        for (std::size_t i : current.inL3)
            moved += (moved.empty() ? "" : ", ") + tensors[i].name;
        allocation.smallestL2 = smallest + allocation.l2Arguments;
        allocation.tensorsInL3 = current.inL3.size();
        const std::string allocatedText =
            allocation.l2Arguments == 0 ? std::string()
                                        : " (" + std::to_string(argumentsBudget) + " less its ARG_SCOPE_ARG_ALLOC arguments' " +
                                              bytesText(allocation.l2Arguments) + ")";
        allocation.error = "graph " + graph.name + ": does not fit in the L2 budget of " + std::to_string(l2Budget) +
                           " bytes" + allocatedText +
                           (moved.empty() ? std::string(" and no tensor can move to L3")
                                          : " even with " + moved + " in L3") +
                           " (it then needs " + bytesText(smallest) + ": constants " + bytesText(current.l2Static) +
                           ", buffers between nodes and staging " + bytesText(current.l2Dynamic) + ")";
        return allocation;
    }

    // Constants in L3 prefetched into L2 where the budget leaves room (see choosePrefetches).
    const std::set<std::size_t> inL3 = current.inL3;
    std::map<std::size_t, std::string> prefetchReasons;
    // Constants executed from flash are read where they are (no copy to L3 RAM to prefetch from).
    if (!model.options.constantsExecuteFromFlash)
        current = choosePrefetches(placer, current, tensors, l2Budget, prefetchReasons);
    const std::map<std::size_t, int> prefetch = current.prefetch;
    std::set<std::size_t> streamed = inL3;
    for (const auto& entry : prefetch)
        streamed.erase(entry.first);

    std::set<std::size_t> inFlash;
    if (model.options.constantsExecuteFromFlash)
        for (std::size_t i : inL3)
            if (isConstant(tensors[i]))
                inFlash.insert(i);

    // The privileged flash takes first the constants that stay in flash (not promoted to L2).
    std::set<std::size_t> privileged;
    const MemoryDevice* privilegedDevice = privilegedFlashDevice(model);
    if (privilegedDevice) {
        std::set<std::size_t> stayInFlash;
        for (std::size_t i : inL3)
            if (isConstant(tensors[i]) && tensors[i].firstNode >= 0)
                stayInFlash.insert(i);
        privileged = choosePrivilegedConstants(tensors, stayInFlash, privilegedDevice->size, kAlignment);
    }
    std::set<std::size_t> inOrdinaryFlash, inPrivilegedFlash;
    for (std::size_t i : inFlash)
        (privileged.count(i) ? inPrivilegedFlash : inOrdinaryFlash).insert(i);

    // The chosen placement with more time for the dynamic block's plan.
    Placement final = placer.evaluate(inL3, 2.0, prefetch, current.stagingLimits);
    if (!final.ok || final.total() > current.total())
        final = current;  // never worse than what was judged to fit

    // Nodes: the kernel each runs and its staging buffers.
    std::unordered_map<std::string, int> kernelUsers;  // by kernel name, counted when first needed
    for (std::size_t n = 0; n < graph.nodes.size(); ++n) {
        NodeExecution node;
        node.kernel = node.sourceKernel = graph.nodes[n].kernel;
        node.l3Arguments = placer.l3ArgumentsOf(n, streamed);
        node.flashArguments = placer.l3ArgumentsOf(n, inOrdinaryFlash);
        node.privilegedFlashArguments = placer.l3ArgumentsOf(n, inPrivilegedFlash);
        node.stagingBytes = final.nodes[n].staging;
        if (const auto limit = final.stagingLimits.find(n); limit != final.stagingLimits.end())
            node.stagingLimit = limit->second;
        node.l3Read = final.nodes[n].l3Read;
        node.l3Write = final.nodes[n].l3Write;
        allocation.l3Traffic += node.l3Read + node.l3Write;
        if (!node.l3Arguments.empty()) {
            // The model's kernel keeps its name when this node is its only user.
            if (kernelUsers.empty()) {
                for (const GraphModel& other : model.graphs)
                    for (const GraphNode& otherNode : other.nodes)
                        ++kernelUsers[otherNode.kernel];
                for (const KernelGroup& group : model.groups)
                    for (const KernelCall& call : group.calls)
                        ++kernelUsers[call.callee];
            }
            if (kernelUsers[node.sourceKernel] > 1)
                node.kernel = node.sourceKernel + "_" + graph.name + "_N" + std::to_string(n);
        }
        allocation.nodes.push_back(node);
    }

    // Constants: L2 ones largest first in one static block whose layout is also the flash image's,
    // so promotion is one copy per constant at construction; L3 ones after them in the image.
    std::vector<GraphTensor*> constants;
    for (GraphTensor& tensor : tensors)
        if (isConstant(tensor) && tensor.firstNode >= 0)
            constants.push_back(&tensor);
    std::stable_sort(constants.begin(), constants.end(),
                     [](const GraphTensor* a, const GraphTensor* b) { return a->bytes > b->bytes; });
    const auto inL3Tensor = [&](const GraphTensor* tensor) {
        return inL3.count(std::size_t(tensor - tensors.data())) > 0;
    };
    for (GraphTensor* constant : constants) {
        if (inL3Tensor(constant))
            continue;
        constant->placement = GraphTensor::Placement::L2Static;
        constant->offset = constant->flashOffset = alignTo(allocation.l2Static);
        allocation.l2Static = constant->offset + constant->bytes;
        constant->reason = "constant promoted to L2 at construction (used by nodes " +
                           std::to_string(constant->firstNode) + " to " + std::to_string(constant->lastNode) + ")";
    }
    // The flash images: the ordinary one starts with the L2 block, then the constants that stay in
    // flash; the privileged one holds its constants alone.
    std::uint64_t imageEnd = alignTo(allocation.l2Static), privilegedEnd = 0;
    bool constantsAfterL2 = false;
    const auto storeInFlash = [&](GraphTensor* constant) {
        const std::size_t index = std::size_t(constant - tensors.data());
        if (privileged.count(index)) {
            constant->privilegedFlash = true;
            constant->flashOffset = alignTo(privilegedEnd);
            privilegedEnd = constant->flashOffset + constant->bytes;
            return;
        }
        constant->flashOffset = alignTo(imageEnd);
        imageEnd = constant->flashOffset + constant->bytes;
        constantsAfterL2 = true;
    };
    const auto flashReason = [&](const GraphTensor* constant) {
        if (!constant->privilegedFlash)
            return std::string();
        return std::string("; stored in the privileged flash ") + memoryLocationName(privilegedDevice->location) +
               " (filled first, largest constants first)";
    };
    for (GraphTensor* constant : constants) {
        if (!inL3Tensor(constant) || model.options.constantsExecuteFromFlash)
            continue;
        constant->placement = GraphTensor::Placement::L3Static;
        constant->offset = alignTo(allocation.l3Static);
        allocation.l3Static = constant->offset + constant->bytes;
        storeInFlash(constant);
        const std::size_t index = std::size_t(constant - tensors.data());
        constant->reason = "constant copied from flash to L3 RAM at construction, " +
                           (prefetch.count(index) ? prefetchReasons[index]
                                                  : "streamed through L2 by node " + std::to_string(constant->firstNode)) +
                           ": " + moveReasons[index] + flashReason(constant);
        if (prefetch.count(index)) {
            constant->prefetchNode = prefetch.at(index);
            allocation.l3Traffic += constant->bytes;
        }
    }
    for (GraphTensor* constant : constants) {
        if (!inL3Tensor(constant) || !model.options.constantsExecuteFromFlash)
            continue;
        constant->placement = GraphTensor::Placement::Flash;
        storeInFlash(constant);
        constant->offset = constant->flashOffset;
        constant->reason = "constant read from the flash image by node " + std::to_string(constant->firstNode) +
                           (constant->lastNode > constant->firstNode ? " to " + std::to_string(constant->lastNode) : "") +
                           " (AT_GRAPH_CONST_EXEC_FROM_FLASH): " +
                           moveReasons[std::size_t(constant - tensors.data())] + flashReason(constant);
    }
    allocation.flashBytes = constantsAfterL2 ? imageEnd : allocation.l2Static;
    allocation.privilegedFlashBytes = privilegedEnd;

    // Buffers between nodes: L2 ones and the staging buffers from the dynamic block's plan.
    allocation.l2Dynamic = final.l2Dynamic;
    allocation.l2DynamicLowerBound = final.l2LowerBound;
    for (std::size_t b = 0; b < final.planned.size(); ++b) {
        const std::uint64_t offset = std::uint64_t(final.plan.offsets[b]);
        if (final.planned[b] == kPrefetchBuffer) {
            for (const auto& [index, buffer] : final.prefetched)
                if (buffer == b)
                    tensors[index].prefetchOffset = offset;
            continue;
        }
        if (final.planned[b] < 0) {
            allocation.nodes[std::size_t(-1 - final.planned[b])].stagingOffset = offset;
            continue;
        }
        GraphTensor& tensor = tensors[std::size_t(final.planned[b])];
        tensor.placement = GraphTensor::Placement::L2Dynamic;
        tensor.offset = offset;
        tensor.reason = "between nodes " + std::to_string(tensor.firstNode) + " and " + std::to_string(tensor.lastNode) +
                        ", in the dynamic L2 block (" + planStatusName(final.plan.status) + " plan, peak " +
                        std::to_string(final.plan.peak) + " bytes, lower bound " +
                        std::to_string(final.plan.lowerBound) + ")";
    }
    // Buffers between nodes moved to L3 share one dynamic L3 block the same way.
    std::vector<Buffer> l3Buffers;
    std::vector<GraphTensor*> l3Locals;
    for (std::size_t i : inL3) {
        GraphTensor& tensor = tensors[i];
        if (!isLocal(tensor))
            continue;
        l3Locals.push_back(&tensor);
        l3Buffers.push_back({tensor.name, tensor.firstNode, tensor.lastNode + 1, std::int64_t(tensor.bytes),
                             std::int64_t(kAlignment), {}});
    }
    if (!l3Buffers.empty()) {
        PlanOptions options;
        options.minimize = true;
        options.timeoutSeconds = 1.0;
        const PlanResult plan = planMemory(l3Buffers, options);
        allocation.l3Dynamic = std::uint64_t(plan.peak);
        for (std::size_t b = 0; b < l3Locals.size(); ++b) {
            l3Locals[b]->placement = GraphTensor::Placement::L3Dynamic;
            l3Locals[b]->offset = std::uint64_t(plan.offsets[b]);
            l3Locals[b]->reason = "between nodes " + std::to_string(l3Locals[b]->firstNode) + " and " +
                                  std::to_string(l3Locals[b]->lastNode) + ", in the dynamic L3 block: " +
                                  moveReasons[std::size_t(l3Locals[b] - tensors.data())];
        }
    }
    std::set<std::string> passedByValue;
    for (const GraphNode& node : graph.nodes)
        for (const GraphNodeBinding& binding : node.bindings)
            if (binding.kind == GraphNodeBinding::Kind::Value)
                passedByValue.insert(binding.symbol);
    for (GraphTensor& tensor : tensors)
        if (tensor.placement == GraphTensor::Placement::Caller)
            tensor.reason = passedByValue.count(tensor.name) ? "runner argument its nodes take by value (GNodeCArg)"
                            : tensor.firstNode < 0 ? "not used by any node"
                            : tensor.argument->scope == GraphArgScope::AllocatedArgument
                                ? "graph argument the graph allocates (ARG_SCOPE_ARG_ALLOC): a block of L2 of its own from "
                                  "construction to destruction, reached through the global pointer " + tensor.name
                                : "graph argument: the caller provides it";
    if (!graph.stacks.empty()) {
        std::unordered_map<std::string, GraphTensor*> byName;
        for (GraphTensor& tensor : tensors)
            byName.emplace(tensor.name, &tensor);
        for (const StackedTensors& stack : graph.stacks) {
            std::string parts;
            for (std::size_t k = 0; k < stack.members.size(); ++k)
                parts += (k ? ", " : "") + stack.members[k] + " at " + std::to_string(stack.offsets[k]);
            if (const auto found = byName.find(stack.out); found != byName.end())
                found->second->reason += "; stacked tensors, used in place: " + parts;
        }
    }
    for (const GraphAlias& alias : graph.aliases)
        for (GraphTensor& tensor : tensors)
            if (tensor.name == alias.buffer)
                tensor.reason += "; also " + alias.local + ", which node " + graph.nodes[alias.node].kernel +
                                 " writes in place of " + alias.reads + " (GNA_INOUT)";

    if (model.options.l3StaticBudget > 0 && allocation.l3Static > model.options.l3StaticBudget) {
        allocation.error = "graph " + graph.name + ": the constants kept in L3 RAM need " +
                           bytesText(allocation.l3Static) + ", AT_GRAPH_L3_STATIC_MEMORY_BUDGET is " +
                           std::to_string(model.options.l3StaticBudget) + "; raise it or the L2 budget";
        return allocation;
    }
    if (const MemoryDevice* flash = homeFlash(model); flash && flash->size > 0 && allocation.flashBytes > flash->size) {
        allocation.shortfall = BudgetShortfall{"flash", flash->size, allocation.flashBytes, graph.name};
        allocation.error = "graph " + graph.name + ": its constants image needs " + bytesText(allocation.flashBytes) +
                           " of flash, the flash budget is " + std::to_string(flash->size) +
                           "; raise the flash budget to at least " + std::to_string(allocation.flashBytes) + " bytes";
        return allocation;
    }
    const std::uint64_t l3Needed = allocation.l3Static + allocation.l3Dynamic;
    if (const std::uint64_t l3Bytes = executionL3RamBytes(model); l3Needed > l3Bytes) {
        // At this L2 budget; a larger L2 budget may need less.
        allocation.shortfall = BudgetShortfall{"L3", l3Bytes, l3Needed, graph.name};
        allocation.error = "graph " + graph.name + ": with " + std::to_string(l2Budget) + " bytes of L2 it needs " +
                           bytesText(l3Needed) + " of L3 RAM, the L3 budget is " + std::to_string(l3Bytes) +
                           "; raise the L3 or the L2 budget";
        return allocation;
    }
    allocation.ok = true;
    return allocation;
}

}  // namespace

namespace {

// Whether a node of the graph has no tiling in the L1 budget even with all the L2 it could want:
// then no L2 budget helps, and the caller names L1 (placeModel's report).
bool nodeOverL1(const KernelModel& model, const GraphModel& graph)
{
    for (const GraphNode& node : graph.nodes)
        for (const UserKernel& kernel : model.userKernels)
            if (kernel.name == node.kernel) {
                bool overL1 = false;
                solveWithoutL2Limit(kernel, model.options, overL1);
                if (overL1)
                    return true;
            }
    return false;
}

}  // namespace

GraphAllocation allocateGraph(const KernelModel& model, const GraphModel& graph, std::uint64_t l2Budget,
                              AllocationMemo* memo)
{
    AllocationMemo::State* const kept = memo ? memo->state_.get() : nullptr;
    GraphAllocation allocation = allocateGraphWithin(model, graph, l2Budget, kept);
    if (allocation.ok || allocation.smallestL2 == 0 || nodeOverL1(model, graph))
        return allocation;
    // Node tilings adapt their staging buffers to the budget, so the smallest L2 seen under a
    // tighter budget is confirmed by placing the graph within it (and raised until it fits).
    std::uint64_t smallest = allocation.smallestL2;
    for (int attempt = 0; attempt < 16; ++attempt) {
        const GraphAllocation trial = allocateGraphWithin(model, graph, smallest, kept);
        if (trial.ok)
            break;
        smallest = std::max(smallest + kAlignment, trial.smallestL2);
    }
    // Under a very tight budget no staging buffer fits and nothing can move, so the figure above
    // may be far from the smallest: narrow it down between the failing budget and one that works.
    std::uint64_t fails = l2Budget;
    for (int step = 0; step < 16 && smallest > fails + kAlignment; ++step) {
        const std::uint64_t middle = (fails + smallest) / 2 / kAlignment * kAlignment;
        if (middle <= fails)
            break;
        if (allocateGraphWithin(model, graph, middle, kept).ok)
            smallest = middle;
        else
            fails = middle;
    }
    allocation.smallestL2 = smallest;
    allocation.shortfall = BudgetShortfall{"L2", l2Budget, smallest, graph.name};
    allocation.error += "; raise the L2 budget to at least " + std::to_string(smallest) + " bytes (the smallest that works)" +
                        (allocation.tensorsInL3 > 0
                             ? " or lower the L1 budget (smaller tiles need smaller staging buffers)"
                             : "");
    return allocation;
}

}  // namespace tessera::tiler
