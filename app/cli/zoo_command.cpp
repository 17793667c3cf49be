// tessera zoo NAME -o FILE.onnx: writes one of the built-in sample networks with seeded weights.
#include "commands.h"

#include "base/error.h"
#include "onnx/onnx_export.h"
#include "zoo/zoo.h"

#include <fmt/format.h>

namespace tessera::cli {

void addZooCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("zoo", "Write a built-in sample network as an ONNX file");
    struct Options {
        std::string name;
        std::string output;
        ZooOptions zoo;
        bool list = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("name", options->name, "mnist, lenet5, mobilenet_v1, mobilenet_v2, radioml, squeezenet1_1, resnet18, mnasnet1_0, shufflenet_v2_x1_0, mobilenet_v3_large, mobilenet_v3_small or efficientnet_b0 (--list describes them)");
    command->add_option("-o,--output", options->output, "ONNX file to write ('-': standard output)")
        ->check(nonEmptyPath());
    command->add_option("--seed", options->zoo.seed, "Seed of the random weights")->capture_default_str();
    command->add_option("--width", options->zoo.width, "MobileNet width multiplier (1.0, 0.5, 0.25)")
        ->capture_default_str();
    command->add_option("--resolution", options->zoo.resolution, "input resolution: MobileNet 224, 192, 160 or 128; SqueezeNet, ResNet-18, MnasNet, ShuffleNet 32 to 512")
        ->capture_default_str();
    command->add_flag("--list", options->list, "List the available networks");
    command->callback([&action, options] {
        action = [options] {
            if (options->list || options->name.empty()) {
                for (const ZooEntry& entry : zooModels())
                    fmt::print("{:<14} {}\n", entry.name, entry.description);
                return 0;
            }
            if (options->output.empty())
                throw tessera::Error("zoo: give the file to write with -o FILE.onnx");
            const Graph graph = buildZooModel(options->name, options->zoo);
            writeOutput(options->output, exportOnnxBytes(graph));
            fmt::print(summaryStream(options->output), "wrote {} ({} nodes) to {}\n", graph.name, graph.nodeCount(),
                       options->output);
            return 0;
        };
    });
}

} // namespace tessera::cli
