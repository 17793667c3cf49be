#include "nvdla/compile/pooling_split.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::nvdla {

std::int64_t pdpFlyingWidth(const target::NvdlaConfig& config, target::NvdlaPrecision precision,
                            std::int64_t kernelHeight, std::int64_t strideY)
{
    // Lines of the output row being built that the buffer holds, by how many windows overlap.
    static const std::int64_t overlapLines[9] = {1, 1, 2, 4, 4, 8, 8, 8, 8};
    const std::int64_t logicalOverlap = (kernelHeight + strideY - 1) / std::max<std::int64_t>(1, strideY);
    const bool int8 = precision == target::NvdlaPrecision::Int8;
    const std::int64_t kernelsPerGroup = int8 ? config.atomicK : config.atomicK / 2;
    const std::int64_t bits = int8 ? 14 : 28;
    return (7 * 1024 * 8) / (overlapLines[std::clamp<std::int64_t>(logicalOverlap, 0, 8)] * kernelsPerGroup * bits);
}

PoolingSplit poolingSplit(std::int64_t inWidth, std::int64_t outWidth, std::int64_t kernelWidth, std::int64_t strideX,
                          std::int64_t padLeft, std::int64_t padRight, std::int64_t flyingWidth)
{
    PoolingSplit split;
    if (outWidth <= flyingWidth)
        return split;
    const std::int64_t count = (outWidth + flyingWidth - 1) / flyingWidth;
    if (count > 64)
        throw UnsupportedError(fmt::format("an output {} wide takes {} splits of PDP's {}; the firmware takes at most 64",
                                           outWidth, count, flyingWidth));
    const std::int64_t overlap = kernelWidth - strideX;
    std::int64_t outFirst = flyingWidth, outMid = count == 2 ? 0 : flyingWidth;
    std::int64_t outLast = outWidth - outFirst - (count - 2) * outMid;
    const auto inFirstFor = [&] { return (outFirst - 1) * strideX + kernelWidth - padLeft; };
    const auto inLastFor = [&] { return (outLast - 1) * strideX + kernelWidth - padRight - overlap; };
    // A last split of few outputs over much right padding would read no new column: it takes
    // outputs from the first.
    while (inLastFor() < 1 && outFirst > 1) {
        --outFirst;
        ++outLast;
    }
    const std::int64_t inMid = count > 2 ? (outMid - 1) * strideX + kernelWidth - overlap : 0;
    const std::int64_t inFirst = inFirstFor(), inLast = inLastFor();
    if (inFirst < 1 || inLast < 1 || inFirst + (count - 2) * inMid + inLast != inWidth)
        throw UnsupportedError(fmt::format("pooling {} columns into {} does not split into PDP's widths of {}", inWidth,
                                           outWidth, flyingWidth));
    for (std::int64_t width : {inFirst, inMid, inLast + overlap, outFirst, outMid, outLast})
        if (width > 1024)
            throw UnsupportedError(fmt::format("a split of {} columns exceeds the 1024 PDP's registers hold", width));
    split.count = unsigned(count);
    split.inFirst = unsigned(inFirst);
    split.inMid = unsigned(inMid);
    split.inLast = unsigned(inLast);
    split.outFirst = unsigned(outFirst);
    split.outMid = unsigned(outMid);
    split.outLast = unsigned(outLast);
    return split;
}

}  // namespace tessera::nvdla
