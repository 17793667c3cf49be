#pragma once
// Tensor quantization parameters have no place in an ONNX tensor, so Tessera keeps them in the
// model's metadata_props, one entry per quantized tensor:
//   key   "tessera.quantization:<tensor name>"
//   value {"scale":[...],"zero_point":[...],"axis":1,"fractional_bits":7}  (JSON; fields optional)
// Other tools ignore these entries; Tessera reads them back on import.
#include "ir/graph.h"

#include <onnx/onnx_pb.h>

namespace tessera {

void writeQuantizationMetadata(const Graph& graph, onnx::ModelProto& model);
// Throws ModelError for an entry that names an unknown tensor or is not valid JSON.
void applyQuantizationMetadata(const onnx::ModelProto& model, Graph& graph);

} // namespace tessera
