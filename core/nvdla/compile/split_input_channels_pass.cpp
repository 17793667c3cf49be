// split-input-channels: a convolution whose one kernel group and one kernel height of input lines
// do not fit the CBUF together (a wide fully connected layer, a 3x3 convolution over thousands of
// channels) is the sum of convolutions over slices of its input channels:
//   Conv(x, W, b) = Conv(x[c0:c1], W[:, c0:c1], b) + Conv(x[c1:c2], W[:, c1:c2]) + ...
// Each slice starts at a memory atom, so it is a view of the input's surface; the partial results
// are tensors of their own (calibrated and scaled like any other in INT8) added by SDPs.
// NVIDIA's compiler refuses such convolutions ("Not enough banks to hold weight data").
#include "nvdla/compile/convolution_buffer.h"
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

namespace tessera::nvdla {

namespace {

// The weights' input channels [first, end) (all kernels), as a new constant.
TensorData channelSlice(const TensorData& weights, std::int64_t first, std::int64_t end)
{
    const Shape& shape = weights.shape();  // K, C, R, S
    const std::int64_t kernels = shape[0], channels = shape[1], window = shape[2] * shape[3];
    std::vector<double> values;
    values.reserve(std::size_t(kernels * (end - first) * window));
    for (std::int64_t k = 0; k < kernels; ++k)
        for (std::int64_t c = first; c < end; ++c)
            for (std::int64_t i = 0; i < window; ++i)
                values.push_back(weights.getDouble((k * channels + c) * window + i));
    return TensorData::fromDoubles(weights.dtype(), {kernels, end - first, shape[2], shape[3]}, values);
}

TensorId int64Constant(Graph& graph, const std::string& name, std::int64_t value)
{
    return addConstant(graph, name, TensorData::fromInts(DType::Int64, {1}, {value}));
}

}  // namespace

void splitInputChannelsPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log)
{
    // Slices start at a memory atom of INT8 channels, which is also one of FP16 channels; the fit
    // is judged with the widest elements the configuration computes on.
    const unsigned elementBytes = config.supports(target::NvdlaPrecision::Fp16) ? 2 : 1;
    const std::int64_t alignment = config.memoryAtomicBytes;
    std::vector<bool> remove(graph.nodeCount(), false);
    const std::size_t nodeCount = graph.nodeCount();
    for (std::size_t n = 0; n < nodeCount; ++n) {
        const Node conv = graph.node(NodeId(n));
        if (conv.opType != "Conv" || conv.attrInt("group", 1) != 1 || conv.inputs.size() < 2 ||
            !graph.tensor(conv.inputs[1]).isConstant() ||
            (conv.inputs.size() > 2 && conv.inputs[2] != kNoTensor && !graph.tensor(conv.inputs[2]).isConstant()))
            continue;
        // Copies: adding tensors below moves the graph's tensors.
        const Shape in = graph.tensor(conv.inputs[0]).shape;
        const Shape w = graph.tensor(conv.inputs[1]).shape;
        if (in.size() != 4 || in[0] != 1 || w.size() != 4 || w[1] != in[1])
            continue;
        const auto need = [&](std::int64_t channels) {
            return convolutionBufferNeed(config, unsigned(w[0]), unsigned(channels), unsigned(in[3]), unsigned(w[2]),
                                         unsigned(w[3]), elementBytes);
        };
        const std::int64_t channels = in[1];
        if (fitsConvolutionBuffer(config, need(channels), unsigned(w[2])))
            continue;
        // The widest slice of whole atoms that fits.
        std::int64_t slice = (channels - 1) / alignment * alignment;
        while (slice >= alignment && !fitsConvolutionBuffer(config, need(slice), unsigned(w[2])))
            slice -= alignment;
        if (slice < alignment)
            continue;  // not even one atom of channels fits: the emitter names the convolution
        const ConvolutionBufferNeed whole = need(channels);
        const std::int64_t parts = (channels + slice - 1) / slice;
        TensorId sum = kNoTensor;
        for (std::int64_t p = 0; p < parts; ++p) {
            const std::int64_t first = p * slice, end = std::min(channels, first + slice);
            const std::string name = fmt::format("{}_channels{}", conv.name, p);
            Node part = conv;
            part.name = name;
            const TensorId input = addTensor(graph, name + "_input");
            const TensorId weights =
                addConstant(graph, name + "_w", channelSlice(*graph.tensor(conv.inputs[1]).constant, first, end));
            part.inputs = {input, weights};
            if (p == 0 && conv.inputs.size() > 2 && conv.inputs[2] != kNoTensor)
                part.inputs.push_back(conv.inputs[2]);  // the bias once
            part.outputs = {addTensor(graph, name + "_output")};
            Node sliceNode;
            sliceNode.name = name + "_slice";
            sliceNode.opType = "Slice";
            if (graph.opset >= 10) {
                sliceNode.inputs = {conv.inputs[0], int64Constant(graph, name + "_starts", first),
                                    int64Constant(graph, name + "_ends", end), int64Constant(graph, name + "_axes", 1)};
            } else {  // Slice-1 takes its bounds as attributes
                sliceNode.inputs = {conv.inputs[0]};
                sliceNode.attributes["starts"] = Attribute::ofInts({first});
                sliceNode.attributes["ends"] = Attribute::ofInts({end});
                sliceNode.attributes["axes"] = Attribute::ofInts({1});
            }
            sliceNode.outputs = {part.inputs[0]};
            const TensorId partial = part.outputs[0];
            log.add("split-input-channels", name, fmt::format("input channels {}..{} of Conv '{}'", first, end - 1, conv.name));
            graph.addNode(std::move(sliceNode));
            graph.addNode(std::move(part));
            remove.push_back(false);
            remove.push_back(false);
            if (sum == kNoTensor) {
                sum = partial;
                continue;
            }
            Node add;
            add.name = fmt::format("{}_sum{}", conv.name, p);
            add.opType = "Add";
            add.inputs = {sum, partial};
            // The last sum is the convolution's output.
            add.outputs = {p + 1 == parts ? conv.outputs[0] : addTensor(graph, add.name)};
            sum = add.outputs[0];
            graph.addNode(std::move(add));
            remove.push_back(false);
        }
        remove[n] = true;
        log.addRemoved("split-input-channels", conv.name, fmt::format("{}_channels0", conv.name),
                fmt::format("one group of kernels ({} CBUF banks) and {} input lines ({} banks) exceed the {} banks: "
                            "split into {} convolutions over at most {} input channels, their results added",
                            whole.groupWeightBanks, w[2], whole.dataBanks(std::uint64_t(w[2])), config.cbufBanks, parts,
                            slice));
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
