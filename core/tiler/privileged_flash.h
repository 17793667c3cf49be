// The privileged flash (AT_GRAPH_PRIVILEGED_L3_HOME): a smaller, faster flash device, such as
// GAP9's on-chip MRAM, that holds as many of the constants left in flash as it can before the
// ordinary flash takes the rest.
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <set>
#include <vector>

namespace tessera::tiler {

// The device AT_GRAPH_PRIVILEGED_L3_HOME names, or nullptr when the model has none.
const MemoryDevice* privilegedFlashDevice(const KernelModel& model);

// Of `candidates` (indices into `tensors`: the constants that stay in flash, read by the nodes or
// copied to L3 RAM at construction), the ones the privileged flash of `capacity` bytes holds:
// largest first, each that still fits (items aligned to `alignment`), so that as many bytes as
// possible leave the ordinary flash.
std::set<std::size_t> choosePrivilegedConstants(const std::vector<GraphTensor>& tensors,
                                                const std::set<std::size_t>& candidates, std::uint64_t capacity,
                                                std::uint64_t alignment);

}  // namespace tessera::tiler
