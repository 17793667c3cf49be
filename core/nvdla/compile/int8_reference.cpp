#include "nvdla/compile/int8_reference.h"

#include "base/error.h"
#include "interp/fixed_point/dla_arithmetic.h"
#include "ir/topology.h"
#include "nvdla/compile/activation_luts.h"
#include "nvdla/compile/legalization.h"
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::nvdla {

namespace {

using Values = std::vector<std::int32_t>;  // int8 data widened, c, y, x order

Cube cubeOfTensor(const Graph& graph, TensorId tensor)
{
    const auto cube = cubeOf(graph.tensor(tensor).shape);
    if (!cube)
        throw UnsupportedError(fmt::format("tensor '{}' is not a cube", graph.tensor(tensor).name));
    return *cube;
}

std::vector<std::int8_t> narrow(const Values& values)
{
    std::vector<std::int8_t> out(values.size());
    std::transform(values.begin(), values.end(), out.begin(), [](std::int32_t v) { return std::int8_t(v); });
    return out;
}

Values widen(const std::vector<std::int8_t>& values)
{
    return Values(values.begin(), values.end());
}

// The SDP stages after x1 that a fused activation adds (Clip: a minimum in x2, or a maximum in x2
// and a minimum in y), in the units of the data at those stages, then the output converter.
Values finishSdp(const Graph& graph, const Int8Quantization& int8, const Node& node, Values data,
                 const dla::OutputConverter& converter)
{
    if (node.attrString(kFusedActivation, "") == "Clip") {
        const double units = int8.stageScale(graph, node);
        const float low = node.attrFloat(kClipMin, 0.0f), high = node.attrFloat(kClipMax, 0.0f);
        dla::XStage x2;
        x2.alu = true;
        for (std::int32_t& v : data) {
            if (low == 0.0f) {
                x2.algorithm = dla::Alu::Min;
                v = dla::sdpXStage(v, x2, int16Units(high, units), 1);
            } else {
                x2.algorithm = dla::Alu::Max;
                v = dla::sdpXStage(v, x2, int16Units(low, units), 1);
                v = dla::sdpYAlu(v, dla::Alu::Min, int16Units(high, units));
            }
        }
    }
    for (std::int32_t& v : data)
        v = dla::sdpOutput(v, converter);
    return data;
}

bool fusedRelu(const Node& node)
{
    const std::string activation = node.attrString(kFusedActivation, "");
    return activation == "Relu" || (activation == "Clip" && node.attrFloat(kClipMin, 0.0f) == 0.0f);
}

Values convolution(const Graph& graph, const Int8Quantization& int8, const Node& node, const Values& input)
{
    const Int8Convolution& q = int8.convolutions.at(node.name);
    const Cube in = cubeOfTensor(graph, node.inputs[0]), out = cubeOfTensor(graph, node.outputs[0]);
    const Shape& w = graph.tensor(node.inputs[1]).shape;
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    const auto dilations = node.attrInts("dilations", {1, 1});
    dla::ConvolutionGeometry g;
    g.channels = unsigned(in.channels);
    g.height = unsigned(in.height);
    g.width = unsigned(in.width);
    g.kernels = unsigned(w[0]);
    g.kernelHeight = unsigned(w[2]);
    g.kernelWidth = unsigned(w[3]);
    g.groups = unsigned(node.attrInt("group", 1));
    g.strideY = unsigned(strides[0]);
    g.strideX = unsigned(strides[1]);
    g.dilationY = unsigned(dilations[0]);
    g.dilationX = unsigned(dilations[1]);
    g.padTop = unsigned(pads[0]);
    g.padLeft = unsigned(pads[1]);
    g.outHeight = unsigned(out.height);
    g.outWidth = unsigned(out.width);
    Values data = dla::convolutionAccumulators(g, narrow(input), q.weights);
    // x1: bias, per-channel multiplier and shift, the fused ReLU.
    dla::XStage x1;
    x1.alu = x1.mul = true;
    x1.aluShift = q.biasShift;
    x1.mulShift = q.shift;
    x1.relu = fusedRelu(node);
    const std::size_t plane = std::size_t(out.height) * std::size_t(out.width);
    for (std::size_t k = 0; k < g.kernels; ++k)
        for (std::size_t p = 0; p < plane; ++p)
            data[k * plane + p] = dla::sdpXStage(data[k * plane + p], x1, q.bias[k], q.scale[k]);
    return finishSdp(graph, int8, node, std::move(data), {});
}

// x1 with the constant operand per channel (or one) or the other tensor per point, then the fused
// activation's stages and the output converter.
Values elementwise(const Graph& graph, const Int8Quantization& int8, const Node& node, const Values& source,
                   const Values* other)
{
    const Int8Elementwise& q = int8.elementwise.at(node.name);
    const bool multiply = node.opType == "Mul";
    dla::XStage x1;
    x1.alu = !multiply;
    x1.mul = multiply || q.constantOperand();
    x1.algorithm = node.opType == "Max" ? dla::Alu::Max : node.opType == "Min" ? dla::Alu::Min : dla::Alu::Sum;
    x1.aluShift = q.aluShift;
    x1.mulShift = q.mulShift;
    x1.relu = fusedRelu(node);
    const Cube out = cubeOfTensor(graph, node.outputs[0]);
    const std::size_t plane = std::size_t(out.height) * std::size_t(out.width);
    const auto perChannel = [&](const std::vector<std::int16_t>& values, std::size_t c) -> std::int16_t {
        return values.empty() ? 0 : values[values.size() == 1 ? 0 : c];
    };
    Values data(source.size());
    for (std::size_t i = 0; i < source.size(); ++i) {
        std::int16_t alu = 0, mul = 1;
        if (other) {
            (multiply ? mul : alu) = std::int16_t(other->at(i));
        } else if (!q.pointMultipliers.empty()) {
            mul = q.pointMultipliers.at(i);
        } else {
            alu = perChannel(q.alu, i / plane);
            mul = perChannel(q.mul, i / plane);
        }
        data[i] = dla::sdpXStage(source[i], x1, alu, mul);
    }
    return finishSdp(graph, int8, node, std::move(data), q.output);
}

Values pooling(const Graph& graph, const Node& node, const Values& input)
{
    const Cube in = cubeOfTensor(graph, node.inputs[0]), out = cubeOfTensor(graph, node.outputs[0]);
    const auto kernel = node.attrInts("kernel_shape");
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    dla::PoolingGeometry g;
    g.channels = unsigned(in.channels);
    g.height = unsigned(in.height);
    g.width = unsigned(in.width);
    g.windowHeight = unsigned(kernel[0]);
    g.windowWidth = unsigned(kernel[1]);
    g.strideY = unsigned(strides[0]);
    g.strideX = unsigned(strides[1]);
    g.padTop = unsigned(pads[0]);
    g.padLeft = unsigned(pads[1]);
    g.outHeight = unsigned(out.height);
    g.outWidth = unsigned(out.width);
    return widen(dla::pooling(g, node.opType == "MaxPool" ? dla::Pooling::Max : dla::Pooling::Average, narrow(input)));
}


// DepthToSpace moves values: output (c, y*b + dy, x*b + dx) is input channel (dy*b + dx)*C + c in
// DCR order, c*b*b + dy*b + dx in CRD order.
Values depthToSpace(const Graph& graph, const Node& node, const Values& input)
{
    const Cube in = cubeOfTensor(graph, node.inputs[0]), out = cubeOfTensor(graph, node.outputs[0]);
    const std::int64_t b = node.attrInt("blocksize", 1);
    const bool crd = node.attrString("mode", "DCR") == "CRD";
    Values result(input.size());
    for (std::int64_t c = 0; c < out.channels; ++c)
        for (std::int64_t y = 0; y < out.height; ++y)
            for (std::int64_t x = 0; x < out.width; ++x) {
                const std::int64_t phase = (y % b) * b + x % b;
                const std::int64_t source = crd ? c * b * b + phase : phase * out.channels + c;
                result[std::size_t((c * out.height + y) * out.width + x)] =
                    input[std::size_t((source * in.height + y / b) * in.width + x / b)];
            }
    return result;
}
}  // namespace

std::vector<TensorData> quantizeInputs(const Graph& legalized, const Int8Quantization& int8,
                                       const std::vector<TensorData>& inputs)
{
    std::vector<TensorData> quantized;
    for (std::size_t k = 0; k < inputs.size() && k < legalized.inputs.size(); ++k) {
        const double scale = int8.scaleOf(legalized, legalized.inputs[k]);
        std::vector<std::int64_t> values(std::size_t(inputs[k].elements()));
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = std::clamp<std::int64_t>(std::llround(inputs[k].getDouble(std::int64_t(i)) / scale), -128, 127);
        quantized.push_back(TensorData::fromInts(DType::Int8, inputs[k].shape(), values));
    }
    return quantized;
}

std::vector<TensorData> dequantizeOutputs(const Graph& legalized, const Int8Quantization& int8,
                                          const std::vector<TensorData>& outputs)
{
    std::vector<TensorData> real;
    for (std::size_t k = 0; k < outputs.size() && k < legalized.outputs.size(); ++k) {
        const double scale = int8.scaleOf(legalized, legalized.outputs[k]);
        std::vector<double> values(std::size_t(outputs[k].elements()));
        for (std::size_t i = 0; i < values.size(); ++i)
            values[i] = outputs[k].getDouble(std::int64_t(i)) * scale;
        real.push_back(TensorData::fromDoubles(DType::Float32, outputs[k].shape(), values));
    }
    return real;
}

std::vector<TensorData> runInt8Reference(const Graph& graph, const Int8Quantization& int8,
                                         const std::vector<TensorData>& inputs)
{
    if (inputs.size() != graph.inputs.size())
        throw ModelError(fmt::format("the graph has {} inputs, {} given", graph.inputs.size(), inputs.size()));
    std::vector<std::optional<Values>> values(graph.tensorCount());
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        Values v(std::size_t(inputs[k].elements()));
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = std::int32_t(std::clamp<double>(std::round(inputs[k].getDouble(std::int64_t(i))), -128.0, 127.0));
        values[std::size_t(graph.inputs[k])] = std::move(v);
    }
    const auto valueOf = [&](TensorId tensor) -> const Values& {
        if (!values[std::size_t(tensor)])
            throw Error(fmt::format("tensor '{}' has no value yet", graph.tensor(tensor).name));
        return *values[std::size_t(tensor)];
    };
    for (NodeId id : topologicalOrder(graph)) {
        const Node& node = graph.node(id);
        const std::string& op = node.opType;
        Values out;
        if (op == "Conv") {
            out = convolution(graph, int8, node, valueOf(node.inputs[0]));
        } else if (op == "Relu" || op == "Clip") {
            // x1 (ReLU, or the lower bound) and x2 (the upper bound) in the input's scale, which
            // is the output's.
            out = valueOf(node.inputs[0]);
            dla::XStage x1, x2;
            std::int16_t low = 0, high = 0;
            if (op == "Relu") {
                x1.relu = true;
            } else {
                const auto bounds = clipBounds(graph, node);
                x1.alu = x2.alu = true;
                x1.algorithm = dla::Alu::Max;
                x2.algorithm = dla::Alu::Min;
                low = int16Units(bounds->first, int8.scaleOf(graph, node.inputs[0]));
                high = int16Units(bounds->second, int8.scaleOf(graph, node.inputs[0]));
            }
            for (std::int32_t& v : out) {
                v = dla::sdpXStage(v, x1, low, 1);
                if (op == "Clip")
                    v = dla::sdpXStage(v, x2, high, 1);
                v = dla::sdpOutput(v, {});
            }
        } else if (op == "Add" || op == "Sub" || op == "Mul" || op == "Max" || op == "Min") {
            const bool firstIsConstant = graph.tensor(node.inputs[0]).isConstant();
            const TensorId source = node.inputs[firstIsConstant ? 1 : 0], operand = node.inputs[firstIsConstant ? 0 : 1];
            out = elementwise(graph, int8, node, valueOf(source),
                              graph.tensor(operand).isConstant() ? nullptr : &valueOf(operand));
        } else if (op == "MaxPool" || op == "AveragePool") {
            out = pooling(graph, node, valueOf(node.inputs[0]));
        } else if (op == "PRelu" || op == "LeakyRelu") {
            const Int8Elementwise& q = int8.elementwise.at(node.name);
            dla::XStage x1;
            x1.mul = x1.prelu = true;
            x1.mulShift = q.mulShift;
            const Cube in = cubeOfTensor(graph, node.inputs[0]);
            const std::size_t plane = std::size_t(in.height) * std::size_t(in.width);
            out = valueOf(node.inputs[0]);
            for (std::size_t i = 0; i < out.size(); ++i)
                out[i] = dla::sdpOutput(dla::sdpXStage(out[i], x1, 0, q.mul[q.mul.size() == 1 ? 0 : i / plane]), {});
        } else if (hasActivationLut(op)) {
            const dla::Lut lut = int8ActivationLut(op, int8.scaleOf(graph, node.inputs[0]), int8.scaleOf(graph, node.outputs[0]));
            for (std::int32_t v : valueOf(node.inputs[0]))
                out.push_back(dla::sdpOutput(dla::sdpLut(v, lut), {}));
        } else if (op == "LRN") {
            const LrnLookup lookup =
                int8LrnLookup(node, int8.scaleOf(graph, node.inputs[0]), int8.scaleOf(graph, node.outputs[0]));
            const Cube in = cubeOfTensor(graph, node.inputs[0]);
            out = widen(dla::cdpLocalResponse(narrow(valueOf(node.inputs[0])), unsigned(in.channels),
                                              std::size_t(in.height) * std::size_t(in.width),
                                              unsigned(node.attrInt("size", 0)), lookup.lut, lookup.output));
        } else if (op == "Concat") {
            for (TensorId input : node.inputs) {
                const Values& part = valueOf(input);
                out.insert(out.end(), part.begin(), part.end());
            }
        } else if (op == "Softmax") {
            out = widen(dla::emulatorSoftmax(narrow(valueOf(node.inputs[0])),
                                             float(int8.scaleOf(graph, node.inputs[0])),
                                             float(int8.scaleOf(graph, node.outputs[0]))));
        } else if (op == "DepthToSpace") {
            out = depthToSpace(graph, node, valueOf(node.inputs[0]));
        } else if (const auto parts = channelParts(graph, node)) {
            // Slice and Split: each output a run of the input's channels.
            const Values& in = valueOf(node.inputs[0]);
            const Cube cube = cubeOfTensor(graph, node.inputs[0]);
            const std::size_t plane = std::size_t(cube.height) * std::size_t(cube.width);
            for (std::size_t k = 0; k < parts->size(); ++k)
                values[std::size_t(node.outputs[k])] =
                    Values(in.begin() + std::ptrdiff_t(std::size_t((*parts)[k].first) * plane),
                           in.begin() + std::ptrdiff_t(std::size_t((*parts)[k].first + (*parts)[k].second) * plane));
            continue;
        } else if (const auto order = channelPermutation(graph, node)) {
            const Values& in = valueOf(node.inputs[0]);
            const Cube cube = cubeOfTensor(graph, node.inputs[0]);
            const std::size_t plane = std::size_t(cube.height) * std::size_t(cube.width);
            for (std::int64_t channel : *order)
                out.insert(out.end(), in.begin() + std::ptrdiff_t(std::size_t(channel) * plane),
                           in.begin() + std::ptrdiff_t((std::size_t(channel) + 1) * plane));
        } else if (isCubeView(graph, node)) {
            out = valueOf(node.inputs[0]);
        } else {
            throw UnsupportedError(fmt::format("{}: the INT8 reference does not run {}", node.describe(), op));
        }
        values[std::size_t(node.outputs[0])] = std::move(out);
    }
    std::vector<TensorData> outputs;
    for (TensorId output : graph.outputs) {
        const Values& v = valueOf(output);
        outputs.push_back(
            TensorData::fromInts(DType::Int8, graph.tensor(output).shape, std::vector<std::int64_t>(v.begin(), v.end())));
    }
    return outputs;
}

}  // namespace tessera::nvdla
