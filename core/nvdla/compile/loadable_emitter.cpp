#include "nvdla/compile/loadable_emitter.h"

#include "nvdla/compile/emitter_state.h"
#include "nvdla/compile/pooling_split.h"
#include "nvdla/lut_param.h"

namespace tessera::nvdla {

namespace emission {

void Emitter::emitActivation(const Node& node, EmittedNode& record)
{
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecision(op);  // INT8: the input's scale is the output's (no rescale)
    if (node.opType == "Relu") {
        // As NVIDIA's compiler writes a ReLU of its own: x1 passes the data through its ReLU.
        op.set("x1_op.enable", 1);
        op.set("x1_op.alu_type", kSdpAluSum);
        op.set("x1_op.type", kSdpOpNone);
        op.set("x1_op.mode", kSdpPerLayer);
        op.set("x1_op.act", kActRelu);
        op.set("x1_op.precision", int8_ ? kPrecisionInt16 : kPrecisionFp16);
        op.set("x1_op.mul_operand", 1);
    } else {
        const auto bounds = clipBounds(graph_, node);
        setLayerOperand(op, "x1_op", kSdpAluMax, operandFor(bounds->first, scaleOf(node.inputs[0])));
        setLayerOperand(op, "x2_op", kSdpAluMin, operandFor(bounds->second, scaleOf(node.inputs[0])));
    }
    Record surfaceDesc = task.surfaceDesc(sdp);
    connectSourceAndDestination(surfaceDesc, sdp, node);
    record.operations = {fmt::format("SDP {}", sdp)};
}

// PRelu and LeakyRelu: x1's multiplier in PReLU mode (negative values only) with the slope per
// layer or per channel; in INT8 the slopes are int16 multipliers with a right shift.
void Emitter::emitPrelu(const Node& node, EmittedNode& record)
{
    std::vector<std::int64_t> operands;
    if (int8_) {
        const Int8Elementwise& q = int8_->elementwise.at(node.name);
        operands.assign(q.mul.begin(), q.mul.end());
    } else {
        for (double slope : preluSlopes(graph_, node))
            operands.push_back(floatToHalf(float(slope)));
    }
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecision(op);
    op.set("x1_op.enable", 1);
    op.set("x1_op.alu_type", kSdpAluSum);
    op.set("x1_op.type", kSdpOpMul);
    op.set("x1_op.act", kActPrelu);
    op.set("x1_op.precision", int8_ ? kPrecisionInt16 : kPrecisionFp16);
    if (int8_)
        op.set("x1_op.truncate", int8_->elementwise.at(node.name).mulShift);
    Record surfaceDesc = task.surfaceDesc(sdp);
    if (operands.size() == 1) {
        op.set("x1_op.mode", kSdpPerLayer);
        op.set("x1_op.mul_operand", operands[0]);
    } else {
        op.set("x1_op.mode", kSdpPerKernel);
        setPerChannelConstants(surfaceDesc, "x1_data", node.name + "-slopes", operands, unsigned(operands.size()));
    }
    connectSourceAndDestination(surfaceDesc, sdp, node);
    record.operations = {fmt::format("SDP {}", sdp)};
}

// Add, Sub, Mul, Max and Min: the x1 stage with the second operand read per point (a tensor, as
// NVIDIA's compiler does element-wise layers), per kernel (a constant per channel) or per layer (a
// scalar constant in the descriptor). In INT8 x1 also rescales a constant operation's result to the
// output's scale (Int8Elementwise), and the output converter that of two tensors.
void Emitter::emitElementwise(const Node& node, EmittedNode& record)
{
    const std::string& type = node.opType;
    TensorId source = node.inputs[0], operand = node.inputs[1];
    if (graph_.tensor(source).isConstant())
        std::swap(source, operand);  // commutative (the mapping refused a constant minuend)
    const Int8Elementwise* quantized = int8_ ? &int8_->elementwise.at(node.name) : nullptr;
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecision(op);
    op.set("x1_op.enable", 1);
    op.set("x1_op.alu_type", type == "Max" ? kSdpAluMax : type == "Min" ? kSdpAluMin : kSdpAluSum);
    op.set("x1_op.type", type == "Mul" ? kSdpOpMul : quantized && quantized->constantOperand() ? kSdpOpBoth : kSdpOpAdd);
    op.set("x1_op.act", kActNone);
    op.set("x1_op.mul_operand", 1);
    if (quantized) {
        op.set("x1_op.shift_value", quantized->aluShift);
        op.set("x1_op.truncate", quantized->mulShift);
        op.set("out_cvt.scale", quantized->output.scale);
        op.set("out_cvt.truncate", quantized->output.shift);
        op.set("out_cvt.offset", quantized->output.offset);
        op.set("out_cvt.enable", 1);
    }
    Record surfaceDesc = task.surfaceDesc(sdp);
    setFeatureCube(surfaceDesc, "src_data", source);
    const Tensor& constant = graph_.tensor(operand);
    const FeatureLayout& outLayout = surface(node.outputs[0]).layout;
    if (constant.isConstant() && constant.elements() > 1 &&
        constant.elements() == std::int64_t(outLayout.channels) * outLayout.height * outLayout.width) {
        // A constant per element: a cube in the feature layout, read per point (INT8: the int8
        // multipliers of Int8Elementwise; FP16: the values).
        FeatureLayout layout = featureLayout(outLayout.width, outLayout.height, outLayout.channels,
                                             outLayout.elementBytes, config_.memoryAtomicBytes);
        std::vector<std::uint8_t> bytes(layout.bytes, 0);
        const std::vector<double> values = constant.constant->toDoubles();
        std::size_t i = 0;
        for (unsigned c = 0; c < layout.channels; ++c)
            for (unsigned y = 0; y < layout.height; ++y)
                for (unsigned x = 0; x < layout.width; ++x, ++i) {
                    if (quantized)
                        bytes[layout.offsetOf(c, y, x)] = std::uint8_t(quantized->pointMultipliers.at(i));
                    else
                        putHalf(bytes, layout.offsetOf(c, y, x), float(type == "Sub" ? -values[i] : values[i]));
                }
        const std::uint16_t memory = builder_.addConstantMemory(node.name + "-operand", std::move(bytes), 256);
        op.set("x1_op.precision", dataPrecision());
        op.set("x1_op.mode", kSdpPerPoint);
        setCube(surfaceDesc, "x1_data", kMemoryMc, task.addressIndex(builder_.addAddress(memory, 0, layout.bytes)), 0,
                layout);
    } else if (!constant.isConstant()) {
        // The other tensor in the data's own precision (INT8: one byte per element).
        op.set("x1_op.precision", dataPrecision());
        op.set("x1_op.mode", kSdpPerPoint);
        setFeatureCube(surfaceDesc, "x1_data", operand);
        reads(sdp, surfaceIndex(operand), sdp);
    } else {
        // FP16: the constant; INT8: int16 ALU operands and multipliers (pairs for Add, Max, Min).
        std::vector<std::vector<std::int64_t>> perChannel;  // [channel][operand]
        if (quantized) {
            for (std::size_t c = 0; c < quantized->mul.size(); ++c)
                perChannel.push_back(type == "Mul" ? std::vector<std::int64_t>{quantized->mul[c]}
                                                   : std::vector<std::int64_t>{quantized->alu[c], quantized->mul[c]});
        } else {
            for (double value : constant.constant->toDoubles())
                perChannel.push_back({floatToHalf(float(type == "Sub" ? -value : value))});
        }
        op.set("x1_op.precision", int8_ ? kPrecisionInt16 : kPrecisionFp16);
        if (perChannel.size() == 1) {
            op.set("x1_op.mode", kSdpPerLayer);
            const std::vector<std::int64_t>& values = perChannel[0];
            if (type == "Mul") {
                op.set("x1_op.mul_operand", values[0]);
            } else {
                op.set("x1_op.alu_operand", values[0]);
                if (values.size() > 1)
                    op.set("x1_op.mul_operand", values[1]);
            }
        } else {
            op.set("x1_op.mode", kSdpPerKernel);
            std::vector<std::int64_t> values;
            for (const std::vector<std::int64_t>& channel : perChannel)
                values.insert(values.end(), channel.begin(), channel.end());
            setPerChannelConstants(surfaceDesc, "x1_data", node.name + "-operand", values, unsigned(perChannel.size()));
        }
    }
    applyFusedActivation(op, node);
    setFeatureCube(surfaceDesc, "dst_data", node.outputs[0]);
    reads(sdp, surfaceIndex(source), sdp);
    writes(sdp, surfaceIndex(node.outputs[0]));
    record.operations = {fmt::format("SDP {}", sdp)};
}

void Emitter::emitPooling(const Node& node, EmittedNode& record)
{
    const auto kernel = node.attrInts("kernel_shape");
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    FeatureLayout in = surface(node.inputs[0]).layout;
    const FeatureLayout& out = surface(node.outputs[0]).layout;
    // The right and bottom padding the output size implies; columns and rows no window reaches
    // are left out of the source, as NVIDIA's compiler does.
    std::int64_t padRight = std::int64_t(out.width - 1) * strides[1] + kernel[1] - (std::int64_t(in.width) + pads[1]);
    std::int64_t padBottom = std::int64_t(out.height - 1) * strides[0] + kernel[0] - (std::int64_t(in.height) + pads[0]);
    const PoolingSplit split =
        poolingSplit(std::int64_t(in.width) + std::min<std::int64_t>(padRight, 0), out.width, kernel[1], strides[1],
                     pads[1], std::max<std::int64_t>(padRight, 0),
                     pdpFlyingWidth(config_, int8_ ? target::NvdlaPrecision::Int8 : target::NvdlaPrecision::Fp16,
                                    kernel[0], strides[0]));
    DlaTaskBuilder& task = dla();
    const int pdp = task.addOperation(DlaOp::Pdp);
    Record op = task.opDesc(pdp);
    op.set("split_num", split.count);
    op.set("partial_in_width_first", split.inFirst);
    op.set("partial_in_width_mid", split.inMid);
    op.set("partial_in_width_last", split.inLast);
    op.set("partial_width_first", split.outFirst);
    op.set("partial_width_mid", split.outMid);
    op.set("partial_width_last", split.outLast);
    op.set("pool_mode", node.opType == "MaxPool" ? kPoolMax : kPoolAverage);
    op.set("pool_width", kernel[1] - 1);
    op.set("pool_height", kernel[0] - 1);
    op.set("stride_x", strides[1]);
    op.set("stride_y", strides[0]);
    op.set("pad_left", pads[1]);
    op.set("pad_top", pads[0]);
    op.set("pad_right", std::max<std::int64_t>(padRight, 0));
    op.set("pad_bottom", std::max<std::int64_t>(padBottom, 0));
    op.set("precision", dataPrecision());
    Record surfaceDesc = task.surfaceDesc(pdp);
    connectSourceAndDestination(surfaceDesc, pdp, node);
    if (padRight < 0)
        surfaceDesc.set("src_data.width", std::int64_t(in.width) + padRight);
    if (padBottom < 0)
        surfaceDesc.set("src_data.height", std::int64_t(in.height) + padBottom);
    record.operations = {fmt::format("PDP {}", pdp)};
    if (split.count > 1)
        record.note = fmt::format("{} splits of the width: {}/{}/{} input columns, {}/{}/{} output", split.count,
                                  split.inFirst, split.inMid, split.inLast, split.outFirst, split.outMid, split.outLast);
}

// Sigmoid and Tanh: the Y stage's lookup table (its ALU and multiplier bypassed), as NVIDIA's
// compiler does activations; the table is in the task's LUT list.
void Emitter::emitLookup(const Node& node, EmittedNode& record)
{
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecision(op);
    const dla::Lut lut = int8_ ? int8ActivationLut(node.opType, scaleOf(node.inputs[0]), scaleOf(node.outputs[0]))
                               : fp16ActivationLut(node.opType);
    op.set("lut_index", task.addLut(encodeLut(lut, task.interface().lutParam)));
    op.set("y_op.enable", 1);
    op.set("y_op.alu_type", kSdpAluSum);
    op.set("y_op.type", kSdpOpNone);
    op.set("y_op.mode", kSdpPerLayer);
    op.set("y_op.act", kActLut);
    op.set("y_op.precision", dataPrecision());
    op.set("y_op.mul_operand", 1);
    Record surfaceDesc = task.surfaceDesc(sdp);
    connectSourceAndDestination(surfaceDesc, sdp, node);
    record.operations = {fmt::format("SDP {} (LUT {})", sdp, node.opType)};
}

// LRN: CDP squares and sums the channels around each element, looks the factor up in its LUT and
// multiplies; in INT8 its output converter brings the product to the output's scale.
void Emitter::emitLocalResponse(const Node& node, EmittedNode& record)
{
    DlaTaskBuilder& task = dla();
    const int cdp = task.addOperation(DlaOp::Cdp);
    Record op = task.opDesc(cdp);
    op.set("in_precision", dataPrecision());
    op.set("out_precision", dataPrecision());
    dla::Lut lut;
    dla::OutputConverter output;
    if (int8_) {
        const LrnLookup lookup = int8LrnLookup(node, scaleOf(node.inputs[0]), scaleOf(node.outputs[0]));
        lut = lookup.lut;
        output = lookup.output;
    } else {
        lut = fp16LrnLut(LrnParameters::of(node));
    }
    op.set("lut_index", task.addLut(encodeLut(lut, task.interface().lutParam)));
    op.set("in_cvt.scale", 1);
    op.set("in_cvt.enable", 1);
    op.set("out_cvt.scale", output.scale);
    op.set("out_cvt.truncate", output.shift);
    op.set("out_cvt.offset", output.offset);
    op.set("out_cvt.enable", 1);
    op.set("local_size", node.attrInt("size", 0));
    Record surfaceDesc = task.surfaceDesc(cdp);
    connectSourceAndDestination(surfaceDesc, cdp, node);
    record.operations = {fmt::format("CDP {}", cdp)};
}

void Emitter::emitSoftmax(const Node& node, EmittedNode& record)
{
    EmuTaskBuilder& task = emu();
    const int op = task.addOperation(kEmuOpSoftmax);
    Record desc = task.opDesc(op);
    desc.set("axis", 1);
    // INT8: the emulator takes int8 x input scale in and writes y / output scale.
    desc.setFloat("common.input_scale_factor", int8_ ? int8_->scaleOf(graph_, node.inputs[0]) : 1.0);
    desc.setFloat("common.output_scale_factor", int8_ ? int8_->scaleOf(graph_, node.outputs[0]) : 1.0);
    for (const bool source : {true, false}) {
        const TensorId tensor = source ? node.inputs[0] : node.outputs[0];
        const int s = surfaceIndex(tensor);
        // The tensor's channels of its surface (a slice starts at a channel group).
        FeatureLayout layout = plan_.surfaces[std::size_t(s)].layout;
        const std::uint64_t offset = plan_.channelOffsetOf(tensor) / layout.channelsPerGroup * layout.surfaceStride;
        layout.channels = unsigned(cubeOf(graph_.tensor(tensor).shape)->channels);
        layout.bytes = (layout.channels + layout.channelsPerGroup - 1) / layout.channelsPerGroup * layout.surfaceStride;
        Record buffer = source ? task.sourceBuffer(op) : task.destinationBuffer(op);
        buffer.set("addressIndex", task.addressIndex(addresses_[std::size_t(s)]));
        buffer.set("addressIndexOffset", std::int64_t(offset));
        buffer.set("size", std::int64_t(layout.bytes));
        buffer.set("format", layout.elementBytes == 2 ? kEmuFormatFp16
                             : layout.atomBytes == 8 ? kEmuFormatInt8Atom8
                                                     : kEmuFormatInt8);
        buffer.set("width", layout.width);
        buffer.set("height", layout.height);
        buffer.set("channel", layout.channels);
        buffer.set("line_stride", std::int64_t(layout.lineStride));
        buffer.set("surf_stride", std::int64_t(layout.surfaceStride));
    }
    record.operations = {fmt::format("EMU SOFTMAX {}", op)};
}

}  // namespace emission

Loadable emitLoadable(const Graph& legalized, const SurfacePlan& plan, const target::NvdlaConfig& config,
                      const Int8Quantization* int8, std::vector<EmittedNode>& emitted)
{
    return emission::Emitter(legalized, plan, config, int8, emitted).run();
}

}  // namespace tessera::nvdla
