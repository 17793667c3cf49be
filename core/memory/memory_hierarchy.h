#pragma once
// The memory levels of a target, as data: sizes, alignment, transfer speed and whether code can
// write them. The planner and the spill/promotion logic read only this, so every target describes
// itself the same way.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

enum class MemoryKind { L1, L2, L3Ram, L3Flash, PrivilegedFlash, Dram, Sram };

std::string memoryKindName(MemoryKind kind);

struct MemoryLevel {
    std::string name;                 // "L2", "HyperRAM", "MRAM", ...
    MemoryKind kind = MemoryKind::L2;
    int64_t size = 0;                 // bytes
    int64_t alignment = 4;            // bytes; a power of two
    double bytesPerCycle = 1.0;       // sustained transfer rate to/from the level below the core
    int64_t latencyCycles = 0;        // set-up cost of one transfer
    bool writable = true;             // flash is read-only at run time

    // Cycles to move `bytes` in one transfer.
    double transferCycles(int64_t bytes) const { return double(latencyCycles) + double(bytes) / bytesPerCycle; }
};

struct MemoryHierarchy {
    std::string target;               // "gap8", "gap9", ...
    std::vector<MemoryLevel> levels;  // fastest first
    double macsPerCycle = 1.0;        // compute rate used to estimate how long a step runs

    const MemoryLevel* find(MemoryKind kind) const;
    MemoryLevel* find(MemoryKind kind);
    // Throws Error naming the target when the level is missing.
    const MemoryLevel& require(MemoryKind kind) const;
};

namespace target {
struct ChipDescription;
}

// A chip of the chip table (core/target/chip_table.h) as memory levels.
MemoryHierarchy hierarchyOf(const target::ChipDescription& chip);
// GAP8: 64 KB shared L1, 512 KB L2, 8 MB HyperRAM, 16 MB HyperFlash.
MemoryHierarchy gap8Hierarchy();
// GAP9: 128 KB shared L1, 1.5 MB L2, 2 MB on-chip MRAM (the privileged flash), 8 MB HyperRAM,
// 16 MB external flash.
MemoryHierarchy gap9Hierarchy();
// By target name ("gap8", "gap9"); throws Error listing the known targets otherwise.
MemoryHierarchy hierarchyForTarget(const std::string& target);

} // namespace tessera
