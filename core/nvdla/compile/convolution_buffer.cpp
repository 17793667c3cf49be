#include "nvdla/compile/convolution_buffer.h"

#include "nvdla/weight_layout.h"

#include <algorithm>

namespace tessera::nvdla {

ConvolutionBufferNeed convolutionBufferNeed(const target::NvdlaConfig& config, unsigned kernels, unsigned channels,
                                            unsigned inputWidth, unsigned kernelRows, unsigned kernelColumns,
                                            unsigned elementBytes)
{
    ConvolutionBufferNeed need;
    need.entriesPerBank = config.cbufEntriesPerBank;
    // A line holds the channels' atoms for every column; an entry holds atomsPerEntry atoms, and a
    // last partial entry of 3 atoms takes a whole entry per column.
    const unsigned atomsPerEntry = config.cbufEntryBytes / config.memoryAtomicBytes;
    const std::uint64_t channelAtoms =
        (std::uint64_t(channels) * elementBytes + config.memoryAtomicBytes - 1) / config.memoryAtomicBytes;
    const std::uint64_t lastAtoms = channelAtoms % atomsPerEntry;
    need.entriesPerSlice = (channelAtoms / atomsPerEntry) * inputWidth +
                           (lastAtoms == 3 ? inputWidth : (lastAtoms * inputWidth + atomsPerEntry - 1) / atomsPerEntry);
    const WeightLayout layout = directWeightLayout(kernels, channels, kernelRows, kernelColumns, elementBytes,
                                                   config.atomicK, config.atomicC, config.cbufEntryBytes);
    const auto weightBanks = [&](std::uint64_t kernelCount) {
        const std::uint64_t entries = (layout.bytesPerKernel * kernelCount + config.cbufEntryBytes - 1) / config.cbufEntryBytes;
        return (entries + need.entriesPerBank - 1) / need.entriesPerBank;
    };
    need.allWeightBanks = weightBanks(kernels);
    need.groupWeightBanks = weightBanks(std::min(kernels, layout.kernelsPerGroup));
    return need;
}

bool fitsConvolutionBuffer(const target::NvdlaConfig& config, const ConvolutionBufferNeed& need, unsigned kernelRows)
{
    return need.groupWeightBanks + need.dataBanks(kernelRows) <= config.cbufBanks;
}

}  // namespace tessera::nvdla
