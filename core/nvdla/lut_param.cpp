#include "nvdla/lut_param.h"

#include "ir/dtype.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

namespace tessera::nvdla {

namespace {

constexpr int kMethodExponential = 0, kMethodLinear = 1;
constexpr int kPriorityLe = 0, kPriorityLo = 1;

const char* const kSlopes[4] = {"linear_exp_underflow_slope", "linear_exp_overflow_slope", "linear_only_underflow_slope",
                                "linear_only_overflow_slope"};

float fp32Bits(std::int64_t value)
{
    return std::bit_cast<float>(std::uint32_t(value));
}

float half(std::int16_t bits)
{
    return halfToFloat(std::uint16_t(bits));
}

}  // namespace

std::vector<std::uint8_t> encodeLut(const dla::Lut& lut, const StructLayout& layout)
{
    std::vector<std::uint8_t> bytes(layout.size, 0);
    Record record(layout, bytes);
    for (int i = 0; i < 65; ++i)
        record.set(fmt::format("linear_exp_table[{}]", i), lut.le[i]);
    for (int i = 0; i < 257; ++i)
        record.set(fmt::format("linear_only_table[{}]", i), lut.lo[i]);
    record.set("linear_exp_offset", lut.leIndex);
    record.set("linear_only_offset", lut.loFracBits);
    record.set("linear_exp_start", lut.leStart);
    record.set("linear_exp_end", lut.leEnd);
    record.set("linear_only_start", lut.loStart);
    record.set("linear_only_end", lut.loEnd);
    const dla::LutSlope* slopes[4] = {&lut.leUnderflow, &lut.leOverflow, &lut.loUnderflow, &lut.loOverflow};
    for (int k = 0; k < 4; ++k) {
        record.set(std::string(kSlopes[k]) + ".scale", slopes[k]->scale);
        record.set(std::string(kSlopes[k]) + ".shifter", slopes[k]->shift);
    }
    record.set("hybrid_priority", lut.hybridLo ? kPriorityLo : kPriorityLe);
    record.set("underflow_priority", lut.underflowLo ? kPriorityLo : kPriorityLe);
    record.set("overflow_priority", lut.overflowLo ? kPriorityLo : kPriorityLe);
    record.set("method", lut.exponential ? kMethodExponential : kMethodLinear);
    return bytes;
}

dla::Lut decodeLut(const ConstRecord& record)
{
    dla::Lut lut;
    for (int i = 0; i < 65; ++i)
        lut.le[i] = std::int16_t(record.get(fmt::format("linear_exp_table[{}]", i)));
    for (int i = 0; i < 257; ++i)
        lut.lo[i] = std::int16_t(record.get(fmt::format("linear_only_table[{}]", i)));
    lut.leIndex = std::int8_t(record.get("linear_exp_offset"));
    lut.loFracBits = std::int8_t(record.get("linear_only_offset"));
    lut.leStart = record.get("linear_exp_start");
    lut.leEnd = record.get("linear_exp_end");
    lut.loStart = record.get("linear_only_start");
    lut.loEnd = record.get("linear_only_end");
    dla::LutSlope* slopes[4] = {&lut.leUnderflow, &lut.leOverflow, &lut.loUnderflow, &lut.loOverflow};
    for (int k = 0; k < 4; ++k) {
        slopes[k]->scale = std::int16_t(record.get(std::string(kSlopes[k]) + ".scale"));
        slopes[k]->shift = std::int8_t(record.get(std::string(kSlopes[k]) + ".shifter"));
    }
    lut.hybridLo = record.get("hybrid_priority") == kPriorityLo;
    lut.underflowLo = record.get("underflow_priority") == kPriorityLo;
    lut.overflowLo = record.get("overflow_priority") == kPriorityLo;
    lut.exponential = record.get("method") == kMethodExponential;
    return lut;
}

float lutInFloat(float x, const dla::Lut& lut)
{
    struct Position {
        bool underflow = false, overflow = false;
        int index = 0;
        float fraction = 0.0f;
    };
    const auto linear = [&](float start, int fracBits, int entries) {
        Position p;
        const float distance = x - start;
        if (!(distance > 0.0f)) {
            p.underflow = true;
            return p;
        }
        const double scaled = std::ldexp(double(distance), -fracBits);
        const double index = std::min(511.0, std::floor(scaled));
        if (index >= entries - 1) {
            p.overflow = true;
            return p;
        }
        p.index = int(index);
        p.fraction = float(scaled - std::floor(scaled));
        return p;
    };
    const auto exponential = [&](float start, int offset) {
        Position p;
        const float distance = x - start;
        if (!(distance > 0.0f)) {
            p.underflow = true;
            return p;
        }
        int exponent = 0;
        const float mantissa = std::frexp(distance, &exponent);  // distance = mantissa * 2^exponent, [0.5, 1)
        --exponent;
        if (exponent < offset) {
            p.underflow = true;
        } else if (exponent - offset >= 64) {
            p.overflow = true;
        } else {
            p.index = exponent - offset;
            p.fraction = 2.0f * mantissa - 1.0f;
        }
        return p;
    };
    const Position le = lut.exponential ? exponential(fp32Bits(lut.leStart), lut.leIndex)
                                        : linear(fp32Bits(lut.leStart), lut.leIndex, 65);
    const Position lo = linear(fp32Bits(lut.loStart), lut.loFracBits, 257);
    const bool useLo = dla::lutUsesLo(le.underflow, le.overflow, lo.underflow, lo.overflow, lut);
    const Position& p = useLo ? lo : le;
    const std::int16_t* table = useLo ? lut.lo : lut.le;
    if (!p.underflow && !p.overflow)
        return half(table[p.index]) * (1.0f - p.fraction) + half(table[p.index + 1]) * p.fraction;
    const dla::LutSlope& slope = p.underflow ? (useLo ? lut.loUnderflow : lut.leUnderflow)
                                             : (useLo ? lut.loOverflow : lut.leOverflow);
    float origin = fp32Bits(p.underflow ? (useLo ? lut.loStart : lut.leStart) : (useLo ? lut.loEnd : lut.leEnd));
    if (p.underflow && !useLo && lut.exponential)
        origin += std::ldexp(1.0f, lut.leIndex);
    const float edge = half(p.underflow ? table[0] : table[useLo ? 256 : 64]);
    return edge + (x - origin) * half(slope.scale);
}

}  // namespace tessera::nvdla
