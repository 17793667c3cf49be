#include "nvdla/loadable_contents.h"

#include "base/error.h"

#include <fmt/format.h>

namespace tessera::nvdla {

std::optional<ResolvedAddress> resolveAddress(const Loadable& loadable, std::uint32_t addressId, std::string& problem)
{
    if (addressId >= loadable.addresses.size()) {
        problem = fmt::format("address id {} does not exist (the address list has {} entries)", addressId,
                              loadable.addresses.size());
        return std::nullopt;
    }
    ResolvedAddress resolved;
    resolved.address = &loadable.addresses[addressId];
    if (resolved.address->memId >= loadable.memories.size()) {
        problem = fmt::format("address_list[{}].mem_id {} does not exist (the memory list has {} entries)", addressId,
                              resolved.address->memId, loadable.memories.size());
        return std::nullopt;
    }
    resolved.memory = &loadable.memories[resolved.address->memId];
    const MemoryEntry& memory = *resolved.memory;
    for (std::size_t i = 0; i < memory.contents.size() && i < memory.offsets.size(); ++i) {
        const LoadableBlob* blob = loadable.blob(memory.contents[i]);
        if (!blob)
            continue;
        const std::uint64_t start = memory.offsets[i], offset = resolved.address->offset;
        if (offset >= start && offset - start < blob->data.size()) {
            resolved.blob = blob;
            resolved.bytes = std::span(blob->data).subspan(std::size_t(offset - start));
            break;
        }
    }
    return resolved;
}

namespace {

// The bytes of the task's local address `index`, which must hold at least `needed` bytes.
std::span<const std::uint8_t> taskBytes(const Loadable& loadable, const TaskEntry& task, std::int64_t index,
                                        std::uint64_t needed, const std::string& what, const LoadableBlob** blob = nullptr)
{
    if (index < 0 || std::uint64_t(index) >= task.addressList.size())
        throw ModelError(fmt::format("task {}: {} is at task address index {}, outside its address list of {}", task.id,
                                     what, index, task.addressList.size()));
    std::string problem;
    const auto resolved = resolveAddress(loadable, task.addressList[std::size_t(index)], problem);
    if (!resolved)
        throw ModelError(fmt::format("task {}: {}: {}", task.id, what, problem));
    if (resolved->bytes.size() < needed)
        throw ModelError(fmt::format("task {}: {} needs {} bytes at address {}, but {} holds {}", task.id, what, needed,
                                     task.addressList[std::size_t(index)],
                                     resolved->blob ? "blob '" + resolved->blob->name + "'" : std::string("no blob"),
                                     resolved->bytes.size()));
    if (blob)
        *blob = resolved->blob;
    return resolved->bytes.first(std::size_t(needed));
}

}  // namespace

DlaTaskView decodeDlaTask(const Loadable& loadable, const TaskEntry& task)
{
    DlaTaskView view;
    view.addressList = task.addressList;
    const LoadableBlob* networkBlob = nullptr;
    taskBytes(loadable, task, 0, 1, "the network descriptor (index 0)", &networkBlob);
    view.version = networkBlob->version;
    view.interface = dlaInterfaceFor(view.version);
    if (!view.interface)
        throw ModelError(fmt::format("task {}: blob '{}' declares firmware interface {}; Tessera reads 0.10.x, 0.11.x "
                                     "and 0.12.x and refuses to guess at others",
                                     task.id, networkBlob->name, view.version.text()));
    const DlaInterface& dla = *view.interface;
    const auto networkSpan = taskBytes(loadable, task, 0, dla.networkDesc.size, "dla_network_desc");
    view.networkBytes.assign(networkSpan.begin(), networkSpan.end());
    const ConstRecord network = view.network();
    const auto count = std::uint64_t(network.get("num_operations"));
    const auto deps = taskBytes(loadable, task, network.get("dependency_graph_index"), count * dla.commonOpDesc.size,
                                fmt::format("the dependency graph ({} x dla_common_op_desc)", count));
    const auto ops = taskBytes(loadable, task, network.get("operation_desc_index"), count * dla.opContainerSize.size,
                               fmt::format("the operation list ({} x dla_operation_container)", count));
    const auto surfaces = taskBytes(loadable, task, network.get("surface_desc_index"),
                                    count * dla.surfaceContainerSize.size,
                                    fmt::format("the surface list ({} x dla_surface_container)", count));
    for (std::uint64_t i = 0; i < count; ++i) {
        DlaOperationView op;
        op.common = deps.subspan(std::size_t(i * dla.commonOpDesc.size), dla.commonOpDesc.size);
        const std::int64_t type = ConstRecord(dla.commonOpDesc, op.common).get("op_type");
        if (type < 0 || type >= std::int64_t(kDlaOpCount))
            throw ModelError(fmt::format("task {}: operation {}: op_type {} is not a DLA unit (0..5)", task.id, i, type));
        op.type = DlaOp(type);
        op.op = ops.subspan(std::size_t(i * dla.opContainerSize.size), dla.opContainerSize.size);
        op.surface = surfaces.subspan(std::size_t(i * dla.surfaceContainerSize.size), dla.surfaceContainerSize.size);
        view.operations.push_back(op);
    }
    const auto lutCount = std::uint64_t(network.get("num_luts"));
    if (lutCount > 0) {
        const auto luts = taskBytes(loadable, task, network.get("lut_data_index"), lutCount * dla.lutParam.size,
                                    fmt::format("the LUT list ({} x dla_lut_param)", lutCount));
        for (std::uint64_t i = 0; i < lutCount; ++i)
            view.luts.push_back(luts.subspan(std::size_t(i * dla.lutParam.size), dla.lutParam.size));
    }
    return view;
}

ConstRecord EmuTaskView::opDesc(std::size_t i) const
{
    const EmuOperationView& op = operations[i];
    return ConstRecord(op.opType == kEmuOpSoftmax ? interface->softmaxOpDesc : interface->powerOpDesc, op.op);
}

EmuTaskView decodeEmuTask(const Loadable& loadable, const TaskEntry& task)
{
    EmuTaskView view;
    view.addressList = task.addressList;
    const LoadableBlob* networkBlob = nullptr;
    const StructLayout& networkLayout = currentEmuInterface().networkDesc;  // the same in both revisions
    const auto networkSpan = taskBytes(loadable, task, 0, networkLayout.size, "emu_network_desc", &networkBlob);
    if (!(networkBlob->version == kEmuInterfaceVersion))
        throw ModelError(fmt::format("task {}: blob '{}' declares EMU interface {}; Tessera reads {} only", task.id,
                                     networkBlob->name, networkBlob->version.text(), kEmuInterfaceVersion.text()));
    const ConstRecord desc(networkLayout, networkSpan);
    const auto count = std::uint64_t(desc.get("num_operations"));
    // The INT8 revision of the interface made the operations 24 bytes instead of 16, without a new
    // version: the operation blob's size tells the two apart.
    std::string problem;
    const std::int64_t opIndex = desc.get("operation_desc_index");
    if (opIndex < 0 || std::size_t(opIndex) >= task.addressList.size())
        throw ModelError(fmt::format("task {}: emu operation_desc_index {} is outside the task's {} addresses", task.id,
                                     opIndex, task.addressList.size()));
    const auto opsAddress = resolveAddress(loadable, task.addressList[std::size_t(opIndex)], problem);
    view.interface = &currentEmuInterface();
    if (opsAddress && opsAddress->blob && count > 0 &&
        opsAddress->bytes.size() == count * preInt8EmuInterface().opContainerBytes)
        view.interface = &preInt8EmuInterface();
    const EmuInterface& emu = *view.interface;
    const auto ops = taskBytes(loadable, task, opIndex, count * emu.opContainerBytes,
                               fmt::format("the EMU operation list ({} x {} bytes)", count, emu.opContainerBytes));
    const auto buffers = taskBytes(loadable, task, desc.get("operation_buffer_desc_index"),
                                   count * emu.bufferContainerBytes,
                                   fmt::format("the EMU buffer list ({} x {} bytes)", count, emu.bufferContainerBytes));
    for (std::uint64_t i = 0; i < count; ++i) {
        EmuOperationView op;
        op.op = ops.subspan(std::size_t(i * emu.opContainerBytes), emu.opContainerBytes);
        op.opType = std::uint8_t(ConstRecord(emu.commonOpDesc, op.op).get("op_type"));
        if (op.opType != kEmuOpPower && op.opType != kEmuOpSoftmax)
            throw ModelError(fmt::format("task {}: EMU operation {}: op_type {} is neither POWER (0) nor SOFTMAX (1)",
                                         task.id, i, op.opType));
        op.source = buffers.subspan(std::size_t(i * emu.bufferContainerBytes), emu.bufferDesc.size);
        op.destination = buffers.subspan(std::size_t(i * emu.bufferContainerBytes + emu.bufferDesc.size),
                                         emu.bufferDesc.size);
        view.operations.push_back(op);
    }
    return view;
}

}  // namespace tessera::nvdla
