// tessera run MODEL -i input.pb... -o OUTDIR: executes the model with the reference interpreter and
// writes output_<k>.pb files (ONNX TensorProto, as in ONNX's test data).
#include "commands.h"

#include "interp/interpreter.h"
#include "base/error.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"

#include <fmt/format.h>

#include <filesystem>
#include <string>

namespace tessera::cli {

namespace {

int runModel(const std::string& modelPath, const std::vector<std::string>& inputPaths, const std::string& outputDir)
{
    const Graph graph = loadModel(modelPath);
    if (inputPaths.size() != graph.inputs.size()) {
        std::string names;
        for (TensorId id : graph.inputs)
            names += (names.empty() ? "" : ", ") + graph.tensor(id).name;
        throw tessera::ModelError(fmt::format("{}: the model has {} inputs ({}), {} given with -i", modelPath, graph.inputs.size(),
                                names, inputPaths.size()));
    }
    std::vector<TensorData> inputs;
    for (size_t k = 0; k < inputPaths.size(); ++k)
        inputs.push_back(readTensorFileAs(inputPaths[k], graph.tensor(graph.inputs[k]).dtype));
    const std::vector<TensorData> outputs = Interpreter(graph).run(inputs);

    std::error_code error;
    std::filesystem::create_directories(outputDir, error);
    if (error)
        throw tessera::Error(outputDir + ": cannot create the output directory (" + error.message() + ")");
    for (size_t k = 0; k < outputs.size(); ++k) {
        const std::string path = (std::filesystem::path(outputDir) / fmt::format("output_{}.pb", k)).string();
        const std::string& name = graph.tensor(graph.outputs[k]).name;
        writeTensorFile(path, outputs[k], name);
        fmt::print("{}: '{}' {} {}\n", path, name, dtypeName(outputs[k].dtype()), shapeToString(outputs[k].shape()));
    }
    return 0;
}

} // namespace

void addRunCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("run", "Execute a model with the reference interpreter");
    struct Options {
        std::string model;
        std::vector<std::string> inputs;
        std::string outputDir;
    };
    auto options = std::make_shared<Options>();
    command->add_option("model", options->model, "ONNX model file")->required();
    command->add_option("-i,--input", options->inputs, "Input tensor files (.pb), in the model's input order");
    command->add_option("-o,--output-dir", options->outputDir, "Directory for output_<k>.pb")->required()->check(nonEmptyPath());
    command->callback([&action, options] {
        action = [options] { return runModel(options->model, options->inputs, options->outputDir); };
    });
}

} // namespace tessera::cli
