// The INT8 reference of an NVDLA compilation: the legalized graph run node by node with the
// quantizer's integers through the DLA's integer arithmetic (interp/fixed_point/dla_arithmetic.h),
// from the graph and not from the loadable. A loadable's simulation must equal it bit for bit.
#pragma once

#include "ir/graph.h"
#include "ir/tensor_data.h"
#include "nvdla/compile/int8_quantization.h"

#include <vector>

namespace tessera::nvdla {

// Real-valued inputs (graph-input order) as the int8 values the network reads: round(x / scale),
// halves away from zero, saturated.
std::vector<TensorData> quantizeInputs(const Graph& legalized, const Int8Quantization& int8,
                                       const std::vector<TensorData>& inputs);

// int8 outputs (graph-output order, as int8 tensors of the outputs' shapes) back to real values.
std::vector<TensorData> dequantizeOutputs(const Graph& legalized, const Int8Quantization& int8,
                                          const std::vector<TensorData>& outputs);

// Runs the graph on int8 inputs (graph-input order) and returns the int8 outputs (graph-output
// order). Throws tessera::UnsupportedError naming a node the INT8 reference does not run.
std::vector<TensorData> runInt8Reference(const Graph& legalized, const Int8Quantization& int8,
                                         const std::vector<TensorData>& inputs);

}  // namespace tessera::nvdla
