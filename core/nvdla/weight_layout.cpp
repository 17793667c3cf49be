#include "nvdla/weight_layout.h"

#include "base/error.h"

#include <fmt/format.h>

namespace tessera::nvdla {

WeightLayout directWeightLayout(unsigned kernels, unsigned channels, unsigned height, unsigned width,
                                unsigned elementBytes, unsigned atomicK, unsigned atomicC, unsigned entryBytes)
{
    if (kernels == 0 || channels == 0 || height == 0 || width == 0 || kernels > 8192 || channels > 8192 || height > 32 ||
        width > 32)
        throw Error(fmt::format("a {}x{}x{}x{} kernel set is outside what NVDLA's convolution takes (kernels up to "
                                "32x32, channels up to 8192)",
                                kernels, channels, height, width));
    WeightLayout layout;
    layout.kernels = kernels;
    layout.channels = channels;
    layout.height = height;
    layout.width = width;
    layout.elementBytes = elementBytes;
    layout.kernelsPerGroup = elementBytes == 1 ? atomicK : atomicK / 2;
    layout.channelsPerBlock = atomicC;
    layout.bytesPerKernel = std::uint64_t(channels) * height * width * elementBytes;
    const std::uint64_t raw = layout.bytesPerKernel * kernels;
    layout.bytes = (raw + entryBytes - 1) / entryBytes * entryBytes;
    return layout;
}

std::uint64_t WeightLayout::offsetOf(unsigned k, unsigned c, unsigned r, unsigned s) const
{
    const unsigned group = k / kernelsPerGroup;
    const unsigned groupKernels = std::min(kernelsPerGroup, kernels - group * kernelsPerGroup);
    const unsigned kernelInGroup = k % kernelsPerGroup;
    // Groups before this one are full.
    std::uint64_t offset = std::uint64_t(group) * kernelsPerGroup * bytesPerKernel;
    const unsigned block = c / channelsPerBlock;
    const unsigned fullBlocks = channels / channelsPerBlock;
    // Full channel blocks before this one, each R * S * groupKernels * channelsPerBlock elements.
    offset += std::uint64_t(block) * height * width * groupKernels * channelsPerBlock * elementBytes;
    const unsigned blockChannels = block < fullBlocks ? channelsPerBlock : channels - fullBlocks * channelsPerBlock;
    const std::uint64_t element =
        ((std::uint64_t(r) * width + s) * groupKernels + kernelInGroup) * blockChannels + (c % channelsPerBlock);
    return offset + element * elementBytes;
}

}  // namespace tessera::nvdla
