// The lookup tables of SDP and CDP in INT mode (dla_arithmetic.h), and CDP's local response
// normalization built on its table.
#include "interp/fixed_point/dla_arithmetic.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace tessera::dla {

namespace {

// Where x falls in one table.
struct LutPosition {
    bool underflow = false, overflow = false;
    unsigned index = 0;
    std::uint64_t fraction = 0;  // 35 bits
    bool hit() const { return !underflow && !overflow; }
};

constexpr unsigned kLutFractionBits = 35;

LutPosition linearPosition(std::int32_t x, std::int64_t start, std::int8_t fracBits, unsigned entries)
{
    LutPosition p;
    const std::int64_t first = std::int32_t(start);  // the registers hold 32 bits
    if (x <= first) {
        p.underflow = true;
        return p;
    }
    const std::uint64_t distance = std::uint32_t(std::int64_t(x) - first);
    // The index truncates and saturates at 9 bits.
    std::uint64_t index = 511;
    if (fracBits >= 0)
        index = std::min<std::uint64_t>(511, fracBits >= 64 ? 0 : distance >> fracBits);
    else if (-fracBits < 32)
        index = std::min<std::uint64_t>(511, distance << -fracBits);
    if (index >= entries - 1) {
        p.overflow = true;
        return p;
    }
    p.index = unsigned(index);
    if (fracBits > 0) {
        const std::uint64_t below = fracBits >= 64 ? distance : distance & ((std::uint64_t(1) << fracBits) - 1);
        p.fraction = unsigned(fracBits) <= kLutFractionBits ? below << (kLutFractionBits - unsigned(fracBits))
                                                            : below >> (unsigned(fracBits) - kLutFractionBits);
    }
    return p;
}

LutPosition exponentialPosition(std::int32_t x, std::int64_t start, std::int8_t offset)
{
    LutPosition p;
    const std::int64_t first = std::int32_t(start);
    if (x <= first) {
        p.underflow = true;
        return p;
    }
    const std::uint64_t distance = std::uint32_t(std::int64_t(x) - first);
    int exponent = 0;
    while ((distance >> (exponent + 1)) != 0)
        ++exponent;
    if (exponent < offset) {
        p.underflow = true;
        return p;
    }
    const int index = exponent - offset;
    if (index >= 64) {
        p.overflow = true;
        return p;
    }
    p.index = unsigned(index);
    p.fraction = (distance - (std::uint64_t(1) << exponent)) << (kLutFractionBits - unsigned(exponent));
    return p;
}

}  // namespace

bool lutUsesLo(bool leUnderflow, bool leOverflow, bool loUnderflow, bool loOverflow, const Lut& lut)
{
    const bool leHit = !leUnderflow && !leOverflow, loHit = !loUnderflow && !loOverflow;
    if (leUnderflow && loUnderflow)
        return lut.underflowLo;
    if (leOverflow && loOverflow)
        return lut.overflowLo;
    if (leHit == loHit)
        return lut.hybridLo;  // both hit, or one under and one over its range
    return loHit;             // the one that hits
}

std::int32_t sdpLut(std::int32_t x, const Lut& lut)
{
    const LutPosition le = lut.exponential ? exponentialPosition(x, lut.leStart, lut.leIndex)
                                           : linearPosition(x, lut.leStart, lut.leIndex, 65);
    const LutPosition lo = linearPosition(x, lut.loStart, lut.loFracBits, 257);
    const bool useLo = lutUsesLo(le.underflow, le.overflow, lo.underflow, lo.overflow, lut);
    const LutPosition& p = useLo ? lo : le;
    const std::int16_t* table = useLo ? lut.lo : lut.le;
    const unsigned last = useLo ? 256 : 64;
    if (p.hit()) {
        const __int128 mixed = __int128(table[p.index]) * __int128((std::uint64_t(1) << kLutFractionBits) - p.fraction) +
                               __int128(table[p.index + 1]) * __int128(p.fraction);
        // |mixed| < 2^51: the rounding shift in int64 is exact.
        return std::int32_t(saturate(roundShiftRight(std::int64_t(mixed), kLutFractionBits), 32));
    }
    // Outside the range: the edge entry plus the slope times the distance from start (or end).
    const LutSlope& slope = p.underflow ? (useLo ? lut.loUnderflow : lut.leUnderflow)
                                        : (useLo ? lut.loOverflow : lut.leOverflow);
    std::int64_t origin = std::int32_t(p.underflow ? (useLo ? lut.loStart : lut.leStart) : (useLo ? lut.loEnd : lut.leEnd));
    if (p.underflow && !useLo && lut.exponential && lut.leIndex > 0)
        origin += std::int64_t(1) << lut.leIndex;
    const std::int64_t product = (std::int64_t(x) - origin) * slope.scale;  // at most 50 bits
    const int shift = (int(slope.shift) << 27) >> 27;  // the 5-bit field, sign-extended
    const std::int64_t step =
        shift >= 0 ? saturate(roundShiftRight(product, unsigned(shift)), 32)
                   : saturate(product >= 0 ? (product > (INT64_MAX >> -shift) ? INT64_MAX : product << -shift)
                                           : (product < (INT64_MIN >> -shift) ? INT64_MIN : -((-product) << -shift)),
                              32);
    const std::int64_t edge = p.underflow ? table[0] : table[last];
    return std::int32_t(saturate(edge + step, 32));
}

namespace {

// CDP's conversion of a product: v / 2^shift rounded halves away from zero (a negative shift
// multiplies), limited to `bits`.
std::int64_t cdpConvert(std::int64_t v, int shift, unsigned bits)
{
    if (shift >= 0)
        return saturate(roundShiftRight(v, unsigned(shift)), bits);
    const __int128 wide = __int128(v) * (__int128(1) << std::min(-shift, 64));
    const __int128 most = (__int128(1) << (bits - 1)) - 1;
    return std::int64_t(wide > most ? most : wide < -most - 1 ? -most - 1 : wide);
}

int slopeShift(std::int8_t field)
{
    return (int(field) << 27) >> 27;  // 5-bit signed
}

}  // namespace

std::int16_t cdpLut(std::int64_t x, const Lut& lut)
{
    struct Position {
        bool underflow = false, overflow = false;
        unsigned index = 0;
        std::int64_t fraction = 0;  // 16 bits
    };
    // The register holds 38 bits; the index select is 6-bit signed.
    const auto start38 = [](std::int64_t v) { return (v << 26) >> 26; };
    const auto linear = [&](std::int64_t start, std::int8_t select, unsigned last) {
        Position p;
        const int sel = (int(select) << 26) >> 26;
        const std::int64_t distance = x - start38(start);
        const std::int64_t index = sel < 0 ? (distance > (INT64_MAX >> -sel) ? INT64_MAX : distance << -sel) : distance >> sel;
        if (index < 0 || distance <= 0) {
            p.underflow = true;
        } else if (index >= std::int64_t(last)) {
            p.overflow = true;
        } else {
            p.index = unsigned(index);
            const std::int64_t below = sel <= 0 ? 0 : distance % (std::int64_t(1) << sel);
            p.fraction = sel > 16 ? below >> (sel - 16) : below << (16 - sel);
        }
        return p;
    };
    const auto exponential = [&](std::int64_t start, std::int8_t offset) {
        Position p;
        const std::int64_t distance = x - start38(start);
        int exponent = 0;
        while (distance > 0 && (distance >> (exponent + 1)) != 0)
            ++exponent;
        const int index = exponent - offset;
        if (index < 0 || distance <= 0) {
            p.underflow = true;
        } else if (index >= 64) {
            p.overflow = true;
        } else {
            p.index = unsigned(index);
            const std::int64_t below = distance - (std::int64_t(1) << exponent);
            p.fraction = exponent > 16 ? below >> (exponent - 16) : below << (16 - exponent);
        }
        return p;
    };
    const Position le = lut.exponential ? exponential(lut.leStart, lut.leIndex) : linear(lut.leStart, lut.leIndex, 64);
    const Position lo = linear(lut.loStart, lut.loFracBits, 256);
    const bool useLo = lutUsesLo(le.underflow, le.overflow, lo.underflow, lo.overflow, lut);
    const Position& p = useLo ? lo : le;
    const std::int16_t* table = useLo ? lut.lo : lut.le;
    std::int64_t y;
    if (!p.underflow && !p.overflow) {
        y = table[p.index] + cdpConvert((std::int64_t(table[p.index + 1]) - table[p.index]) * p.fraction, 16, 56);
    } else if (p.underflow) {
        const LutSlope& slope = useLo ? lut.loUnderflow : lut.leUnderflow;
        std::int64_t origin = start38(useLo ? lut.loStart : lut.leStart);
        if (!useLo && lut.exponential && lut.leIndex >= 0)
            origin += std::int64_t(1) << lut.leIndex;
        y = table[0] + cdpConvert((x - origin) * slope.scale, slopeShift(slope.shift), 56);
    } else {
        const LutSlope& slope = useLo ? lut.loOverflow : lut.leOverflow;
        y = table[useLo ? 256 : 64] + cdpConvert((x - start38(useLo ? lut.loEnd : lut.leEnd)) * slope.scale,
                                                 slopeShift(slope.shift), 56);
    }
    return std::int16_t(saturate(y, 16));
}

std::vector<std::int8_t> cdpLocalResponse(const std::vector<std::int8_t>& input, unsigned channels, std::size_t plane,
                                          unsigned localSize, const Lut& lut, const OutputConverter& converter)
{
    if (localSize < 3 || localSize > 9 || localSize % 2 == 0 || input.size() != channels * plane || converter.shift > 63)
        throw std::invalid_argument("CDP: a local size of " + std::to_string(localSize) +
                                    " (3, 5, 7 or 9), or an input of the wrong size");
    const int half = int(localSize / 2);
    std::vector<std::int8_t> out(input.size());
    for (unsigned c = 0; c < channels; ++c)
        for (std::size_t p = 0; p < plane; ++p) {
            std::int64_t squares = 0;
            for (int j = -half; j <= half; ++j) {
                const long other = long(c) + j;
                if (other >= 0 && other < long(channels)) {
                    const std::int64_t v = input[std::size_t(other) * plane + p];
                    squares += v * v;
                }
            }
            const std::int64_t product = std::int64_t(cdpLut(squares, lut)) * input[c * plane + p];  // 25 bits
            const std::int64_t scaled = (product - converter.offset) * converter.scale;
            out[c * plane + p] = std::int8_t(saturate(roundShiftRight(scaled, converter.shift), 8));
        }
    return out;
}

}  // namespace tessera::dla
