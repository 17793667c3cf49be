#include "interp/fixed_point/activations.h"

#include "interp/fixed_point/pow2_kernels.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

namespace tessera::fixed_point {
namespace {

// round(32768 * sigmoid(i / 32)) for i in 0..512; CNN_KernelHelpers.h holds the same values for the
// C kernels (tst_fixed_point compares them).
const std::vector<uint16_t> kSigmoidTable = {
    16384, 16640, 16896, 17151, 17407, 17661, 17916, 18169, 18421, 18673, 18923, 19173,
    19420, 19667, 19912, 20155, 20397, 20636, 20874, 21110, 21344, 21575, 21804, 22031,
    22255, 22477, 22696, 22913, 23127, 23338, 23547, 23753, 23955, 24155, 24352, 24546,
    24737, 24925, 25110, 25292, 25471, 25646, 25819, 25988, 26155, 26318, 26479, 26636,
    26790, 26941, 27090, 27235, 27377, 27516, 27653, 27786, 27917, 28045, 28169, 28292,
    28411, 28528, 28642, 28753, 28862, 28968, 29072, 29173, 29272, 29368, 29462, 29554,
    29644, 29731, 29816, 29899, 29979, 30058, 30135, 30210, 30282, 30353, 30422, 30489,
    30555, 30618, 30680, 30740, 30799, 30856, 30912, 30966, 31018, 31069, 31119, 31167,
    31214, 31260, 31304, 31347, 31389, 31430, 31469, 31508, 31545, 31581, 31616, 31651,
    31684, 31716, 31747, 31778, 31807, 31836, 31864, 31891, 31917, 31943, 31968, 31992,
    32015, 32038, 32060, 32081, 32102, 32122, 32141, 32160, 32179, 32196, 32214, 32231,
    32247, 32263, 32278, 32293, 32307, 32321, 32335, 32348, 32361, 32373, 32385, 32397,
    32408, 32419, 32430, 32440, 32450, 32460, 32469, 32478, 32487, 32496, 32504, 32512,
    32520, 32527, 32535, 32542, 32549, 32555, 32562, 32568, 32574, 32580, 32586, 32592,
    32597, 32602, 32607, 32612, 32617, 32622, 32626, 32630, 32635, 32639, 32643, 32647,
    32650, 32654, 32657, 32661, 32664, 32667, 32670, 32673, 32676, 32679, 32682, 32684,
    32687, 32689, 32692, 32694, 32696, 32699, 32701, 32703, 32705, 32707, 32709, 32711,
    32712, 32714, 32716, 32717, 32719, 32720, 32722, 32723, 32725, 32726, 32727, 32728,
    32730, 32731, 32732, 32733, 32734, 32735, 32736, 32737, 32738, 32739, 32740, 32741,
    32742, 32742, 32743, 32744, 32745, 32745, 32746, 32747, 32747, 32748, 32749, 32749,
    32750, 32750, 32751, 32752, 32752, 32753, 32753, 32753, 32754, 32754, 32755, 32755,
    32756, 32756, 32756, 32757, 32757, 32757, 32758, 32758, 32758, 32759, 32759, 32759,
    32759, 32760, 32760, 32760, 32760, 32761, 32761, 32761, 32761, 32762, 32762, 32762,
    32762, 32762, 32762, 32763, 32763, 32763, 32763, 32763, 32763, 32764, 32764, 32764,
    32764, 32764, 32764, 32764, 32764, 32765, 32765, 32765, 32765, 32765, 32765, 32765,
    32765, 32765, 32765, 32765, 32766, 32766, 32766, 32766, 32766, 32766, 32766, 32766,
    32766, 32766, 32766, 32766, 32766, 32766, 32766, 32766, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767, 32767,
    32767, 32767, 32767, 32767, 32767, 32767, 32767, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768,
    32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768, 32768
};

void requireRange(const char* what, int value, int low, int high)
{
    if (value < low || value > high)
        throw std::invalid_argument(std::string("activation: ") + what + " " + std::to_string(value) + " is outside " +
                                    std::to_string(low) + " to " + std::to_string(high));
}

template <typename T>
std::vector<T> activateItems(const ActivationParams& params, const std::vector<T>& input)
{
    requireRange("inScale", params.inScale, 0, 32767);
    requireRange("inShift", params.inShift, 0, 62);
    requireRange("outScale", params.outScale, 0, 32767);
    requireRange("outShift", params.outShift, 0, 62);
    requireRange("cap", params.cap, 0, 1 << 20);
    requireRange("offset", params.offset, -(1 << 20), 1 << 20);
    requireRange("alpha", params.alpha, -32767, 32767);
    std::vector<T> output(input.size());
    for (size_t i = 0; i < input.size(); ++i) {
        const int64_t x12 = roundnorm(int64_t(input[i]) * params.inScale, params.inShift);
        const int64_t v = roundnorm(activationValue(params, x12) * params.outScale, params.outShift);
        output[i] = T(std::clamp<int64_t>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
    }
    return output;
}

}  // namespace

int activationValueQ(ActivationKind kind)
{
    switch (kind) {
    case ActivationKind::Sigmoid:
    case ActivationKind::Tanh: return 15;
    case ActivationKind::HardSwish: return 24;
    case ActivationKind::Swish: return 27;
    case ActivationKind::HardSigmoid:
    case ActivationKind::LeakyRelu: return 12;
    }
    return 0;
}

const std::vector<uint16_t>& sigmoidTable() { return kSigmoidTable; }

int32_t sigmoidQ15(int64_t x12)
{
    const int64_t magnitude = x12 < 0 ? -x12 : x12;
    int32_t value = 32768;
    if (magnitude < (int64_t(512) << 7)) {
        const int64_t index = magnitude >> 7, fraction = magnitude & 127;
        const int32_t low = kSigmoidTable[size_t(index)], high = kSigmoidTable[size_t(index) + 1];
        value = low + int32_t(((high - low) * fraction + 64) >> 7);
    }
    return x12 < 0 ? 32768 - value : value;
}

int64_t activationValue(const ActivationParams& params, int64_t x12)
{
    switch (params.kind) {
    case ActivationKind::Sigmoid: return sigmoidQ15(x12);
    case ActivationKind::Tanh: return 2 * int64_t(sigmoidQ15(2 * x12)) - 32768;
    case ActivationKind::HardSigmoid: return std::clamp<int64_t>(x12 + params.offset, 0, params.cap);
    case ActivationKind::HardSwish: return x12 * std::clamp<int64_t>(x12 + params.offset, 0, params.cap);
    case ActivationKind::LeakyRelu: return x12 >= 0 ? x12 : roundnorm(x12 * params.alpha, 15);
    case ActivationKind::Swish: return x12 * sigmoidQ15(x12);
    }
    return 0;
}

std::vector<int16_t> activate(const ActivationParams& params, const std::vector<int16_t>& input)
{
    return activateItems(params, input);
}

std::vector<int8_t> activate(const ActivationParams& params, const std::vector<int8_t>& input)
{
    return activateItems(params, input);
}

}  // namespace tessera::fixed_point
