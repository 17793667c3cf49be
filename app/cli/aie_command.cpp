// tessera aie plan MODEL.onnx [--arch aie|aie-ml|aie-ml-v2] [--format table|json|adf] [--dtype ...]
//                             [-o FILE]: buffer splitting for AMD AI Engine tiles, with the
// functional check of every layer's chunked execution.
#include "commands.h"

#include "aie/aie_report.h"
#include "aie/split_check.h"
#include "io/file_io.h"
#include "base/error.h"
#include "session/model_loader.h"

#include <fmt/format.h>

namespace tessera::cli {

void addAieCommand(CLI::App& app, Action& action)
{
    auto* aie = app.add_subcommand("aie", "AMD AI Engine planning");
    auto* command = aie->add_subcommand("plan", "Split layer buffers that do not fit a compute tile");
    aie->require_subcommand(1);
    struct Options {
        std::string model;
        std::string arch = "aie-ml";
        std::string format = "table";
        std::string dtype = "bf16";
        std::string output;
    };
    auto options = std::make_shared<Options>();
    command->add_option("model", options->model, "ONNX model of a 1-D convolutional network")->required();
    command->add_option("--arch", options->arch, "aie, aie-ml or aie-ml-v2")->capture_default_str();
    command->add_option("--format", options->format, "table, json or adf")->capture_default_str();
    command->add_option("--dtype", options->dtype, "Element type on the array: bf16, int8, int16 or float32")
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the plan to this file instead of standard output")
        ->check(nonEmptyPath());
    command->callback([&action, options] {
        action = [options] {
            const std::map<std::string, int64_t> sizes{{"bf16", 2}, {"int8", 1}, {"int16", 2}, {"float32", 4}};
            const auto size = sizes.find(options->dtype);
            if (size == sizes.end())
                throw Error("aie plan: --dtype '" + options->dtype + "' is not one of bf16, int8, int16, float32");
            if (options->format != "table" && options->format != "json" && options->format != "adf")
                throw Error("aie plan: --format '" + options->format + "' is not one of table, json, adf");
            const Graph graph = loadModel(options->model);
            aie::SplitOptions splitOptions;
            splitOptions.elementBytes = size->second;
            const aie::AiePlan plan = aie::planSplits(graph, aie::aieArchitecture(options->arch), splitOptions);
            const std::string text = options->format == "json" ? aie::formatJson(plan)
                                     : options->format == "adf" ? aie::formatAdf(plan)
                                                                : aie::formatTable(plan);
            writeOutput(options->output.empty() ? "-" : options->output, text);
            int failed = 0;
            int64_t pieces = 0;
            for (const aie::LayerCheck& check : aie::checkPlan(graph, plan)) {
                pieces += check.pieces;
                if (!check.passed) {
                    ++failed;
                    fmt::print(stderr, "error: layer '{}': chunked execution differs from the whole layer (max "
                                       "relative error {:.3g})\n",
                               check.layer, check.maxError);
                }
            }
            const bool planOnStdout = options->output.empty() || options->output == "-";
            fmt::print(options->format == "table" || !planOnStdout ? stdout : stderr,
                       "functional check: {} layers, {} chunked kernel calls, {}\n", plan.layers.size(), pieces,
                       failed ? fmt::format("{} layers differ", failed) : "every layer equals its unsplit result");
            return failed ? 1 : 0;
        };
    });
}

} // namespace tessera::cli
