#include "tiler/constant_image.h"

#include "base/error.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace tessera::tiler {
namespace {

// Values of a ConstInfo file as doubles: float32 or fixed-point items, binary or text.
std::vector<double> readValues(const ConstantSource& source, std::size_t count)
{
    if (source.values) {
        if (source.values->size() == count)
            return *source.values;
        throw ModelError("the constant " + source.file + " holds " + std::to_string(source.values->size()) +
                         " values, the graph needs " + std::to_string(count));
    }
    std::ifstream in(source.file, std::ios::binary);
    if (!in)
        throw ModelError("cannot open " + source.file);
    std::vector<double> values;
    if (!source.binary) {
        double value = 0;
        while (in >> value)
            values.push_back(value);
        if (!in.eof())
            throw ModelError(source.file + ": not a number after " + std::to_string(values.size()) + " values");
    } else {
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::size_t item = source.floatValues ? 4 : std::size_t(source.bits / 8);
        if (item == 0 || bytes.size() % item != 0)
            throw ModelError(source.file + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of " +
                             std::to_string(item) + "-byte values");
        for (std::size_t offset = 0; offset < bytes.size(); offset += item) {
            if (source.floatValues) {
                float value;
                std::memcpy(&value, bytes.data() + offset, 4);
                values.push_back(value);
            } else if (item == 1) {
                values.push_back(static_cast<std::int8_t>(bytes[offset]));
            } else if (item == 2) {
                std::int16_t value;
                std::memcpy(&value, bytes.data() + offset, 2);
                values.push_back(value);
            } else {
                std::int32_t value;
                std::memcpy(&value, bytes.data() + offset, 4);
                values.push_back(value);
            }
        }
    }
    if (values.size() != count)
        throw ModelError(source.file + " holds " + std::to_string(values.size()) + " values, the graph needs " +
                         std::to_string(count));
    return values;
}

// Float to fixed point: round half away from zero, saturate to the item's range.
std::int64_t toFixed(double value, const ConstantSource& source)
{
    const double scaled = source.floatValues ? value * std::ldexp(1.0, source.fractionalBits) : value;
    const double rounded = scaled < 0 ? -std::floor(-scaled + 0.5) : std::floor(scaled + 0.5);
    const double high = std::ldexp(1.0, source.bits - 1) - 1, low = -std::ldexp(1.0, source.bits - 1);
    return std::int64_t(std::min(high, std::max(low, rounded)));
}

}  // namespace

std::vector<std::uint8_t> loadConstant(const GraphModel& graph, const GraphTensor& tensor)
{
    const GraphArgument& argument = *tensor.argument;
    const ConstantSource& source = argument.constant;
    const std::string where = "graph " + graph.name + ", constant " + tensor.name + ": ";
    if (!argument.hasConstant)
        throw ModelError(where + "no ConstInfo gives its values");
    if (source.bits != 8 && source.bits != 16 && source.bits != 32)
        throw ModelError(where + "items of " + std::to_string(source.bits) + " bits; use 8, 16 or 32");
    const std::size_t itemBytes = std::size_t(source.bits / 8);
    if (tensor.bytes % itemBytes != 0)
        throw ModelError(where + std::to_string(tensor.bytes) + " bytes is not a whole number of " +
                         std::to_string(source.bits) + "-bit items");
    const std::size_t count = tensor.bytes / itemBytes;
    std::vector<double> values;
    try {
        values = readValues(source, count);
    } catch (const ModelError& problem) {
        throw ModelError(where + problem.what());
    }
    std::vector<std::uint8_t> bytes(tensor.bytes);
    for (std::size_t k = 0; k < count; ++k) {
        const std::int64_t value = toFixed(values[k], source);
        for (std::size_t b = 0; b < itemBytes; ++b)
            bytes[k * itemBytes + b] = std::uint8_t((std::uint64_t(value) >> (8 * b)) & 0xFF);
    }
    return bytes;
}

std::vector<std::uint8_t> buildConstantImage(const GraphModel& graph,
                                             const GraphAllocation& allocation, bool privilegedFlash)
{
    std::vector<std::uint8_t> image(privilegedFlash ? allocation.privilegedFlashBytes : allocation.flashBytes, 0);
    for (const GraphTensor& tensor : allocation.tensors) {
        if (tensor.placement != GraphTensor::Placement::L2Static &&
            tensor.placement != GraphTensor::Placement::L3Static && tensor.placement != GraphTensor::Placement::Flash)
            continue;
        if (tensor.privilegedFlash != privilegedFlash)
            continue;
        const std::vector<std::uint8_t> bytes = loadConstant(graph, tensor);
        std::copy(bytes.begin(), bytes.end(), image.begin() + std::ptrdiff_t(tensor.flashOffset));
    }
    return image;
}

}  // namespace tessera::tiler
