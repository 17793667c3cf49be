#include "nvdla/loadable_builder.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace tessera::nvdla {

namespace {
// The firmware's events a consumer link waits for (DLA_EVENT_*).
constexpr std::int64_t kEventCompleted = 1, kEventProgrammed = 2, kEventEnabled = 3;
// Alignment of the task blobs in DRAM: the EMU descriptors are 256-byte aligned structures.
constexpr std::uint32_t kDescriptorAlignment = 256;

std::int16_t localIndexOf(std::vector<std::uint16_t>& list, std::uint16_t addressId, std::size_t reserved)
{
    for (std::size_t i = reserved; i < list.size(); ++i)
        if (list[i] == addressId)
            return std::int16_t(i);
    if (list.size() >= 6144)
        throw Error("a task may use at most 6144 addresses (NVDLA_MAX_BUFFERS_PER_TASK)");
    list.push_back(addressId);
    return std::int16_t(list.size() - 1);
}
}  // namespace

DlaTaskBuilder::DlaTaskBuilder(const DlaInterface& interface) : interface_(&interface), addressList_(4, 0) {}

std::int16_t DlaTaskBuilder::addressIndex(std::uint16_t addressId) { return localIndexOf(addressList_, addressId, 4); }

int DlaTaskBuilder::addOperation(DlaOp type)
{
    Operation operation{type, std::vector<std::uint8_t>(interface_->opContainerSize.size),
                        std::vector<std::uint8_t>(interface_->surfaceContainerSize.size), {}, -1};
    Record surface(interface_->surfaceDesc.at(type), operation.surface);
    for (const std::string& cube : interface_->cubes.at(type))
        surface.set(cube + ".address", -1);
    if (type == DlaOp::Sdp)
        Record(interface_->opDesc.at(type), operation.op).set("lut_index", -1);
    if (type == DlaOp::Cdp)
        Record(interface_->opDesc.at(type), operation.op).set("lut_index", -1);
    operations_.push_back(std::move(operation));
    return int(operations_.size() - 1);
}

Record DlaTaskBuilder::opDesc(int operation)
{
    Operation& op = operations_.at(std::size_t(operation));
    return Record(interface_->opDesc.at(op.type), op.op);
}

Record DlaTaskBuilder::surfaceDesc(int operation)
{
    Operation& op = operations_.at(std::size_t(operation));
    return Record(interface_->surfaceDesc.at(op.type), op.surface);
}

void DlaTaskBuilder::dependsOn(int consumer, int producer)
{
    if (consumer < 0 || consumer >= operationCount() || producer < 0 || producer >= operationCount())
        throw Error(fmt::format("dependency {} -> {} names an operation the task does not have", producer, consumer));
    if (producer >= consumer)
        throw Error(fmt::format("operation {} cannot wait for operation {}: a producer must come before its "
                                "consumers in the operation list",
                                consumer, producer));
    operations_[std::size_t(consumer)].producers.push_back(producer);
}

void DlaTaskBuilder::fuse(int child, int parent)
{
    const DlaOp childType = type(child), parentType = type(parent);
    if (std::uint8_t(childType) != std::uint8_t(parentType) + 1)
        throw Error(fmt::format("operation {} ({}) cannot take operation {} ({}) on the fly: the firmware fuses a "
                                "unit only with the one before it (CONV>SDP, SDP>PDP)",
                                child, dlaOpName(childType), parent, dlaOpName(parentType)));
    operations_.at(std::size_t(child)).fusedParent = parent;
}

int DlaTaskBuilder::addLut(std::vector<std::uint8_t> lut)
{
    if (lut.size() != interface_->lutParam.size)
        throw Error(fmt::format("a LUT is {} bytes, not {}", interface_->lutParam.size, lut.size()));
    luts_.push_back(std::move(lut));
    return int(luts_.size() - 1);
}

DlaTaskBuilder::Blobs DlaTaskBuilder::encode() const
{
    const DlaInterface& dla = *interface_;
    const int count = operationCount();
    if (count == 0)
        throw Error("a DLA task needs at least one operation");
    if (count > 0x7fff)
        throw Error(fmt::format("a DLA task holds at most 32767 operations, not {}", count));

    // The links of the dependency graph: consumers[type] per operation, with the event each waits for.
    struct Link {
        int index = -1;
        std::int64_t event = 0;
    };
    std::vector<std::array<Link, kDlaOpCount>> consumers;
    consumers.resize(std::size_t(count));
    std::vector<int> dependencyCount(std::size_t(count), 0);
    auto link = [&](int from, int to, std::int64_t event) {
        Link& slot = consumers[std::size_t(from)][std::size_t(operations_[std::size_t(to)].type)];
        if (slot.index == to)
            return;
        if (slot.index != -1 && slot.event != event)
            throw Error(fmt::format("operation {} ({}) both feeds operation {} on the fly and operation {} through "
                                    "memory; the firmware links one operation of each unit",
                                    from, dlaOpName(operations_[std::size_t(from)].type), slot.index, to));
        if (slot.index != -1 && slot.index < to)
            return;  // an earlier operation of that unit already waits; the unit's order covers `to`
        if (slot.index != -1)
            --dependencyCount[std::size_t(slot.index)];
        slot = {to, event};
        ++dependencyCount[std::size_t(to)];
    };
    // Each unit runs its operations in list order: each waits for the previous one of its unit.
    std::array<int, kDlaOpCount> last;
    last.fill(-1);
    std::array<std::int64_t, kDlaOpCount> head;
    head.fill(-1);
    for (int i = 0; i < count; ++i) {
        const auto unit = std::size_t(operations_[std::size_t(i)].type);
        if (last[unit] >= 0)
            link(last[unit], i, kEventCompleted);
        else
            head[unit] = i;
        last[unit] = i;
    }
    // Fused pairs: the child is programmed after the parent, the parent enabled after the child.
    for (int i = 0; i < count; ++i) {
        const int parent = operations_[std::size_t(i)].fusedParent;
        if (parent < 0)
            continue;
        Link& slot = consumers[std::size_t(parent)][std::size_t(operations_[std::size_t(i)].type)];
        if (slot.index != -1 && slot.index != i)
            throw Error(fmt::format("operation {} is fused after operation {}, but another {} operation ({}) already "
                                    "waits for it",
                                    i, parent, dlaOpName(operations_[std::size_t(i)].type), slot.index));
        slot = {i, kEventProgrammed};
        ++dependencyCount[std::size_t(i)];
        ++dependencyCount[std::size_t(parent)];
    }
    // Data through memory: the earliest reader of each unit waits for the writer's completion. Of
    // several producers of one unit only the last matters: a unit completes its operations in order.
    for (int i = 0; i < count; ++i) {
        std::array<int, kDlaOpCount> lastProducer;
        lastProducer.fill(-1);
        for (int producer : operations_[std::size_t(i)].producers) {
            const auto unit = std::size_t(operations_[std::size_t(producer)].type);
            lastProducer[unit] = std::max(lastProducer[unit], producer);
        }
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit)
            if (lastProducer[unit] >= 0 && unit != unsigned(operations_[std::size_t(i)].type))
                link(lastProducer[unit], i, kEventCompleted);
    }

    Blobs blobs;
    blobs.networkDesc.resize(dla.networkDesc.size);
    Record network(dla.networkDesc, blobs.networkDesc);
    network.set("operation_desc_index", 2);
    network.set("surface_desc_index", 3);
    network.set("dependency_graph_index", 1);
    network.set("lut_data_index", luts_.empty() ? -1 : std::int64_t(addressList_.size()));
    network.set("roi_array_index", -1);
    network.set("surface_index", -1);
    network.set("stat_list_index", -1);
    for (unsigned unit = 0; unit < kDlaOpCount; ++unit)
        network.set(fmt::format("op_head[{}]", unit), head[unit]);
    network.set("num_rois", 1);
    network.set("num_operations", count);
    network.set("num_luts", std::int64_t(luts_.size()));
    network.set("num_addresses", std::int64_t(addressList_.size() + (luts_.empty() ? 0 : 1)));
    network.set("input_layer", 0);

    blobs.dependencyGraph.resize(std::size_t(count) * dla.commonOpDesc.size);
    blobs.operations.resize(std::size_t(count) * dla.opContainerSize.size);
    blobs.surfaces.resize(std::size_t(count) * dla.surfaceContainerSize.size);
    for (int i = 0; i < count; ++i) {
        const Operation& op = operations_[std::size_t(i)];
        if (dependencyCount[std::size_t(i)] > 255)
            throw Error(fmt::format("operation {} waits for {} others; the firmware counts at most 255", i,
                                    dependencyCount[std::size_t(i)]));
        Record common(dla.commonOpDesc, std::span(blobs.dependencyGraph).subspan(std::size_t(i) * dla.commonOpDesc.size));
        common.set("index", i);
        common.set("roi_index", 0);
        common.set("op_type", std::int64_t(op.type));
        common.set("dependency_count", dependencyCount[std::size_t(i)]);
        for (unsigned unit = 0; unit < kDlaOpCount; ++unit) {
            common.set(fmt::format("consumers[{}].index", unit), consumers[std::size_t(i)][unit].index);
            common.set(fmt::format("consumers[{}].event", unit), consumers[std::size_t(i)][unit].event);
        }
        common.set("fused_parent.index", op.fusedParent);
        common.set("fused_parent.event", op.fusedParent >= 0 ? kEventEnabled : 0);
        std::copy(op.op.begin(), op.op.end(), blobs.operations.begin() + std::ptrdiff_t(i) * dla.opContainerSize.size);
        std::copy(op.surface.begin(), op.surface.end(),
                  blobs.surfaces.begin() + std::ptrdiff_t(i) * dla.surfaceContainerSize.size);
    }
    for (const auto& lut : luts_)
        blobs.luts.insert(blobs.luts.end(), lut.begin(), lut.end());
    return blobs;
}

std::int16_t EmuTaskBuilder::addressIndex(std::uint16_t addressId) { return localIndexOf(addressList_, addressId, 3); }

int EmuTaskBuilder::addOperation(std::uint8_t opType)
{
    const EmuInterface& emu = currentEmuInterface();
    Operation operation{std::vector<std::uint8_t>(emu.opContainerBytes),
                        std::vector<std::uint8_t>(emu.bufferContainerBytes)};
    Record(emu.commonOpDesc, operation.op).set("op_type", opType);
    Record(emu.commonOpDesc, operation.op).setFloat("input_scale_factor", 1.0);
    Record(emu.commonOpDesc, operation.op).setFloat("output_scale_factor", 1.0);
    operations_.push_back(std::move(operation));
    return int(operations_.size() - 1);
}

Record EmuTaskBuilder::opDesc(int operation)
{
    Operation& op = operations_.at(std::size_t(operation));
    const EmuInterface& emu = currentEmuInterface();
    const bool isSoftmax = Record(emu.commonOpDesc, op.op).get("op_type") == kEmuOpSoftmax;
    return Record(isSoftmax ? emu.softmaxOpDesc : emu.powerOpDesc, op.op);
}

Record EmuTaskBuilder::sourceBuffer(int operation)
{
    Operation& op = operations_.at(std::size_t(operation));
    return Record(currentEmuInterface().bufferDesc, op.buffers);
}

Record EmuTaskBuilder::destinationBuffer(int operation)
{
    Operation& op = operations_.at(std::size_t(operation));
    const EmuInterface& emu = currentEmuInterface();
    return Record(emu.bufferDesc, std::span(op.buffers).subspan(emu.bufferDesc.size));
}

std::uint16_t LoadableBuilder::addMemory(std::uint64_t size, std::uint32_t alignment)
{
    MemoryEntry memory;
    memory.id = std::uint16_t(loadable_.memories.size());
    memory.flags = kMemoryAlloc;
    memory.size = size;
    memory.alignment = alignment;
    loadable_.memories.push_back(memory);
    return memory.id;
}

std::uint16_t LoadableBuilder::addBlobMemory(const std::string& name, std::uint32_t interface,
                                             std::uint32_t subInterface, InterfaceVersion version,
                                             std::vector<std::uint8_t> bytes, std::uint32_t alignment)
{
    if (loadable_.blob(name))
        throw Error(fmt::format("the loadable already has a blob named '{}'", name));
    const std::uint16_t id = addMemory(std::max<std::uint64_t>(bytes.size(), 1), alignment);
    MemoryEntry& memory = loadable_.memories.back();
    memory.flags = kMemoryAlloc | kMemorySet;
    memory.contents = {name};
    memory.offsets = {0};
    loadable_.blobs.push_back({name, bytes.size(), interface, subInterface, version, std::move(bytes)});
    return id;
}

std::uint16_t LoadableBuilder::addConstantMemory(const std::string& blobName, std::vector<std::uint8_t> bytes,
                                                 std::uint32_t alignment)
{
    return addBlobMemory(blobName, kInterfaceNone, 0, {}, std::move(bytes), alignment);
}

std::uint16_t LoadableBuilder::addBoundMemory(bool isInput, TensorDesc tensor, std::uint32_t alignment)
{
    const std::uint16_t id = addMemory(tensor.size + tensor.offset, alignment);
    MemoryEntry& memory = loadable_.memories.back();
    memory.flags = std::uint16_t(kMemoryAlloc | (isInput ? kMemoryInput : kMemoryOutput));
    memory.bindId = isInput ? inputs_++ : outputs_++;
    tensor.id = std::uint16_t(loadable_.tensorDescs.size());
    tensor.memId = id;
    memory.tensorDescId = tensor.id;
    loadable_.tensorDescs.push_back(std::move(tensor));
    return id;
}

std::uint16_t LoadableBuilder::addAddress(std::uint16_t memId, std::uint64_t offset, std::uint64_t size)
{
    if (memId >= loadable_.memories.size())
        throw Error(fmt::format("address of memory {}, which does not exist", memId));
    if (loadable_.addresses.size() >= 0xffff)
        throw Error("a loadable holds at most 65535 addresses");
    const auto id = std::uint16_t(loadable_.addresses.size());
    loadable_.addresses.push_back({id, memId, offset, size});
    return id;
}

DlaTaskBuilder& LoadableBuilder::addDlaTask(const DlaInterface& interface)
{
    tasks_.push_back({std::make_unique<DlaTaskBuilder>(interface), nullptr});
    return *tasks_.back().dla;
}

EmuTaskBuilder& LoadableBuilder::addEmuTask()
{
    tasks_.push_back({nullptr, std::make_unique<EmuTaskBuilder>()});
    return *tasks_.back().emu;
}

Loadable LoadableBuilder::finish()
{
    auto blobAddress = [&](const std::string& name, std::uint32_t interface, std::uint32_t sub,
                           InterfaceVersion version, std::vector<std::uint8_t> bytes) {
        const std::uint64_t size = bytes.size();
        const std::uint16_t memory = addBlobMemory(name, interface, sub, version, std::move(bytes), kDescriptorAlignment);
        return addAddress(memory, 0, size);
    };
    // Where a task's descriptors hold the strides of a bound tensor, a relocation entry tells the
    // runtime where to write the strides of the tensor the application binds (as NVIDIA's compiler
    // writes them: the address of the bound memory, the memory of the descriptor blob, the byte
    // offset of the line and surface strides in it).
    const auto isBound = [&](std::uint16_t addressId) {
        return addressId < loadable_.addresses.size() &&
               (loadable_.memories.at(loadable_.addresses[addressId].memId).flags & (kMemoryInput | kMemoryOutput));
    };
    const auto relocate = [&](std::uint16_t addressId, std::uint16_t blobAddressId, std::uint64_t lineOffset,
                              std::uint64_t surfaceOffset, std::uint32_t interface) {
        const std::uint16_t blobMemory = loadable_.addresses.at(blobAddressId).memId;
        loadable_.relocs.push_back({addressId, blobMemory, lineOffset, interface, kSubSurfs, kRelocLineStride});
        loadable_.relocs.push_back({addressId, blobMemory, surfaceOffset, interface, kSubSurfs, kRelocSurfaceStride});
    };
    // One event chain orders the tasks: each signals the next value; the next task waits for it.
    std::uint32_t chainValue = 0;
    for (std::size_t t = 0; t < tasks_.size(); ++t) {
        TaskEntry task;
        task.id = std::uint16_t(t);
        const std::string prefix = fmt::format("task-{}", t);
        if (DlaTaskBuilder* dla = tasks_[t].dla.get()) {
            task.interface = kInterfaceDla1;
            DlaTaskBuilder::Blobs blobs = dla->encode();
            const InterfaceVersion version = dla->interface_->version;
            task.addressList = dla->addressList_;
            // The bound tensors' strides in the surface descriptors, found before the blob moves.
            struct BoundCube {
                std::uint16_t addressId;
                std::uint64_t line, surface;
            };
            std::vector<BoundCube> boundCubes;
            const DlaInterface& layout = *dla->interface_;
            for (std::size_t i = 0; i < dla->operations_.size(); ++i) {
                const DlaOp type = dla->operations_[i].type;
                const StructLayout& surfaceLayout = layout.surfaceDesc.at(type);
                const ConstRecord surface(surfaceLayout, std::span(blobs.surfaces).subspan(i * layout.surfaceContainerSize.size,
                                                                                           surfaceLayout.size));
                for (const std::string& cube : layout.cubes.at(type)) {
                    const std::int64_t index = surface.get(cube + ".address");
                    if (index < 0 || std::size_t(index) >= task.addressList.size() || !isBound(task.addressList[std::size_t(index)]))
                        continue;
                    const std::uint64_t base = i * layout.surfaceContainerSize.size;
                    boundCubes.push_back({task.addressList[std::size_t(index)],
                                          base + surfaceLayout.find(cube + ".line_stride")->offset,
                                          base + surfaceLayout.find(cube + ".surf_stride")->offset});
                }
            }
            task.addressList[0] = blobAddress(prefix + "-addr0", kInterfaceDla1, kSubAddr0, version, std::move(blobs.networkDesc));
            task.addressList[1] = blobAddress(prefix + "-dep_graph", kInterfaceDla1, kSubDeps, version, std::move(blobs.dependencyGraph));
            task.addressList[2] = blobAddress(prefix + "-op_list", kInterfaceDla1, kSubOps, version, std::move(blobs.operations));
            task.addressList[3] = blobAddress(prefix + "-surf_list", kInterfaceDla1, kSubSurfs, version, std::move(blobs.surfaces));
            for (const BoundCube& cube : boundCubes)
                relocate(cube.addressId, task.addressList[3], cube.line, cube.surface, kInterfaceDla1);
            if (!blobs.luts.empty())
                task.addressList.push_back(
                    blobAddress(prefix + "-lut_list", kInterfaceDla1, kSubLuts, version, std::move(blobs.luts)));
        } else {
            EmuTaskBuilder& emu = *tasks_[t].emu;
            if (emu.operations_.empty())
                throw Error(fmt::format("EMU task {} has no operation", t));
            task.interface = kInterfaceEmu1;
            const EmuInterface& layout = currentEmuInterface();
            std::vector<std::uint8_t> network(layout.networkDesc.size), ops, buffers;
            Record desc(layout.networkDesc, network);
            desc.set("operation_desc_index", 1);
            desc.set("operation_buffer_desc_index", 2);
            desc.set("num_operations", std::int64_t(emu.operations_.size()));
            for (const auto& op : emu.operations_) {
                ops.insert(ops.end(), op.op.begin(), op.op.end());
                buffers.insert(buffers.end(), op.buffers.begin(), op.buffers.end());
            }
            task.addressList = emu.addressList_;
            task.addressList[0] = blobAddress(prefix + "-addr0", kInterfaceEmu1, kSubAddr0, kEmuInterfaceVersion, std::move(network));
            task.addressList[1] = blobAddress(prefix + "-op_list", kInterfaceEmu1, kSubOps, kEmuInterfaceVersion, std::move(ops));
            task.addressList[2] = blobAddress(prefix + "-op_buf_list", kInterfaceEmu1, kSubSurfs, kEmuInterfaceVersion, std::move(buffers));
            for (std::size_t k = 0; k < emu.operations_.size(); ++k)
                for (std::size_t b = 0; b < 2; ++b) {  // source, destination
                    const std::uint64_t base = k * layout.bufferContainerBytes + b * layout.bufferDesc.size;
                    const ConstRecord buffer(layout.bufferDesc, std::span(emu.operations_[k].buffers).subspan(
                                                                    b * layout.bufferDesc.size, layout.bufferDesc.size));
                    const std::int64_t index = buffer.get("addressIndex");
                    if (index >= 0 && std::size_t(index) < task.addressList.size() &&
                        isBound(task.addressList[std::size_t(index)]))
                        relocate(task.addressList[std::size_t(index)], task.addressList[2],
                                 base + layout.bufferDesc.find("line_stride")->offset,
                                 base + layout.bufferDesc.find("surf_stride")->offset, kInterfaceEmu1);
                }
        }
        if (t > 0) {
            task.preActions.push_back(std::uint16_t(loadable_.events.size()));
            loadable_.events.push_back({std::uint16_t(loadable_.events.size()), 0, 0, chainValue, kEventWait});
        }
        task.postActions.push_back(std::uint16_t(loadable_.events.size()));
        loadable_.events.push_back({std::uint16_t(loadable_.events.size()), 0, 0, ++chainValue, kEventSignal});
        loadable_.tasks.push_back(std::move(task));
        loadable_.submits.push_back({std::uint16_t(t), {std::uint16_t(t)}});
    }
    tasks_.clear();
    Loadable result = std::move(loadable_);
    loadable_ = Loadable{};
    inputs_ = outputs_ = 0;
    return result;
}

}  // namespace tessera::nvdla
