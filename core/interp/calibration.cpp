#include "interp/calibration.h"

#include "interp/interpreter.h"
#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <random>
#include <thread>

namespace tessera {
namespace {

void record(CalibrationRanges& ranges, TensorId id, const TensorData& data)
{
    if (data.dtype() != DType::Float32)
        return;
    const float* values = data.data<float>();
    for (int64_t k = 0; k < data.elements(); ++k) {
        ranges.maxAbs[size_t(id)] = std::max(ranges.maxAbs[size_t(id)], std::fabs(values[k]));
        ranges.maxPositive[size_t(id)] = std::max(ranges.maxPositive[size_t(id)], values[k]);
    }
}

}  // namespace

CalibrationRanges calibrate(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets)
{
    // The sets run on as many threads as the machine has cores, each keeping its own ranges.
    const size_t workers =
        std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), inputSets.size()));
    std::vector<CalibrationRanges> partial(workers);
    const Interpreter interpreter(graph);
    const auto work = [&](size_t worker) {
        CalibrationRanges& ranges = partial[worker];
        ranges.maxAbs.assign(graph.tensorCount(), 0.0f);
        ranges.maxPositive.assign(graph.tensorCount(), 0.0f);
        for (size_t set = worker; set < inputSets.size(); set += workers) {
            const std::vector<TensorData>& inputs = inputSets[set];
            for (size_t k = 0; k < inputs.size() && k < graph.inputs.size(); ++k)
                record(ranges, graph.inputs[k], inputs[k]);
            interpreter.run(inputs, [&](size_t, const Node& node, const std::vector<TensorData>& outputs) {
                for (size_t k = 0; k < outputs.size() && k < node.outputs.size(); ++k)
                    record(ranges, node.outputs[k], outputs[k]);
            });
            ++ranges.runs;
        }
    };
    std::vector<std::future<void>> running;
    for (size_t worker = 1; worker < workers; ++worker)
        running.push_back(std::async(std::launch::async, work, worker));
    work(0);
    for (std::future<void>& future : running)
        future.get();  // rethrows a worker's error
    CalibrationRanges ranges = std::move(partial[0]);
    for (size_t worker = 1; worker < workers; ++worker) {
        for (size_t t = 0; t < ranges.maxAbs.size(); ++t) {
            ranges.maxAbs[t] = std::max(ranges.maxAbs[t], partial[worker].maxAbs[t]);
            ranges.maxPositive[t] = std::max(ranges.maxPositive[t], partial[worker].maxPositive[t]);
        }
        ranges.runs += partial[worker].runs;
    }
    return ranges;
}

std::vector<std::vector<TensorData>> randomInputSets(const Graph& graph, size_t count, unsigned seed)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<std::vector<TensorData>> sets(count);
    for (std::vector<TensorData>& set : sets)
        for (TensorId input : graph.inputs) {
            const Tensor& tensor = graph.tensor(input);
            std::vector<float> values(size_t(tensor.elements()));
            for (float& v : values)
                v = uniform(random);
            set.push_back(TensorData::fromFloats(tensor.shape, values));
        }
    return sets;
}

void requireFiniteInputs(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets,
                         const std::string& folder)
{
    for (size_t set = 0; set < inputSets.size(); ++set)
        for (size_t k = 0; k < inputSets[set].size(); ++k) {
            const TensorData& input = inputSets[set][k];
            for (int64_t i = 0; i < input.elements(); ++i)
                if (!std::isfinite(input.getDouble(i)))
                    throw ModelError(fmt::format("calibration input set {} ({}), input '{}': value {} is {}; "
                                                 "calibration inputs must be finite numbers",
                                                 set, folder.empty() ? "random" : folder,
                                                 graph.tensor(graph.inputs.at(k)).name, i, input.getDouble(i)));
        }
}

}  // namespace tessera
