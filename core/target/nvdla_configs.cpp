#include "target/nvdla_configs.h"

#include "base/error.h"

#include <algorithm>
#include <cctype>

namespace tessera::target {

namespace {
std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return text;
}
}  // namespace

const char* nvdlaPrecisionName(NvdlaPrecision precision)
{
    return precision == NvdlaPrecision::Int8 ? "int8" : "fp16";
}

bool NvdlaConfig::supports(NvdlaPrecision precision) const
{
    return std::find(precisions.begin(), precisions.end(), precision) != precisions.end();
}

const std::vector<NvdlaConfig>& nvdlaConfigs()
{
    // nv_full and nv_large differ in the CBUF's shape and in the units dropped from nv_large;
    // nv_small is the INT8-only configuration without SRAM, LUT, SDP's element-wise (Y) stage, BDMA or
    // RUBIK.
    static const std::vector<NvdlaConfig> table = [] {
        NvdlaConfig full;
        full.name = "nv_full";
        full.description = "every unit and feature; INT8 and FP16; 2048 MACs";
        full.atomicC = 64;
        full.atomicK = 32;
        full.memoryAtomicBytes = 32;
        full.cbufBanks = 16;
        full.cbufEntriesPerBank = 256;
        full.cbufEntryBytes = 128;
        full.hasBdma = full.hasRubik = full.hasSdpLut = full.hasSdpElementwise = full.hasBatch = true;
        full.precisions = {NvdlaPrecision::Int8, NvdlaPrecision::Fp16};

        NvdlaConfig large = full;
        large.name = "nv_large";
        large.description = "nv_full without BDMA, RUBIK and batches; INT8 and FP16";
        large.cbufEntriesPerBank = 512;
        large.cbufEntryBytes = 64;
        large.hasBdma = large.hasRubik = large.hasBatch = false;

        NvdlaConfig small;
        small.name = "nv_small";
        small.description = "the smallest: INT8 only, no SDP LUT or element-wise (Y) stage, no BDMA or RUBIK; 64 MACs";
        small.atomicC = 8;
        small.atomicK = 8;
        small.memoryAtomicBytes = 8;
        small.cbufBanks = 32;
        small.cbufEntriesPerBank = 512;
        small.cbufEntryBytes = 8;
        small.precisions = {NvdlaPrecision::Int8};
        return std::vector<NvdlaConfig>{full, large, small};
    }();
    return table;
}

const NvdlaConfig& nvdlaConfig(const std::string& name)
{
    const std::string wanted = lowered(name);
    std::string known;
    for (const NvdlaConfig& config : nvdlaConfigs()) {
        if (config.name == wanted)
            return config;
        known += (known.empty() ? "" : ", ") + config.name;
    }
    throw Error("unknown NVDLA configuration '" + name + "'; the configurations are " + known);
}

NvdlaPrecision parseNvdlaPrecision(const std::string& text)
{
    const std::string wanted = lowered(text);
    if (wanted == "int8")
        return NvdlaPrecision::Int8;
    if (wanted == "fp16")
        return NvdlaPrecision::Fp16;
    throw Error("unknown NVDLA precision '" + text + "'; the precisions are int8 and fp16");
}

}  // namespace tessera::target
