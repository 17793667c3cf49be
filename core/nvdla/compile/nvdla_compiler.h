// ONNX to an NVDLA loadable: legalization, the unit mapping (refusing with every node no unit
// runs), the surface plan, the emission, and the validator as the last word: a loadable Tessera
// writes always passes it. The report says, per node, what the passes did, which units and task
// run it and where its output lives.
#pragma once

#include "ir/graph.h"
#include "nvdla/compile/legalization.h"
#include "nvdla/compile/loadable_emitter.h"
#include "nvdla/compile/surface_plan.h"
#include "nvdla/compile/unit_mapping.h"
#include "nvdla/loadable.h"
#include "target/nvdla_configs.h"

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tessera::nvdla {

struct NvdlaCompileOptions {
    std::string config = "nv_full";
    std::optional<target::NvdlaPrecision> precision;  // default: FP16 where the configuration has it
};

struct NvdlaCompilation {
    std::string config;
    target::NvdlaPrecision precision = target::NvdlaPrecision::Fp16;
    Graph legalized;
    LegalizationLog log;
    MappingReport mapping;
    SurfacePlan surfaces;
    std::vector<EmittedNode> emitted;
    Loadable loadable;
    std::vector<std::uint8_t> bytes;  // the file

    std::string reportText() const;
    nlohmann::json reportJson() const;
};

// Throws tessera::UnsupportedError listing every node no unit runs (or the precision the
// configuration lacks), tessera::Error for what does not fit the hardware.
NvdlaCompilation compileForNvdla(const Graph& model, const NvdlaCompileOptions& options);

// Writes DIR/model.nvdla, DIR/report.txt and DIR/report.json, the folder as a whole or not at all.
void writeNvdlaOutput(const NvdlaCompilation& compilation, const std::string& directory);

}  // namespace tessera::nvdla
