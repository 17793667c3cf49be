// How a direct convolution fills the convolution buffer (CBUF): entries per input line (a slice),
// and banks for input lines and for kernels, as CDMA fetches them. The emitter chooses a
// convolution's data and weight banks with it; split-input-channels splits a convolution whose one
// kernel group and one kernel height of input lines cannot fit together.
#pragma once

#include "target/nvdla_configs.h"

#include <cstdint>

namespace tessera::nvdla {

struct ConvolutionBufferNeed {
    std::uint64_t entriesPerSlice = 0;   // one input line of all the channels
    std::uint64_t groupWeightBanks = 0;  // one kernel group
    std::uint64_t allWeightBanks = 0;    // every kernel
    std::uint64_t entriesPerBank = 0;

    std::uint64_t dataBanks(std::uint64_t rows) const
    {
        return (entriesPerSlice * rows + entriesPerBank - 1) / entriesPerBank;
    }
};

ConvolutionBufferNeed convolutionBufferNeed(const target::NvdlaConfig& config, unsigned kernels, unsigned channels,
                                            unsigned inputWidth, unsigned kernelRows, unsigned kernelColumns,
                                            unsigned elementBytes);

// Whether one kernel group and `kernelRows` input lines fit the banks together: the least a
// convolution needs (the output is then computed in bands of rows, kernel groups streamed).
bool fitsConvolutionBuffer(const target::NvdlaConfig& config, const ConvolutionBufferNeed& need, unsigned kernelRows);

}  // namespace tessera::nvdla
