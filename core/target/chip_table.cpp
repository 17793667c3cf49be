#include "target/chip_table.h"

#include "base/error.h"

#include <algorithm>
#include <cctype>

namespace tessera::target {

const ChipMemory* ChipDescription::memory(MemoryRole role) const
{
    for (const ChipMemory& memory : memories)
        if (memory.role == role)
            return &memory;
    return nullptr;
}

std::uint64_t ChipDescription::bytes(MemoryRole role) const
{
    const ChipMemory* found = memory(role);
    return found ? found->bytes : 0;
}

double ChipDescription::bytesPerCycle(MemoryRole role) const
{
    const ChipMemory* found = memory(role);
    return found && clusterMhz > 0 ? found->megabytesPerSecond / clusterMhz : 0.0;
}

Budgets ChipDescription::defaultBudgets() const
{
    return {bytes(MemoryRole::L1), bytes(MemoryRole::L2) - l2CodeReserve, bytes(MemoryRole::L3Ram),
            bytes(MemoryRole::Flash), bytes(MemoryRole::PrivilegedFlash)};
}

const std::vector<ChipDescription>& chips()
{
    constexpr std::uint64_t KiB = 1024, MiB = 1024 * 1024;
    // Memories of the GAP8 and GAP9 data sheets with the boards' usual 8 MB HyperRAM and 16 MB
    // flash. The code reserve is what a typical application (runtime, generated code, stacks) takes
    // from L2; projects that need more give a smaller L2 budget. The MAC rate is users' report of
    // about 3 MACs per cycle for 16-bit power-of-two convolutions on GAP8's 8 cores (gap_sdk issue
    // #208). These are estimates to compare budgets, not measurements.
    static const std::vector<ChipDescription> table = {
        {"gap8", "GAP8", "GreenWaves GAP8: 8-core cluster, 64 KB L1, 512 KB L2", 8, 175.0, 64 * KiB, 3.0 / 8,
         {
             {"L1", MemoryRole::L1, 64 * KiB, 1400.0, 10},          // cluster DMA, 8 bytes per cycle
             {"L2", MemoryRole::L2, 512 * KiB, 1400.0, 10},
             {"HyperRAM", MemoryRole::L3Ram, 8 * MiB, 100.0, 100},  // HyperBus, 8-bit DDR
             {"HyperFlash", MemoryRole::Flash, 16 * MiB, 100.0, 150},
         }},
        // Eight worker cores plus the cluster controller; the 2 MB on-chip MRAM is the privileged
        // flash, filled first with constants.
        {"gap9", "GAP9", "GreenWaves GAP9: 9-core cluster, 128 KB L1, 1.5 MB L2, 2 MB MRAM", 8, 370.0, 128 * KiB,
         3.0 / 8,
         {
             {"L1", MemoryRole::L1, 128 * KiB, 5920.0, 10},  // cluster DMA, 16 bytes per cycle
             {"L2", MemoryRole::L2, 1536 * KiB, 5920.0, 10},
             {"MRAM", MemoryRole::PrivilegedFlash, 2 * MiB, 1480.0, 40},
             {"HyperRAM", MemoryRole::L3Ram, 8 * MiB, 400.0, 100},
             {"Flash", MemoryRole::Flash, 16 * MiB, 370.0, 150},
         }},
    };
    return table;
}

const ChipDescription& chip(const std::string& name)
{
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::string known;
    for (const ChipDescription& description : chips()) {
        if (description.name == lower)
            return description;
        known += (known.empty() ? "" : ", ") + description.name;
    }
    throw Error("unknown target '" + name + "'; the targets are " + known);
}

}  // namespace tessera::target
