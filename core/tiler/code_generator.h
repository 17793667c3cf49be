// Tiles every user kernel of a model and writes the generated C files: user kernels and groups
// (GenKernels.c/.h), the L1/L2 symbols (GenKernelsInit.c/.h), and a machine-readable record of
// the tiling decisions and predicted DMA traffic (<kernels source stem>.tiling.json).
#pragma once

#include "tiler/kernel_model.h"

#include <string>
#include <vector>

namespace tessera::tiler {

struct GenerationResult {
    bool ok = false;
    std::string error;                    // why generation failed, naming kernel and argument
    std::vector<std::string> writtenFiles;
    std::string log;                      // human-readable summary (tiles, L1 used, DMA bytes)
};

GenerationResult generateTilingCode(const KernelModel& model);

}  // namespace tessera::tiler
