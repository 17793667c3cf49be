#include "memory/memory_hierarchy.h"

#include "base/error.h"
#include "target/chip_table.h"

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

namespace {

MemoryKind kindOf(target::MemoryRole role)
{
    switch (role) {
    case target::MemoryRole::L1: return MemoryKind::L1;
    case target::MemoryRole::L2: return MemoryKind::L2;
    case target::MemoryRole::L3Ram: return MemoryKind::L3Ram;
    case target::MemoryRole::Flash: return MemoryKind::L3Flash;
    case target::MemoryRole::PrivilegedFlash: return MemoryKind::PrivilegedFlash;
    }
    return MemoryKind::L2;
}

} // namespace

// Transfer rates are in bytes per cluster cycle: the cluster DMA between L2 and L1, and the
// micro-DMA over HyperBus (8-bit DDR) or the MRAM interface for the L3 levels, all from the
// chip table.
MemoryHierarchy hierarchyOf(const target::ChipDescription& chip)
{
    MemoryHierarchy h;
    h.target = chip.name;
    h.macsPerCycle = double(chip.clusterCores) * chip.macsPerCoreCycle;
    for (const target::ChipMemory& memory : chip.memories) {
        const bool flash = memory.role == target::MemoryRole::Flash || memory.role == target::MemoryRole::PrivilegedFlash;
        h.levels.push_back({memory.name, kindOf(memory.role), int64_t(memory.bytes), 4, chip.bytesPerCycle(memory.role),
                            memory.latencyCycles, !flash});
    }
    return h;
}

MemoryHierarchy gap8Hierarchy() { return hierarchyOf(target::chip("gap8")); }

MemoryHierarchy gap9Hierarchy() { return hierarchyOf(target::chip("gap9")); }

MemoryHierarchy hierarchyForTarget(const std::string& target) { return hierarchyOf(target::chip(target)); }

} // namespace tessera
