#include "nvdla/compile/activation_luts.h"

#include "base/error.h"
#include "ir/dtype.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

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

}  // namespace tessera::nvdla
