#pragma once
// Conversion between ONNX TensorProto messages (initializers, Constant values, .pb test files)
// and Tessera's TensorData.
#include "ir/tensor_data.h"

#include <onnx/onnx_pb.h>

#include <optional>
#include <string>

namespace tessera {

// ONNX TensorProto.DataType code of a Tessera dtype, and back. dtypeFromOnnx returns nullopt for
// element types Tessera does not compute with (double, string, complex, float8, ...).
int onnxElemType(DType type);
std::optional<DType> dtypeFromOnnx(int elemType);
// "float64", "string", ... for messages about element types Tessera refuses.
std::string onnxElemTypeName(int elemType);

// Reads a TensorProto. `where` names it in errors ("initializer 'conv1.weight'"). Refuses
// external data, unsupported element types and contents that do not match the declared shape.
TensorData tensorFromProto(const onnx::TensorProto& proto, const std::string& where);
// Writes `data` as raw_data into `proto`, named `name`.
void tensorToProto(const TensorData& data, const std::string& name, onnx::TensorProto& proto);

// One serialized TensorProto per file, as in ONNX's test_data_set_N/input_K.pb.
TensorData parseTensorBytes(const std::string& bytes, const std::string& source);
TensorData readTensorFile(const std::string& path);
// The same for a file whose tensor should have type `declared`: ONNX's own test data stores
// bfloat16 tensors as uint16 bit patterns, which this reads as bfloat16.
TensorData readTensorFileAs(const std::string& path, DType declared);
void writeTensorFile(const std::string& path, const TensorData& data, const std::string& name);

} // namespace tessera
