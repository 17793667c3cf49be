#pragma once
// Import of ONNX models (opsets 7-18 of the default domain) into Tessera's IR.
//
// What import does: initializers and Constant nodes become constant tensors; graph inputs keep
// their declared types (a symbolic dimension becomes 1 and leaves a note in Graph::notes); every
// node must be an operator Tessera knows. Output types are not trusted from the file: run
// inferShapes (or loadModel, which also folds constants) afterwards.
#include "ir/graph.h"

#include <string>

namespace tessera {

inline constexpr int64_t kMinOnnxOpset = 7;
inline constexpr int64_t kMaxOnnxOpset = 18;

// Throws ModelError for files that are not valid ONNX and UnsupportedError for what Tessera does
// not handle ("unsupported operator X (opset N) at node 'Y'", external data, float64 ...).
Graph importOnnxFile(const std::string& path);
// The same from serialized bytes; `sourceName` names them in messages.
Graph importOnnxBytes(const std::string& bytes, const std::string& sourceName);

} // namespace tessera
