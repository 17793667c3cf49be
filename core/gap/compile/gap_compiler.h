// tessera compile for GAP: an ONNX graph lowered onto the CNN generators, quantized, tiled,
// allocated and generated into a folder (the GAP project exporter in plugins/ completes it).
#pragma once

#include "gap/compile/gap_deployment.h"
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

struct GapCompileResult {
    GapTarget target;
    GapBudgets budgets;
    GapPlan plan;                      // what was generated: placement and tilings
    GapNetwork network;
    std::vector<double> layerSqnrDb;   // per layer, fixed point against float on the first input set
    // Per layer, the layer alone in fixed point on the float values of its inputs, against float:
    // the noise that layer adds, where layerSqnrDb also carries the noise of the layers before.
    std::vector<double> layerAloneSqnrDb;
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

// How one GAP layer runs in a plan: the graph node calling its kernel (or the kernel's variant
// streaming L3 tensors) and that kernel's tiling.
struct GapLayerFigures {
    std::string kernel;                  // the kernel the graph runner calls
    unsigned tiles = 0;
    std::uint64_t l1Bytes = 0;
    std::uint64_t l2Read = 0, l2Write = 0;  // DMA bytes per run between L2 and L1
    std::uint64_t l3Read = 0, l3Write = 0;  // predicted bytes per run between L3 and L2
    std::uint64_t macs = 0;
    double estimatedCycles = 0;
};

// The figures of `layer` in `plan`; nullopt when the plan has none (no plan, or no such layer).
std::optional<GapLayerFigures> layerFigures(const GapPlan& plan, const std::string& layer);

// Generates the code and constants images of `plan` into `folder` and measures the quantization
// (the fixed-point reference against float on the deployment's sample inputs) meanwhile. Throws
// tessera::Error with the plan's error when it has none (BudgetError, with its facts, for a budget
// too small), or when a file cannot be written.
GapCompileResult compileGapPlan(const Graph& graph, const GapDeployment& deployment, const GapPlan& plan,
                                const std::string& folder, const GapProgress& progress = {});

// prepareGapDeployment, planGapDeployment at the options' budgets, then compileGapPlan. Throws
// tessera::Error (UnsupportedError for operators the generators lack) with a message naming the
// node, layer or budget.
GapCompileResult compileForGap(const Graph& graph, const GapCompileOptions& options, const std::string& folder,
                               const GapProgress& progress = {});

}  // namespace tessera::gap
