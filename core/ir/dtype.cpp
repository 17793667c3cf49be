#include "ir/dtype.h"

#include <array>
#include <bit>
#include <cmath>

namespace tessera {

namespace {
struct DTypeInfo {
    DType type;
    std::string_view name;
    size_t size;
};
constexpr std::array<DTypeInfo, 9> kTypes{{
    {DType::Float32, "float32", 4},
    {DType::Float16, "float16", 2},
    {DType::BFloat16, "bfloat16", 2},
    {DType::Int8, "int8", 1},
    {DType::UInt8, "uint8", 1},
    {DType::Int16, "int16", 2},
    {DType::Int32, "int32", 4},
    {DType::Int64, "int64", 8},
    {DType::Bool, "bool", 1},
}};
} // namespace

size_t dtypeSize(DType type) { return kTypes[static_cast<size_t>(type)].size; }

std::string_view dtypeName(DType type) { return kTypes[static_cast<size_t>(type)].name; }

std::optional<DType> dtypeFromName(std::string_view name)
{
    for (const auto& info : kTypes)
        if (info.name == name)
            return info.type;
    return std::nullopt;
}

bool isFloat(DType type)
{
    return type == DType::Float32 || type == DType::Float16 || type == DType::BFloat16;
}

bool isInteger(DType type) { return !isFloat(type) && type != DType::Bool; }

float halfToFloat(uint16_t bits)
{
    const uint32_t sign = (bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1f;
    const uint32_t mantissa = bits & 0x3ff;
    if (exponent == 0) {
        // zero or subnormal: value = mantissa * 2^-24
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1f)
        return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

uint16_t floatToHalf(float value)
{
    const uint32_t x = std::bit_cast<uint32_t>(value);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const uint32_t absx = x & 0x7fffffffu;
    if (absx >= 0x7f800000u) // inf or nan
        return sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u);
    if (absx >= 0x477ff000u) // rounds to infinity
        return sign | 0x7c00u;
    if (absx < 0x38800000u) { // subnormal half or zero
        const float magnitude = std::bit_cast<float>(absx);
        const float scaled = std::nearbyint(magnitude * 16777216.0f); // * 2^24, ties to even
        return sign | static_cast<uint16_t>(scaled);
    }
    const uint32_t exponent = ((absx >> 23) - 112) << 10;
    const uint32_t mantissa = absx & 0x7fffffu;
    uint32_t result = exponent | (mantissa >> 13);
    const uint32_t rest = mantissa & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (result & 1u)))
        ++result;
    return sign | static_cast<uint16_t>(result);
}

float bfloat16ToFloat(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

uint16_t floatToBfloat16(float value)
{
    const uint32_t x = std::bit_cast<uint32_t>(value);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return static_cast<uint16_t>((x >> 16) | 0x40u); // quiet nan
    const uint32_t roundingBias = 0x7fffu + ((x >> 16) & 1u);
    return static_cast<uint16_t>((x + roundingBias) >> 16);
}

std::optional<DType> dtypeFromOnnxCode(int64_t code)
{
    switch (code) {
    case 1: return DType::Float32;
    case 2: return DType::UInt8;
    case 3: return DType::Int8;
    case 5: return DType::Int16;
    case 6: return DType::Int32;
    case 7: return DType::Int64;
    case 9: return DType::Bool;
    case 10: return DType::Float16;
    case 16: return DType::BFloat16;
    default: return std::nullopt;
    }
}

} // namespace tessera
