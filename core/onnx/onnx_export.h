#pragma once
// Export of Tessera's IR as an ONNX model: constants become initializers, typed intermediate
// tensors are listed in value_info, quantization parameters go to metadata_props
// (see quantization_metadata.h). Importing the result gives back an equal graph.
#include "ir/graph.h"

#include <string>

namespace tessera {

std::string exportOnnxBytes(const Graph& graph);
// Writes atomically; throws Error naming the path when it cannot.
void exportOnnxFile(const Graph& graph, const std::string& path);

} // namespace tessera
