#include "onnx/input_sets.h"

#include "base/error.h"
#include "onnx/tensor_proto.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace tessera {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sortedEntries(const fs::path& folder)
{
    std::vector<fs::path> entries;
    for (const fs::directory_entry& entry : fs::directory_iterator(folder))
        entries.push_back(entry.path());
    std::sort(entries.begin(), entries.end());
    return entries;
}

std::vector<TensorData> readInputSet(const Graph& graph, const std::vector<fs::path>& files)
{
    std::vector<TensorData> set;
    for (size_t k = 0; k < graph.inputs.size(); ++k) {
        const Tensor& input = graph.tensor(graph.inputs[k]);
        TensorData data = readTensorFileAs(files[k].string(), input.dtype);
        if (data.elements() != input.elements())
            throw ModelError(fmt::format("{}: {} values, the model's input '{}' has {} ({})", files[k].string(),
                                         data.elements(), input.name, input.elements(), shapeToString(input.shape)));
        data.reshape(input.shape);
        set.push_back(std::move(data));
    }
    return set;
}

}  // namespace

std::vector<std::vector<TensorData>> readCalibrationFolder(const Graph& graph, const std::string& folder)
{
    const fs::path root(folder);
    std::error_code error;
    if (!fs::is_directory(root, error))
        throw ModelError("calibration folder " + folder + " does not exist");
    std::vector<std::vector<TensorData>> sets;
    std::vector<fs::path> singleFiles;
    for (const fs::path& entry : sortedEntries(root)) {
        if (fs::is_directory(entry)) {
            std::vector<fs::path> files;
            for (size_t k = 0; k < graph.inputs.size(); ++k)
                files.push_back(entry / fmt::format("input_{}.pb", k));
            if (std::all_of(files.begin(), files.end(), [](const fs::path& f) { return fs::exists(f); }))
                sets.push_back(readInputSet(graph, files));
        } else if (entry.extension() == ".pb") {
            singleFiles.push_back(entry);
        }
    }
    if (graph.inputs.size() == 1)
        for (const fs::path& file : singleFiles)
            sets.push_back(readInputSet(graph, {file}));
    if (sets.empty())
        throw ModelError("calibration folder " + folder + " holds no input sets: put one .pb file per input set there "
                         "(single-input models) or folders with input_0.pb, input_1.pb ...");
    return sets;
}

}  // namespace tessera
