// ONNX to an NVDLA loadable: legalization, the unit mapping (refusing with every node no unit
// runs), the surface plan, the emission, and the validator as the last word: a loadable Tessera
// writes always passes it. The report says, per node, what the passes did, which units and task
// run it and where its output lives.
#pragma once

#include "interp/calibration.h"
#include "ir/graph.h"
#include "ir/tensor_data.h"
#include "nvdla/compile/int8_quantization.h"
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
    // INT8: the calibration input sets (graph-input order) and where they came from; none: seeded
    // random inputs in [-1, 1], with a warning.
    std::vector<std::vector<TensorData>> calibrationSets;
    std::string calibrationSource;
    CalibrationMethod calibrationMethod = CalibrationMethod::MinMax;  // how INT8 ranges are taken
    std::size_t randomCalibrationSets = 4;
    unsigned seed = 1;
};

struct NvdlaCompilation {
    std::string config;
    target::NvdlaPrecision precision = target::NvdlaPrecision::Fp16;
    Graph legalized;
    LegalizationLog log;
    MappingReport mapping;
    std::optional<Int8Quantization> int8;  // INT8: every tensor's scale, each convolution's integers
    std::size_t calibrationSets = 0;
    std::vector<std::string> warnings;
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

}  // namespace tessera::nvdla
