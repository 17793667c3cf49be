#include "gap/compile/gap_compiler.h"

#include "gap/compile/gap_lowering.h"
#include "gap/compile/gap_quantizer.h"
#include "gap/compile/gap_reference.h"
#include "interp/interpreter.h"
#include "tiler/graph_report.h"
#include "base/error.h"

#include <fmt/format.h>

#include <limits>

#include <algorithm>
#include <chrono>
#include <future>
#include <cmath>
#include <sstream>

namespace tessera::gap {
namespace {

// JSON has no infinity: an exact result is null.
nlohmann::json sqnrJson(double value)
{
    return std::isfinite(value) ? nlohmann::json(std::round(value * 100.0) / 100.0) : nlohmann::json(nullptr);
}

// "Q12" for a 16-bit tensor, "int8 x 0.0235" for an SQ8 one.
std::string formatName(const GapTensor& tensor)
{
    if (tensor.dataSize == 1)
        return fmt::format("int8 x {:.3g}", tensor.scale);
    return fmt::format("Q{}", tensor.q);
}

std::string sqnrText(double value)
{
    if (std::isnan(value))
        return "-";  // a part of a split layer: no model tensor to compare with
    return std::isfinite(value) ? fmt::format("{:.1f} dB", value) : std::string("exact");
}

}  // namespace

GapCompileResult compileGapPlan(const Graph& graph, const GapDeployment& deployment, const GapPlan& plan,
                                const std::string& folder, const GapProgress& progress)
{
    const auto started = std::chrono::steady_clock::now();
    if (!plan.ok()) {
        if (plan.shortfall())
            throw BudgetError(plan.error(), *plan.shortfall());
        throw Error(plan.error());
    }
    GapCompileResult result;
    result.target = deployment.target;
    result.budgets = plan.budgets;
    result.plan = plan;
    result.network = plannedNetwork(deployment, plan);
    result.warnings = deployment.warnings;
    result.calibrationSets = deployment.calibrationSets;
    result.sampleInputs = deployment.sampleInputs;
    if (progress)
        progress(fmt::format("generating {} layers for {} (L1 {} B, L2 {} B, L3 {} B, flash {} B)",
                             result.network.layers.size(), result.target.name, result.budgets.l1, result.budgets.l2,
                             result.budgets.l3, result.budgets.flash));
    // Quality of the quantization (the fixed-point reference against float on the first set),
    // computed while the code is generated.
    auto measureQuality = [&] {
        const std::vector<TensorData>& inputs = deployment.sampleInputs;
        std::vector<TensorData> floatValues(graph.tensorCount());
        for (size_t k = 0; k < graph.inputs.size(); ++k)
            floatValues[size_t(graph.inputs[k])] = inputs[k];
        Interpreter(graph).run(inputs, [&](size_t, const Node& node, const std::vector<TensorData>& outputs) {
            for (size_t k = 0; k < outputs.size() && k < node.outputs.size(); ++k)
                floatValues[size_t(node.outputs[k])] = outputs[k];
        });
        std::vector<std::vector<int16_t>> quantizedInputs;
        for (size_t k = 0; k < result.network.inputs.size(); ++k)
            quantizedInputs.push_back(quantizeInput(result.network, result.network.inputs[k], inputs[k]));
        const std::vector<std::vector<int16_t>> fixedValues = runFixedPoint(result.network, quantizedInputs);
        auto sqnrOf = [&](int tensor) {
            const GapTensor& gapTensor = result.network.tensors[size_t(tensor)];
            if (gapTensor.source == kNoTensor)  // a part of a split layer: no model tensor holds it
                return std::numeric_limits<double>::quiet_NaN();
            return sqnrDb(floatValues[size_t(gapTensor.source)].toFloats(),
                          dequantizeTensor(result.network, tensor, fixedValues[size_t(tensor)]));
        };
        for (const GapLayer& layer : result.network.layers)
            result.layerSqnrDb.push_back(sqnrOf(layer.output));
        // Each layer alone: its inputs converted from their float values.
        std::vector<std::vector<int16_t>> alone(result.network.tensors.size());
        for (const GapLayer& layer : result.network.layers) {
            bool known = result.network.tensors[size_t(layer.output)].source != kNoTensor;
            for (int input : layer.inputs) {
                const TensorId source = result.network.tensors[size_t(input)].source;
                known = known && source != kNoTensor;
                if (known)
                    alone[size_t(input)] = quantizeInput(result.network, input, floatValues[size_t(source)]);
            }
            if (!known) {
                result.layerAloneSqnrDb.push_back(std::numeric_limits<double>::quiet_NaN());
                continue;
            }
            const std::vector<int16_t> out = runLayer(result.network, layer, alone);
            result.layerAloneSqnrDb.push_back(
                sqnrDb(floatValues[size_t(result.network.tensors[size_t(layer.output)].source)].toFloats(),
                       dequantizeTensor(result.network, layer.output, out)));
        }
        for (size_t k = 0; k < result.network.outputs.size(); ++k) {
            const int output = result.network.outputs[k];
            result.outputSqnrDb.push_back(sqnrOf(output));
            result.sampleOutputs.push_back(TensorData::fromFloats(
                graph.tensor(graph.outputs[k]).shape, dequantizeTensor(result.network, output, fixedValues[size_t(output)])));
        }
    };
    auto quality = std::async(std::launch::async, measureQuality);
    try {
        result.generation = generateGapCode(result.network, *plan.placed, folder);
    } catch (...) {
        quality.wait();
        throw;
    }
    quality.get();
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

GapCompileResult compileForGap(const Graph& graph, const GapCompileOptions& options, const std::string& folder,
                               const GapProgress& progress)
{
    const auto started = std::chrono::steady_clock::now();
    const GapDeployment deployment = prepareGapDeployment(graph, options, progress);
    const GapBudgets budgets = options.budgetsOn(deployment.target);
    if (progress)
        progress(fmt::format("tiling and allocating {} layers for {} (L1 {} B, L2 {} B, L3 {} B, flash {} B)",
                             deployment.network.layers.size(), deployment.target.name, budgets.l1, budgets.l2,
                             budgets.l3, budgets.flash));
    const GapPlan plan = planGapDeployment(deployment, budgets);
    GapCompileResult result = compileGapPlan(graph, deployment, plan, folder);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

std::optional<GapLayerFigures> layerFigures(const GapPlan& plan, const std::string& layer)
{
    if (!plan.ok() || plan.placed->allocations.empty())
        return std::nullopt;
    const tiler::PlacedModel& placed = *plan.placed;
    const tiler::GraphAllocation& allocation = plan.allocation();
    const std::vector<tiler::NodeFigures> figures =
        tiler::nodeFigures({placed.generated, placed.generated.graphs.at(0), allocation, placed.tilings});
    for (std::size_t n = 0; n < allocation.nodes.size() && n < figures.size(); ++n) {
        const tiler::NodeExecution& node = allocation.nodes[n];
        if (node.sourceKernel != layer && node.kernel != layer)
            continue;
        const tiler::NodeFigures& figure = figures[n];
        return GapLayerFigures{.kernel = node.kernel,
                               .tiles = figure.tiles,
                               .l1Bytes = figure.l1,
                               .l2Read = figure.l2Read,
                               .l2Write = figure.l2Write,
                               .l3Read = node.l3Read,
                               .l3Write = node.l3Write,
                               .macs = figure.operations,
                               .estimatedCycles = figure.cycles};
    }
    return std::nullopt;
}

nlohmann::json GapCompileResult::report() const
{
    nlohmann::json layers = nlohmann::json::array();
    for (size_t k = 0; k < network.layers.size(); ++k) {
        const GapLayer& layer = network.layers[k];
        nlohmann::json entry = {{"name", layer.name},
                                {"kind", gapLayerKindName(layer.kind)},
                                {"onnx_nodes", layer.nodes},
                                {"input_format", formatName(network.tensors[size_t(layer.inputs.at(0))])},
                                {"output_format", formatName(network.tensors[size_t(layer.output)])},
                                {"sqnr_db", sqnrJson(layerSqnrDb.at(k))},
                                {"alone_sqnr_db", sqnrJson(layerAloneSqnrDb.at(k))}};
        if (network.quantization == GapQuantization::SymmetricInt8) {
            entry["input_scale"] = network.tensors[size_t(layer.inputs.at(0))].scale;
            entry["output_scale"] = network.tensors[size_t(layer.output)].scale;
        } else {
            entry["input_q"] = network.tensors[size_t(layer.inputs.at(0))].q;
            entry["output_q"] = network.tensors[size_t(layer.output)].q;
        }
        if (layer.stacked)  // done in place, no copy (stacked_layers.h)
            entry["in_place"] = true;
        if (layer.hasConstants() && network.quantization == GapQuantization::Pow2Int16) {
            entry["weights_q"] = layer.weightsQ;
            entry["bias_q"] = layer.biasQ;
        }
        if (const std::optional<GapLayerFigures> figures = layerFigures(plan, layer.name)) {
            entry["estimated_cycles"] = figures->estimatedCycles;
            entry["macs"] = figures->macs;
            entry["l3_bytes"] = figures->l3Read + figures->l3Write;
        }
        layers.push_back(entry);
    }
    nlohmann::json outputs = nlohmann::json::array();
    for (size_t k = 0; k < network.outputs.size(); ++k)
        outputs.push_back({{"name", network.tensors[size_t(network.outputs[k])].name},
                           {"format", formatName(network.tensors[size_t(network.outputs[k])])},
                           {"sqnr_db", sqnrJson(outputSqnrDb.at(k))}});
    const double cycles = generation.graph.value("estimated_cycles", 0.0);
    const double operations = generation.graph.value("operations", 0.0);
    return {{"graph", network.name},
            {"target", target.name},
            {"budgets", {{"l1", budgets.l1}, {"l2", budgets.l2}, {"l3", budgets.l3}, {"flash", budgets.flash},
                         {"privileged_flash", budgets.privilegedFlash}}},
            {"l2_code_reserve", target.l2CodeReserve},
            {"quantization", network.quantization == GapQuantization::SymmetricInt8
                                 ? "int8 symmetric, per-channel filter scales"
                                 : "int16 power-of-two"},
            {"calibration_sets", calibrationSets},
            {"warnings", warnings},
            {"layers", layers},
            {"outputs", outputs},
            {"memory", generation.graph},
            {"estimate",
             {{"note", "estimated by Tessera's cost model, not measured on a chip"},
              {"cycles", cycles},
              {"operations", operations},
              {"macs_per_cycle", cycles > 0 ? operations / cycles : 0.0},
              {"cluster_mhz", target.clusterMhz},
              {"milliseconds", cycles > 0 ? cycles / (target.clusterMhz * 1000.0) : 0.0}}},
            {"compile_seconds", std::round(seconds * 1000.0) / 1000.0}}; // milliseconds: finer is noise
}

std::string GapCompileResult::reportText() const
{
    std::ostringstream text;
    text << fmt::format("{} for {} ({})\n", network.name, target.name, target.description);
    text << fmt::format("budgets: L1 {} B, L2 {} B, L3 {} B, flash {} B, privileged flash {} B (by default {} B of "
                        "L2 are kept for code)\n",
                        budgets.l1, budgets.l2, budgets.l3, budgets.flash, budgets.privilegedFlash,
                        target.l2CodeReserve);
    for (const std::string& warning : warnings)
        text << "warning: " << warning << "\n";
    const bool sq8 = network.quantization == GapQuantization::SymmetricInt8;
    text << fmt::format("quantization: {}\n", report()["quantization"].get<std::string>());
    // SQNR: the layer's output in the quantized network against float; alone: the layer by itself
    // on the float values of its inputs, so the layers that add the most noise stand out.
    text << fmt::format("\n{:<24} {:<24} {:>14} {:>14} {:>4} {:>4} {:>10} {:>10} {:>12} {:>12}\n", "layer", "kind", "in",
                        "out", "w", "b", "SQNR", "alone", "est. cycles", "L3 bytes");
    for (size_t k = 0; k < network.layers.size(); ++k) {
        const GapLayer& layer = network.layers[k];
        const std::optional<GapLayerFigures> figures = layerFigures(plan, layer.name);
        const bool constants = layer.hasConstants() && !sq8;
        text << fmt::format("{:<24} {:<24} {:>14} {:>14} {:>4} {:>4} {:>10} {:>10} {:>12.0f} {:>12}\n", layer.name,
                            layer.stacked ? std::string(gapLayerKindName(layer.kind)) + ", in place"
                                          : std::string(gapLayerKindName(layer.kind)),
                            formatName(network.tensors[size_t(layer.inputs.at(0))]),
                            formatName(network.tensors[size_t(layer.output)]),
                            constants ? fmt::format("Q{}", layer.weightsQ) : std::string(),
                            constants ? fmt::format("Q{}", layer.biasQ) : std::string(),
                            sqnrText(layerSqnrDb.at(k)), sqnrText(layerAloneSqnrDb.at(k)),
                            figures ? figures->estimatedCycles : 0.0,
                            figures ? figures->l3Read + figures->l3Write : 0);
    }
    for (size_t k = 0; k < network.outputs.size(); ++k)
        text << fmt::format("output {}: SQNR {} against float\n", k, sqnrText(outputSqnrDb.at(k)));
    const nlohmann::json estimate = report()["estimate"];
    text << fmt::format("\nL2: {} B static, {} B dynamic; L3: {} B static, {} B dynamic, {} B of traffic per "
                        "inference; flash image {} B, privileged flash image {} B\n",
                        generation.graph.value("l2_static", 0), generation.graph.value("l2_dynamic", 0),
                        generation.graph.value("l3_static", 0), generation.graph.value("l3_dynamic", 0),
                        generation.graph.value("l3_traffic", 0), generation.graph.value("flash_bytes", 0),
                        generation.graph.value("privileged_flash_bytes", 0));
    text << fmt::format("estimate (cost model, not a measurement): {:.0f} cycles, {:.0f} MACs, {:.2f} MAC/cycle, "
                        "{:.2f} ms at {:.0f} MHz\n",
                        estimate["cycles"].get<double>(), estimate["operations"].get<double>(),
                        estimate["macs_per_cycle"].get<double>(), estimate["milliseconds"].get<double>(),
                        target.clusterMhz);
    text << fmt::format("compiled in {:.2f} s\n", seconds);
    return text.str();
}

}  // namespace tessera::gap
