#include "nvdla/simulator/descriptor_simulator.h"

#include "nvdla/lut_param.h"
#include "nvdla/simulator/machine.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace tessera::nvdla {

namespace simulation {

Machine::Machine(const Loadable& loadable, const target::NvdlaConfig& config) : l_(loadable), config_(config)
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

std::pair<std::vector<std::uint8_t>*, std::uint64_t> Machine::resolve(const std::vector<std::uint16_t>& addressList,
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

CubeAccess Machine::access(const DlaTaskView& view, const ConstRecord& surface, const std::string& cube,
                           const std::string& where, unsigned elementBytes, bool featureExtent)
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
    a.elementBytes = elementBytes;
    a.atomBytes = config_.memoryAtomicBytes;
    // The last channel at the last position ends the cube (a partial last group need not fill
    // its atoms: a per-channel operand cube is dense).
    if (!featureExtent)
        return a;
    const std::uint64_t last = a.channels == 0 || a.height == 0 || a.width == 0
                                   ? a.base
                                   : a.offsetOf(a.channels - 1, a.height - 1, a.width - 1) + elementBytes;
    if (last > memory->size())
        throw ModelError(fmt::format("{} {}: a {}x{}x{} cube at byte {} passes the end of its memory ({} bytes)",
                                     where, cube, a.width, a.height, a.channels, a.base, memory->size()));
    return a;
}

Cube Machine::loadHalves(const CubeAccess& a) const
{
    Cube cube(a.channels, a.height, a.width);
    for (unsigned c = 0; c < a.channels; ++c)
        for (unsigned y = 0; y < a.height; ++y)
            for (unsigned x = 0; x < a.width; ++x)
                cube.at(c, y, x) = readHalf(*a.memory, a.offsetOf(c, y, x));
    return cube;
}

void Machine::storeHalves(const CubeAccess& a, const Cube& cube) const
{
    for (unsigned c = 0; c < a.channels; ++c)
        for (unsigned y = 0; y < a.height; ++y)
            for (unsigned x = 0; x < a.width; ++x)
                writeHalf(*a.memory, a.offsetOf(c, y, x), cube.at(c, y, x));
}

IntCube Machine::loadInt8(const CubeAccess& a) const
{
    IntCube cube(a.channels, a.height, a.width);
    for (unsigned c = 0; c < a.channels; ++c)
        for (unsigned y = 0; y < a.height; ++y)
            for (unsigned x = 0; x < a.width; ++x)
                cube.at(c, y, x) = std::int8_t((*a.memory)[a.offsetOf(c, y, x)]);
    return cube;
}

void Machine::storeInt8(const CubeAccess& a, const std::vector<std::int8_t>& values) const
{
    std::size_t i = 0;
    for (unsigned c = 0; c < a.channels; ++c)
        for (unsigned y = 0; y < a.height; ++y)
            for (unsigned x = 0; x < a.width; ++x)
                (*a.memory)[a.offsetOf(c, y, x)] = std::uint8_t(values[i++]);
}

std::pair<const std::vector<std::uint8_t>*, std::uint64_t> Machine::weights(const DlaTaskView& view,
                                                                             const ConstRecord& surface,
                                                                             const WeightLayout& layout,
                                                                             const std::string& where)
{
    const auto [memory, base] = resolve(view.addressList, surface.get("weight_data.address"), where + " weight_data");
    if (base + layout.bytes > memory->size())
        throw ModelError(fmt::format("{} weight_data: {} bytes of weights pass the end of their memory", where, layout.bytes));
    return {memory, base};
}

std::vector<PoolingPass> poolingPasses(const ConstRecord& op, unsigned sourceWidth, unsigned destinationWidth,
                                       const std::string& where)
{
    const std::int64_t count = op.get("split_num");
    if (count <= 1)
        return {{0, sourceWidth, op.get("pad_left"), 0, destinationWidth}};
    const std::int64_t overlap = (op.get("pool_width") + 1) - op.get("stride_x");
    const std::int64_t inFirst = op.get("partial_in_width_first"), inMid = op.get("partial_in_width_mid"),
                       inLast = op.get("partial_in_width_last"), outFirst = op.get("partial_width_first"),
                       outMid = op.get("partial_width_mid"), outLast = op.get("partial_width_last");
    std::vector<PoolingPass> passes;
    passes.push_back({0, inFirst, op.get("pad_left"), 0, outFirst});
    for (std::int64_t i = 1; i < count; ++i) {
        const bool last = i == count - 1;
        passes.push_back({inFirst + (i - 1) * inMid - overlap, (last ? inLast : inMid) + overlap, 0,
                          outFirst + (i - 1) * outMid, last ? outLast : outMid});
    }
    for (const PoolingPass& pass : passes)
        if (pass.start < 0 || pass.columns < 1 || pass.start + pass.columns > sourceWidth || pass.outputs < 1 ||
            pass.outStart + pass.outputs > destinationWidth)
            throw ModelError(fmt::format("{}: split_num {} with partial widths {}/{}/{} in, {}/{}/{} out does not tile a "
                                         "{}-column source into a {}-column destination",
                                         where, count, inFirst, inMid, inLast, outFirst, outMid, outLast, sourceWidth,
                                         destinationWidth));
    if (passes.back().outStart + passes.back().outputs != destinationWidth)
        throw ModelError(fmt::format("{}: the splits write {} of the destination's {} columns", where,
                                     passes.back().outStart + passes.back().outputs, destinationWidth));
    return passes;
}

dla::Lut Machine::lutOf(const DlaTaskView& view, const ConstRecord& op, const std::string& where)
{
    const std::int64_t index = op.get("lut_index");
    if (index < 0 || std::size_t(index) >= view.luts.size())
        throw ModelError(fmt::format("{}: lut_index {} is not one of the task's {} LUTs", where, index, view.luts.size()));
    return decodeLut(ConstRecord(view.interface->lutParam, view.luts[std::size_t(index)]));
}

void Machine::requireSimulatable(double macs, const std::string& where)
{
    // A corrupt descriptor can ask for years of work within a few megabytes; refuse it.
    if (macs > kMaxSimulatedMacs)
        throw ModelError(fmt::format("{}: {:.3g} multiply-accumulates is more than the simulator runs for one "
                                     "operation ({:.3g})",
                                     where, macs, kMaxSimulatedMacs));
}

void Machine::runDla(const TaskEntry& task)
{
    const DlaTaskView view = decodeDlaTask(l_, task);
    // The operations run in list order, which the dependency graph allows for loadables whose lists
    // are in data order (Tessera's and NVIDIA's compilers write them so). A CONV's output goes on the
    // fly to the SDP that names it as fused parent.
    std::map<std::size_t, Cube> pending;
    std::map<std::size_t, IntCube> pendingInt;
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const std::string where = fmt::format("task {} op {} ({})", task.id, i, dlaOpName(view.operations[i].type));
        switch (view.operations[i].type) {
        case DlaOp::Conv:
            if (view.surface(i).get("dst_data.type") != kMemoryHw)
                throw ModelError(where + ": a convolution writes through its SDP; dst_data must be on the fly");
            if (view.op(i).get("in_precision") == kPrecisionInt8)
                pendingInt[i] = convolutionInt8(view, i, where);
            else
                pending[i] = convolution(view, i, where);
            break;
        case DlaOp::Sdp: {
            const std::int64_t parent = view.common(i).get("fused_parent.index");
            // The convolution's output, if this SDP takes it on the fly.
            const auto take = [&](auto& from) {
                std::optional<typename std::decay_t<decltype(from)>::mapped_type> taken;
                if (parent < 0)
                    return taken;
                const auto found = from.find(std::size_t(parent));
                if (found == from.end())
                    throw ModelError(fmt::format("{}: its fused parent {} has not run or has another precision", where,
                                                 parent));
                taken = std::move(found->second);
                from.erase(found);
                return taken;
            };
            if (view.op(i).get("src_precision") == kPrecisionInt8)
                sdpInt8(view, i, take(pendingInt), where);
            else
                sdp(view, i, take(pending), where);
            break;
        }
        case DlaOp::Pdp:
            if (view.op(i).get("precision") == kPrecisionInt8)
                pdpInt8(view, i, where);
            else
                pdp(view, i, where);
            break;
        case DlaOp::Cdp:
            if (view.op(i).get("in_precision") == kPrecisionInt8)
                cdpInt8(view, i, where);
            else
                cdp(view, i, where);
            break;
        case DlaOp::Bdma:
            bdma(view, i, where);
            break;
        case DlaOp::Rubik:
            rubik(view, i, where);
            break;
        default:
            throw ModelError(fmt::format("{}: operation type {} is not a unit of NVDLA", where,
                                         unsigned(view.operations[i].type)));
        }
        if (observer)
            observe(task, view, i, where);
    }
}

void Machine::observe(const TaskEntry& task, const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    std::int64_t precision = 0;
    switch (view.operations[i].type) {
    case DlaOp::Sdp: precision = op.get("dst_precision"); break;
    case DlaOp::Pdp: precision = op.get("precision"); break;
    case DlaOp::Cdp: precision = op.get("out_precision"); break;
    case DlaOp::Rubik:
        if (op.get("mode") == kRubikSplit)
            return;  // planes, not a feature cube
        precision = op.get("precision");
        break;
    default:
        return;
    }
    if (surface.get("dst_data.type") == kMemoryHw)
        return;
    const bool int8 = precision == kPrecisionInt8;
    const CubeAccess cube = access(view, surface, "dst_data", where, int8 ? 1 : 2);
    const Shape shape{1, cube.channels, cube.height, cube.width};
    if (int8) {
        const IntCube values = loadInt8(cube);
        observer(task.id, i,
                 TensorData::fromInts(DType::Int8, shape, std::vector<std::int64_t>(values.values.begin(), values.values.end())));
    } else {
        const Cube values = loadHalves(cube);
        observer(task.id, i, TensorData::fromFloats(shape, values.values));
    }
}

}  // namespace simulation

namespace {

using simulation::Machine;

// Where a bound tensor's element (c, y, x) lives, from its tensor description.
std::uint64_t boundOffset(const TensorDesc& tensor, unsigned c, unsigned y, unsigned x)
{
    const unsigned atom = tensor.pixelFormat == kPixelFormatFeature + 1 ? 8 : 32;
    const unsigned bpe = tensor.strides[0];  // 1 or 2 (descOf checks it)
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

const char* elementTypeName(std::uint8_t dataType)
{
    return dataType == kDataTypeInt8 ? "INT8" : dataType == kDataTypeInt16 ? "INT16" : "FP16";
}

// Element (c, y, x) of a bound tensor in its memory, and back (INT8 and INT16 as integers).
double readElement(const std::vector<std::uint8_t>& memory, std::uint64_t at, std::uint8_t dataType)
{
    if (dataType == kDataTypeInt8)
        return double(std::int8_t(memory[at]));
    if (dataType == kDataTypeInt16)
        return double(std::int16_t(std::uint16_t(memory[at] | (memory[at + 1] << 8))));
    return double(simulation::readHalf(memory, at));
}

void writeElement(std::vector<std::uint8_t>& memory, std::uint64_t at, std::uint8_t dataType, float value)
{
    if (dataType == kDataTypeInt8) {
        memory[at] = std::uint8_t(std::int8_t(std::clamp(std::round(value), -128.0f, 127.0f)));
    } else if (dataType == kDataTypeInt16) {
        const auto v = std::uint16_t(std::int16_t(std::clamp(std::round(value), -32768.0f, 32767.0f)));
        memory[at] = std::uint8_t(v);
        memory[at + 1] = std::uint8_t(v >> 8);
    } else {
        simulation::writeHalf(memory, at, value);
    }
}

const TensorDesc& descOf(const Loadable& loadable, const MemoryEntry& memory)
{
    if (memory.tensorDescId >= loadable.tensorDescs.size())
        throw ModelError(fmt::format("memory_list[{}].tensor_desc_id {} does not exist", memory.id, memory.tensorDescId));
    const TensorDesc& tensor = loadable.tensorDescs[memory.tensorDescId];
    if (tensor.dataType != kDataTypeHalf && tensor.dataType != kDataTypeInt8 && tensor.dataType != kDataTypeInt16)
        throw ModelError(fmt::format("tensor '{}': data type {} is not FP16, INT16 or INT8", tensor.name,
                                     tensor.dataType));
    const unsigned elementBytes = tensor.dataType == kDataTypeInt8 ? 1 : 2;
    if (tensor.strides[0] != elementBytes)
        throw ModelError(fmt::format("tensor '{}': stride_0 is {}; {} elements are {} byte{}", tensor.name,
                                     tensor.strides[0], elementTypeName(tensor.dataType), elementBytes,
                                     elementBytes == 1 ? "" : "s"));
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
                                  const target::NvdlaConfig& config, const OperationObserver& observer)
{
    Machine machine(loadable, config);
    machine.observer = observer;
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
                    if (at + tensor.strides[0] > memory.size())
                        throw ModelError(fmt::format("input '{}' does not fit its memory ({} bytes)", tensor.name, memory.size()));
                    writeElement(memory, at, tensor.dataType, values[(std::size_t(c) * tensor.h + y) * tensor.w + x]);
                }
    }
    for (const SubmitEntry& submit : loadable.submits)
        for (std::uint16_t id : submit.taskIds) {
            if (id >= loadable.tasks.size())
                throw ModelError(fmt::format("submit_list[{}] names task {}, which does not exist", submit.id, id));
            const TaskEntry& task = loadable.tasks[id];
            try {
                if (task.interface == kInterfaceDla1)
                    machine.runDla(task);
                else if (task.interface == kInterfaceEmu1)
                    machine.runEmu(task);
                else
                    throw ModelError(fmt::format("task {}: interface {} is neither DLA nor EMU", task.id, task.interface));
            } catch (const std::invalid_argument& error) {
                // The integer arithmetic refuses parameters no unit takes (sizes, shifts, windows).
                throw ModelError(fmt::format("task {}: {}", task.id, error.what()));
            }
        }
    SimulationResult result;
    for (const MemoryEntry* memory : boundMemories(loadable, kMemoryOutput)) {
        const TensorDesc& tensor = descOf(loadable, *memory);
        const std::vector<std::uint8_t>& bytes = machine.memory(memory->id);
        std::vector<double> values(std::size_t(tensor.c) * tensor.h * tensor.w);
        for (unsigned c = 0; c < unsigned(tensor.c); ++c)
            for (unsigned y = 0; y < unsigned(tensor.h); ++y)
                for (unsigned x = 0; x < unsigned(tensor.w); ++x) {
                    const std::uint64_t at = boundOffset(tensor, c, y, x);
                    if (at + tensor.strides[0] > bytes.size())
                        throw ModelError(fmt::format("output '{}' does not fit its memory", tensor.name));
                    values[(std::size_t(c) * tensor.h + y) * tensor.w + x] = readElement(bytes, at, tensor.dataType);
                }
        const DType type = tensor.dataType == kDataTypeInt8    ? DType::Int8
                           : tensor.dataType == kDataTypeInt16 ? DType::Int16
                                                               : DType::Float32;
        result.outputs.push_back(TensorData::fromDoubles(type,
                                                         {std::max(1, tensor.n), tensor.c, tensor.h, tensor.w}, values));
        result.names.push_back(tensor.name);
    }
    result.trace = std::move(machine.trace);
    return result;
}

}  // namespace tessera::nvdla
