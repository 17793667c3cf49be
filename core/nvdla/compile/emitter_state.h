// The emitter's state and its per-operation emission, shared by the files that emit each kind of
// operation (loadable_emitter.cpp: memories, SDP, PDP, EMU; convolution_emission.cpp: CONV).
// Internal to the NVDLA compiler.
#pragma once

#include "base/error.h"
#include "nvdla/compile/activation_luts.h"
#include "nvdla/compile/int8_quantization.h"
#include "nvdla/compile/legalization_passes.h"
#include "nvdla/compile/loadable_emitter.h"
#include "nvdla/loadable_builder.h"
#include "nvdla/weight_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace tessera::nvdla {

namespace emission {

using target::NvdlaConfig;

// Descriptor values (dla_interface.h).
constexpr int kFormatFeature = 36;
constexpr int kSdpAluMax = 0, kSdpAluMin = 1, kSdpAluSum = 2;
constexpr int kSdpOpNone = 0, kSdpOpMul = 1, kSdpOpAdd = 2, kSdpOpBoth = 3;
constexpr int kSdpPerLayer = 0, kSdpPerKernel = 1, kSdpPerPoint = 2;
constexpr int kActNone = 0, kActRelu = 1, kActLut = 2, kActPrelu = 3;
constexpr int kPoolAverage = 0, kPoolMax = 1;

// FP16 values as the DLA reads them: little-endian halves.
inline void putHalf(std::vector<std::uint8_t>& bytes, std::uint64_t at, float value)
{
    const std::uint16_t bits = floatToHalf(value);
    bytes[at] = std::uint8_t(bits);
    bytes[at + 1] = std::uint8_t(bits >> 8);
}

inline std::vector<std::uint8_t> halves(const std::vector<double>& values)
{
    std::vector<std::uint8_t> bytes(values.size() * 2);
    for (std::size_t i = 0; i < values.size(); ++i)
        putHalf(bytes, 2 * i, float(values[i]));
    return bytes;
}

class Emitter {
public:
    // `int8`: the quantization of an INT8 loadable; null for FP16.
    Emitter(const Graph& graph, const SurfacePlan& plan, const NvdlaConfig& config, const Int8Quantization* int8,
            std::vector<EmittedNode>& emitted)
        : graph_(graph), plan_(plan), config_(config), int8_(int8), emitted_(emitted)
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
            else if (node.opType == "PRelu" || node.opType == "LeakyRelu")
                emitPrelu(node, record);
            else if (node.opType == "Add" || node.opType == "Mul" || node.opType == "Sub" || node.opType == "Max" ||
                     node.opType == "Min")
                emitElementwise(node, record);
            else if (node.opType == "MaxPool" || node.opType == "AveragePool")
                emitPooling(node, record);
            else if (hasActivationLut(node.opType))
                emitLookup(node, record);
            else if (node.opType == "LRN")
                emitLocalResponse(node, record);
            else if (node.opType == "DepthToSpace")
                emitDepthToSpace(node, record);
            else if (node.opType == "Gather")
                emitChannelPermutation(node, record);
            else if (node.opType == "Concat")
                emitConcatCopy(node, record);
            else if (node.opType == "Slice" || node.opType == "Split")
                emitChannelCopy(node, record);
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
            scratch = scratchMemory_ = builder_.addMemory(plan_.scratchBytes, 4096);
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
        if (const auto found = writer_.find(s); found != writer_.end())
            for (int writer : found->second)
                if (writer != reader)
                    dla().dependsOn(reader, writer);
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
        writer_[s].push_back(writer);
        touched_.push_back({writer, s});
    }

    // The cube of `tensor`: its surface, or its channels of a surface it shares (a Concat's input).
    void setFeatureCube(Record& surface, const std::string& cube, TensorId tensor)
    {
        const int s = surfaceIndex(tensor);
        const unsigned first = plan_.channelOffsetOf(tensor);
        const unsigned channels = unsigned(cubeOf(graph_.tensor(tensor).shape)->channels);
        if (first == 0 && channels == plan_.surfaces[std::size_t(s)].layout.channels)
            setCube(surface, cube, kMemoryMc, dla().addressIndex(addresses_[std::size_t(s)]), 0,
                    plan_.surfaces[std::size_t(s)].layout);
        else
            setSlice(surface, cube, tensor, first, channels);
    }

    // Operation `op` of the current task reads node's first input and writes its output (the
    // source and destination cubes, and the dependencies on the operations around it).
    void connectSourceAndDestination(Record& surface, int op, const Node& node)
    {
        setFeatureCube(surface, "src_data", node.inputs[0]);
        setFeatureCube(surface, "dst_data", node.outputs[0]);
        reads(op, surfaceIndex(node.inputs[0]), op);
        writes(op, surfaceIndex(node.outputs[0]));
    }

    // Channels [firstChannel, +channels) and rows [firstRow, +rows) of a surface as a cube of their
    // own (rows 0: all): `firstChannel` is a multiple of the channels per atom, so the slice starts at a
    // channel group's surface; the cube's offset says where.
    void setSlice(Record& surface, const std::string& cube, TensorId tensor, unsigned firstChannel, unsigned channels,
                  unsigned firstRow = 0, unsigned rows = 0)
    {
        const int s = surfaceIndex(tensor);
        const FeatureLayout& whole = plan_.surfaces[std::size_t(s)].layout;
        FeatureLayout slice = whole;
        slice.channels = channels;
        slice.height = rows == 0 ? whole.height : rows;
        const std::uint64_t groups = (channels + whole.channelsPerGroup - 1) / whole.channelsPerGroup;
        slice.bytes = (groups - 1) * whole.surfaceStride + slice.height * whole.lineStride;
        setCube(surface, cube, kMemoryMc, dla().addressIndex(addresses_[std::size_t(s)]),
                std::uint32_t((firstChannel / whole.channelsPerGroup) * whole.surfaceStride + firstRow * whole.lineStride),
                slice);
    }

    // Feature data: INT8 or FP16 throughout.
    int dataPrecision() const { return int8_ ? kPrecisionInt8 : kPrecisionFp16; }

    void setPrecision(Record& sdp) const
    {
        sdp.set("src_precision", dataPrecision());
        sdp.set("dst_precision", dataPrecision());
        sdp.set("out_cvt.scale", 1);
        sdp.set("batch_num", 1);
    }

    // A stage's operands read per channel (`bytes` in all for `channels`, in channel order) from
    // `address`: one channel group of them spans a line.
    void setPerChannelOperands(Record& surface, const std::string& cube, std::uint16_t address, std::size_t bytes,
                               unsigned channels)
    {
        const std::uint64_t line = std::uint64_t(config_.memoryAtomicBytes / (int8_ ? 1 : 2)) * (bytes / channels);
        surface.set(cube + ".type", kMemoryMc);
        surface.set(cube + ".address", dla().addressIndex(address));
        surface.set(cube + ".size", std::int64_t(bytes));
        surface.set(cube + ".width", 1);
        surface.set(cube + ".height", 1);
        surface.set(cube + ".channel", channels);
        surface.set(cube + ".line_stride", std::int64_t(line));
        surface.set(cube + ".surf_stride", std::int64_t(line));
    }

    // Constant operands per channel, each `perChannel` 16-bit values (FP16 bits or int16), written
    // little-endian into a memory of their own and read by `cube`.
    void setPerChannelConstants(Record& surface, const std::string& cube, const std::string& blobName,
                                const std::vector<std::int64_t>& values, unsigned channels)
    {
        std::vector<std::uint8_t> bytes;
        for (std::int64_t v : values) {
            bytes.push_back(std::uint8_t(std::uint16_t(v)));
            bytes.push_back(std::uint8_t(std::uint16_t(v) >> 8));
        }
        const std::size_t size = bytes.size();
        const std::uint16_t memory = builder_.addConstantMemory(blobName, std::move(bytes), 256);
        setPerChannelOperands(surface, cube, builder_.addAddress(memory, 0, size), size, channels);
    }

    // A real value as a register operand of an SDP stage: an FP16 value, or in INT8 the int16
    // count of `scale`, the scale of the data at that stage.
    std::int64_t operandFor(float value, double scale) const
    {
        return int8_ ? std::int64_t(int16Units(value, scale)) : std::int64_t(floatToHalf(value));
    }

    // The scale of `tensor` in INT8 (1 in FP16, where operandFor ignores it).
    double scaleOf(TensorId tensor) const { return int8_ ? int8_->scaleOf(graph_, tensor) : 1.0; }

    // A fused ReLU or Clip (fuse-activation) in the SDP stages after x1: ReLU as x1's activation; a
    // Clip from 0 as that ReLU and a minimum in x2, other Clips as a maximum in x2 and a minimum in y.
    void applyFusedActivation(Record& sdp, const Node& node)
    {
        const double unitsOf = int8_ && node.hasAttr(kFusedActivation) ? int8_->stageScale(graph_, node) : 1.0;
        const std::string activation = node.attrString(kFusedActivation, "");
        if (activation == "Relu") {
            sdp.set("x1_op.act", kActRelu);
        } else if (activation == "Clip") {
            const float low = node.attrFloat(kClipMin, 0.0f), high = node.attrFloat(kClipMax, 0.0f);
            if (low == 0.0f) {
                sdp.set("x1_op.act", kActRelu);
                setLayerOperand(sdp, "x2_op", kSdpAluMin, operandFor(high, unitsOf));
            } else {
                setLayerOperand(sdp, "x2_op", kSdpAluMax, operandFor(low, unitsOf));
                setLayerOperand(sdp, "y_op", kSdpAluMin, operandFor(high, unitsOf));
            }
        }
    }

    // Stage `stage` compares (kSdpAluMax / kSdpAluMin) or adds (kSdpAluSum) one value to every
    // element (`operand` from operandFor).
    void setLayerOperand(Record& sdp, const std::string& stage, int alu, std::int64_t operand) const
    {
        sdp.set(stage + ".enable", 1);
        sdp.set(stage + ".alu_type", alu);
        sdp.set(stage + ".type", kSdpOpAdd);
        sdp.set(stage + ".mode", kSdpPerLayer);
        sdp.set(stage + ".precision", int8_ ? kPrecisionInt16 : kPrecisionFp16);
        sdp.set(stage + ".alu_operand", operand);
        sdp.set(stage + ".mul_operand", 1);
    }

    // One convolution over input channels [inFirst, inFirst + inCount) into output channels
    // [outFirst, outFirst + outCount): the whole layer, or one part of a grouped one.
    struct ConvolutionPart {
        unsigned inFirst = 0, inCount = 0, outFirst = 0, outCount = 0;
        std::function<float(unsigned k, unsigned c, unsigned r, unsigned s)> weight;  // part-local indices
        std::vector<std::uint8_t> sdpOperands;  // x1_data: FP16 bias, or INT8 {bias, scale} int16 pairs
        std::string name;
    };
    void emitConvolution(const Node& node, EmittedNode& record);
    void emitConvolutionPart(const Node& node, const ConvolutionPart& part, EmittedNode& record);
    // Output rows [outputFirst, +outputRows) from input rows [inputFirst, +inputRows), with the
    // padding rows that band sees and its CBUF allocation.
    struct ConvolutionBand {
        unsigned outputFirst = 0, outputRows = 0, inputFirst = 0, inputRows = 0, padTop = 0, padBottom = 0;
        std::uint64_t entriesPerSlice = 0, dataBanks = 0, weightBanks = 0;
    };
    void emitConvolutionBand(const Node& node, const ConvolutionPart& part, const WeightLayout& layout,
                             std::uint16_t weightAddress, std::uint16_t biasAddress, std::size_t biasBytes,
                             const ConvolutionBand& band, EmittedNode& record);
    void emitActivation(const Node& node, EmittedNode& record);
    void emitElementwise(const Node& node, EmittedNode& record);
    void emitPooling(const Node& node, EmittedNode& record);
    void emitLookup(const Node& node, EmittedNode& record);
    void emitPrelu(const Node& node, EmittedNode& record);
    void emitLocalResponse(const Node& node, EmittedNode& record);
    void emitSoftmax(const Node& node, EmittedNode& record);
    void emitDepthToSpace(const Node& node, EmittedNode& record);
    void emitChannelPermutation(const Node& node, EmittedNode& record);
    void emitConcatCopy(const Node& node, EmittedNode& record);
    void emitChannelCopy(const Node& node, EmittedNode& record);
    // A RUBIK operation of `mode` (kRubikSplit, ...) on the data's precision, strides 1.
    int addRubik(std::int64_t mode);
    // Planes [first, first + count) of the planar surface `s` as the cube `cube`.
    void setPlanes(Record& surface, const std::string& cube, int s, unsigned first, unsigned count)
    {
        FeatureLayout planes = plan_.surfaces[std::size_t(s)].layout;
        planes.channels = count;
        planes.bytes = planes.surfaceStride * count;
        setCube(surface, cube, kMemoryMc, dla().addressIndex(addresses_[std::size_t(s)]),
                std::uint32_t(first * planes.surfaceStride), planes);
    }

    const Graph& graph_;
    const SurfacePlan& plan_;
    const NvdlaConfig& config_;
    const Int8Quantization* int8_;
    std::vector<EmittedNode>& emitted_;
    LoadableBuilder builder_;
    std::vector<std::uint16_t> addresses_;  // per surface
    std::uint16_t scratchMemory_ = 0;        // the memory of every scratch surface
    DlaTaskBuilder* dla_ = nullptr;
    EmuTaskBuilder* emu_ = nullptr;
    int taskIndex_ = -1;
    std::map<int, std::vector<int>> writer_;      // surface -> operations of the current DLA task writing it
    std::vector<std::pair<int, int>> touched_;    // (operation, surface) read or written in the current task
};

}  // namespace emission

}  // namespace tessera::nvdla
