#include "nvdla/compile/activation_luts.h"

#include "base/error.h"
#include "ir/dtype.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace tessera::nvdla {

namespace {

double activation(const std::string& op, double x)
{
    if (op == "Sigmoid")
        return 1.0 / (1.0 + std::exp(-x));
    if (op == "Tanh")
        return std::tanh(x);
    throw Error("no lookup table for " + op);
}

}  // namespace

bool hasActivationLut(const std::string& op)
{
    return op == "Sigmoid" || op == "Tanh";
}

dla::Lut fp16ActivationLut(const std::string& op)
{
    const bool sigmoid = op == "Sigmoid";
    const double start = sigmoid ? -16.0 : -4.0;
    const int fracBits = sigmoid ? -3 : -5;  // steps of 1/8 and 1/32
    dla::Lut lut;
    lut.exponential = false;
    lut.leIndex = -128;  // LE sees every input out of its range; LO decides
    for (int i = 0; i < 257; ++i)
        lut.lo[i] = std::int16_t(floatToHalf(float(activation(op, start + std::ldexp(double(i), fracBits)))));
    lut.loFracBits = std::int8_t(fracBits);
    lut.loStart = std::bit_cast<std::uint32_t>(float(start));
    lut.hybridLo = lut.underflowLo = lut.overflowLo = true;
    return lut;
}

dla::Lut int8ActivationLut(const std::string& op, double inputScale, double outputScale)
{
    dla::Lut lut;
    lut.exponential = false;
    // LE: every input at or below its start (the largest int32): underflow, so LO decides.
    lut.leStart = std::numeric_limits<std::int32_t>::max();
    lut.loStart = -129;
    lut.loEnd = 127;
    lut.loFracBits = 0;
    for (int i = 0; i < 257; ++i) {
        const double y = std::round(activation(op, double(i - 129) * inputScale) / outputScale);
        lut.lo[i] = std::int16_t(std::clamp(y, -128.0, 127.0));
    }
    lut.hybridLo = lut.underflowLo = lut.overflowLo = true;
    return lut;
}

LrnParameters LrnParameters::of(const Node& node)
{
    LrnParameters lrn;
    lrn.size = unsigned(node.attrInt("size", 0));
    lrn.alpha = node.attrFloat("alpha", 1e-4f);
    lrn.beta = node.attrFloat("beta", 0.75f);
    lrn.bias = node.attrFloat("bias", 1.0f);
    return lrn;
}

namespace {

double lrnFactor(const LrnParameters& lrn, double squares)
{
    return std::pow(lrn.bias + lrn.alpha / double(lrn.size) * squares, -lrn.beta);
}

// Both tables used; LO where it hits (it is the finer), LE where LO's range ends.
void lrnPriorities(dla::Lut& lut)
{
    lut.exponential = true;
    lut.hybridLo = lut.underflowLo = true;
    lut.overflowLo = false;
}

}  // namespace

dla::Lut fp16LrnLut(const LrnParameters& lrn)
{
    dla::Lut lut;
    lrnPriorities(lut);
    for (int i = 0; i < 65; ++i)
        lut.le[i] = std::int16_t(floatToHalf(float(lrnFactor(lrn, std::ldexp(1.0, i)))));
    const double step = 1.0 / 64.0;
    lut.loStart = std::bit_cast<std::uint32_t>(float(-step));
    lut.loFracBits = -6;
    for (int i = 0; i < 257; ++i)
        lut.lo[i] = std::int16_t(floatToHalf(float(lrnFactor(lrn, std::max(0.0, (i - 1) * step)))));
    return lut;
}

LrnLookup int8LrnLookup(const Node& node, double inputScale, double outputScale)
{
    const LrnParameters lrn = LrnParameters::of(node);
    // The sums of squares in the input's units: s_real = s * inputScale^2.
    LrnParameters inUnits = lrn;
    inUnits.alpha = lrn.alpha * inputScale * inputScale;
    const double largest = lrnFactor(inUnits, 0.0);
    const int q = std::clamp(int(std::floor(std::log2(32767.0 / largest))), 0, 30);
    const auto entry = [&](double squares) {
        return std::int16_t(std::clamp(std::round(std::ldexp(lrnFactor(inUnits, squares), q)), -32768.0, 32767.0));
    };
    LrnLookup lookup;
    dla::Lut& lut = lookup.lut;
    lrnPriorities(lut);
    for (int i = 0; i < 65; ++i)
        lut.le[i] = entry(std::ldexp(1.0, i));
    lut.loStart = -1;  // entry i is the sum i - 1
    for (int i = 0; i < 257; ++i)
        lut.lo[i] = entry(std::max(0, i - 1));
    const double factor = inputScale / (outputScale * std::ldexp(1.0, q));
    try {
        lookup.output.shift = dla::rescaleShiftFor(factor);
    } catch (const std::invalid_argument&) {
        throw UnsupportedError(fmt::format("{}: the output's scale is {:.3g} times finer than the input's; CDP's output "
                                           "converter multiplies by at most 2^15",
                                           node.describe(), factor));
    }
    lookup.output.scale = dla::rescaleScaleFor(factor, lookup.output.shift);
    return lookup;
}

}  // namespace tessera::nvdla
