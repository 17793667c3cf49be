#include "nvdla/compile/int8_quantization.h"

#include "base/error.h"
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace tessera::nvdla {

namespace {

// Tensors whose values an operation only moves or compares share one scale: ReLU, Clip, pooling,
// the views and Concat keep their input's (no rescale in PDP or a pass-through SDP), and the two
// operands of an element-wise operation are added in one scale.
class ScaleGroups {
public:
    explicit ScaleGroups(std::size_t tensors) : parent_(tensors) { std::iota(parent_.begin(), parent_.end(), 0); }
    std::size_t find(std::size_t t)
    {
        while (parent_[t] != t)
            t = parent_[t] = parent_[parent_[t]];
        return t;
    }
    void join(TensorId a, TensorId b) { parent_[find(std::size_t(a))] = find(std::size_t(b)); }

private:
    std::vector<std::size_t> parent_;
};

bool keepsScale(const std::string& op)
{
    return op == "Relu" || op == "Clip" || op == "PRelu" || op == "LeakyRelu" || op == "MaxPool" ||
           op == "AveragePool" || op == "Concat" || op == "Flatten" || op == "Reshape" || op == "Squeeze" ||
           op == "Unsqueeze" || op == "DepthToSpace" || op == "Gather" ||
           op == "Slice" || op == "Split";
}

bool isElementwise(const std::string& op)
{
    return op == "Add" || op == "Sub" || op == "Mul" || op == "Max" || op == "Min";
}

bool isTwoTensorElementwise(const Graph& graph, const Node& node)
{
    return (node.opType == "Add" || node.opType == "Max" || node.opType == "Min") && node.inputs.size() == 2 &&
           !graph.tensor(node.inputs[0]).isConstant() && !graph.tensor(node.inputs[1]).isConstant();
}

// Bits of |v| (0 for 0).
unsigned bitLength(std::int64_t v)
{
    std::uint64_t magnitude = v < 0 ? std::uint64_t(-(v + 1)) + 1 : std::uint64_t(v);
    unsigned bits = 0;
    while (magnitude) {
        ++bits;
        magnitude >>= 1;
    }
    return bits;
}

std::int64_t roundAway(double v)
{
    return std::int64_t(std::llround(v));  // halves away from zero
}

Int8Convolution quantizeConvolution(const Graph& graph, const Node& node, double inputScale, double outputScale)
{
    const Tensor& weightTensor = graph.tensor(node.inputs[1]);
    const std::vector<double> weights = weightTensor.constant->toDoubles();
    const auto kernels = std::size_t(weightTensor.shape[0]);
    const std::size_t perKernel = kernels ? weights.size() / kernels : 0;
    std::vector<double> bias(kernels, 0.0);
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor)
        bias = graph.tensor(node.inputs[2]).constant->toDoubles();
    Int8Convolution q;
    q.weights.resize(weights.size());
    std::vector<double> factors(kernels);
    std::vector<std::int64_t> bias32(kernels);
    for (std::size_t k = 0; k < kernels; ++k) {
        double largest = 0.0;
        for (std::size_t i = 0; i < perKernel; ++i)
            largest = std::max(largest, std::fabs(weights[k * perKernel + i]));
        if (!std::isfinite(largest) || !std::isfinite(bias[k]))
            throw UnsupportedError(fmt::format("{}: kernel {} holds a value that is not finite; such a model cannot be "
                                               "quantized (fix or retrain it)",
                                               node.describe(), k));
        const double weightScale = largest > 0.0 ? largest / 127.0 : 1.0;
        for (std::size_t i = 0; i < perKernel; ++i)
            q.weights[k * perKernel + i] =
                std::int8_t(std::clamp<std::int64_t>(roundAway(weights[k * perKernel + i] / weightScale), -127, 127));
        const double accumulatorScale = inputScale * weightScale;
        factors[k] = accumulatorScale / outputScale;
        const double scaledBias = std::round(bias[k] / accumulatorScale);
        if (std::fabs(scaledBias) >= 2147483648.0)
            throw UnsupportedError(fmt::format("{}: bias {} of kernel {} is {:.3g} accumulator units, beyond int32 (the "
                                               "input's or the weights' scale is too fine for it)",
                                               node.describe(), bias[k], k, scaledBias));
        bias32[k] = std::int64_t(scaledBias);
    }
    // One ALU shift for all channels: the bias in int16 units of 2^shift accumulator units.
    unsigned widest = 0;
    for (std::int64_t b : bias32)
        widest = std::max(widest, bitLength(b));
    q.biasShift = widest > 15 ? widest - 15 : 0;
    q.bias.resize(kernels);
    for (std::size_t k = 0; k < kernels; ++k)
        q.bias[k] = std::int16_t(std::clamp<std::int64_t>(dla::roundShiftRight(bias32[k], q.biasShift), -32768, 32767));
    // One right shift for all channels, an int16 multiplier each.
    const double largestFactor = factors.empty() ? 0.0 : *std::max_element(factors.begin(), factors.end());
    try {
        q.shift = dla::rescaleShiftFor(largestFactor);
    } catch (const std::invalid_argument&) {
        throw UnsupportedError(fmt::format("{}: the output's scale ({:.3g}) is finer than the accumulator's by {:.3g}; "
                                           "the SDP multiplies by at most 2^15 (calibrate with representative inputs)",
                                           node.describe(), outputScale, largestFactor));
    }
    q.scale.resize(kernels);
    for (std::size_t k = 0; k < kernels; ++k)
        q.scale[k] = dla::rescaleScaleFor(factors[k], q.shift);
    return q;
}

// A positive factor as an output converter (scale / 2^shift).
dla::OutputConverter converterFor(const Node& node, double factor)
{
    dla::OutputConverter converter;
    try {
        converter.shift = dla::rescaleShiftFor(factor);
    } catch (const std::invalid_argument&) {
        throw UnsupportedError(fmt::format("{}: the output's scale is {:.3g} times finer than the inputs'; the SDP "
                                           "multiplies by at most 2^15",
                                           node.describe(), factor));
    }
    converter.scale = dla::rescaleScaleFor(factor, converter.shift);
    return converter;
}

// Per-channel (or one) factors as int16 multipliers with one right shift.
void setMultipliers(Int8Elementwise& q, const Node& node, const std::vector<double>& factors)
{
    double largest = 0.0;
    for (double f : factors)
        largest = std::max(largest, std::fabs(f));
    q.mulShift = converterFor(node, largest).shift;
    for (double f : factors)
        q.mul.push_back(dla::rescaleScaleFor(f, q.mulShift));
}

Int8Elementwise quantizeElementwise(const Graph& graph, const Node& node, double inputScale, double outputScale,
                                    double operandScale)
{
    Int8Elementwise q;
    const bool firstIsConstant = graph.tensor(node.inputs[0]).isConstant();
    const Tensor& operand = graph.tensor(node.inputs[firstIsConstant ? 0 : 1]);
    if (!operand.isConstant()) {
        // Two tensors: the sum (one scale) or the product (the scales multiplied) to the output's scale.
        q.output = converterFor(node, (node.opType == "Mul" ? inputScale * operandScale : inputScale) / outputScale);
        return q;
    }
    std::vector<double> values = operand.constant->toDoubles();
    for (double v : values)
        if (!std::isfinite(v))
            throw UnsupportedError(fmt::format("{}: its constant operand holds {}; such a model cannot be quantized",
                                               node.describe(), v));
    if (node.opType == "Mul") {
        std::vector<double> factors;
        double largest = 0.0;
        for (double v : values) {
            factors.push_back(inputScale * v / outputScale);
            largest = std::max(largest, std::fabs(factors.back()));
        }
        if (values.size() > 1 && std::int64_t(values.size()) == graph.tensor(node.outputs[0]).elements() &&
            operand.elements() == graph.tensor(node.outputs[0]).elements()) {
            // Per element: int8 multipliers (SDP reads them as the data) with one right shift.
            if (largest >= 127.5)
                throw UnsupportedError(fmt::format("{}: a factor of {:.3g} per element exceeds the int8 multipliers",
                                                   node.describe(), largest));
            q.mulShift = largest > 0.0 ? unsigned(std::clamp(int(std::floor(std::log2(127.0 / largest))), 0, 63)) : 0;
            for (double f : factors)
                q.pointMultipliers.push_back(
                    std::int8_t(std::clamp<double>(std::round(std::ldexp(f, int(q.mulShift))), -128.0, 127.0)));
            return q;
        }
        setMultipliers(q, node, factors);
        return q;
    }
    if (node.opType == "Sub")
        for (double& v : values)
            v = -v;
    // Add, Max, Min: the constant in the input's units, then the rescale to the output's scale.
    std::vector<std::int64_t> units;
    unsigned widest = 0;
    for (double v : values) {
        const double inUnits = std::round(v / inputScale);
        if (std::fabs(inUnits) >= 2147483648.0)
            throw UnsupportedError(fmt::format("{}: the constant {} is {:.3g} units of the input's scale, beyond int32",
                                               node.describe(), v, inUnits));
        units.push_back(std::int64_t(inUnits));
        widest = std::max(widest, bitLength(units.back()));
    }
    q.aluShift = widest > 15 ? widest - 15 : 0;
    for (std::int64_t u : units)
        q.alu.push_back(std::int16_t(std::clamp<std::int64_t>(dla::roundShiftRight(u, q.aluShift), -32768, 32767)));
    setMultipliers(q, node, std::vector<double>(values.size(), inputScale / outputScale));
    return q;
}

}  // namespace

std::vector<double> preluSlopes(const Graph& graph, const Node& node)
{
    if (node.opType == "LeakyRelu")
        return {double(node.attrFloat("alpha", 0.01f))};
    return graph.tensor(node.inputs.at(1)).constant->toDoubles();
}

double Int8Quantization::scaleOf(const Graph& graph, TensorId tensor) const
{
    const auto found = scales.find(graph.tensor(tensor).name);
    if (found == scales.end())
        throw Error(fmt::format("tensor '{}' has no INT8 scale", graph.tensor(tensor).name));
    return found->second;
}

std::int16_t int16Units(double value, double scale)
{
    return std::int16_t(std::clamp<double>(std::round(value / scale), -32768.0, 32767.0));
}

double Int8Quantization::stageScale(const Graph& graph, const Node& node) const
{
    if (node.opType == "Conv" || elementwise.at(node.name).constantOperand())
        return scaleOf(graph, node.outputs[0]);
    const double first = scaleOf(graph, node.inputs[0]);
    return node.opType == "Mul" ? first * scaleOf(graph, node.inputs[1]) : first;
}

Int8Quantization quantizeForNvdla(const Graph& graph, const std::map<std::string, float>& maxAbsByName)
{
    ScaleGroups groups(graph.tensorCount());
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(NodeId(n));
        if (keepsScale(node.opType)) {
            for (TensorId input : node.inputs)
                if (input != kNoTensor && !graph.tensor(input).isConstant())
                    for (TensorId output : node.outputs)
                        groups.join(input, output);
        } else if (isTwoTensorElementwise(graph, node)) {
            groups.join(node.inputs[0], node.inputs[1]);
        } else if (node.hasAttr(kPadCountCorrection)) {
            groups.join(node.inputs[0], node.outputs[0]);  // the border values stay within the input's range
        }
    }
    // A group's scale holds the largest range of its tensors.
    std::vector<float> groupRange(graph.tensorCount(), 0.0f);
    for (std::size_t t = 0; t < graph.tensorCount(); ++t) {
        const Tensor& tensor = graph.tensor(TensorId(t));
        if (tensor.isConstant())
            continue;
        const auto found = maxAbsByName.find(tensor.name);
        if (found == maxAbsByName.end())
            throw Error(fmt::format("tensor '{}' was not seen in the calibration runs", tensor.name));
        float& range = groupRange[groups.find(t)];
        range = std::max(range, found->second);
    }
    Int8Quantization q;
    for (std::size_t t = 0; t < graph.tensorCount(); ++t) {
        const Tensor& tensor = graph.tensor(TensorId(t));
        if (tensor.isConstant())
            continue;
        const float range = groupRange[groups.find(t)];
        q.scales[tensor.name] = range > 0.0f && std::isfinite(range) ? double(range) / 127.0 : 1.0 / 127.0;
    }
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(NodeId(n));
        if (node.opType == "Conv") {
            q.convolutions[node.name] =
                quantizeConvolution(graph, node, q.scaleOf(graph, node.inputs[0]), q.scaleOf(graph, node.outputs[0]));
        } else if (node.opType == "PRelu" || node.opType == "LeakyRelu") {
            // The slopes as int16 multipliers with one shift; the input's scale is the output's.
            Int8Elementwise slopes;
            setMultipliers(slopes, node, preluSlopes(graph, node));
            q.elementwise[node.name] = slopes;
        } else if (isElementwise(node.opType)) {
            const bool firstIsConstant = graph.tensor(node.inputs[0]).isConstant();
            const TensorId source = node.inputs[firstIsConstant ? 1 : 0], operand = node.inputs[firstIsConstant ? 0 : 1];
            q.elementwise[node.name] =
                quantizeElementwise(graph, node, q.scaleOf(graph, source), q.scaleOf(graph, node.outputs[0]),
                                    graph.tensor(operand).isConstant() ? 1.0 : q.scaleOf(graph, operand));
        }
    }
    return q;
}

}  // namespace tessera::nvdla
