#include "gap/compile/gap_target.h"

#include "base/error.h"

namespace tessera::gap {

namespace {

// The tile solver's cost model of a chip's cluster for Tessera's basic kernels.
tiler::TilerCostModel clusterCostModel(const target::ChipDescription& chip)
{
    tiler::TilerCostModel cost;
    cost.cores = chip.clusterCores;
    cost.dmaBytesPerCycle = chip.bytesPerCycle(target::MemoryRole::L2);
    cost.l3BytesPerCycle = chip.bytesPerCycle(target::MemoryRole::L3Ram);
    const double macs = chip.macsPerCoreCycle;
    // Tessera's 8-bit kernels are plain C (byte loads and multiply-accumulates, no SIMD dot
    // products): assumed one third faster than the 16-bit ones, an assumption to be replaced by a
    // measurement on a board.
    const double sq8Macs = macs * 4.0 / 3.0;
    cost.macsPerCoreCycleByKernel = {{"KerConv32", macs},
                                     {"KerLinear", macs},
                                     {"KerMatMul", macs},
                                     {"KerConv_SQ8", sq8Macs},
                                     {"KerParLinearLayerFullFeatB32_SQ8", sq8Macs},
                                     {"KerParLinearLayerFullFeatB32_ReLU_SQ8", sq8Macs},
                                     {"KerParLinearLayerFullFeatB32_ReLUN_SQ8", sq8Macs}};
    return cost;
}

GapTarget makeTarget(const target::ChipDescription& chip)
{
    GapTarget target;
    target.name = chip.name;
    target.description = chip.description;
    target.l2CodeReserve = chip.l2CodeReserve;
    target.clusterMhz = chip.clusterMhz;
    target.costModel = clusterCostModel(chip);
    target.budgets = chip.defaultBudgets();
    return target;
}

}  // namespace

const std::vector<GapTarget>& gapTargets()
{
    static const std::vector<GapTarget> targets = [] {
        std::vector<GapTarget> made;
        for (const target::ChipDescription& chip : target::chips())
            made.push_back(makeTarget(chip));
        return made;
    }();
    return targets;
}

const GapTarget& gapTarget(const std::string& name)
{
    const target::ChipDescription& chip = target::chip(name);  // throws naming the known chips
    for (const GapTarget& target : gapTargets())
        if (target.name == chip.name)
            return target;
    throw Error("target '" + name + "' has no GAP compiler");
}

}  // namespace tessera::gap
