#include "gap/compile/gap_target.h"

#include "ir/error.h"

namespace tessera::gap {

namespace {

// The cost model of a GAP cluster for Tessera's 16-bit basic kernels. The convolution, linear and
// matrix-product rates come from users' reports of about 3 MACs per cycle for 16-bit power-of-two
// convolutions on the 8 GAP8 cores (gap_sdk issue #208); L3 bandwidths are the HyperBus RAM's
// nominal rate over the cluster clock. These are estimates to compare budgets, not measurements.
tiler::TilerCostModel clusterCostModel(unsigned cores, double macsPerCoreCycle, double l3BytesPerCycle)
{
    tiler::TilerCostModel cost;
    cost.cores = cores;
    cost.l3BytesPerCycle = l3BytesPerCycle;
    // Tessera's 8-bit kernels are plain C (byte loads and multiply-accumulates, no SIMD dot
    // products): assumed one third faster than the 16-bit ones, an assumption to be replaced by a
    // measurement on a board.
    const double sq8MacsPerCoreCycle = macsPerCoreCycle * 4.0 / 3.0;
    cost.macsPerCoreCycleByKernel = {{"KerConv32", macsPerCoreCycle},
                                     {"KerLinear", macsPerCoreCycle},
                                     {"KerMatMul", macsPerCoreCycle},
                                     {"KerConv_SQ8", sq8MacsPerCoreCycle},
                                     {"KerLinear_SQ8", sq8MacsPerCoreCycle}};
    return cost;
}

GapTarget makeTarget(std::string name, std::string description, int cores, uint64_t l1, uint64_t l2,
                     uint64_t reserve, uint64_t privilegedFlash, double mhz, tiler::TilerCostModel cost)
{
    GapTarget target;
    target.name = std::move(name);
    target.description = std::move(description);
    target.clusterCores = cores;
    target.l1Bytes = l1;
    target.l2Bytes = l2;
    target.l2CodeReserve = reserve;
    target.l3RamBytes = 8 * 1024 * 1024;  // the boards' usual HyperRAM
    target.flashBytes = 16 * 1024 * 1024;  // and flash
    target.privilegedFlashBytes = privilegedFlash;
    target.clusterMhz = mhz;
    target.costModel = std::move(cost);
    return target;
}

}  // namespace

const std::vector<GapTarget>& gapTargets()
{
    // Memories of the GAP8 and GAP9 data sheets. The code reserve is what a typical application
    // (runtime, generated code, stacks) takes from L2; projects that need more pass --l2.
    static const std::vector<GapTarget> targets = {
        // HyperRAM at about 100 MB/s against a 175 MHz cluster.
        makeTarget("gap8", "GreenWaves GAP8: 8-core cluster, 64 KB L1, 512 KB L2", 8, 64 * 1024, 512 * 1024,
                   64 * 1024, 0, 175.0, clusterCostModel(8, 3.0 / 8, 100.0 / 175.0)),
        // Eight worker cores plus the cluster controller; HyperRAM at about 400 MB/s against 370 MHz;
        // the 2 MB on-chip MRAM is the privileged flash, filled first with constants.
        makeTarget("gap9", "GreenWaves GAP9: 9-core cluster, 128 KB L1, 1.5 MB L2, 2 MB MRAM", 9, 128 * 1024,
                   1536 * 1024, 128 * 1024, 2 * 1024 * 1024, 370.0, clusterCostModel(8, 3.0 / 8, 400.0 / 370.0)),
    };
    return targets;
}

const GapTarget& gapTarget(const std::string& name)
{
    std::string known;
    for (const GapTarget& target : gapTargets()) {
        if (target.name == name)
            return target;
        known += (known.empty() ? "" : ", ") + target.name;
    }
    throw Error("unknown GAP target '" + name + "'; the targets are " + known);
}

}  // namespace tessera::gap
