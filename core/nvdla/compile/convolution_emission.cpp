// CONV with its SDP: weights in the direct-convolution layout, the CBUF banks, the descriptors.
// A grouped convolution is emitted in parts over channel slices that start at a memory atom: one
// part per group when each group's input and output channels fill whole atoms, and for depthwise
// convolutions one part per atom of channels whose weights are the block's diagonal (a dense
// convolution of 16 FP16 channels with zeros off the diagonal: more multiply-accumulates, the same
// result, and no copy of the data).
#include "nvdla/compile/convolution_buffer.h"
#include "nvdla/compile/emitter_state.h"

namespace tessera::nvdla::emission {

void Emitter::emitConvolution(const Node& node, EmittedNode& record)
{
    const Tensor& weights = graph_.tensor(node.inputs.at(1));
    const Shape& w = weights.shape;  // K, C/group, R, S
    const unsigned kernels = unsigned(w[0]), groupChannels = unsigned(w[1]), rows = unsigned(w[2]),
                   columns = unsigned(w[3]);
    const unsigned group = unsigned(node.attrInt("group", 1));
    const std::vector<double> values = weights.constant->toDoubles();
    std::vector<double> bias(kernels, 0.0);
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor)
        bias = graph_.tensor(node.inputs[2]).constant->toDoubles();
    const Int8Convolution* quantized = int8_ ? &int8_->convolutions.at(node.name) : nullptr;
    // INT8 weights are the quantized integers (exact as floats).
    const auto weightOf = [&](unsigned k, unsigned c, unsigned r, unsigned s) {
        const std::size_t at = ((std::size_t(k) * groupChannels + c) * rows + r) * columns + s;
        return quantized ? float(quantized->weights[at]) : float(values[at]);
    };
    // The x1 operands of output channels [first, first + count): FP16 biases, or in INT8 per
    // channel the int16 bias (ALU, at the lower address) and the int16 multiplier.
    const auto biasOf = [&](unsigned first, unsigned count) {
        if (!quantized)
            return halves(std::vector<double>(bias.begin() + first, bias.begin() + first + count));
        std::vector<std::uint8_t> bytes;
        for (unsigned k = first; k < first + count; ++k)
            for (const std::int16_t v : {quantized->bias[k], quantized->scale[k]}) {
                bytes.push_back(std::uint8_t(std::uint16_t(v)));
                bytes.push_back(std::uint8_t(std::uint16_t(v) >> 8));
            }
        return bytes;
    };
    if (group == 1) {
        emitConvolutionPart(node, {0, groupChannels, 0, kernels, weightOf, biasOf(0, kernels), node.name}, record);
        return;
    }
    const unsigned perAtom = surface(node.inputs[0]).layout.channelsPerGroup;
    const unsigned channels = groupChannels * group;
    if (groupChannels == 1 && kernels == group) {
        // Depthwise: blocks of one atom of channels, diagonal weights.
        for (unsigned first = 0; first < channels; first += perAtom) {
            const unsigned count = std::min(perAtom, channels - first);
            const auto diagonal = [&, first](unsigned k, unsigned c, unsigned r, unsigned s) {
                return k == c ? weightOf(first + k, 0, r, s) : 0.0f;
            };
            emitConvolutionPart(node, {first, count, first, count, diagonal, biasOf(first, count),
                                       fmt::format("{}-block{}", node.name, first / perAtom)},
                                record);
        }
        return;
    }
    const unsigned groupKernels = kernels / group;
    if (groupChannels % perAtom != 0 || groupKernels % perAtom != 0)
        throw UnsupportedError(fmt::format("{}: group {} with {} input and {} output channels per group: the groups "
                                           "do not start at a memory atom ({} channels)",
                                           node.describe(), group, groupChannels, groupKernels, perAtom));
    for (unsigned g = 0; g < group; ++g) {
        const auto groupWeight = [&, g](unsigned k, unsigned c, unsigned r, unsigned s) {
            return weightOf(g * groupKernels + k, c, r, s);
        };
        emitConvolutionPart(node, {g * groupChannels, groupChannels, g * groupKernels, groupKernels, groupWeight,
                                   biasOf(g * groupKernels, groupKernels), fmt::format("{}-group{}", node.name, g)},
                            record);
    }
}

void Emitter::emitConvolutionPart(const Node& node, const ConvolutionPart& part, EmittedNode& record)
{
    const Shape& w = graph_.tensor(node.inputs.at(1)).shape;
    const unsigned kernels = part.outCount, channels = part.inCount, rows = unsigned(w[2]), columns = unsigned(w[3]);
    const FeatureLayout& in = surface(node.inputs[0]).layout;
    const unsigned outputHeight = surface(node.outputs[0]).layout.height;
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    const unsigned elementBytes = in.elementBytes;

    // Weights in the direct-convolution layout; the SDP operands as the part prepared them.
    const WeightLayout layout = directWeightLayout(kernels, channels, rows, columns, elementBytes, config_.atomicK,
                                                   config_.atomicC, config_.cbufEntryBytes);
    std::vector<std::uint8_t> packed(layout.bytes, 0);
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned r = 0; r < rows; ++r)
                for (unsigned s = 0; s < columns; ++s)
                    if (elementBytes == 1)
                        packed[layout.offsetOf(k, c, r, s)] = std::uint8_t(std::int8_t(part.weight(k, c, r, s)));
                    else
                        putHalf(packed, layout.offsetOf(k, c, r, s), part.weight(k, c, r, s));
    const std::uint16_t weightMemory = builder_.addConstantMemory(part.name + "-weights", std::move(packed), 256);
    const std::uint16_t weightAddress = builder_.addAddress(weightMemory, 0, layout.bytes);
    const std::uint16_t biasMemory = builder_.addConstantMemory(part.name + "-bias", part.sdpOperands, 256);
    const std::uint16_t biasAddress = builder_.addAddress(biasMemory, 0, part.sdpOperands.size());

    // The convolution buffer: input lines (entries per slice x rows) and weights in banks.
    const ConvolutionBufferNeed need =
        convolutionBufferNeed(config_, kernels, channels, in.width, rows, columns, elementBytes);
    const std::uint64_t entriesPerSlice = need.entriesPerSlice, entriesPerBank = need.entriesPerBank,
                        banks = config_.cbufBanks;
    const std::uint64_t allWeights = need.allWeightBanks, groupWeights = need.groupWeightBanks;
    const std::uint64_t wholeData = need.dataBanks(in.height);
    // Weights whole, or two kernel groups (one loads while the other computes), or one; when the
    // whole input does not fit beside them, the output rows are computed in bands whose input rows
    // fit (as NVIDIA's compiler splits a convolution over its height).
    std::uint64_t weightBankCount = 0;
    unsigned bandRows = outputHeight;
    const int strideY = int(strides[0]), padTop = int(pads[0]);
    if (allWeights + wholeData <= banks)
        weightBankCount = allWeights;
    else if (2 * groupWeights + wholeData <= banks)
        weightBankCount = 2 * groupWeights;
    else if (groupWeights + wholeData <= banks)
        weightBankCount = groupWeights;
    else {
        // The most weight banks that leave room for one kernel height of input lines.
        if (!fitsConvolutionBuffer(config_, need, rows))
            throw UnsupportedError(fmt::format(
                "{}: one group of {} kernels ({} CBUF banks) and {} input lines of {} x {} channels ({} banks) do not "
                "fit the {} banks of {} together; split-input-channels splits such convolutions over whole atoms "
                "of input channels, and this one could not be split further",
                node.describe(), layout.kernelsPerGroup, groupWeights, rows, in.width, channels, need.dataBanks(rows),
                banks, config_.name));
        for (const std::uint64_t candidate : {allWeights, 2 * groupWeights, groupWeights})
            if (candidate + need.dataBanks(rows) <= banks) {
                weightBankCount = candidate;
                break;
            }
        const std::uint64_t inputRowsThatFit = (banks - weightBankCount) * entriesPerBank / entriesPerSlice;
        bandRows = unsigned((inputRowsThatFit - rows) / unsigned(strideY) + 1);
    }
    unsigned bands = 0;
    std::uint64_t dataBankCount = 0;  // the most any band programs
    for (unsigned first = 0; first < outputHeight; first += bandRows, ++bands) {
        const unsigned last = std::min(outputHeight, first + bandRows);  // exclusive
        const int top = int(first) * strideY - padTop;
        const int bottom = int(last - 1) * strideY - padTop + int(rows);  // exclusive
        const unsigned inputFirst = unsigned(std::max(0, top));
        const unsigned inputEnd = unsigned(std::min(int(in.height), bottom));
        dataBankCount = std::max(dataBankCount, need.dataBanks(inputEnd - inputFirst));
        emitConvolutionBand(node, part, layout, weightAddress, biasAddress, part.sdpOperands.size(),
                            {first, last - first, inputFirst, inputEnd - inputFirst, unsigned(int(inputFirst) - top),
                             unsigned(std::max(0, bottom - int(in.height))), entriesPerSlice,
                             need.dataBanks(inputEnd - inputFirst), weightBankCount},
                            record);
    }
    record.convolutionBuffer.push_back({part.name, unsigned(dataBankCount), unsigned(weightBankCount), bands, bandRows});
    if (record.note.empty())
        record.note = fmt::format("weights {} B, CBUF banks: data {}, weights {}{}", layout.bytes, dataBankCount,
                                  weightBankCount,
                                  bands > 1 ? fmt::format("; {} bands of {} output rows", bands, bandRows) : "");
    else
        record.note += fmt::format("; {} B", layout.bytes);
}

void Emitter::emitConvolutionBand(const Node& node, const ConvolutionPart& part, const WeightLayout& layout,
                                  std::uint16_t weightAddress, std::uint16_t biasAddress, std::size_t biasBytes,
                                  const ConvolutionBand& band, EmittedNode& record)
{
    const Shape& w = graph_.tensor(node.inputs.at(1)).shape;
    const unsigned kernels = part.outCount, channels = part.inCount, rows = unsigned(w[2]), columns = unsigned(w[3]);
    const FeatureLayout& in = surface(node.inputs[0]).layout;
    FeatureLayout out = surface(node.outputs[0]).layout;
    out.channels = kernels;
    out.height = band.outputRows;
    out.bytes = out.surfaceStride * ((kernels + out.channelsPerGroup - 1) / out.channelsPerGroup);
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    DlaTaskBuilder& task = dla();
    const int conv = task.addOperation(DlaOp::Conv);
    Record op = task.opDesc(conv);
    op.set("conv_mode", 0);
    op.set("entry_per_slice", std::int64_t(band.entriesPerSlice));
    op.set("data_format", kFormatFeature);
    op.set("fetch_grain", 1);
    op.set("batch", 1);
    op.set("data_bank", std::int64_t(band.dataBanks));
    op.set("weight_bank", std::int64_t(band.weightBanks));
    op.set("pixel_override", 1);
    op.set("release", band.inputRows);
    op.set("input_width_csc", in.width);
    op.set("input_height_csc", band.inputRows);
    op.set("input_channel_csc", channels);
    op.set("kernel_width_csc", columns);
    op.set("kernel_height_csc", rows);
    op.set("kernel_channel_csc", channels);
    op.set("input_width_cmac", out.width);
    op.set("input_height_cmac", band.outputRows);
    op.set("bytes_per_kernel", std::int64_t(layout.bytesPerKernel));
    op.set("conv_stride_x", strides[1]);
    op.set("conv_stride_y", strides[0]);
    op.set("pad_x_left", pads[1]);
    op.set("pad_y_top", band.padTop);
    op.set("pad_x_right", pads[3]);
    op.set("pad_y_bottom", band.padBottom);
    op.set("dilation_x", 1);
    op.set("dilation_y", 1);
    op.set("in_precision", dataPrecision());
    op.set("out_precision", dataPrecision());
    // INT8: the input converter on as the identity, as NVIDIA's compiler writes it.
    op.set("in_cvt.enable", int8_ ? 1 : 0);
    op.set("in_cvt.scale", 1);
    op.set("out_cvt.scale", 1);
    op.set("out_cvt.enable", 1);
    Record convSurface = task.surfaceDesc(conv);
    setSlice(convSurface, "src_data", node.inputs[0], plan_.channelOffsetOf(node.inputs[0]) + part.inFirst, channels,
             band.inputFirst, band.inputRows);
    convSurface.set("weight_data.type", kMemoryMc);
    convSurface.set("weight_data.address", task.addressIndex(weightAddress));
    convSurface.set("weight_data.size", std::int64_t(layout.bytes));
    convSurface.set("weight_data.width", columns);
    convSurface.set("weight_data.height", rows);
    convSurface.set("weight_data.channel", channels);
    setCube(convSurface, "dst_data", kMemoryHw, -1, 0, out);

    // The SDP takes the convolution's output on the fly: bias per kernel (in INT8 with the multiplier
    // and shift that bring the accumulator to the output's scale), then the fused activation.
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record sdpOp = task.opDesc(sdp);
    setPrecision(sdpOp);
    sdpOp.set("x1_op.enable", 1);
    sdpOp.set("x1_op.alu_type", kSdpAluSum);
    sdpOp.set("x1_op.act", kActNone);
    sdpOp.set("x1_op.mode", kSdpPerKernel);
    sdpOp.set("x1_op.mul_operand", 1);
    if (int8_) {
        const Int8Convolution& quantized = int8_->convolutions.at(node.name);
        sdpOp.set("x1_op.type", kSdpOpBoth);
        sdpOp.set("x1_op.precision", kPrecisionInt16);
        sdpOp.set("x1_op.shift_value", quantized.biasShift);
        sdpOp.set("x1_op.truncate", quantized.shift);
    } else {
        sdpOp.set("x1_op.type", kSdpOpAdd);
        sdpOp.set("x1_op.precision", kPrecisionFp16);
    }
    applyFusedActivation(sdpOp, node);
    Record sdpSurface = task.surfaceDesc(sdp);
    setCube(sdpSurface, "src_data", kMemoryHw, -1, 0, out);
    setPerChannelOperands(sdpSurface, "x1_data", biasAddress, biasBytes, kernels);
    setSlice(sdpSurface, "dst_data", node.outputs[0], plan_.channelOffsetOf(node.outputs[0]) + part.outFirst, kernels,
             band.outputFirst, band.outputRows);
    task.fuse(sdp, conv);
    reads(conv, surfaceIndex(node.inputs[0]), sdp);
    writes(sdp, surfaceIndex(node.outputs[0]));
    record.operations.push_back(fmt::format("CONV {}", conv));
    record.operations.push_back(fmt::format("SDP {}", sdp));
}

}  // namespace tessera::nvdla::emission
