// Input sets of a model read from .pb tensor files: the calibration data of the quantizing backends.
#pragma once

#include "ir/graph.h"
#include "ir/tensor_data.h"

#include <string>
#include <vector>

namespace tessera {

// The input sets of a folder: one .pb file per set for single-input models, or folders (such as
// test_data_set_N) of input_0.pb, input_1.pb ... Each tensor is checked against the model's input.
std::vector<std::vector<TensorData>> readCalibrationFolder(const Graph& graph, const std::string& folder);

}  // namespace tessera
