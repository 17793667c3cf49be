// Generating GAP graphs end to end: the guide's MNIST (4 generator calls) and a MobileNet-sized
// chain of 30 convolution layers — generators, tiling, tensor allocation, constants image and C.
// Targets: MNIST under 1 s, 30 layers under 3 s. Reference measured in the same run: reading the
// constants files and writing the same bytes again (the I/O the generation cannot avoid).
#include "bench_timer.h"

#include "CNN_Generators.h"
#include "gap/model_api/model_registry.h"
#include "tiler/code_generator.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

using namespace tessera::tiler;
namespace fs = std::filesystem;

namespace {

GraphArgument symbol(const std::string& name, GraphArgScope scope, GraphArgDirection direction,
                     const fs::path& constants = {})
{
    GraphArgument argument;
    argument.carg = {"short int *__restrict__", name};
    argument.scope = scope;
    argument.direction = direction;
    if (!constants.empty()) {
        argument.hasConstant = true;
        argument.constant.file = (constants / (name + ".tensor")).string();
        argument.constant.floatValues = true;
    }
    return argument;
}

void writeTensor(const fs::path& path, std::size_t count)
{
    std::vector<float> values(count);
    for (std::size_t i = 0; i < count; ++i)
        values[i] = float(int(i * 2654435761u % 511) - 255);
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(values.data()),
                                                 std::streamsize(values.size() * sizeof(float)));
}

// A chain of `layers` 3x3 convolutions (the MNIST case: its own generator calls) as one graph.
void buildChain(const fs::path& folder, int layers, int size, int features)
{
    tessera::gap::resetModel();
    KernelModel& model = tessera::gap::currentModel();
    model.options.outputDir = (folder / "out").string();
    model.options.l1Size = 48000;
    model.options.l2Size = 1 << 30;
    model.options.dynamicSymbols = true;
    LoadCNNLibrary();
    GraphModel graph;
    graph.name = "Chain";
    graph.arguments.push_back(symbol("Input0", GraphArgScope::Argument, GraphArgDirection::In));
    std::string previous = "Input0";
    int width = size, inFeatures = 1;
    for (int layer = 0; layer < layers; ++layer) {
        const std::string name = fmt::format("Conv{}", layer);
        const int outFeatures = features;
        CNN_ConvolutionPoolReLU(name.c_str(), nullptr, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, inFeatures, outFeatures,
                                width, width, KOP_CONV_DP, 3, 3, 1, 1, 1, 1, 0, KOP_NONE, 1, 1, 1, 1, 1, 1, 0, KOP_RELU);
        const std::string weights = name + "W", biases = name + "B";
        writeTensor(folder / (weights + ".tensor"), std::size_t(9) * inFeatures * outFeatures);
        writeTensor(folder / (biases + ".tensor"), std::size_t(outFeatures));
        graph.arguments.push_back(symbol(weights, GraphArgScope::Global, GraphArgDirection::ConstIn, folder));
        graph.arguments.push_back(symbol(biases, GraphArgScope::Global, GraphArgDirection::ConstIn, folder));
        const bool last = layer + 1 == layers;
        const std::string output = last ? "Output0" : name + "Out";
        if (!last)
            graph.locals.push_back(symbol(output, GraphArgScope::Local, GraphArgDirection::InOut));
        GraphNode node;
        node.kernel = name;
        for (const std::string& bound : {previous, weights, biases, output}) {
            GraphNodeBinding binding;
            binding.direction = bound == output ? GraphNodeBinding::Direction::Out : GraphNodeBinding::Direction::In;
            binding.symbol = bound;
            node.bindings.push_back(binding);
        }
        graph.nodes.push_back(node);
        previous = output;
        width -= 2;
        inFeatures = outFeatures;
    }
    graph.arguments.push_back(symbol("Output0", GraphArgScope::Argument, GraphArgDirection::Out));
    graph.closed = true;
    model.graphs = {graph};
}

void buildMnist(const fs::path& folder)
{
    tessera::gap::resetModel();
    KernelModel& model = tessera::gap::currentModel();
    model.options.outputDir = (folder / "out").string();
    model.options.l1Size = 48000;
    model.options.l2Size = 300 * 1024;
    model.options.dynamicSymbols = true;
    LoadCNNLibrary();
    CNN_ConvolutionPoolReLU("Conv0", nullptr, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 1, 32, 28, 28, KOP_CONV_DP, 5, 5, 1,
                            1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_ConvolutionPoolReLU("Conv1", nullptr, 2, 2, 2, 2, 12, 14, 14, 12, 1, 1, 1, 1, 32, 64, 12, 12, KOP_CONV_DP, 5, 5,
                            1, 1, 1, 1, 0, KOP_MAXPOOL, 2, 2, 1, 1, 2, 2, 0, KOP_RELU);
    CNN_LinearReLU("Linear", nullptr, 2, 2, 2, 2, 12, 12, 8, 11, 2, 2, 2, 2, 1024, 10, KOP_LINEAR, KOP_NONE);
    CNN_SoftMax("SoftMax", nullptr, 2, 2, 15, 15, 1, 1, 10, KOP_SOFTMAX);
    const std::pair<const char*, std::size_t> constants[] = {{"W1", 800},   {"B1", 32}, {"W2", 51200},
                                                             {"B2", 64},    {"W3", 10240}, {"B3", 10}};
    GraphModel graph;
    graph.name = "Mnist";
    graph.arguments.push_back(symbol("Input0", GraphArgScope::Argument, GraphArgDirection::In));
    for (const auto& [name, count] : constants) {
        writeTensor(folder / (std::string(name) + ".tensor"), count);
        graph.arguments.push_back(symbol(name, GraphArgScope::Global, GraphArgDirection::ConstIn, folder));
    }
    graph.arguments.push_back(symbol("Output0", GraphArgScope::Argument, GraphArgDirection::Out));
    for (const char* local : {"S2", "S3", "S4"})
        graph.locals.push_back(symbol(local, GraphArgScope::Local, GraphArgDirection::InOut));
    const auto node = [](const char* kernel, std::vector<std::string> symbols) {
        GraphNode result;
        result.kernel = kernel;
        for (std::size_t i = 0; i < symbols.size(); ++i) {
            GraphNodeBinding binding;
            binding.direction = i + 1 == symbols.size() ? GraphNodeBinding::Direction::Out : GraphNodeBinding::Direction::In;
            binding.symbol = symbols[i];
            result.bindings.push_back(binding);
        }
        return result;
    };
    graph.nodes = {node("Conv0", {"Input0", "W1", "B1", "S2"}), node("Conv1", {"S2", "W2", "B2", "S3"}),
                   node("Linear", {"S3", "W3", "B3", "S4"}), node("SoftMax", {"S4", "Output0"})};
    graph.closed = true;
    model.graphs = {graph};
}

// Reading every constants file and writing the generated bytes again: the I/O floor.
double ioMilliseconds(const fs::path& folder, const GenerationResult& result)
{
    return tessera::bench::medianMilliseconds(5, [&] {
        std::size_t bytes = 0;
        for (const auto& entry : fs::directory_iterator(folder))
            if (entry.path().extension() == ".tensor") {
                std::ifstream in(entry.path(), std::ios::binary);
                bytes += std::vector<char>(std::istreambuf_iterator<char>(in), {}).size();
            }
        for (const std::string& file : result.writtenFiles) {
            std::ifstream in(file, std::ios::binary);
            const std::vector<char> data((std::istreambuf_iterator<char>(in)), {});
            std::ofstream(folder / "copy.bin", std::ios::binary).write(data.data(), std::streamsize(data.size()));
            bytes += data.size();
        }
        (void) bytes;
    });
}

bool report(const char* what, const fs::path& folder, void (*build)(const fs::path&), double targetMs)
{
    GenerationResult result;
    const double ms = tessera::bench::medianMilliseconds(5, [&] {
        build(folder);
        result = generateTilingCode(tessera::gap::currentModel());
    });
    if (!result.ok) {
        fmt::print(stderr, "bench_gap_generate: {}: {}\n", what, result.error);
        return false;
    }
    const double io = ioMilliseconds(folder, result);
    fmt::print("bench_gap_generate: {} generated end to end in {:.1f} ms (median of 5), target < {:.0f} ms "
               "({:.4f}x of target); file I/O alone {:.2f} ms, generate / I/O = {:.1f}\n",
               what, ms, targetMs, ms / targetMs, io, ms / io);
    return ms < targetMs;
}

} // namespace

int main()
{
    const fs::path folder = fs::temp_directory_path() / "tessera_bench_gap_generate";
    fs::create_directories(folder);
    const bool mnist = report("MNIST (4 layers)", folder, buildMnist, 1000.0);
    fs::remove_all(folder);
    fs::create_directories(folder);
    const bool chain = report("30-layer convolution chain", folder,
                              [](const fs::path& f) { buildChain(f, 30, 68, 32); }, 3000.0);
    fs::remove_all(folder);
    return mnist && chain ? 0 : 1;
}
