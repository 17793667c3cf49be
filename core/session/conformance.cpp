#include "session/conformance.h"

#include "interp/interpreter.h"
#include "base/error.h"
#include "onnx/onnx_import.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>

namespace tessera {

namespace fs = std::filesystem;

namespace {

bool isCase(const fs::path& directory) { return fs::is_regular_file(directory / "model.onnx"); }

// Empty when the values agree, otherwise what differs.
std::string compareValues(const TensorData& actual, const TensorData& expected, double tolerance)
{
    if (actual.dtype() != expected.dtype())
        return fmt::format("type {} instead of {}", dtypeName(actual.dtype()), dtypeName(expected.dtype()));
    if (actual.shape() != expected.shape())
        return fmt::format("shape {} instead of {}", shapeToString(actual.shape()), shapeToString(expected.shape()));
    const bool exact = !isFloat(expected.dtype());
    for (int64_t i = 0; i < expected.elements(); ++i) {
        const double a = actual.getDouble(i);
        const double b = expected.getDouble(i);
        if (std::isnan(b) && std::isnan(a))
            continue;
        const bool agree = exact ? a == b : (a == b || std::abs(a - b) <= tolerance * (1.0 + std::abs(b)));
        if (!agree)
            return fmt::format("element {} is {} instead of {}", i, a, b);
    }
    return {};
}

std::vector<fs::path> numberedFiles(const fs::path& directory, const std::string& prefix)
{
    std::vector<fs::path> files;
    for (size_t k = 0;; ++k) {
        const fs::path file = directory / fmt::format("{}_{}.pb", prefix, k);
        if (!fs::exists(file))
            break;
        files.push_back(file);
    }
    return files;
}

// Runs `imported` on one data set with inputs bound as constants: the integer ones, or all when
// `bindAll`. Test cases feed shape-like values (Reshape's shape, Reduce* axes, NonZero's data) as
// graph inputs; Tessera's shapes are static, so the model is specialized to the data set's values.
std::vector<TensorData> runSpecializedOnce(const Graph& imported, const std::string& modelPath,
                                           const std::vector<TensorData>& inputs, bool bindAll)
{
    Graph graph = imported;
    std::vector<TensorId> remaining;
    std::vector<TensorData> remainingValues;
    for (size_t k = 0; k < graph.inputs.size() && k < inputs.size(); ++k) {
        Tensor& tensor = graph.tensor(graph.inputs[k]);
        if (bindAll || isInteger(tensor.dtype)) {
            tensor.constant = std::make_shared<const TensorData>(inputs[k]);
            tensor.shape = inputs[k].shape();
        } else {
            remaining.push_back(graph.inputs[k]);
            remainingValues.push_back(inputs[k]);
        }
    }
    graph.inputs = remaining;
    try {
        prepareGraph(graph);
    } catch (const ShapeError& error) {
        throw ShapeError(modelPath + ": " + error.what());
    }
    return Interpreter(graph).run(remainingValues);
}

std::vector<TensorData> runSpecialized(const Graph& imported, const std::string& modelPath,
                                       const std::vector<TensorData>& inputs)
{
    try {
        return runSpecializedOnce(imported, modelPath, inputs, false);
    } catch (const ShapeError&) {
        return runSpecializedOnce(imported, modelPath, inputs, true);
    }
}

} // namespace

std::vector<std::string> findConformanceCases(const std::vector<std::string>& paths)
{
    std::vector<std::string> cases;
    for (const std::string& path : paths) {
        if (!fs::is_directory(path))
            throw ModelError(path + ": not a directory of ONNX test cases");
        if (isCase(path)) {
            cases.push_back(path);
            continue;
        }
        for (const auto& entry : fs::directory_iterator(path))
            if (entry.is_directory() && isCase(entry.path()))
                cases.push_back(entry.path().string());
    }
    std::sort(cases.begin(), cases.end());
    cases.erase(std::unique(cases.begin(), cases.end()), cases.end());
    return cases;
}

CaseResult runConformanceCase(const std::string& directory, double tolerance)
{
    CaseResult result;
    result.name = fs::path(directory).filename().string();
    try {
        const std::string modelPath = (fs::path(directory) / "model.onnx").string();
        const Graph imported = importOnnxFile(modelPath);
        // The model as every command opens it; when its shapes need input values, each data set
        // runs a specialized copy instead.
        std::optional<Graph> graph;
        try {
            Graph prepared = imported;
            prepareGraph(prepared);
            graph = std::move(prepared);
        } catch (const ShapeError&) {
        }
        std::vector<fs::path> dataSets;
        for (const auto& entry : fs::directory_iterator(directory))
            if (entry.is_directory() && entry.path().filename().string().rfind("test_data_set_", 0) == 0)
                dataSets.push_back(entry.path());
        std::sort(dataSets.begin(), dataSets.end());
        if (dataSets.empty())
            throw ModelError(directory + ": no test_data_set_N directories");
        for (const fs::path& dataSet : dataSets) {
            std::vector<TensorData> inputs;
            const auto inputFiles = numberedFiles(dataSet, "input");
            for (size_t k = 0; k < inputFiles.size() && k < imported.inputs.size(); ++k)
                inputs.push_back(readTensorFileAs(inputFiles[k].string(), imported.tensor(imported.inputs[k]).dtype));
            const std::vector<TensorData> outputs =
                graph ? Interpreter(*graph).run(inputs) : runSpecialized(imported, modelPath, inputs);
            const auto outputFiles = numberedFiles(dataSet, "output");
            if (outputFiles.size() != outputs.size())
                throw ModelError(fmt::format("{} expected outputs, the graph has {}", outputFiles.size(), outputs.size()));
            for (size_t k = 0; k < outputs.size(); ++k) {
                const TensorData expected = readTensorFileAs(outputFiles[k].string(), outputs[k].dtype());
                const std::string difference = compareValues(outputs[k], expected, tolerance);
                if (!difference.empty()) {
                    result.outcome = CaseOutcome::Failed;
                    result.message = fmt::format("{} output {}: {}", dataSet.filename().string(), k, difference);
                    return result;
                }
            }
        }
    } catch (const UnsupportedError& error) {
        result.outcome = CaseOutcome::Skipped;
        result.message = error.what();
    } catch (const std::exception& error) {
        result.outcome = CaseOutcome::Failed;
        result.message = error.what();
    }
    return result;
}

ConformanceSummary runConformance(const std::vector<std::string>& directories, const CaseCallback& onCase,
                                  double tolerance)
{
    ConformanceSummary summary;
    for (const std::string& directory : directories) {
        CaseResult result = runConformanceCase(directory, tolerance);
        switch (result.outcome) {
        case CaseOutcome::Passed: ++summary.passed; break;
        case CaseOutcome::Failed: ++summary.failed; break;
        case CaseOutcome::Skipped: ++summary.skipped; break;
        }
        if (onCase)
            onCase(result);
        summary.cases.push_back(std::move(result));
    }
    return summary;
}

} // namespace tessera
