#include "gap/compile/gap_target.h"

#include "ir/error.h"

namespace tessera::gap {

const std::vector<GapTarget>& gapTargets()
{
    // Memories of the GAP8 and GAP9 data sheets with the boards' usual 8 MB HyperRAM and 16 MB
    // flash. The code reserve is what a typical application (runtime, generated code, stacks) takes
    // from L2; projects that need more pass --l2.
    static const std::vector<GapTarget> targets = {
        {"gap8", "GreenWaves GAP8: 8-core cluster, 64 KB L1, 512 KB L2", 8, 64 * 1024, 512 * 1024, 64 * 1024,
         8 * 1024 * 1024, 16 * 1024 * 1024, 175.0},
        {"gap9", "GreenWaves GAP9: 9-core cluster, 128 KB L1, 1.5 MB L2", 9, 128 * 1024, 1536 * 1024, 128 * 1024,
         8 * 1024 * 1024, 16 * 1024 * 1024, 370.0},
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
