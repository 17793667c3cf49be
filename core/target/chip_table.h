// The chips Tessera compiles for, as data. Every chip fact (memories and their speeds, the L2
// kept for code, cores, clock, MAC rates) and every default budget lives here once: the memory
// hierarchy, the GAP compiler's targets and cost model, the command line's defaults and the
// studio's budget bar are all derived from this table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::target {

enum class MemoryRole { L1, L2, L3Ram, Flash, PrivilegedFlash };

struct ChipMemory {
    std::string name;            // "L1", "HyperRAM", "MRAM", ...
    MemoryRole role = MemoryRole::L2;
    std::uint64_t bytes = 0;
    double megabytesPerSecond = 0;  // sustained transfer rate to the level above it
    std::int64_t latencyCycles = 0; // set-up cost of one transfer, in cluster cycles
};

// The memory budgets of one compilation, in bytes (privilegedFlash 0: none).
struct Budgets {
    std::uint64_t l1 = 0;
    std::uint64_t l2 = 0;
    std::uint64_t l3 = 0;
    std::uint64_t flash = 0;
    std::uint64_t privilegedFlash = 0;
    bool operator==(const Budgets&) const = default;
};

struct ChipDescription {
    std::string name;            // "gap8": what --target takes
    std::string displayName;     // "GAP8": what the studio shows
    std::string description;
    unsigned clusterCores = 8;   // cores running the basic kernels
    double clusterMhz = 0;       // nominal cluster clock
    // L2 kept back for the program's code, stacks and data: the default L2 budget is the rest.
    std::uint64_t l2CodeReserve = 0;
    // 16-bit multiply-accumulates per core and cycle of the convolution, linear and matrix kernels.
    double macsPerCoreCycle = 0;
    std::vector<ChipMemory> memories;  // fastest first

    const ChipMemory* memory(MemoryRole role) const;  // nullptr when the chip has none
    std::uint64_t bytes(MemoryRole role) const;       // 0 when the chip has none
    // A memory's rate in bytes per cluster cycle.
    double bytesPerCycle(MemoryRole role) const;
    // The budgets a compilation gets when the user gives none: every memory whole, L2 less the
    // code reserve.
    Budgets defaultBudgets() const;
};

const std::vector<ChipDescription>& chips();

// The chip named `name` ("gap8", case-insensitive); throws tessera::Error listing the known ones.
const ChipDescription& chip(const std::string& name);

}  // namespace tessera::target
