// tessera compile for GAP: an ONNX graph lowered onto the CNN generators, quantized, tiled,
// allocated and generated, then written as a project folder with a host emulation build.
#pragma once

#include "gap/compile/gap_graph_builder.h"
#include "gap/compile/gap_network.h"
#include "gap/compile/gap_target.h"
#include "ir/graph.h"
#include "ir/tensor_data.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace tessera::gap {

struct GapCompileOptions {
    std::string target = "gap8";
    // Budgets in bytes; unset: the target's defaults.
    std::optional<uint64_t> l1, l2, l3, flash;
    std::string quantization = "int16";  // int16 power-of-two Q formats
    // A folder of .pb input files (one per input set for single-input models, or test_data_set_N
    // folders of input_K.pb); empty: seeded random inputs, with a warning.
    std::string calibrationDir;
    size_t randomCalibrationSets = 4;
    unsigned seed = 1;
};

// Where the files a project copies live (the build tree's sources or an installed share/tessera).
struct GapProjectSources {
    std::string runtimeDir;     // at_api.h and the emulation runtime
    std::string cnnKernelsDir;  // CNN_BasicKernels.c/.h
    std::string projectDir;     // tensor_file.c/.h of the host emulation program
};

struct GapCompileResult {
    GapTarget target;
    GapBudgets budgets;
    GapNetwork network;
    std::vector<double> layerSqnrDb;   // per layer, fixed point against float on the first input set
    std::vector<double> outputSqnrDb;  // per graph output
    GapGeneration generation;
    std::vector<std::string> warnings;
    size_t calibrationSets = 0;
    double seconds = 0;

    nlohmann::json report() const;
    std::string reportText() const;
};

using GapProgress = std::function<void(const std::string&)>;

// Compiles `graph` into the project folder `folder`. Throws tessera::Error (UnsupportedError for
// operators the generators lack) with a message naming the node, layer or budget.
GapCompileResult compileForGap(const Graph& graph, const GapCompileOptions& options, const std::string& folder,
                               const GapProjectSources& sources, const GapProgress& progress = {});

// The calibration input sets of a folder (see GapCompileOptions::calibrationDir).
std::vector<std::vector<TensorData>> readCalibrationFolder(const Graph& graph, const std::string& folder);

}  // namespace tessera::gap
