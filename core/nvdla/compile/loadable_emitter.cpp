#include "nvdla/compile/loadable_emitter.h"

#include "base/error.h"
#include "nvdla/compile/legalization_passes.h"
#include "nvdla/loadable_builder.h"
#include "nvdla/weight_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace tessera::nvdla {

namespace {

using target::NvdlaConfig;

// Descriptor values (dla_interface.h).
constexpr int kFormatFeature = 36;
constexpr int kSdpAluMax = 0, kSdpAluMin = 1, kSdpAluSum = 2;
constexpr int kSdpOpNone = 0, kSdpOpMul = 1, kSdpOpAdd = 2;
constexpr int kSdpPerLayer = 0, kSdpPerKernel = 1, kSdpPerPoint = 2;
constexpr int kActNone = 0, kActRelu = 1;
constexpr int kPoolAverage = 0, kPoolMax = 1;

std::vector<std::uint8_t> halves(const std::vector<double>& values)
{
    std::vector<std::uint8_t> bytes(values.size() * 2);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::uint16_t bits = floatToHalf(float(values[i]));
        bytes[2 * i] = std::uint8_t(bits);
        bytes[2 * i + 1] = std::uint8_t(bits >> 8);
    }
    return bytes;
}

class Emitter {
public:
    Emitter(const Graph& graph, const SurfacePlan& plan, const NvdlaConfig& config, std::vector<EmittedNode>& emitted)
        : graph_(graph), plan_(plan), config_(config), emitted_(emitted)
    {
    }

    Loadable run()
    {
        bindAndPlaceSurfaces();
        for (NodeId id : plan_.operations) {
            const Node& node = graph_.node(id);
            EmittedNode record;
            record.node = node.name;
            if (node.opType == "Softmax")
                emitSoftmax(node, record);
            else if (node.opType == "Conv")
                emitConvolution(node, record);
            else if (node.opType == "Relu" || node.opType == "Clip")
                emitActivation(node, record);
            else if (node.opType == "Add" || node.opType == "Mul" || node.opType == "Sub" || node.opType == "Max" ||
                     node.opType == "Min")
                emitElementwise(node, record);
            else if (node.opType == "MaxPool" || node.opType == "AveragePool")
                emitPooling(node, record);
            else
                throw UnsupportedError(fmt::format("{}: emitting {} for NVDLA is not built yet", node.describe(), node.opType));
            record.task = taskIndex_;
            emitted_.push_back(std::move(record));
        }
        return builder_.finish();
    }

private:
    // Memories and addresses: a bound memory per network input and output, one scratch memory.
    void bindAndPlaceSurfaces()
    {
        std::optional<std::uint16_t> scratch;
        if (plan_.scratchBytes > 0)
            scratch = builder_.addMemory(plan_.scratchBytes, 4096);
        for (const Surface& surface : plan_.surfaces) {
            std::uint16_t memory;
            if (surface.place == Surface::Place::Scratch) {
                memory = *scratch;
            } else {
                TensorDesc tensor;
                tensor.name = surface.name;
                tensor.size = surface.layout.bytes;
                tensor.dataFormat = kDataFormatNcxhwx;
                tensor.dataType = surface.layout.elementBytes == 1 ? kDataTypeInt8 : kDataTypeHalf;
                tensor.dataCategory = kDataCategoryFeature;
                tensor.pixelFormat = config_.memoryAtomicBytes == 8 ? kPixelFormatFeature + 1 : kPixelFormatFeature;
                tensor.n = 1;
                tensor.c = std::int32_t(surface.layout.channels);
                tensor.h = std::int32_t(surface.layout.height);
                tensor.w = std::int32_t(surface.layout.width);
                tensor.strides[0] = surface.layout.elementBytes;
                tensor.strides[1] = std::uint32_t(surface.layout.lineStride);
                tensor.strides[2] = std::uint32_t(surface.layout.surfaceStride);
                memory = builder_.addBoundMemory(surface.place == Surface::Place::Input, tensor, 4096);
            }
            addresses_.push_back(builder_.addAddress(memory, surface.place == Surface::Place::Scratch ? surface.offset : 0,
                                                     surface.layout.bytes));
        }
    }

    int surfaceIndex(TensorId tensor) const { return plan_.surfaceOf.at(tensor); }
    const Surface& surface(TensorId tensor) const { return plan_.of(tensor); }

    DlaTaskBuilder& dla()
    {
        if (!dla_) {
            dla_ = &builder_.addDlaTask();
            emu_ = nullptr;
            ++taskIndex_;
            writer_.clear();
            touched_.clear();
        }
        return *dla_;
    }

    EmuTaskBuilder& emu()
    {
        if (!emu_) {
            emu_ = &builder_.addEmuTask();
            dla_ = nullptr;
            ++taskIndex_;
        }
        return *emu_;
    }

    bool overlap(int a, int b) const
    {
        const Surface& x = plan_.surfaces[std::size_t(a)];
        const Surface& y = plan_.surfaces[std::size_t(b)];
        if (a == b)
            return true;
        if (x.place != Surface::Place::Scratch || y.place != Surface::Place::Scratch)
            return false;
        return x.offset < y.offset + y.layout.bytes && y.offset < x.offset + x.layout.bytes;
    }

    // The operation `reader` reads surface `s`: it waits for the operation of this task that wrote it.
    // Later writers of those bytes wait for `doneAfter` (the reader itself, or for a convolution the
    // SDP it feeds, which completes after it and is the one operation a later SDP may wait for).
    void reads(int reader, int s, int doneAfter)
    {
        if (const auto found = writer_.find(s); found != writer_.end() && found->second != reader)
            dla().dependsOn(reader, found->second);
        touched_.push_back({doneAfter, s});
    }

    // The operation `writer` writes surface `s`: it waits for every earlier operation of this task
    // that used bytes it overwrites (the plan reuses bytes of surfaces no longer live).
    void writes(int writer, int s)
    {
        std::vector<int> earlier;
        for (const auto& [op, used] : touched_)
            if (op < writer && overlap(used, s))
                earlier.push_back(op);
        std::sort(earlier.begin(), earlier.end());
        earlier.erase(std::unique(earlier.begin(), earlier.end()), earlier.end());
        for (int op : earlier)
            dla().dependsOn(writer, op);
        writer_[s] = writer;
        touched_.push_back({writer, s});
    }

    void setFeatureCube(Record& surface, const std::string& cube, TensorId tensor)
    {
        const int s = surfaceIndex(tensor);
        setCube(surface, cube, kMemoryMc, dla().addressIndex(addresses_[std::size_t(s)]), 0,
                plan_.surfaces[std::size_t(s)].layout);
    }

    static void setPrecisionFp16(Record& sdp)
    {
        sdp.set("src_precision", kPrecisionFp16);
        sdp.set("dst_precision", kPrecisionFp16);
        sdp.set("out_cvt.scale", 1);
        sdp.set("batch_num", 1);
    }

    // A fused ReLU or Clip (fuse-activation) in the SDP stages after x1: ReLU as x1's activation; a
    // Clip from 0 as that ReLU and a minimum in x2, other Clips as a maximum in x2 and a minimum in y.
    void applyFusedActivation(Record& sdp, const Node& node)
    {
        const std::string activation = node.attrString(kFusedActivation, "");
        if (activation == "Relu") {
            sdp.set("x1_op.act", kActRelu);
        } else if (activation == "Clip") {
            const float low = node.attrFloat(kClipMin, 0.0f), high = node.attrFloat(kClipMax, 0.0f);
            if (low == 0.0f) {
                sdp.set("x1_op.act", kActRelu);
                setLayerOperand(sdp, "x2_op", kSdpAluMin, high);
            } else {
                setLayerOperand(sdp, "x2_op", kSdpAluMax, low);
                setLayerOperand(sdp, "y_op", kSdpAluMin, high);
            }
        }
    }

    // Stage `stage` compares (kSdpAluMax / kSdpAluMin) or adds (kSdpAluSum) one value to every element.
    static void setLayerOperand(Record& sdp, const std::string& stage, int alu, float value)
    {
        sdp.set(stage + ".enable", 1);
        sdp.set(stage + ".alu_type", alu);
        sdp.set(stage + ".type", kSdpOpAdd);
        sdp.set(stage + ".mode", kSdpPerLayer);
        sdp.set(stage + ".precision", kPrecisionFp16);
        sdp.set(stage + ".alu_operand", floatToHalf(value));
        sdp.set(stage + ".mul_operand", 1);
    }

    void emitConvolution(const Node& node, EmittedNode& record);
    void emitActivation(const Node& node, EmittedNode& record);
    void emitElementwise(const Node& node, EmittedNode& record);
    void emitPooling(const Node& node, EmittedNode& record);
    void emitSoftmax(const Node& node, EmittedNode& record);

    const Graph& graph_;
    const SurfacePlan& plan_;
    const NvdlaConfig& config_;
    std::vector<EmittedNode>& emitted_;
    LoadableBuilder builder_;
    std::vector<std::uint16_t> addresses_;  // per surface
    DlaTaskBuilder* dla_ = nullptr;
    EmuTaskBuilder* emu_ = nullptr;
    int taskIndex_ = -1;
    std::map<int, int> writer_;                   // surface -> operation of the current DLA task writing it
    std::vector<std::pair<int, int>> touched_;    // (operation, surface) read or written in the current task
};

void Emitter::emitConvolution(const Node& node, EmittedNode& record)
{
    const Tensor& weights = graph_.tensor(node.inputs.at(1));
    const Shape& w = weights.shape;  // K, C, R, S
    const unsigned kernels = unsigned(w[0]), channels = unsigned(w[1]), rows = unsigned(w[2]), columns = unsigned(w[3]);
    const FeatureLayout& in = surface(node.inputs[0]).layout;
    const FeatureLayout& out = surface(node.outputs[0]).layout;
    const auto strides = node.attrInts("strides", {1, 1});
    const auto pads = node.attrInts("pads", {0, 0, 0, 0});
    const unsigned elementBytes = in.elementBytes;

    // Weights in the direct-convolution layout, bias as dense FP16 values.
    const WeightLayout layout = directWeightLayout(kernels, channels, rows, columns, elementBytes, config_.atomicK,
                                                   config_.atomicC, config_.cbufEntryBytes);
    std::vector<std::uint8_t> packed(layout.bytes, 0);
    const std::vector<double> values = weights.constant->toDoubles();
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned r = 0; r < rows; ++r)
                for (unsigned s = 0; s < columns; ++s) {
                    const std::uint16_t bits =
                        floatToHalf(float(values[((std::size_t(k) * channels + c) * rows + r) * columns + s]));
                    const std::uint64_t at = layout.offsetOf(k, c, r, s);
                    packed[at] = std::uint8_t(bits);
                    packed[at + 1] = std::uint8_t(bits >> 8);
                }
    std::vector<double> bias(kernels, 0.0);
    if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor)
        bias = graph_.tensor(node.inputs[2]).constant->toDoubles();
    const std::uint16_t weightMemory = builder_.addConstantMemory(node.name + "-weights", std::move(packed), 256);
    const std::uint16_t weightAddress = builder_.addAddress(weightMemory, 0, layout.bytes);
    const std::vector<std::uint8_t> biasBytes = halves(bias);
    const std::uint16_t biasMemory = builder_.addConstantMemory(node.name + "-bias", biasBytes, 256);
    const std::uint16_t biasAddress = builder_.addAddress(biasMemory, 0, biasBytes.size());

    // The convolution buffer: input lines (entries per slice x rows) and weights in banks.
    const unsigned atomsPerEntry = config_.cbufEntryBytes / config_.memoryAtomicBytes;
    const std::uint64_t channelAtoms = (std::uint64_t(channels) * elementBytes + config_.memoryAtomicBytes - 1) / config_.memoryAtomicBytes;
    const std::uint64_t lastAtoms = channelAtoms % atomsPerEntry;
    const std::uint64_t entriesPerSlice = (channelAtoms / atomsPerEntry) * in.width +
                                          (lastAtoms == 3 ? in.width : (lastAtoms * in.width + atomsPerEntry - 1) / atomsPerEntry);
    const std::uint64_t dataBanks = (entriesPerSlice * in.height + config_.cbufEntriesPerBank - 1) / config_.cbufEntriesPerBank;
    auto weightBanks = [&](std::uint64_t kernelCount) {
        const std::uint64_t bytes = (layout.bytesPerKernel * kernelCount + config_.cbufEntryBytes - 1) / config_.cbufEntryBytes;
        return (bytes + config_.cbufEntriesPerBank - 1) / config_.cbufEntriesPerBank;
    };
    const std::uint64_t allWeights = weightBanks(kernels);
    const std::uint64_t groupWeights = weightBanks(std::min(kernels, layout.kernelsPerGroup));
    std::uint64_t weightBankCount = 0;
    if (allWeights + dataBanks <= config_.cbufBanks)
        weightBankCount = allWeights;
    else if (2 * groupWeights + dataBanks <= config_.cbufBanks)
        weightBankCount = 2 * groupWeights;
    else if (groupWeights + dataBanks <= config_.cbufBanks)
        weightBankCount = groupWeights;
    else
        throw UnsupportedError(fmt::format("{}: the input needs {} CBUF banks and a kernel group {}, more than the {} "
                                           "banks of {}; splitting a convolution over its input rows is not built yet",
                                           node.describe(), dataBanks, groupWeights, config_.cbufBanks, config_.name));

    DlaTaskBuilder& task = dla();
    const int conv = task.addOperation(DlaOp::Conv);
    Record op = task.opDesc(conv);
    op.set("conv_mode", 0);
    op.set("entry_per_slice", std::int64_t(entriesPerSlice));
    op.set("data_format", kFormatFeature);
    op.set("fetch_grain", 1);
    op.set("batch", 1);
    op.set("data_bank", std::int64_t(dataBanks));
    op.set("weight_bank", std::int64_t(weightBankCount));
    op.set("pixel_override", 1);
    op.set("release", in.height);
    op.set("input_width_csc", in.width);
    op.set("input_height_csc", in.height);
    op.set("input_channel_csc", in.channels);
    op.set("kernel_width_csc", columns);
    op.set("kernel_height_csc", rows);
    op.set("kernel_channel_csc", channels);
    op.set("input_width_cmac", out.width);
    op.set("input_height_cmac", out.height);
    op.set("bytes_per_kernel", std::int64_t(layout.bytesPerKernel));
    op.set("conv_stride_x", strides[1]);
    op.set("conv_stride_y", strides[0]);
    op.set("pad_x_left", pads[1]);
    op.set("pad_y_top", pads[0]);
    op.set("pad_x_right", pads[3]);
    op.set("pad_y_bottom", pads[2]);
    op.set("dilation_x", 1);
    op.set("dilation_y", 1);
    op.set("in_precision", kPrecisionFp16);
    op.set("out_precision", kPrecisionFp16);
    op.set("in_cvt.scale", 1);
    op.set("out_cvt.scale", 1);
    op.set("out_cvt.enable", 1);
    Record convSurface = task.surfaceDesc(conv);
    setFeatureCube(convSurface, "src_data", node.inputs[0]);
    convSurface.set("weight_data.type", kMemoryMc);
    convSurface.set("weight_data.address", task.addressIndex(weightAddress));
    convSurface.set("weight_data.size", std::int64_t(layout.bytes));
    convSurface.set("weight_data.width", columns);
    convSurface.set("weight_data.height", rows);
    convSurface.set("weight_data.channel", channels);
    setCube(convSurface, "dst_data", kMemoryHw, -1, 0, out);

    // The SDP takes the convolution's output on the fly: bias per kernel, then the fused ReLU.
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record sdpOp = task.opDesc(sdp);
    setPrecisionFp16(sdpOp);
    sdpOp.set("x1_op.enable", 1);
    sdpOp.set("x1_op.alu_type", kSdpAluSum);
    sdpOp.set("x1_op.type", kSdpOpAdd);
    sdpOp.set("x1_op.mode", kSdpPerKernel);
    sdpOp.set("x1_op.act", kActNone);
    sdpOp.set("x1_op.precision", kPrecisionFp16);
    sdpOp.set("x1_op.mul_operand", 1);
    applyFusedActivation(sdpOp, node);
    Record sdpSurface = task.surfaceDesc(sdp);
    setCube(sdpSurface, "src_data", kMemoryHw, -1, 0, out);
    const FeatureLayout biasCube = featureLayout(1, 1, kernels, elementBytes, config_.memoryAtomicBytes);
    sdpSurface.set("x1_data.type", kMemoryMc);
    sdpSurface.set("x1_data.address", task.addressIndex(biasAddress));
    sdpSurface.set("x1_data.size", std::int64_t(biasBytes.size()));
    sdpSurface.set("x1_data.width", 1);
    sdpSurface.set("x1_data.height", 1);
    sdpSurface.set("x1_data.channel", kernels);
    sdpSurface.set("x1_data.line_stride", std::int64_t(biasCube.lineStride));
    sdpSurface.set("x1_data.surf_stride", std::int64_t(biasCube.lineStride));
    setFeatureCube(sdpSurface, "dst_data", node.outputs[0]);
    task.fuse(sdp, conv);
    reads(conv, surfaceIndex(node.inputs[0]), sdp);
    writes(sdp, surfaceIndex(node.outputs[0]));
    record.operations = {fmt::format("CONV {}", conv), fmt::format("SDP {}", sdp)};
    record.note = fmt::format("weights {} B, CBUF banks: data {}, weights {}", layout.bytes, dataBanks, weightBankCount);
}

void Emitter::emitActivation(const Node& node, EmittedNode& record)
{
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecisionFp16(op);
    if (node.opType == "Relu") {
        // As NVIDIA's compiler writes a ReLU of its own: x1 passes the data through its ReLU.
        op.set("x1_op.enable", 1);
        op.set("x1_op.alu_type", kSdpAluSum);
        op.set("x1_op.type", kSdpOpNone);
        op.set("x1_op.mode", kSdpPerLayer);
        op.set("x1_op.act", kActRelu);
        op.set("x1_op.precision", kPrecisionFp16);
        op.set("x1_op.mul_operand", 1);
    } else {
        const auto bounds = clipBounds(graph_, node);
        setLayerOperand(op, "x1_op", kSdpAluMax, bounds->first);
        setLayerOperand(op, "x2_op", kSdpAluMin, bounds->second);
    }
    Record surfaceDesc = task.surfaceDesc(sdp);
    setFeatureCube(surfaceDesc, "src_data", node.inputs[0]);
    setFeatureCube(surfaceDesc, "dst_data", node.outputs[0]);
    reads(sdp, surfaceIndex(node.inputs[0]), sdp);
    writes(sdp, surfaceIndex(node.outputs[0]));
    record.operations = {fmt::format("SDP {}", sdp)};
}

// Add, Sub, Mul, Max and Min: the x1 stage with the second operand read per point (a tensor, as
// NVIDIA's compiler does element-wise layers), per kernel (a constant per channel) or per layer (a
// scalar constant in the descriptor).
void Emitter::emitElementwise(const Node& node, EmittedNode& record)
{
    const std::string& type = node.opType;
    TensorId source = node.inputs[0], operand = node.inputs[1];
    if (graph_.tensor(source).isConstant())
        std::swap(source, operand);  // commutative (the mapping refused a constant minuend)
    DlaTaskBuilder& task = dla();
    const int sdp = task.addOperation(DlaOp::Sdp);
    Record op = task.opDesc(sdp);
    setPrecisionFp16(op);
    op.set("x1_op.enable", 1);
    op.set("x1_op.alu_type", type == "Max" ? kSdpAluMax : type == "Min" ? kSdpAluMin : kSdpAluSum);
    op.set("x1_op.type", type == "Mul" ? kSdpOpMul : kSdpOpAdd);
    op.set("x1_op.act", kActNone);
    op.set("x1_op.precision", kPrecisionFp16);
    op.set("x1_op.mul_operand", 1);
    Record surfaceDesc = task.surfaceDesc(sdp);
    setFeatureCube(surfaceDesc, "src_data", source);
    const Tensor& constant = graph_.tensor(operand);
    if (!constant.isConstant()) {
        op.set("x1_op.mode", kSdpPerPoint);
        setFeatureCube(surfaceDesc, "x1_data", operand);
        reads(sdp, surfaceIndex(operand), sdp);
    } else {
        std::vector<double> values = constant.constant->toDoubles();
        if (type == "Sub")
            for (double& value : values)
                value = -value;
        if (values.size() == 1) {
            op.set("x1_op.mode", kSdpPerLayer);
            op.set(type == "Mul" ? "x1_op.mul_operand" : "x1_op.alu_operand", floatToHalf(float(values[0])));
        } else {
            op.set("x1_op.mode", kSdpPerKernel);
            const std::vector<std::uint8_t> bytes = halves(values);
            const std::uint16_t memory = builder_.addConstantMemory(node.name + "-operand", bytes, 256);
            const std::uint16_t address = builder_.addAddress(memory, 0, bytes.size());
            const FeatureLayout cube = featureLayout(1, 1, unsigned(values.size()), 2, config_.memoryAtomicBytes);
            surfaceDesc.set("x1_data.type", kMemoryMc);
            surfaceDesc.set("x1_data.address", task.addressIndex(address));
            surfaceDesc.set("x1_data.size", std::int64_t(bytes.size()));
            surfaceDesc.set("x1_data.width", 1);
            surfaceDesc.set("x1_data.height", 1);
            surfaceDesc.set("x1_data.channel", std::int64_t(values.size()));
            surfaceDesc.set("x1_data.line_stride", std::int64_t(cube.lineStride));
            surfaceDesc.set("x1_data.surf_stride", std::int64_t(cube.lineStride));
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
    DlaTaskBuilder& task = dla();
    const int pdp = task.addOperation(DlaOp::Pdp);
    Record op = task.opDesc(pdp);
    op.set("split_num", 1);
    op.set("pool_mode", node.opType == "MaxPool" ? kPoolMax : kPoolAverage);
    op.set("pool_width", kernel[1] - 1);
    op.set("pool_height", kernel[0] - 1);
    op.set("stride_x", strides[1]);
    op.set("stride_y", strides[0]);
    op.set("pad_left", pads[1]);
    op.set("pad_top", pads[0]);
    op.set("pad_right", std::max<std::int64_t>(padRight, 0));
    op.set("pad_bottom", std::max<std::int64_t>(padBottom, 0));
    op.set("precision", kPrecisionFp16);
    Record surfaceDesc = task.surfaceDesc(pdp);
    setFeatureCube(surfaceDesc, "src_data", node.inputs[0]);
    if (padRight < 0)
        surfaceDesc.set("src_data.width", std::int64_t(in.width) + padRight);
    if (padBottom < 0)
        surfaceDesc.set("src_data.height", std::int64_t(in.height) + padBottom);
    setFeatureCube(surfaceDesc, "dst_data", node.outputs[0]);
    reads(pdp, surfaceIndex(node.inputs[0]), pdp);
    writes(pdp, surfaceIndex(node.outputs[0]));
    record.operations = {fmt::format("PDP {}", pdp)};
}

void Emitter::emitSoftmax(const Node& node, EmittedNode& record)
{
    EmuTaskBuilder& task = emu();
    const int op = task.addOperation(kEmuOpSoftmax);
    task.opDesc(op).set("axis", 1);
    for (const bool source : {true, false}) {
        const TensorId tensor = source ? node.inputs[0] : node.outputs[0];
        const int s = surfaceIndex(tensor);
        const FeatureLayout& layout = plan_.surfaces[std::size_t(s)].layout;
        Record buffer = source ? task.sourceBuffer(op) : task.destinationBuffer(op);
        buffer.set("addressIndex", task.addressIndex(addresses_[std::size_t(s)]));
        buffer.set("addressIndexOffset", 0);
        buffer.set("size", std::int64_t(layout.bytes));
        buffer.set("format", layout.elementBytes == 1 ? kEmuFormatInt8 : kEmuFormatFp16);
        buffer.set("width", layout.width);
        buffer.set("height", layout.height);
        buffer.set("channel", layout.channels);
        buffer.set("line_stride", std::int64_t(layout.lineStride));
        buffer.set("surf_stride", std::int64_t(layout.surfaceStride));
    }
    record.operations = {fmt::format("EMU SOFTMAX {}", op)};
}

}  // namespace

Loadable emitLoadable(const Graph& legalized, const SurfacePlan& plan, const target::NvdlaConfig& config,
                      target::NvdlaPrecision precision, std::vector<EmittedNode>& emitted)
{
    if (precision != target::NvdlaPrecision::Fp16)
        throw UnsupportedError("INT8 loadables are not built yet: compile with --precision fp16 on nv_full or nv_large");
    return Emitter(legalized, plan, config, emitted).run();
}

}  // namespace tessera::nvdla
