#include "session/deployed_memory_plan.h"

#include "target/chip_table.h"

#include <fmt/format.h>

namespace tessera {
namespace {

constexpr std::uint64_t kAlignment = 4;  // the blocks' alignment in the generated code

std::uint64_t aligned(std::uint64_t value) { return (value + kAlignment - 1) / kAlignment * kAlignment; }

std::string levelName(const target::ChipDescription& chip, target::MemoryRole role, const char* fallback)
{
    const target::ChipMemory* memory = chip.memory(role);
    return memory ? memory->name : fallback;
}

} // namespace

std::vector<std::string> deployedPlanLevels(const target::ChipDescription& chip)
{
    std::vector<std::string> levels{"L2", levelName(chip, target::MemoryRole::L3Ram, "L3 RAM")};
    if (chip.memory(target::MemoryRole::PrivilegedFlash))
        levels.push_back(levelName(chip, target::MemoryRole::PrivilegedFlash, "privileged flash"));
    levels.push_back(levelName(chip, target::MemoryRole::Flash, "flash"));
    return levels;
}

HierarchyPlan deployedMemoryPlan(const gap::GapDeployment& deployment, const gap::GapPlan& plan)
{
    using Placement = tiler::GraphTensor::Placement;
    HierarchyPlan shown;
    if (!plan.ok())
        return shown;
    const target::ChipDescription& chip = target::chip(deployment.target.name);
    const std::string l3Ram = levelName(chip, target::MemoryRole::L3Ram, "L3 RAM");
    const std::string flash = levelName(chip, target::MemoryRole::Flash, "flash");
    const std::string privileged = levelName(chip, target::MemoryRole::PrivilegedFlash, "privileged flash");
    const tiler::GraphAllocation& allocation = plan.allocation();
    const tiler::GraphModel& graph = plan.placed->generated.graphs.at(0);
    const std::int64_t steps = std::int64_t(graph.nodes.size());
    const std::uint64_t l2DynamicBase = aligned(allocation.l2Static);
    const std::uint64_t l3DynamicBase = aligned(allocation.l3Static);
    shown.stepTraffic.assign(std::size_t(steps), 0);
    for (std::size_t n = 0; n < allocation.nodes.size() && n < shown.stepTraffic.size(); ++n)
        shown.stepTraffic[n] += std::int64_t(allocation.nodes[n].l3Read + allocation.nodes[n].l3Write);
    for (const tiler::GraphTensor& tensor : allocation.tensors) {
        if (tensor.firstNode < 0 || tensor.placement == Placement::Caller)
            continue;
        TensorPlacement shownTensor;
        shownTensor.tensor = tensor.name;
        shownTensor.size = std::int64_t(tensor.bytes);
        shownTensor.reason = tensor.reason;
        const bool constant = tensor.argument->direction == tiler::GraphArgDirection::ConstIn;
        shownTensor.kind = constant ? PlacementKind::Constant : PlacementKind::Activation;
        shownTensor.lower = constant ? 0 : tensor.firstNode;
        shownTensor.upper = constant ? steps : tensor.lastNode + 1;
        switch (tensor.placement) {
        case Placement::L2Static:
            shownTensor.level = "L2";
            shownTensor.offset = std::int64_t(tensor.offset);
            break;
        case Placement::L2Dynamic:
            shownTensor.level = "L2";
            shownTensor.offset = std::int64_t(l2DynamicBase + tensor.offset);
            break;
        case Placement::L3Static:
            shownTensor.level = l3Ram;
            shownTensor.offset = std::int64_t(tensor.offset);
            break;
        case Placement::L3Dynamic:
            shownTensor.level = l3Ram;
            shownTensor.offset = std::int64_t(l3DynamicBase + tensor.offset);
            ++shown.spilledTensors;
            break;
        case Placement::Flash:
            shownTensor.level = tensor.privilegedFlash ? privileged : flash;
            shownTensor.offset = std::int64_t(tensor.flashOffset);
            break;
        case Placement::Caller: break;
        }
        if (tensor.placement == Placement::L2Static)
            ++shown.promotedConstants;
        shown.placements.push_back(shownTensor);
        if (tensor.prefetchNode >= 0) {
            if (std::size_t(tensor.prefetchNode) < shown.stepTraffic.size())
                shown.stepTraffic[std::size_t(tensor.prefetchNode)] += std::int64_t(tensor.bytes);
            TensorPlacement copy;
            copy.tensor = tensor.name;
            copy.kind = PlacementKind::Prefetch;
            copy.level = "L2";
            copy.offset = std::int64_t(l2DynamicBase + tensor.prefetchOffset);
            copy.size = std::int64_t(tensor.bytes);
            copy.lower = tensor.prefetchNode;
            copy.upper = tensor.lastNode + 1;
            copy.reason = "prefetched copy of " + tensor.name + " from " + l3Ram;
            shown.placements.push_back(copy);
            ++shown.prefetchedConstants;
        }
    }
    for (std::size_t n = 0; n < allocation.nodes.size(); ++n) {
        const tiler::NodeExecution& node = allocation.nodes[n];
        if (node.stagingBytes == 0)
            continue;
        TensorPlacement staging;
        staging.tensor = node.kernel + " staging";
        staging.kind = PlacementKind::Staging;
        staging.level = "L2";
        staging.offset = std::int64_t(l2DynamicBase + node.stagingOffset);
        staging.size = std::int64_t(node.stagingBytes);
        staging.lower = std::int64_t(n);
        staging.upper = std::int64_t(n) + 1;
        staging.reason = "L2 staging buffers of node " + node.kernel + " for its arguments in L3 or flash";
        shown.placements.push_back(staging);
    }
    shown.l2.peak = std::int64_t(allocation.l2Total());
    shown.l2.lowerBound = std::int64_t(allocation.l2Static + allocation.l2DynamicLowerBound);
    shown.l2.status = PlanStatus::Feasible;
    shown.l3RamBytes = std::int64_t(allocation.l3Static + allocation.l3Dynamic);
    shown.flashBytes = std::int64_t(allocation.flashBytes);
    shown.privilegedFlashBytes = std::int64_t(allocation.privilegedFlashBytes);
    shown.l3TrafficBytes = std::int64_t(allocation.l3Traffic);
    shown.steps = steps;
    return shown;
}

std::string formatPlanTotals(const gap::GapPlan& plan)
{
    const tiler::GraphAllocation& a = plan.allocation();
    std::size_t inL3 = 0, inFlash = 0, prefetched = 0, promoted = 0;
    for (const tiler::GraphTensor& tensor : a.tensors) {
        inL3 += tensor.placement == tiler::GraphTensor::Placement::L3Static ||
                tensor.placement == tiler::GraphTensor::Placement::L3Dynamic;
        inFlash += tensor.placement == tiler::GraphTensor::Placement::Flash;
        promoted += tensor.placement == tiler::GraphTensor::Placement::L2Static;
        prefetched += tensor.prefetchNode >= 0;
    }
    std::string text = fmt::format("L2: peak {} bytes of the {} budget ({} static, {} dynamic), lower bound {}\n",
                                   a.l2Total(), plan.budgets.l2, a.l2Static, a.l2Dynamic,
                                   a.l2Static + a.l2DynamicLowerBound);
    text += fmt::format("L3 RAM: {} bytes ({} static, {} dynamic) for {} tensors; flash image {} bytes, privileged "
                        "flash image {} bytes, {} constants read from flash\n",
                        a.l3Static + a.l3Dynamic, a.l3Static, a.l3Dynamic, inL3, a.flashBytes, a.privilegedFlashBytes,
                        inFlash);
    text += fmt::format("constants: {} promoted to L2, {} prefetched; L3 traffic {} bytes per inference\n", promoted,
                        prefetched, a.l3Traffic);
    return text;
}

}  // namespace tessera
