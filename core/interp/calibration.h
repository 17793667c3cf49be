// Calibration: the range of every tensor of a graph over representative inputs, run through the
// float reference interpreter. Every quantizing backend (GAP int16/SQ8, NVDLA INT8) starts here.
#pragma once

#include "ir/graph.h"
#include "ir/tensor_data.h"

#include <string>
#include <vector>

namespace tessera {

// The range of every tensor over the calibration runs of the float reference interpreter.
struct CalibrationRanges {
    std::vector<float> maxAbs;       // per tensor
    std::vector<float> maxPositive;  // per tensor: the largest value, 0 when none is positive
    size_t runs = 0;
};

// How a tensor's range is taken from the values it had over the calibration runs.
enum class CalibrationMethod {
    MinMax,        // the largest magnitude met
    Percentile,    // the given percentile of the magnitudes: rare outliers are clipped
    MinimumError,  // the clipping threshold with the least squared quantization error at `bits`
};

struct CalibrationSettings {
    CalibrationMethod method = CalibrationMethod::MinMax;
    double percentile = 99.99;  // Percentile: in (0, 100]
    int bits = 8;               // MinimumError: the integer width values are quantized to
};

// "minmax", "percentile" or "mse"; throws tessera::Error naming the choices for another name.
CalibrationMethod calibrationMethodNamed(const std::string& name);

// Runs the float interpreter on each input set (graph-input order) and records the ranges. The
// methods other than MinMax run the sets twice: once for the largest magnitudes, once to fill a
// histogram of each tensor's magnitudes (and of its positive values) up to them.
CalibrationRanges calibrate(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets,
                            const CalibrationSettings& settings = {});

// Seeded uniform inputs in [-1, 1] for every graph input: the calibration data when the user gives none.
std::vector<std::vector<TensorData>> randomInputSets(const Graph& graph, size_t count, unsigned seed);

// Refuses NaN or infinite calibration values, naming the set (from `folder`, or random), input and index.
void requireFiniteInputs(const Graph& graph, const std::vector<std::vector<TensorData>>& inputSets,
                         const std::string& folder);

}  // namespace tessera
