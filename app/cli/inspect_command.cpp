// tessera inspect MODEL [--json]: per-node shapes, parameters, MACs and live activation memory.
#include "commands.h"

#include "session/model_loader.h"
#include "session/model_stats.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>

namespace tessera::cli {

namespace {

std::string shapesText(const std::vector<Shape>& shapes)
{
    std::string text;
    for (const Shape& shape : shapes)
        text += (text.empty() ? "" : " ") + shapeToString(shape);
    return text;
}

nlohmann::json tensorsJson(const Graph& graph, const std::vector<TensorId>& ids)
{
    nlohmann::json list = nlohmann::json::array();
    for (TensorId id : ids) {
        const Tensor& tensor = graph.tensor(id);
        list.push_back({{"name", tensor.name}, {"dtype", dtypeName(tensor.dtype)}, {"shape", tensor.shape}});
    }
    return list;
}

void printJson(const Graph& graph, const ModelStats& stats)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeStats& node : stats.nodes)
        nodes.push_back({{"name", node.name},
                         {"op", node.opType},
                         {"input_shapes", node.inputShapes},
                         {"output_shapes", node.outputShapes},
                         {"params", node.parameters},
                         {"param_bytes", node.parameterBytes},
                         {"macs", node.macs},
                         {"live_activation_bytes", node.liveActivationBytes}});
    const nlohmann::json document = {
        {"model", graph.name},
        {"opset", graph.opset},
        {"notes", graph.notes},
        {"inputs", tensorsJson(graph, graph.inputs)},
        {"outputs", tensorsJson(graph, graph.outputs)},
        {"nodes", nodes},
        {"totals",
         {{"nodes", stats.nodes.size()},
          {"params", stats.parameters},
          {"param_bytes", stats.parameterBytes},
          {"macs", stats.macs},
          {"peak_live_activation_bytes", stats.peakActivationBytes}}}};
    fmt::print("{}\n", document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

void printTable(const Graph& graph, const ModelStats& stats)
{
    fmt::print("model '{}' (opset {}): {} inputs, {} outputs, {} nodes\n", graph.name, graph.opset,
               graph.inputs.size(), graph.outputs.size(), stats.nodes.size());
    for (const std::string& note : graph.notes)
        fmt::print("note: {}\n", note);
    fmt::print("{:<28} {:<18} {:<34} {:<20} {:>10} {:>12} {:>14} {:>12}\n", "node", "op", "inputs", "outputs",
               "params", "param bytes", "MACs", "live bytes");
    for (const NodeStats& node : stats.nodes)
        fmt::print("{:<28} {:<18} {:<34} {:<20} {:>10} {:>12} {:>14} {:>12}\n", node.name, node.opType,
                   shapesText(node.inputShapes), shapesText(node.outputShapes), node.parameters,
                   node.parameterBytes, node.macs, node.liveActivationBytes);
    fmt::print("total: {} params ({} bytes), {} MACs, peak live activations {} bytes\n", stats.parameters,
               stats.parameterBytes, stats.macs, stats.peakActivationBytes);
}

} // namespace

void addInspectCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("inspect", "Show per-node shapes, parameters, MACs and live memory");
    auto model = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    command->add_option("model", *model, "ONNX model file")->required();
    command->add_flag("--json", *json, "Print JSON instead of a table");
    command->callback([&action, model, json] {
        action = [model, json] {
            const Graph graph = loadModel(*model);
            const ModelStats stats = computeModelStats(graph);
            if (*json)
                printJson(graph, stats);
            else
                printTable(graph, stats);
            return 0;
        };
    });
}

} // namespace tessera::cli
