#include "nvdla/simulator/descriptor_simulator.h"

#include "base/error.h"
#include "ir/dtype.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/weight_layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

namespace tessera::nvdla {

namespace {

// The most memory a simulation allocates in all, and the most multiply-accumulates (or window
// elements) one operation may ask for.
constexpr std::uint64_t kMaxSimulatedBytes = std::uint64_t(4) << 30;
constexpr double kMaxSimulatedMacs = 1e11;

// Values in single precision: channels x height x width.
struct Cube {
    unsigned channels = 0, height = 0, width = 0;
    std::vector<float> values;
    Cube() = default;
    Cube(unsigned c, unsigned h, unsigned w) : channels(c), height(h), width(w), values(std::size_t(c) * h * w, 0.0f) {}
    float& at(unsigned c, unsigned y, unsigned x) { return values[(std::size_t(c) * height + y) * width + x]; }
    float at(unsigned c, unsigned y, unsigned x) const { return values[(std::size_t(c) * height + y) * width + x]; }
};


// FP16 values in memory, little-endian.
float readHalf(const std::vector<std::uint8_t>& memory, std::uint64_t at)
{
    return halfToFloat(std::uint16_t(memory[at] | (memory[at + 1] << 8)));
}

void writeHalf(std::vector<std::uint8_t>& memory, std::uint64_t at, float value)
{
    const std::uint16_t bits = floatToHalf(value);
    memory[at] = std::uint8_t(bits);
    memory[at + 1] = std::uint8_t(bits >> 8);
}

class Machine {
public:
    Machine(const Loadable& loadable, const target::NvdlaConfig& config) : l_(loadable), config_(config)
    {
        std::uint64_t total = 0;
        for (const MemoryEntry& memory : l_.memories) {
            total += memory.size;
            if (memory.size > kMaxSimulatedBytes || total > kMaxSimulatedBytes)
                throw ModelError(fmt::format("memory_list[{}]: the loadable's memories ({} bytes so far) exceed the {} "
                                             "bytes the simulator allocates",
                                             memory.id, total, kMaxSimulatedBytes));
            memories_.emplace_back(std::size_t(memory.size), 0);
            if (!(memory.flags & kMemorySet))
                continue;
            for (std::size_t c = 0; c < memory.contents.size() && c < memory.offsets.size(); ++c) {
                const LoadableBlob* blob = l_.blob(memory.contents[c]);
                if (!blob || memory.offsets[c] > memory.size || blob->data.size() > memory.size - memory.offsets[c])
                    throw ModelError(fmt::format("memory_list[{}].contents[{}]: blob '{}' is missing or does not fit",
                                                 memory.id, c, memory.contents[c]));
                std::copy(blob->data.begin(), blob->data.end(), memories_.back().begin() + std::ptrdiff_t(memory.offsets[c]));
            }
        }
    }

    std::vector<std::uint8_t>& memory(std::uint16_t id) { return memories_.at(id); }

    // Memory and byte offset of a task-local address index.
    std::pair<std::vector<std::uint8_t>*, std::uint64_t> resolve(const std::vector<std::uint16_t>& addressList,
                                                                  std::int64_t index, const std::string& where)
    {
        if (index < 0 || std::size_t(index) >= addressList.size() || addressList[std::size_t(index)] >= l_.addresses.size())
            throw ModelError(fmt::format("{}: address index {} is not one of the task's addresses", where, index));
        const AddressEntry& address = l_.addresses[addressList[std::size_t(index)]];
        if (address.memId >= memories_.size())
            throw ModelError(fmt::format("{}: address {} names memory {}, which does not exist", where, address.id,
                                         address.memId));
        return {&memories_[address.memId], address.offset};
    }

    std::vector<std::string> trace;

    void runDla(const TaskEntry& task);
    void runEmu(const TaskEntry& task);

private:
    // A feature cube (dla_data_cube `cube` of `surface`) read from or written to memory, FP16.
    struct CubeAccess {
        std::vector<std::uint8_t>* memory = nullptr;
        std::uint64_t base = 0, line = 0, surface = 0;
        unsigned width = 0, height = 0, channels = 0;
        std::uint64_t offsetOf(unsigned c, unsigned y, unsigned x, unsigned perGroup, unsigned atom) const
        {
            return base + (c / perGroup) * surface + y * line + std::uint64_t(x) * atom + (c % perGroup) * 2;
        }
    };

    CubeAccess access(const DlaTaskView& view, const ConstRecord& surface, const std::string& cube, const std::string& where)
    {
        CubeAccess a;
        const auto [memory, offset] = resolve(view.addressList, surface.get(cube + ".address"), where + " " + cube);
        a.memory = memory;
        a.base = offset + std::uint64_t(view.interface->dataCube.find("offset") ? surface.get(cube + ".offset") : 0);
        a.line = std::uint64_t(surface.get(cube + ".line_stride"));
        a.surface = std::uint64_t(surface.get(cube + ".surf_stride"));
        a.width = unsigned(surface.get(cube + ".width"));
        a.height = unsigned(surface.get(cube + ".height"));
        a.channels = unsigned(surface.get(cube + ".channel"));
        // The last channel at the last position ends the cube (a partial last group need not fill
        // its atoms: a per-channel operand cube is dense).
        const std::uint64_t last = a.channels == 0 || a.height == 0 || a.width == 0
                                       ? a.base
                                       : a.offsetOf(a.channels - 1, a.height - 1, a.width - 1, perGroup(), atom()) + 2;
        if (last > memory->size())
            throw ModelError(fmt::format("{} {}: a {}x{}x{} cube at byte {} passes the end of its memory ({} bytes)",
                                         where, cube, a.width, a.height, a.channels, a.base, memory->size()));
        return a;
    }

    unsigned atom() const { return config_.memoryAtomicBytes; }
    unsigned perGroup() const { return config_.memoryAtomicBytes / 2; }  // FP16 channels per atom


    Cube load(const CubeAccess& a) const
    {
        Cube cube(a.channels, a.height, a.width);
        for (unsigned c = 0; c < a.channels; ++c)
            for (unsigned y = 0; y < a.height; ++y)
                for (unsigned x = 0; x < a.width; ++x)
                    cube.at(c, y, x) = readHalf(*a.memory, a.offsetOf(c, y, x, perGroup(), atom()));
        return cube;
    }
    void store(const CubeAccess& a, const Cube& cube) const
    {
        for (unsigned c = 0; c < a.channels; ++c)
            for (unsigned y = 0; y < a.height; ++y)
                for (unsigned x = 0; x < a.width; ++x)
                    writeHalf(*a.memory, a.offsetOf(c, y, x, perGroup(), atom()), cube.at(c, y, x));
    }

    Cube convolution(const DlaTaskView& view, std::size_t i, const std::string& where);
    void sdp(const DlaTaskView& view, std::size_t i, std::optional<Cube> onTheFly, const std::string& where);
    void pdp(const DlaTaskView& view, std::size_t i, const std::string& where);

    const Loadable& l_;
    const target::NvdlaConfig& config_;
    std::vector<std::vector<std::uint8_t>> memories_;
};

Cube Machine::convolution(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("in_precision") != kPrecisionFp16 || op.get("out_precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 convolutions are simulated");
    if (op.get("conv_mode") != 0 || op.get("weight_format") != 0)
        throw ModelError(where + ": only direct convolution with uncompressed weights is simulated");
    const CubeAccess src = access(view, surface, "src_data", where);
    const Cube input = load(src);
    const unsigned kernels = unsigned(surface.get("dst_data.channel"));
    const unsigned channels = unsigned(op.get("kernel_channel_csc")), rows = unsigned(op.get("kernel_height_csc")),
                   columns = unsigned(op.get("kernel_width_csc"));
    if (channels != input.channels)
        throw ModelError(fmt::format("{}: kernel_channel_csc {} differs from the source's {} channels", where, channels,
                                     input.channels));
    const WeightLayout layout = directWeightLayout(kernels, channels, rows, columns, 2, config_.atomicK, config_.atomicC,
                                                   config_.cbufEntryBytes);
    const auto [weightMemory, weightBase] = resolve(view.addressList, surface.get("weight_data.address"), where + " weight_data");
    if (weightBase + layout.bytes > weightMemory->size())
        throw ModelError(fmt::format("{} weight_data: {} bytes of weights pass the end of their memory", where, layout.bytes));
    const unsigned outW = unsigned(op.get("input_width_cmac")), outH = unsigned(op.get("input_height_cmac"));
    const int strideX = int(op.get("conv_stride_x")), strideY = int(op.get("conv_stride_y"));
    const int padLeft = int(op.get("pad_x_left")), padTop = int(op.get("pad_y_top"));
    const int dilationX = std::max<int>(1, int(op.get("dilation_x"))), dilationY = std::max<int>(1, int(op.get("dilation_y")));
    std::vector<float> weights(std::size_t(kernels) * channels * rows * columns);
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned r = 0; r < rows; ++r)
                for (unsigned s = 0; s < columns; ++s)
                    weights[((std::size_t(k) * channels + c) * rows + r) * columns + s] =
                        readHalf(*weightMemory, weightBase + layout.offsetOf(k, c, r, s));
    // A corrupt descriptor can ask for years of work within a few megabytes; refuse it.
    const double macs = double(kernels) * outH * outW * channels * rows * columns;
    if (macs > kMaxSimulatedMacs)
        throw ModelError(fmt::format("{}: {:.3g} multiply-accumulates is more than the simulator runs for one "
                                     "operation ({:.3g})",
                                     where, macs, kMaxSimulatedMacs));
    Cube output(kernels, outH, outW);
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned y = 0; y < outH; ++y)
            for (unsigned x = 0; x < outW; ++x) {
                float sum = 0.0f;
                for (unsigned c = 0; c < channels; ++c)
                    for (unsigned r = 0; r < rows; ++r) {
                        const int iy = int(y) * strideY - padTop + int(r) * dilationY;
                        if (iy < 0 || iy >= int(input.height))
                            continue;
                        for (unsigned s = 0; s < columns; ++s) {
                            const int ix = int(x) * strideX - padLeft + int(s) * dilationX;
                            if (ix < 0 || ix >= int(input.width))
                                continue;
                            sum += input.at(c, unsigned(iy), unsigned(ix)) *
                                   weights[((std::size_t(k) * channels + c) * rows + r) * columns + s];
                        }
                    }
                output.at(k, y, x) = sum;
            }
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{}", where, input.width, input.height, input.channels, outW, outH,
                                kernels));
    return output;
}

void Machine::sdp(const DlaTaskView& view, std::size_t i, std::optional<Cube> onTheFly, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("src_precision") != kPrecisionFp16 || op.get("dst_precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 SDP operations are simulated");
    Cube data;
    if (surface.get("src_data.type") == kMemoryHw) {
        if (!onTheFly)
            throw ModelError(where + ": reads its source on the fly, but no convolution feeds it");
        data = std::move(*onTheFly);
    } else {
        data = load(access(view, surface, "src_data", where));
    }
    for (const std::string stage : {"x1", "x2", "y"}) {
        const std::string prefix = stage + "_op.";
        if (!op.get(prefix + "enable"))
            continue;
        const std::int64_t type = op.get(prefix + "type"), mode = op.get(prefix + "mode"), act = op.get(prefix + "act");
        if (type != 0) {
            // Operands per kernel (channel) from memory; a per-layer operand from the descriptor.
            std::vector<float> operand(data.channels, 0.0f);
            std::optional<Cube> perPoint;
            if (mode == 2) {
                perPoint = load(access(view, surface, stage + "_data", where));
                if (perPoint->channels != data.channels || perPoint->height != data.height || perPoint->width != data.width)
                    throw ModelError(fmt::format("{} {}_data: a {}x{}x{} operand for {}x{}x{} data", where, stage,
                                                 perPoint->width, perPoint->height, perPoint->channels, data.width,
                                                 data.height, data.channels));
            } else if (mode == 1) {
                const CubeAccess a = access(view, surface, stage + "_data", where);
                if (a.channels < data.channels)
                    throw ModelError(fmt::format("{} {}_data: {} operands for {} channels", where, stage, a.channels,
                                                 data.channels));
                for (unsigned c = 0; c < data.channels; ++c)
                    operand[c] = readHalf(*a.memory, a.offsetOf(c, 0, 0, perGroup(), atom()));
            } else if (mode == 0) {
                const std::int64_t bits = type == 1 ? op.get(prefix + "mul_operand") : op.get(prefix + "alu_operand");
                std::fill(operand.begin(), operand.end(), halfToFloat(std::uint16_t(bits)));
            } else {
                throw ModelError(fmt::format("{}: {} operand mode {} is not one of per layer, kernel or point", where,
                                             stage, mode));
            }
            if (type == 3)
                throw ModelError(fmt::format("{}: {} with both ALU and multiplier is not simulated", where, stage));
            const std::int64_t alu = op.get(prefix + "alu_type");
            for (unsigned c = 0; c < data.channels; ++c)
                for (unsigned y = 0; y < data.height; ++y)
                    for (unsigned x = 0; x < data.width; ++x) {
                        float& v = data.at(c, y, x);
                        const float w = perPoint ? perPoint->at(c, y, x) : operand[c];
                        if (type == 1)
                            v *= w;
                        else if (alu == 2)
                            v += w;
                        else if (alu == 0)
                            v = std::max(v, w);
                        else if (alu == 1)
                            v = std::min(v, w);
                        else
                            throw ModelError(fmt::format("{}: {} ALU {} is not simulated", where, stage, alu));
                    }
        }
        if (act == 1)
            for (float& v : data.values)
                v = std::max(v, 0.0f);
        else if (act != 0)
            throw ModelError(fmt::format("{}: {} activation {} (LUT, PReLU) is not simulated", where, stage, act));
    }
    const CubeAccess dst = access(view, surface, "dst_data", where);
    if (dst.channels != data.channels || dst.height != data.height || dst.width != data.width)
        throw ModelError(fmt::format("{}: the destination is {}x{}x{}, the data {}x{}x{}", where, dst.width, dst.height,
                                     dst.channels, data.width, data.height, data.channels));
    store(dst, data);
    trace.push_back(fmt::format("{}: {}x{}x{}", where, data.width, data.height, data.channels));
}

void Machine::pdp(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 pooling is simulated");
    if (op.get("split_num") > 1)
        throw ModelError(where + ": pooling split in widths is not simulated");
    const Cube input = load(access(view, surface, "src_data", where));
    const CubeAccess dst = access(view, surface, "dst_data", where);
    const int kw = int(op.get("pool_width")) + 1, kh = int(op.get("pool_height")) + 1;
    const int sx = int(op.get("stride_x")), sy = int(op.get("stride_y"));
    const int padLeft = int(op.get("pad_left")), padTop = int(op.get("pad_top"));
    const std::int64_t mode = op.get("pool_mode");
    if (sx < 1 || sy < 1 || mode > 2)
        throw ModelError(fmt::format("{}: stride {}x{} or pool mode {} is not valid", where, sx, sy, mode));
    if (double(dst.channels) * dst.height * dst.width * kw * kh > kMaxSimulatedMacs)
        throw ModelError(where + ": the pooling windows hold more elements than the simulator runs for one operation");
    Cube output(dst.channels, dst.height, dst.width);
    for (unsigned c = 0; c < dst.channels && c < input.channels; ++c)
        for (unsigned y = 0; y < dst.height; ++y)
            for (unsigned x = 0; x < dst.width; ++x) {
                float sum = 0.0f;
                float best = mode == 1 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
                for (int r = 0; r < kh; ++r)
                    for (int s = 0; s < kw; ++s) {
                        const int iy = int(y) * sy - padTop + r, ix = int(x) * sx - padLeft + s;
                        // Padding counts as zero (the average divides by the whole window).
                        const bool inside = iy >= 0 && ix >= 0 && iy < int(input.height) && ix < int(input.width);
                        const float v = inside ? input.at(c, unsigned(iy), unsigned(ix)) : 0.0f;
                        sum += v;
                        best = mode == 1 ? std::max(best, v) : std::min(best, v);
                    }
                output.at(c, y, x) = mode == 0 ? sum / float(kw * kh) : best;
            }
    store(dst, output);
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{}", where, input.width, input.height, input.channels, dst.width,
                                dst.height, dst.channels));
}

void Machine::runDla(const TaskEntry& task)
{
    const DlaTaskView view = decodeDlaTask(l_, task);
    // The operations run in list order, which the dependency graph allows for loadables whose lists
    // are in data order (Tessera's and NVIDIA's compilers write them so). A CONV's output goes on the
    // fly to the SDP that names it as fused parent.
    std::map<std::size_t, Cube> pending;
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const std::string where = fmt::format("task {} op {} ({})", task.id, i, dlaOpName(view.operations[i].type));
        switch (view.operations[i].type) {
        case DlaOp::Conv:
            if (view.surface(i).get("dst_data.type") != kMemoryHw)
                throw ModelError(where + ": a convolution writes through its SDP; dst_data must be on the fly");
            pending[i] = convolution(view, i, where);
            break;
        case DlaOp::Sdp: {
            std::optional<Cube> onTheFly;
            const std::int64_t parent = view.common(i).get("fused_parent.index");
            if (parent >= 0) {
                const auto found = pending.find(std::size_t(parent));
                if (found == pending.end())
                    throw ModelError(fmt::format("{}: its fused parent {} has not run", where, parent));
                onTheFly = std::move(found->second);
                pending.erase(found);
            }
            sdp(view, i, std::move(onTheFly), where);
            break;
        }
        case DlaOp::Pdp:
            pdp(view, i, where);
            break;
        default:
            throw ModelError(where + ": this unit is not simulated yet");
        }
    }
}

void Machine::runEmu(const TaskEntry& task)
{
    const EmuTaskView view = decodeEmuTask(l_, task);
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const std::string where = fmt::format("task {} EMU op {}", task.id, i);
        const ConstRecord src = view.source(i), dst = view.destination(i);
        if (src.get("format") != kEmuFormatFp16 || dst.get("format") != kEmuFormatFp16)
            throw ModelError(where + ": only FP16 (format 3) EMU buffers are simulated");
        const auto offsetOf = [&](const ConstRecord& buffer) {
            return std::uint64_t(buffer.layout().find("addressIndexOffset") ? buffer.get("addressIndexOffset") : 0);
        };
        auto [srcMemory, srcBase] = resolve(view.addressList, src.get("addressIndex"), where + " src_data");
        auto [dstMemory, dstBase] = resolve(view.addressList, dst.get("addressIndex"), where + " dst_data");
        srcBase += offsetOf(src);
        dstBase += offsetOf(dst);
        if (view.operations[i].opType == kEmuOpSoftmax) {
            // NVIDIA's emulator reads `channel` values one after the other and writes them so.
            const auto channels = std::uint64_t(src.get("channel"));
            if (srcBase + 2 * channels > srcMemory->size() || dstBase + 2 * channels > dstMemory->size())
                throw ModelError(where + ": the softmax's values pass the end of their memory");
            std::vector<float> values(channels);
            for (std::uint64_t c = 0; c < channels; ++c)
                values[c] = readHalf(*srcMemory, srcBase + 2 * c);
            const float most = channels ? *std::max_element(values.begin(), values.end()) : 0.0f;
            float sum = 0.0f;
            for (float& v : values)
                sum += (v = std::exp(v - most));
            for (std::uint64_t c = 0; c < channels; ++c)
                writeHalf(*dstMemory, dstBase + 2 * c, values[c] / sum);
            trace.push_back(fmt::format("{} (SOFTMAX): {} values", where, channels));
        } else {
            const ConstRecord power = view.opDesc(i);
            const float exponent = float(power.getFloat("power")), scale = float(power.getFloat("scale")),
                        shift = float(power.getFloat("shift"));
            const unsigned channels = unsigned(src.get("channel")), height = unsigned(src.get("height")),
                           width = unsigned(src.get("width"));
            const auto at = [&](std::uint64_t base, const ConstRecord& buffer, unsigned c, unsigned y, unsigned x) {
                return base + (c / 16) * std::uint64_t(buffer.get("surf_stride")) + y * std::uint64_t(buffer.get("line_stride")) +
                       x * 32ull + (c % 16) * 2;
            };
            for (unsigned c = 0; c < channels; ++c)
                for (unsigned y = 0; y < height; ++y)
                    for (unsigned x = 0; x < width; ++x) {
                        const std::uint64_t from = at(srcBase, src, c, y, x), to = at(dstBase, dst, c, y, x);
                        if (from + 2 > srcMemory->size() || to + 2 > dstMemory->size())
                            throw ModelError(where + ": the power operation's values pass the end of their memory");
                        writeHalf(*dstMemory, to, std::pow(shift + scale * readHalf(*srcMemory, from), exponent));
                    }
            trace.push_back(fmt::format("{} (POWER): {}x{}x{}", where, width, height, channels));
        }
    }
}

// Where a bound tensor's element (c, y, x) lives, from its tensor description.
std::uint64_t boundOffset(const TensorDesc& tensor, unsigned c, unsigned y, unsigned x)
{
    const unsigned atom = tensor.pixelFormat == kPixelFormatFeature + 1 ? 8 : 32;
    const unsigned bpe = std::max(1u, tensor.strides[0]);
    const unsigned perGroup = atom / bpe;
    return tensor.offset + (c / perGroup) * std::uint64_t(tensor.strides[2]) + y * std::uint64_t(tensor.strides[1]) +
           std::uint64_t(x) * atom + (c % perGroup) * bpe;
}

std::vector<const MemoryEntry*> boundMemories(const Loadable& loadable, std::uint16_t flag)
{
    std::vector<const MemoryEntry*> bound;
    for (const MemoryEntry& memory : loadable.memories)
        if (memory.flags & flag)
            bound.push_back(&memory);
    std::sort(bound.begin(), bound.end(), [](const MemoryEntry* a, const MemoryEntry* b) { return a->bindId < b->bindId; });
    return bound;
}

const TensorDesc& descOf(const Loadable& loadable, const MemoryEntry& memory)
{
    if (memory.tensorDescId >= loadable.tensorDescs.size())
        throw ModelError(fmt::format("memory_list[{}].tensor_desc_id {} does not exist", memory.id, memory.tensorDescId));
    const TensorDesc& tensor = loadable.tensorDescs[memory.tensorDescId];
    if (tensor.dataType != kDataTypeHalf)
        throw ModelError(fmt::format("tensor '{}': only FP16 bound tensors are simulated", tensor.name));
    if (tensor.c < 1 || tensor.h < 1 || tensor.w < 1 || tensor.c > 8192 || tensor.h > 8192 || tensor.w > 8192)
        throw ModelError(fmt::format("tensor '{}': dimensions {}x{}x{} are not valid", tensor.name, tensor.c, tensor.h, tensor.w));
    return tensor;
}

}  // namespace

std::vector<TensorDesc> loadableInputs(const Loadable& loadable)
{
    std::vector<TensorDesc> inputs;
    for (const MemoryEntry* memory : boundMemories(loadable, kMemoryInput))
        if (memory->tensorDescId < loadable.tensorDescs.size())
            inputs.push_back(loadable.tensorDescs[memory->tensorDescId]);
    return inputs;
}

SimulationResult simulateLoadable(const Loadable& loadable, const std::vector<TensorData>& inputs,
                                  const target::NvdlaConfig& config)
{
    Machine machine(loadable, config);
    const auto inputMemories = boundMemories(loadable, kMemoryInput);
    if (inputs.size() != inputMemories.size())
        throw ModelError(fmt::format("the loadable binds {} inputs, {} given", inputMemories.size(), inputs.size()));
    for (std::size_t k = 0; k < inputs.size(); ++k) {
        const TensorDesc& tensor = descOf(loadable, *inputMemories[k]);
        const std::int64_t expected = std::int64_t(tensor.c) * tensor.h * tensor.w;
        if (inputs[k].elements() != expected)
            throw ModelError(fmt::format("input '{}' has {}x{}x{} = {} values; {} given", tensor.name, tensor.c, tensor.h,
                                         tensor.w, expected, inputs[k].elements()));
        std::vector<std::uint8_t>& memory = machine.memory(inputMemories[k]->id);
        const std::vector<float> values = inputs[k].toFloats();
        for (unsigned c = 0; c < unsigned(tensor.c); ++c)
            for (unsigned y = 0; y < unsigned(tensor.h); ++y)
                for (unsigned x = 0; x < unsigned(tensor.w); ++x) {
                    const std::uint64_t at = boundOffset(tensor, c, y, x);
                    if (at + 2 > memory.size())
                        throw ModelError(fmt::format("input '{}' does not fit its memory ({} bytes)", tensor.name, memory.size()));
                    writeHalf(memory, at, values[(std::size_t(c) * tensor.h + y) * tensor.w + x]);
                }
    }
    for (const SubmitEntry& submit : loadable.submits)
        for (std::uint16_t id : submit.taskIds) {
            if (id >= loadable.tasks.size())
                throw ModelError(fmt::format("submit_list[{}] names task {}, which does not exist", submit.id, id));
            const TaskEntry& task = loadable.tasks[id];
            if (task.interface == kInterfaceDla1)
                machine.runDla(task);
            else if (task.interface == kInterfaceEmu1)
                machine.runEmu(task);
            else
                throw ModelError(fmt::format("task {}: interface {} is neither DLA nor EMU", task.id, task.interface));
        }
    SimulationResult result;
    for (const MemoryEntry* memory : boundMemories(loadable, kMemoryOutput)) {
        const TensorDesc& tensor = descOf(loadable, *memory);
        const std::vector<std::uint8_t>& bytes = machine.memory(memory->id);
        std::vector<float> values(std::size_t(tensor.c) * tensor.h * tensor.w);
        for (unsigned c = 0; c < unsigned(tensor.c); ++c)
            for (unsigned y = 0; y < unsigned(tensor.h); ++y)
                for (unsigned x = 0; x < unsigned(tensor.w); ++x) {
                    const std::uint64_t at = boundOffset(tensor, c, y, x);
                    if (at + 2 > bytes.size())
                        throw ModelError(fmt::format("output '{}' does not fit its memory", tensor.name));
                    values[(std::size_t(c) * tensor.h + y) * tensor.w + x] = readHalf(bytes, at);
                }
        result.outputs.push_back(TensorData::fromFloats({std::max(1, tensor.n), tensor.c, tensor.h, tensor.w}, values));
        result.names.push_back(tensor.name);
    }
    result.trace = std::move(machine.trace);
    return result;
}

}  // namespace tessera::nvdla
