#include "aie/split_check.h"

#include "interp/interpreter.h"
#include "ir/builder.h"

#include <cmath>
#include <random>

namespace tessera::aie {

namespace {

constexpr double kTolerance = 1e-6;

// Runs one node of `opType` on `inputs` with the reference interpreter.
TensorData runOp(const std::string& opType, const std::vector<TensorData>& inputs, AttributeMap attributes, int64_t opset)
{
    GraphBuilder builder("check", opset);
    std::vector<TensorId> ids;
    for (size_t k = 0; k < inputs.size(); ++k)
        ids.push_back(builder.input("in" + std::to_string(k), inputs[k].dtype(), inputs[k].shape()));
    builder.output(builder.op(opType, ids, std::move(attributes), "n"));
    const Graph graph = builder.finish();
    return Interpreter(graph).run(inputs).front();
}

// Samples [start, start + length) of every node of x [1, C, L]; positions outside [0, L) read
// as zero, as the memory tile's padding does.
TensorData window(const TensorData& x, int64_t start, int64_t length)
{
    const int64_t nodes = x.shape()[1], samples = x.shape()[2];
    TensorData out(DType::Float32, {1, nodes, length});
    for (int64_t c = 0; c < nodes; ++c)
        for (int64_t t = 0; t < length; ++t) {
            const int64_t s = start + t;
            if (s >= 0 && s < samples)
                out.data<float>()[c * length + t] = x.data<float>()[c * samples + s];
        }
    return out;
}

// Rows [first, first + count) of a tensor's leading dimension.
TensorData rows(const TensorData& t, int64_t first, int64_t count)
{
    Shape shape = t.shape();
    const int64_t rowElements = t.elements() / shape[0];
    shape[0] = count;
    TensorData out(DType::Float32, shape);
    std::copy(t.data<float>() + first * rowElements, t.data<float>() + (first + count) * rowElements, out.data<float>());
    return out;
}

// Writes `part` [1, C, n] into out [1, C, L] at sample `at` (or node `nodeAt` when n == L).
void place(TensorData& out, const TensorData& part, int64_t nodeAt, int64_t sampleAt)
{
    const int64_t outSamples = out.shape()[2];
    const int64_t nodes = part.shape()[1], samples = part.shape()[2];
    for (int64_t c = 0; c < nodes; ++c)
        for (int64_t t = 0; t < samples; ++t)
            out.data<float>()[(nodeAt + c) * outSamples + sampleAt + t] = part.data<float>()[c * samples + t];
}

TensorData randomTensor(const Shape& shape, std::mt19937& random)
{
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    TensorData t(DType::Float32, shape);
    for (int64_t i = 0; i < t.elements(); ++i)
        t.data<float>()[i] = uniform(random);
    return t;
}

double compareValues(const TensorData& chunked, const TensorData& whole)
{
    if (chunked.shape() != whole.shape())
        return INFINITY;
    double worst = 0;
    for (int64_t i = 0; i < whole.elements(); ++i) {
        const double a = chunked.getDouble(i), b = whole.getDouble(i);
        worst = std::max(worst, std::abs(a - b) / (1.0 + std::abs(b)));
    }
    return worst;
}

} // namespace

std::vector<LayerCheck> checkPlan(const Graph& graph, const AiePlan& plan, uint32_t seed)
{
    std::mt19937 random(seed);
    std::vector<LayerCheck> checks;
    for (const LayerPlan& p : plan.layers) {
        const AieLayer& l = p.layer;
        const Node& node = graph.node(l.node);
        // The layer's operands: a random input, the model's weights (or random ones).
        std::vector<TensorData> inputs;
        const Shape inShape = l.flat ? Shape{1, l.inNodes} : Shape{1, l.inNodes, l.inSamples};
        inputs.push_back(randomTensor(inShape, random));
        for (size_t k = 1; k < node.inputs.size(); ++k) {
            const Tensor& t = graph.tensor(node.inputs[k]);
            inputs.push_back(t.isConstant() ? TensorData::fromFloats(t.shape, t.constant->toFloats()) : randomTensor(t.shape, random));
        }
        const TensorData whole = runOp(node.opType, inputs, node.attributes, graph.opset);
        TensorData chunked(DType::Float32, whole.shape());
        LayerCheck check;
        check.layer = l.name;
        AttributeMap unpadded = node.attributes;
        unpadded.erase("auto_pad");
        unpadded["pads"] = Attribute::ofInts({0, 0});
        if (l.kind == LayerKind::Conv1D && p.splitDim == std::optional<std::string>("nodes")) {
            // Asynchronous output: each chunk computes a group of output nodes from the whole input.
            const int64_t group = l.outNodes / p.nsplit;
            for (int64_t c = 0; c < p.nsplit; ++c) {
                std::vector<TensorData> part{inputs[0], rows(inputs[1], c * group, group)};
                if (inputs.size() > 2)
                    part.push_back(rows(inputs[2], c * group, group));
                place(chunked, runOp("Conv", part, node.attributes, graph.opset), c * group, 0);
                ++check.pieces;
            }
        } else if (l.kind == LayerKind::Conv1D) {
            // Memory-tile windows: tile dims and strides as planned, zero padding from the offset.
            const MemtileTiling& tiling = *p.inputTiling;
            const int64_t windowSamples = tiling.tileDims[1];
            const int64_t stepSamples = tiling.strides[1];
            const int64_t outPerWindow = (windowSamples - l.kernel) / l.stride + 1;
            for (int64_t w = 0; w * outPerWindow < l.outSamples; ++w) {
                std::vector<TensorData> part = inputs;
                part[0] = window(inputs[0], tiling.offset[1] + w * stepSamples, windowSamples);
                place(chunked, runOp("Conv", part, unpadded, graph.opset), 0, w * outPerWindow);
                ++check.pieces;
            }
        } else if (l.kind == LayerKind::Pool1D || (l.kind == LayerKind::Elementwise && inputs.size() == 1 && !l.flat)) {
            // Sample chunks; a pool's padding stays at the true edges of the data.
            const int64_t outPer = l.outSamples / p.nsplit;
            const int64_t step = l.kind == LayerKind::Pool1D ? l.stride : 1;
            const int64_t span = l.kind == LayerKind::Pool1D ? l.kernel : 1;
            for (int64_t c = 0; c < p.nsplit; ++c) {
                const int64_t start = c * outPer * step - l.padBegin;
                const int64_t length = (outPer - 1) * step + span;
                const int64_t first = std::max<int64_t>(0, start), last = std::min(l.inSamples, start + length);
                AttributeMap attrs = node.attributes;
                if (l.kind == LayerKind::Pool1D)
                    attrs["pads"] = Attribute::ofInts({first - start, start + length - last});
                place(chunked, runOp(node.opType, {window(inputs[0], first, last - first)}, attrs, graph.opset), 0, c * outPer);
                ++check.pieces;
            }
        } else if (l.kind == LayerKind::Dense && p.nsplit > 1 && node.opType == "Gemm" &&
                   node.attrInt("transB", 0) != 0 && node.attrInt("transA", 0) == 0) {
            // Output nodes in groups: each chunk multiplies by its rows of the weights.
            const int64_t group = l.outNodes / p.nsplit;
            for (int64_t c = 0; c < p.nsplit; ++c) {
                std::vector<TensorData> part{inputs[0], rows(inputs[1], c * group, group)};
                if (inputs.size() > 2 && inputs[2].shape() == Shape{l.outNodes})
                    part.push_back(rows(inputs[2], c * group, group));
                else if (inputs.size() > 2)
                    part.push_back(inputs[2]);
                const TensorData piece = runOp("Gemm", part, node.attributes, graph.opset);
                std::copy(piece.data<float>(), piece.data<float>() + group, chunked.data<float>() + c * group);
                ++check.pieces;
            }
        } else {
            chunked = runOp(node.opType, inputs, node.attributes, graph.opset);
            check.pieces = 1;
        }
        check.maxError = compareValues(chunked, whole);
        check.passed = check.maxError <= kTolerance;
        checks.push_back(check);
    }
    return checks;
}

} // namespace tessera::aie
