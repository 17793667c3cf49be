#pragma once
// Element types of tensors, their sizes and conversions of the 16-bit float formats.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera {

enum class DType : uint8_t {
    Float32,
    Float16,
    BFloat16,
    Int8,
    UInt8,
    Int16,
    Int32,
    Int64,
    Bool,
};

// Bytes one element occupies in memory (Bool is one byte).
size_t dtypeSize(DType type);
// Lower-case name as printed in dumps: "float32", "int8", ...
std::string_view dtypeName(DType type);
std::optional<DType> dtypeFromName(std::string_view name);
bool isFloat(DType type);
bool isInteger(DType type); // signed or unsigned integers, not Bool
// The Tessera type of an ONNX TensorProto.DataType code (as in files and in attributes such as
// Cast's `to`); nullopt for ONNX types Tessera lacks (double, string, uint16...).
std::optional<DType> dtypeFromOnnxCode(int64_t code);

float halfToFloat(uint16_t bits);
uint16_t floatToHalf(float value);         // round to nearest even
float bfloat16ToFloat(uint16_t bits);
uint16_t floatToBfloat16(float value);     // round to nearest even

} // namespace tessera
