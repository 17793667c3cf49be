// The NVDLA hardware configurations Tessera compiles for, as data: the convolution's atomic sizes,
// the convolution buffer (CBUF), which units and unit features each configuration has, and which
// precisions. The legalization, the mapping, the surface layout and the command line all read
// these facts from here. The figures are those of NVIDIA's hardware specifications (nv_full.spec,
// nv_large.spec, nv_small.spec) and of its compiler's target configurations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::target {

enum class NvdlaPrecision { Int8, Fp16 };

const char* nvdlaPrecisionName(NvdlaPrecision precision);  // "int8", "fp16"

struct NvdlaConfig {
    std::string name;         // "nv_full": what --config takes
    std::string description;
    unsigned atomicC = 0;     // input channels the MAC array takes per cycle
    unsigned atomicK = 0;     // kernels (output channels) per cycle
    unsigned memoryAtomicBytes = 0;  // the unit of feature-data layout and DMA (bytes)
    unsigned cbufBanks = 0;
    unsigned cbufEntriesPerBank = 0;
    unsigned cbufEntryBytes = 0;
    bool hasBdma = false;          // bridge DMA (memory-to-memory copies)
    bool hasRubik = false;         // data reshaping: contract, split, merge
    bool hasSdpLut = false;        // SDP's look-up table (sigmoid, tanh, ...)
    bool hasSdpElementwise = false;  // SDP's element-wise (Y) stage: a third ALU and multiplier, the LUT's input
    bool hasBatch = false;         // batches above 1
    bool hasCdp = true;            // local response normalization
    bool hasPdp = true;            // pooling
    std::vector<NvdlaPrecision> precisions;
    unsigned pdpMaxKernel = 8;     // pooling windows of 1..8
    unsigned pdpMaxStride = 16;

    std::uint64_t cbufBankBytes() const { return std::uint64_t(cbufEntriesPerBank) * cbufEntryBytes; }
    std::uint64_t cbufBytes() const { return cbufBankBytes() * cbufBanks; }
    bool supports(NvdlaPrecision precision) const;
    // Bytes of one element of feature data in `precision`.
    static unsigned elementBytes(NvdlaPrecision precision) { return precision == NvdlaPrecision::Int8 ? 1 : 2; }
};

const std::vector<NvdlaConfig>& nvdlaConfigs();

// The configuration named `name` ("nv_small", case-insensitive); throws tessera::Error listing the
// known ones.
const NvdlaConfig& nvdlaConfig(const std::string& name);

// "int8" or "fp16" (case-insensitive) to a precision; throws tessera::Error naming the choices.
NvdlaPrecision parseNvdlaPrecision(const std::string& text);

}  // namespace tessera::target
