// A model deployed on a GAP chip, in two stages:
//  - prepareGapDeployment lowers the ONNX graph onto the CNN generators and quantizes it (the slow
//    part: calibration runs the model), once per model, target and quantization;
//  - planGapDeployment declares those layers and the graph through the model API at given budgets,
//    places the graph's tensors across L2, L3 RAM and flash and tiles every kernel, taking no file
//    from disk and writing none.
// The plan is the one truth about memory: the studio draws it, `tessera plan --model` prints it and
// generateGapCode writes exactly its decisions into the project.
#pragma once

#include "gap/compile/gap_graph_builder.h"
#include "gap/compile/gap_network.h"
#include "gap/compile/gap_target.h"
#include "ir/graph.h"
#include "ir/tensor_data.h"
#include "tiler/code_generator.h"

#include <functional>
#include <memory>
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
    // How each tensor's range is taken from the calibration runs: "minmax", "percentile" (99.99th)
    // or "mse" (least squared quantization error at the quantization's width).
    std::string calibrationMethod = "minmax";
    size_t randomCalibrationSets = 4;
    unsigned seed = 1;
    // Concats and Splits along channels done in place where they can be (stacked_layers.h); off:
    // every one is a copy layer.
    bool concatSplitInPlace = true;

    // The budgets these options give on `target`: each unset one is the chip's default.
    GapBudgets budgetsOn(const GapTarget& target) const;
};

using GapProgress = std::function<void(const std::string&)>;

struct GapDeployment {
    GapTarget target;
    GapNetwork network;               // lowered and quantized
    GapConstantValues constants;      // the network's constants by graph symbol
    std::vector<std::string> warnings;
    size_t calibrationSets = 0;
    std::vector<TensorData> sampleInputs;  // the first calibration input set
};

// Lowers and quantizes `graph` for options.target (budgets play no part). Throws tessera::Error
// (UnsupportedError for operators the generators lack) naming the node.
GapDeployment prepareGapDeployment(const Graph& graph, const GapCompileOptions& options,
                                   const GapProgress& progress = {});

// Where everything goes at one set of budgets.
struct GapPlan {
    GapBudgets budgets;
    // The network as planned when it differs from the deployment's (plannedNetwork gives either):
    // layers with no tiling in the L1 budget split, a fused pooling into a layer of its own
    // (pooling_split.h), a convolution into runs of output features (channel_split.h).
    std::shared_ptr<const GapNetwork> network;
    std::shared_ptr<const tiler::PlacedModel> placed;
    double milliseconds = 0;

    bool ok() const { return placed && placed->ok; }
    // Why there is no plan: names the budget and the smallest that works where one is known.
    const std::string& error() const { return placed->error; }
    // The placement of the network's graph (its tensors, staging buffers and prefetches).
    const tiler::GraphAllocation& allocation() const { return placed->allocations.at(0); }
    // When a budget is too small: which one, and the smallest that works.
    const std::optional<BudgetShortfall>& shortfall() const { return placed->shortfall; }
};

// Places and tiles the deployed network at `budgets`. A budget that cannot work is a plan whose
// error says so; budgets out of range or a generator's refusal throw tessera::Error. `memo`, kept
// by the caller for plans of this deployment that differ only in their L2 budget, makes the next
// one faster with the same result.
GapPlan planGapDeployment(const GapDeployment& deployment, const GapBudgets& budgets,
                          tiler::AllocationMemo* memo = nullptr);

// The network `plan` places: the deployment's, or its split form.
const GapNetwork& plannedNetwork(const GapDeployment& deployment, const GapPlan& plan);

}  // namespace tessera::gap
