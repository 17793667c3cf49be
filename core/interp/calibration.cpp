#include "interp/calibration.h"

#include "interp/interpreter.h"
#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
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

// Magnitudes of one tensor's values in kBins equal bins over [0, top].
constexpr size_t kBins = 1024;

struct Histograms {
    std::vector<std::vector<uint32_t>> magnitude;  // per tensor: |v|
    std::vector<std::vector<uint32_t>> positive;   // per tensor: v > 0
};

void fill(std::vector<uint32_t>& bins, float top, float value)
{
    if (bins.empty() || !(top > 0.0f))
        return;
    const double position = double(value) / double(top) * double(kBins);
    if (!(position >= 0.0))  // NaN values are not counted
        return;
    ++bins[position >= double(kBins - 1) ? kBins - 1 : size_t(position)];
}

void recordHistogram(Histograms& histograms, const CalibrationRanges& ranges, TensorId id, const TensorData& data)
{
    if (data.dtype() != DType::Float32 || histograms.magnitude[size_t(id)].empty())
        return;
    const float* values = data.data<float>();
    for (int64_t k = 0; k < data.elements(); ++k) {
        fill(histograms.magnitude[size_t(id)], ranges.maxAbs[size_t(id)], std::fabs(values[k]));
        if (values[k] > 0.0f)
            fill(histograms.positive[size_t(id)], ranges.maxAbs[size_t(id)], values[k]);
    }
}

// The range a method takes from a histogram over [0, top] (the top of a bin).
float rangeFrom(const std::vector<uint32_t>& bins, float top, const CalibrationSettings& settings)
{
    uint64_t total = 0;
    for (uint32_t count : bins)
        total += count;
    if (total == 0 || !(top > 0.0f))
        return 0.0f;
    const double width = double(top) / double(kBins);
    if (settings.method == CalibrationMethod::Percentile) {
        const double wanted = double(total) * settings.percentile / 100.0;
        uint64_t seen = 0;
        for (size_t bin = 0; bin < kBins; ++bin) {
            seen += bins[bin];
            if (double(seen) >= wanted)
                return float(width * double(bin + 1));
        }
        return top;
    }
    // Minimum error: values above the threshold t are clipped to it, those below are rounded to a
    // step of t / (2^(bits-1) - 1), an error of step^2 / 12 each on average (bin centres stand for
    // their values).
    const double levels = std::ldexp(1.0, settings.bits - 1) - 1.0;
    double bestError = -1.0;
    float best = top;
    for (size_t edge = 1; edge <= kBins; ++edge) {
        const double threshold = width * double(edge);
        const double step = threshold / levels;
        double error = 0.0;
        uint64_t inside = 0;
        for (size_t bin = 0; bin < kBins; ++bin) {
            if (bin < edge) {
                inside += bins[bin];
            } else {
                const double excess = width * (double(bin) + 0.5) - threshold;
                error += double(bins[bin]) * excess * excess;
            }
        }
        error += double(inside) * step * step / 12.0;
        if (bestError < 0.0 || error < bestError) {
            bestError = error;
            best = float(threshold);
        }
    }
    return best;
}

// Runs `record(ranges-or-histograms of a worker, tensor, value)` over every input set on as many
// threads as the machine has cores, each worker with its own `State`.
template <class State, class Record>
std::vector<State> overInputSets(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets,
                                 const std::function<State()>& makeState, Record record)
{
    const size_t workers =
        std::max<size_t>(1, std::min<size_t>(std::thread::hardware_concurrency(), inputSets.size()));
    std::vector<State> partial;
    for (size_t worker = 0; worker < workers; ++worker)
        partial.push_back(makeState());
    const Interpreter interpreter(graph);
    const auto work = [&](size_t worker) {
        State& state = partial[worker];
        for (size_t set = worker; set < inputSets.size(); set += workers) {
            const std::vector<TensorData>& inputs = inputSets[set];
            for (size_t k = 0; k < inputs.size() && k < graph.inputs.size(); ++k)
                record(state, graph.inputs[k], inputs[k]);
            interpreter.run(inputs, [&](size_t, const Node& node, const std::vector<TensorData>& outputs) {
                for (size_t k = 0; k < outputs.size() && k < node.outputs.size(); ++k)
                    record(state, node.outputs[k], outputs[k]);
            });
        }
    };
    std::vector<std::future<void>> running;
    for (size_t worker = 1; worker < workers; ++worker)
        running.push_back(std::async(std::launch::async, work, worker));
    work(0);
    for (std::future<void>& future : running)
        future.get();  // rethrows a worker's error
    return partial;
}

CalibrationRanges calibrateMinMax(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets)
{
    const auto makeRanges = [&] {
        CalibrationRanges ranges;
        ranges.maxAbs.assign(graph.tensorCount(), 0.0f);
        ranges.maxPositive.assign(graph.tensorCount(), 0.0f);
        return ranges;
    };
    std::vector<CalibrationRanges> partial =
        overInputSets<CalibrationRanges>(graph, inputSets, makeRanges, record);
    CalibrationRanges ranges = std::move(partial[0]);
    for (size_t worker = 1; worker < partial.size(); ++worker)
        for (size_t t = 0; t < ranges.maxAbs.size(); ++t) {
            ranges.maxAbs[t] = std::max(ranges.maxAbs[t], partial[worker].maxAbs[t]);
            ranges.maxPositive[t] = std::max(ranges.maxPositive[t], partial[worker].maxPositive[t]);
        }
    ranges.runs = inputSets.size();
    return ranges;
}

}  // namespace

CalibrationMethod calibrationMethodNamed(const std::string& name)
{
    if (name == "minmax")
        return CalibrationMethod::MinMax;
    if (name == "percentile")
        return CalibrationMethod::Percentile;
    if (name == "mse")
        return CalibrationMethod::MinimumError;
    throw Error("calibration method '" + name +
                "' is not known; use minmax (largest values), percentile (99.99th percentile of the magnitudes) or "
                "mse (least squared quantization error)");
}

CalibrationRanges calibrate(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets,
                            const CalibrationSettings& settings)
{
    CalibrationRanges ranges = calibrateMinMax(graph, inputSets);
    if (settings.method == CalibrationMethod::MinMax)
        return ranges;
    if (!(settings.percentile > 0.0 && settings.percentile <= 100.0))
        throw Error(fmt::format("the calibration percentile {} is not in (0, 100]", settings.percentile));
    if (settings.bits < 2 || settings.bits > 32)
        throw Error(fmt::format("the calibration width of {} bits is not in 2 to 32", settings.bits));
    const auto makeHistograms = [&] {
        Histograms histograms;
        histograms.magnitude.resize(graph.tensorCount());
        histograms.positive.resize(graph.tensorCount());
        for (size_t t = 0; t < graph.tensorCount(); ++t)
            if (ranges.maxAbs[t] > 0.0f && graph.tensor(TensorId(t)).dtype == DType::Float32) {
                histograms.magnitude[t].assign(kBins, 0);
                histograms.positive[t].assign(kBins, 0);
            }
        return histograms;
    };
    std::vector<Histograms> partial = overInputSets<Histograms>(
        graph, inputSets, makeHistograms,
        [&](Histograms& histograms, TensorId id, const TensorData& data) { recordHistogram(histograms, ranges, id, data); });
    for (size_t t = 0; t < graph.tensorCount(); ++t) {
        if (partial[0].magnitude[t].empty())
            continue;
        for (size_t worker = 1; worker < partial.size(); ++worker)
            for (size_t bin = 0; bin < kBins; ++bin) {
                partial[0].magnitude[t][bin] += partial[worker].magnitude[t][bin];
                partial[0].positive[t][bin] += partial[worker].positive[t][bin];
            }
        const float top = ranges.maxAbs[t];
        ranges.maxAbs[t] = std::min(top, rangeFrom(partial[0].magnitude[t], top, settings));
        ranges.maxPositive[t] = std::min(ranges.maxPositive[t], rangeFrom(partial[0].positive[t], top, settings));
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
