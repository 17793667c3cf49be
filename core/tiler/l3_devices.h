// Which of the model's L3 devices a graph uses: the Ram that holds tensors moved out of L2
// (AT_GRAPH_PREF_L3_EXEC) and the ordinary flash that holds the constants image
// (AT_GRAPH_PREF_L3_HOME). A model may declare several of each; the preferred one wins when
// declared, otherwise the first one declared.
#pragma once

#include "tiler/kernel_model.h"

#include <cstdint>

namespace tessera::tiler {

// The L3 Ram device of execution, or nullptr when the model declares none.
const MemoryDevice* executionL3Ram(const KernelModel& model);
// The L3 Ram budget: the execution device's size, or the model's L3 size without devices.
std::uint64_t executionL3RamBytes(const KernelModel& model);
// The flash device of the constants image (never the privileged flash), or nullptr.
const MemoryDevice* homeFlash(const KernelModel& model);

}  // namespace tessera::tiler
