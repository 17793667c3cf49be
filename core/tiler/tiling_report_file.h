// Reading a tiling report (<kernels>.tiling.json, written by GenerateTilingCode) back: the kernel
// model it carries and the L1 budget it was solved at, so a viewer can solve the same kernels again.
#pragma once

#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>

namespace tessera::tiler {

struct TilingReportFile {
    KernelModel model;
    std::uint64_t l1Budget = 0;  // the report's "l1_budget", else the model's own L1 size
};

// Throws tessera::Error "<source> ..." for corrupt JSON, a report without its model section, and a
// model with a missing, mistyped or out-of-range field (named as "user_kernels[0].args[2].width"),
// and a model that fails checkModel() (each problem on a line of its own).
TilingReportFile parseTilingReport(const std::string& bytes, const std::string& source);

}  // namespace tessera::tiler
