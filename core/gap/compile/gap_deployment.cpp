#include "gap/compile/gap_deployment.h"

#include "gap/compile/gap_lowering.h"
#include "gap/compile/gap_quantizer.h"
#include "gap/compile/stacked_layers.h"
#include "gap/compile/gap_reference.h"
#include "gap/compile/channel_split.h"
#include "gap/compile/pooling_split.h"
#include "base/error.h"
#include "onnx/input_sets.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tessera::gap {

GapBudgets GapCompileOptions::budgetsOn(const GapTarget& on) const
{
    GapBudgets budgets = on.defaultBudgets();
    budgets.l1 = l1.value_or(budgets.l1);
    budgets.l2 = l2.value_or(budgets.l2);
    budgets.l3 = l3.value_or(budgets.l3);
    budgets.flash = flash.value_or(budgets.flash);
    budgets.privilegedFlash = privilegedFlash.value_or(budgets.privilegedFlash);
    return budgets;
}

namespace {

// NaN or infinity cannot be quantized: name the layer, the constant and the first bad value.
void requireFiniteConstants(const GapNetwork& network)
{
    for (const GapLayer& layer : network.layers)
        for (const auto& [what, values] : {std::pair{"weights", &layer.weights}, std::pair{"bias", &layer.bias}})
            for (size_t k = 0; k < values->size(); ++k)
                if (!std::isfinite((*values)[k]))
                    throw UnsupportedError(fmt::format("layer {}: its {} hold {} at index {}; a model with NaN or "
                                                       "infinite constants cannot be quantized (fix or retrain it)",
                                                       layer.name, what, (*values)[k], k));
}

}  // namespace

GapDeployment prepareGapDeployment(const Graph& graph, const GapCompileOptions& options, const GapProgress& progress)
{
    auto say = [&](const std::string& message) {
        if (progress)
            progress(message);
    };
    GapDeployment deployment;
    deployment.target = gapTarget(options.target);
    if (options.quantization != "int16" && options.quantization != "int8")
        throw UnsupportedError("quantization '" + options.quantization +
                               "' is not available for GAP; use --quant int16 (16-bit power-of-two Q formats) or "
                               "--quant int8 (8-bit symmetric, per-channel filter scales)");

    CalibrationSettings calibration;
    calibration.method = calibrationMethodNamed(options.calibrationMethod);
    calibration.bits = options.quantization == "int8" ? 8 : 16;

    say("lowering " + graph.name + " onto the GAP CNN generators");
    deployment.network = lowerForGap(graph);
    requireFiniteConstants(deployment.network);

    std::vector<std::vector<TensorData>> inputSets;
    if (options.calibrationDir.empty()) {
        inputSets = randomInputSets(graph, std::max<size_t>(1, options.randomCalibrationSets), options.seed);
        deployment.warnings.push_back(fmt::format(
            "no calibration data given: the quantization ranges come from {} seeded random input sets in [-1, 1]; pass "
            "--calibration DIR with representative inputs",
            inputSets.size()));
    } else {
        inputSets = readCalibrationFolder(graph, options.calibrationDir);
    }
    requireFiniteInputs(graph, inputSets, options.calibrationDir);
    deployment.calibrationSets = inputSets.size();
    say(fmt::format("calibrating on {} input set{}", inputSets.size(), inputSets.size() == 1 ? "" : "s"));
    const CalibrationRanges ranges = calibrate(graph, inputSets, calibration);
    const auto quantize = [&] {
        if (options.quantization == "int8")
            quantizeNetworkSq8(deployment.network, ranges);
        else
            quantizeNetwork(deployment.network, ranges);
    };
    if (options.concatSplitInPlace) {
        markStackedConcats(deployment.network);
        markStackedSplits(deployment.network);
    }
    quantize();
    // Producers of in-place concatenations take the concatenation's format: a second pass.
    if (tieStackedFormats(deployment.network))
        quantize();
    unstackMismatchedConcats(deployment.network);
    deployment.constants = gapConstantValues(deployment.network);
    deployment.sampleInputs = inputSets.front();
    return deployment;
}

namespace {

GapPlan finished(GapPlan& plan, std::chrono::steady_clock::time_point started)
{
    plan.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    return std::move(plan);
}

}  // namespace

const GapNetwork& plannedNetwork(const GapDeployment& deployment, const GapPlan& plan)
{
    return plan.network ? *plan.network : deployment.network;
}

GapPlan planGapDeployment(const GapDeployment& deployment, const GapBudgets& budgets, tiler::AllocationMemo* memo)
{
    const auto started = std::chrono::steady_clock::now();
    GapPlan plan;
    plan.budgets = budgets;
    const tiler::TilerCostModel& costModel = deployment.target.costModel;
    tiler::KernelModel model = buildGapKernelModel(deployment.network, budgets, costModel, deployment.constants);
    plan.placed = tiler::placeModel(model, memo);
    // Layers with no tiling in the L1 budget are split where that helps (a fused pooling first,
    // then a convolution's output features), only when the plan fails on L1: a plan that works
    // pays nothing for the check. The split network is placed without the memo, which holds the
    // deployment's network.
    if (plan.placed->ok || !plan.placed->shortfall || plan.placed->shortfall->memory != "L1")
        return finished(plan, started);
    std::shared_ptr<GapNetwork> split;
    if (const auto poolings = fusedPoolingOverL1(deployment.network, model, budgets.l1); !poolings.empty()) {
        split = std::make_shared<GapNetwork>(splitFusedPooling(deployment.network, poolings));
        model = buildGapKernelModel(*split, budgets, costModel, deployment.constants);
    }
    const GapNetwork& network = split ? *split : deployment.network;
    if (const auto convolutions = convolutionsToSplit(network, model, budgets, costModel); !convolutions.empty()) {
        split = std::make_shared<GapNetwork>(splitOutputFeatures(network, convolutions));
        model = buildGapKernelModel(*split, budgets, costModel, gapConstantValues(*split));
    }
    if (!split)
        return finished(plan, started);
    plan.network = std::move(split);
    plan.placed = tiler::placeModel(std::move(model), nullptr);
    return finished(plan, started);
}

}  // namespace tessera::gap
