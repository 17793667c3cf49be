// PDP builds each output line in a 7 KiB line buffer, so it pools an output at most its flying width
// wide at once; a wider output is pooled in splits of the width that the unit walks itself within
// one operation (split_num and the partial widths of dla_pdp_op_desc). The first split takes the
// left padding, the last the right; later splits re-read the kernel-minus-stride columns the one
// before also read. The split follows NVIDIA's compiler's formulas.
#pragma once

#include "target/nvdla_configs.h"

#include <cstdint>

namespace tessera::nvdla {

// The widest output PDP pools at once for a window kernelHeight high sliding strideY.
std::int64_t pdpFlyingWidth(const target::NvdlaConfig& config, target::NvdlaPrecision precision,
                            std::int64_t kernelHeight, std::int64_t strideY);

struct PoolingSplit {
    unsigned count = 1;  // split_num; 1: no split, every partial width 0
    // Input columns: the first split's (without the left padding), then the new columns of each middle
    // and of the last split (without the re-read overlap); output columns of each.
    unsigned inFirst = 0, inMid = 0, inLast = 0, outFirst = 0, outMid = 0, outLast = 0;
};

// The split of an output `outWidth` wide from `inWidth` input columns (those the windows reach:
// no right padding is negative), window kernelWidth, stride strideX, left padding padLeft, right
// padding padRight. Throws tessera::UnsupportedError when it takes more than the 64 splits the
// firmware takes or a partial width above the registers' 1024.
PoolingSplit poolingSplit(std::int64_t inWidth, std::int64_t outWidth, std::int64_t kernelWidth, std::int64_t strideX,
                          std::int64_t padLeft, std::int64_t padRight, std::int64_t flyingWidth);

}  // namespace tessera::nvdla
