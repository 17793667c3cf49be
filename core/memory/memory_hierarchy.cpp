#include "memory/memory_hierarchy.h"

#include "ir/error.h"

namespace tessera {

std::string memoryKindName(MemoryKind kind)
{
    switch (kind) {
    case MemoryKind::L1: return "L1";
    case MemoryKind::L2: return "L2";
    case MemoryKind::L3Ram: return "L3 RAM";
    case MemoryKind::L3Flash: return "L3 flash";
    case MemoryKind::PrivilegedFlash: return "privileged flash";
    case MemoryKind::Dram: return "DRAM";
    case MemoryKind::Sram: return "SRAM";
    }
    return "memory";
}

const MemoryLevel* MemoryHierarchy::find(MemoryKind kind) const
{
    for (const MemoryLevel& level : levels)
        if (level.kind == kind)
            return &level;
    return nullptr;
}

MemoryLevel* MemoryHierarchy::find(MemoryKind kind)
{
    for (MemoryLevel& level : levels)
        if (level.kind == kind)
            return &level;
    return nullptr;
}

const MemoryLevel& MemoryHierarchy::require(MemoryKind kind) const
{
    if (const MemoryLevel* level = find(kind))
        return *level;
    throw Error("target '" + target + "' has no " + memoryKindName(kind) + " memory");
}

// Transfer rates are in bytes per cluster cycle: the cluster DMA between L2 and L1, and the
// micro-DMA over HyperBus (8-bit DDR) or the MRAM interface for the L3 levels.
MemoryHierarchy gap8Hierarchy()
{
    MemoryHierarchy h;
    h.target = "gap8";
    h.macsPerCycle = 8.0; // 8 cores, one 16-bit MAC per cycle each (SIMD doubles it for 8-bit)
    h.levels = {
        {"L1", MemoryKind::L1, 64 * 1024, 4, 8.0, 10, true},
        {"L2", MemoryKind::L2, 512 * 1024, 4, 8.0, 10, true},
        {"HyperRAM", MemoryKind::L3Ram, 8 * 1024 * 1024, 4, 1.0, 100, true},
        {"HyperFlash", MemoryKind::L3Flash, 64 * 1024 * 1024, 4, 1.0, 150, false},
    };
    return h;
}

MemoryHierarchy gap9Hierarchy()
{
    MemoryHierarchy h;
    h.target = "gap9";
    h.macsPerCycle = 16.0; // 9 cores with SIMD
    h.levels = {
        {"L1", MemoryKind::L1, 128 * 1024, 4, 16.0, 10, true},
        {"L2", MemoryKind::L2, 1536 * 1024, 4, 16.0, 10, true},
        {"MRAM", MemoryKind::PrivilegedFlash, 2 * 1024 * 1024, 4, 4.0, 40, false},
        {"HyperRAM", MemoryKind::L3Ram, 8 * 1024 * 1024, 4, 2.0, 100, true},
        {"Flash", MemoryKind::L3Flash, 64 * 1024 * 1024, 4, 1.0, 150, false},
    };
    return h;
}

MemoryHierarchy hierarchyForTarget(const std::string& target)
{
    if (target == "gap8")
        return gap8Hierarchy();
    if (target == "gap9")
        return gap9Hierarchy();
    throw Error("unknown target '" + target + "' (known: gap8, gap9)");
}

} // namespace tessera
