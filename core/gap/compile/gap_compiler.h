// tessera compile for GAP: an ONNX graph lowered onto the CNN generators, quantized, tiled,
// allocated and generated into a folder (the GAP project exporter in plugins/ completes it).
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
    std::optional<uint64_t> privilegedFlash;  // 0: none
    std::string quantization = "int16";  // int16 power-of-two Q formats
    // A folder of .pb input files (one per input set for single-input models, or test_data_set_N
    // folders of input_K.pb); empty: seeded random inputs, with a warning.
    std::string calibrationDir;
    size_t randomCalibrationSets = 4;
    unsigned seed = 1;
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
    // The first calibration input set and the fixed-point reference's outputs for it (dequantized).
    std::vector<TensorData> sampleInputs;
    std::vector<TensorData> sampleOutputs;

    nlohmann::json report() const;
    std::string reportText() const;
};

// The generation report's entry of the graph node running `layer` (its kernel has the layer's
// name, or a variant of it): tiles, L1, DMA, MACs, estimated cycles; nullptr when there is none.
const nlohmann::json* layerGenerationReport(const nlohmann::json& graph, const std::string& layer);

using GapProgress = std::function<void(const std::string&)>;

// Compiles `graph`, generating its code and constants image into `folder`. Throws tessera::Error
// (UnsupportedError for operators the generators lack) with a message naming the node, layer or
// budget.
GapCompileResult compileForGap(const Graph& graph, const GapCompileOptions& options, const std::string& folder,
                               const GapProgress& progress = {});

// The calibration input sets of a folder (see GapCompileOptions::calibrationDir).
std::vector<std::vector<TensorData>> readCalibrationFolder(const Graph& graph, const std::string& folder);

}  // namespace tessera::gap
