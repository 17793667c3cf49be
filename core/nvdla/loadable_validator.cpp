#include "nvdla/loadable_validator.h"

#include "base/error.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/validator_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace tessera::nvdla {

namespace {

class Checker {
public:
    explicit Checker(const Loadable& loadable) : l_(loadable) {}

    std::vector<Finding> run()
    {
        container();
        ids();
        memories();
        addresses();
        tasks();
        submits();
        tensors();
        relocs();
        for (const TaskEntry& task : l_.tasks) {
            if (task.interface == kInterfaceDla1)
                dlaTask(task);
            else if (task.interface == kInterfaceEmu1)
                emuTask(task);
        }
        return std::move(findings_.all);
    }

private:
    template <typename... Args>
    void error(const std::string& where, fmt::format_string<Args...> format, Args&&... args)
    {
        findings_.error(where, format, std::forward<Args>(args)...);
    }
    template <typename... Args>
    void warning(const std::string& where, fmt::format_string<Args...> format, Args&&... args)
    {
        findings_.warning(where, format, std::forward<Args>(args)...);
    }

    void container()
    {
        for (unsigned i = 0; i < kLoadableListCount; ++i)
            if (!l_.listPresent[i])
                error(loadableListName(LoadableList(i)),
                      "missing; NVIDIA's runtime reads all eight lists and crashes on an absent one (write it empty)");
        if (!l_.hasFileIdentifier)
            warning("file identifier", "bytes 4..7 are not \"NVDA\" (NVIDIA's compiler writes it; its runtime does not "
                                       "check it)");
        if (!l_.alignedForVerifier)
            warning("container", "FlatBuffers' verifier with alignment checks fails: some 64-bit fields are not 8-byte "
                                 "aligned (readers without those checks still read it)");
        if (l_.version.major != 0 || l_.version.minor != 7)
            error("version", "loadable format {} is not the 0.7.x this runtime reads", l_.version.text());
    }

    template <typename List>
    void denseIds(const List& list, const char* name)
    {
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].id != i)
                error(fmt::format("{}[{}].id", name, i), "is {}; ids run from 0 in list order", list[i].id);
    }

    void ids()
    {
        denseIds(l_.tasks, "task_list");
        denseIds(l_.memories, "memory_list");
        denseIds(l_.addresses, "address_list");
        denseIds(l_.events, "event_list");
        denseIds(l_.tensorDescs, "tensor_desc_list");
        denseIds(l_.submits, "submit_list");
        std::set<std::string> names;
        for (std::size_t i = 0; i < l_.blobs.size(); ++i) {
            const LoadableBlob& blob = l_.blobs[i];
            if (!names.insert(blob.name).second)
                error(fmt::format("blobs[{}].name", i), "'{}' is used by an earlier blob too", blob.name);
            if (blob.size != blob.data.size())
                error(fmt::format("blobs[{}].size", i), "is {} but the blob '{}' holds {} bytes", blob.size, blob.name,
                      blob.data.size());
        }
    }

    void memories()
    {
        std::map<std::pair<bool, std::uint16_t>, std::size_t> bindIds;
        for (std::size_t i = 0; i < l_.memories.size(); ++i) {
            const MemoryEntry& memory = l_.memories[i];
            const std::string where = fmt::format("memory_list[{}]", i);
            if (memory.alignment != 0 && (memory.alignment & (memory.alignment - 1)) != 0)
                error(where + ".alignment", "{} is not a power of two", memory.alignment);
            if (memory.flags & kMemorySet) {
                if (memory.contents.size() != memory.offsets.size())
                    error(where + ".offsets", "has {} entries for {} contents", memory.offsets.size(),
                          memory.contents.size());
                for (std::size_t c = 0; c < memory.contents.size(); ++c) {
                    const LoadableBlob* blob = l_.blob(memory.contents[c]);
                    if (!blob) {
                        error(fmt::format("{}.contents[{}]", where, c), "names blob '{}', which does not exist",
                              memory.contents[c]);
                        continue;
                    }
                    const std::uint64_t offset = c < memory.offsets.size() ? memory.offsets[c] : 0;
                    if (offset > memory.size || blob->data.size() > memory.size - offset)
                        error(fmt::format("{}.contents[{}]", where, c),
                              "blob '{}' ({} bytes at offset {}) does not fit the memory's {} bytes", blob->name,
                              blob->data.size(), offset, memory.size);
                }
            }
            const bool input = memory.flags & kMemoryInput, output = memory.flags & kMemoryOutput;
            if (input && output)
                error(where + ".flags", "is both INPUT and OUTPUT");
            if (input || output) {
                if (memory.tensorDescId >= l_.tensorDescs.size())
                    error(where + ".tensor_desc_id", "{} does not exist (the tensor list has {} entries)",
                          memory.tensorDescId, l_.tensorDescs.size());
                const auto key = std::make_pair(input, memory.bindId);
                if (bindIds.count(key))
                    error(where + ".bind_id", "{} {} is bound by memory_list[{}] too", input ? "input" : "output",
                          memory.bindId, bindIds[key]);
                bindIds[key] = i;
            }
        }
        for (bool input : {true, false}) {
            std::uint16_t expected = 0;
            for (const auto& [key, index] : bindIds)
                if (key.first == input && key.second != expected++)
                    error(fmt::format("memory_list[{}].bind_id", index),
                          "{} bind ids must run from 0 without gaps; {} is missing", input ? "input" : "output",
                          expected - 1);
        }
    }

    void addresses()
    {
        for (std::size_t i = 0; i < l_.addresses.size(); ++i) {
            const AddressEntry& address = l_.addresses[i];
            if (address.memId >= l_.memories.size()) {
                error(fmt::format("address_list[{}].mem_id", i), "{} does not exist (the memory list has {} entries)",
                      address.memId, l_.memories.size());
                continue;
            }
            const std::uint64_t size = l_.memories[address.memId].size;
            if (address.offset > size || address.size > size - address.offset)
                error(fmt::format("address_list[{}]", i), "offset {} + size {} passes the end of memory {} ({} bytes)",
                      address.offset, address.size, address.memId, size);
        }
    }

    void tasks()
    {
        for (std::size_t t = 0; t < l_.tasks.size(); ++t) {
            const TaskEntry& task = l_.tasks[t];
            const std::string where = fmt::format("task_list[{}]", t);
            if (task.interface != kInterfaceDla1 && task.interface != kInterfaceEmu1)
                error(where + ".interface", "{} is neither DLA1 (1) nor EMU1 (2)", task.interface);
            if (task.addressList.empty())
                error(where + ".address_list", "is empty; index 0 must be the task's network descriptor");
            if (task.addressList.size() > 6144)
                error(where + ".address_list", "has {} entries; the runtime takes at most 6144",
                      task.addressList.size());
            for (std::size_t a = 0; a < task.addressList.size(); ++a)
                if (task.addressList[a] >= l_.addresses.size())
                    error(fmt::format("{}.address_list[{}]", where, a), "address id {} does not exist",
                          task.addressList[a]);
            for (const auto* actions : {&task.preActions, &task.postActions})
                for (std::size_t e = 0; e < actions->size(); ++e)
                    if ((*actions)[e] >= l_.events.size())
                        error(fmt::format("{}.{}[{}]", where, actions == &task.preActions ? "pre_actions" : "post_actions",
                                          e),
                              "event id {} does not exist", (*actions)[e]);
        }
    }

    void submits()
    {
        std::vector<int> submitted(l_.tasks.size(), 0);
        // Event values signalled so far, per chain (target), in submit order.
        std::map<std::uint16_t, std::set<std::uint32_t>> signalled;
        for (std::size_t s = 0; s < l_.submits.size(); ++s) {
            for (std::size_t k = 0; k < l_.submits[s].taskIds.size(); ++k) {
                const std::uint16_t id = l_.submits[s].taskIds[k];
                if (id >= l_.tasks.size()) {
                    error(fmt::format("submit_list[{}].task_id[{}]", s, k), "task {} does not exist", id);
                    continue;
                }
                ++submitted[id];
                for (std::uint16_t e : l_.tasks[id].preActions)
                    if (e < l_.events.size() && l_.events[e].op == kEventWait &&
                        !signalled[l_.events[e].target].count(l_.events[e].value))
                        error(fmt::format("task_list[{}].pre_actions", id),
                              "waits for event {} (chain {}, value {}), which no task submitted before it signals", e,
                              l_.events[e].target, l_.events[e].value);
            }
            for (std::uint16_t id : l_.submits[s].taskIds)
                if (id < l_.tasks.size())
                    for (std::uint16_t e : l_.tasks[id].postActions)
                        if (e < l_.events.size() && l_.events[e].op == kEventSignal)
                            signalled[l_.events[e].target].insert(l_.events[e].value);
        }
        for (std::size_t t = 0; t < submitted.size(); ++t)
            if (submitted[t] != 1)
                error(fmt::format("task_list[{}]", t), "is submitted {} times; every task is submitted once",
                      submitted[t]);
    }

    void tensors()
    {
        for (std::size_t i = 0; i < l_.tensorDescs.size(); ++i) {
            const TensorDesc& tensor = l_.tensorDescs[i];
            if (tensor.memId >= l_.memories.size()) {
                error(fmt::format("tensor_desc_list[{}].mem_id", i), "{} does not exist", tensor.memId);
                continue;
            }
            const std::uint64_t size = l_.memories[tensor.memId].size;
            if (tensor.offset > size || tensor.size > size - tensor.offset)
                error(fmt::format("tensor_desc_list[{}]", i), "'{}' ({} bytes at {}) passes the end of memory {} ({} bytes)",
                      tensor.name, tensor.size, tensor.offset, tensor.memId, size);
            if (tensor.n < 1 || tensor.c < 1 || tensor.h < 1 || tensor.w < 1)
                error(fmt::format("tensor_desc_list[{}]", i), "'{}' has dimensions {}x{}x{}x{}; each must be at least 1",
                      tensor.name, tensor.n, tensor.c, tensor.h, tensor.w);
        }
    }

    void relocs()
    {
        for (std::size_t i = 0; i < l_.relocs.size(); ++i) {
            const RelocEntry& reloc = l_.relocs[i];
            if (reloc.addressId >= l_.addresses.size())
                error(fmt::format("reloc_list[{}].address_id", i), "{} does not exist", reloc.addressId);
            // The runtime looks the write id up among the memories and writes 32 bits at the offset.
            if (reloc.writeId >= l_.memories.size())
                error(fmt::format("reloc_list[{}].write_id", i), "memory {} does not exist", reloc.writeId);
            else if (reloc.offset + 4 > l_.memories[reloc.writeId].size)
                error(fmt::format("reloc_list[{}].offset", i), "{} is outside the {} bytes of memory {}", reloc.offset,
                      l_.memories[reloc.writeId].size, reloc.writeId);
            if (reloc.relocType != 1 && reloc.relocType != 2)
                error(fmt::format("reloc_list[{}].reloc_type", i), "{} is neither 1 (line stride) nor 2 (surface stride)",
                      reloc.relocType);
        }
    }

    void dlaTask(const TaskEntry& task);
    void emuTask(const TaskEntry& task);

    const Loadable& l_;
    FindingList findings_;
};

void Checker::dlaTask(const TaskEntry& task)
{
    const std::string where = fmt::format("task {}", task.id);
    DlaTaskView view;
    try {
        view = decodeDlaTask(l_, task);
    } catch (const Error& failure) {
        error(where, "{}", failure.what());
        return;
    }
    const ConstRecord network = view.network();
    if (std::uint64_t(network.get("num_addresses")) != task.addressList.size())
        error(where + " dla_network_desc.num_addresses", "is {}, but the task's address list has {} entries",
              network.get("num_addresses"), task.addressList.size());
    if (network.get("num_rois") < 1)
        error(where + " dla_network_desc.num_rois", "is 0; the firmware processes num_rois - 1 as the last ROI");
    const std::size_t count = view.operations.size();
    if (count == 0)
        warning(where, "has no operation");
    for (unsigned unit = 0; unit < kDlaOpCount; ++unit) {
        std::int64_t first = -1;
        for (std::size_t i = 0; i < count; ++i)
            if (unsigned(view.operations[i].type) == unit) {
                first = std::int64_t(i);
                break;
            }
        const std::int64_t head = network.get(fmt::format("op_head[{}]", unit));
        if (head != first)
            error(fmt::format("{} dla_network_desc.op_head[{}]", where, unit), "is {} but the first {} operation is {}",
                  head, dlaOpName(DlaOp(unit)), first);
    }
    const auto numLuts = network.get("num_luts");
    for (std::size_t i = 0; i < count; ++i) {
        const std::string opWhere = fmt::format("{} op {} ({})", where, i, dlaOpName(view.operations[i].type));
        const ConstRecord surface = view.surface(i);
        for (const std::string& cube : view.interface->cubes.at(view.operations[i].type)) {
            const std::int64_t address = surface.get(cube + ".address");
            const std::int64_t type = surface.get(cube + ".type");
            if (address == -1)
                continue;
            if (address < -1 || address >= std::int64_t(task.addressList.size())) {
                error(opWhere + " " + cube + ".address", "task address index {} is outside the task's {} addresses",
                      address, task.addressList.size());
                continue;
            }
            if (type != kMemoryMc && type != kMemoryCv)
                continue;
            const AddressEntry* entry = task.addressList[std::size_t(address)] < l_.addresses.size()
                                            ? &l_.addresses[task.addressList[std::size_t(address)]]
                                            : nullptr;
            if (!entry)
                continue;
            const std::int64_t offset = view.interface->dataCube.find("offset") ? surface.get(cube + ".offset") : 0;
            const std::int64_t size = surface.get(cube + ".size");
            if (std::uint64_t(offset + size) > entry->size)
                error(opWhere + " " + cube, "offset {} + size {} passes the end of address {} ({} bytes)", offset, size,
                      entry->id, entry->size);
        }
        const DlaOp type = view.operations[i].type;
        if (type == DlaOp::Sdp || type == DlaOp::Cdp) {
            const std::int64_t lut = view.op(i).get("lut_index");
            if (lut != -1 && (lut < 0 || lut >= numLuts))
                error(opWhere + " lut_index", "{} is not one of the task's {} LUTs", lut, numLuts);
        }
        checkFirmwareRules(findings_, view, i, opWhere);
    }
    checkDependencyGraph(findings_, view, where);
}

// What NVIDIA's firmware asserts or writes minus one (conv.c, sdp.c, pdp.c) when it programs an
// operation; a value it would reject or wrap is an error here.
void Checker::emuTask(const TaskEntry& task)
{
    const std::string where = fmt::format("task {}", task.id);
    EmuTaskView view;
    try {
        view = decodeEmuTask(l_, task);
    } catch (const Error& failure) {
        error(where, "{}", failure.what());
        return;
    }
    for (std::size_t i = 0; i < view.operations.size(); ++i)
        for (const bool source : {true, false}) {
            const ConstRecord buffer = source ? view.source(i) : view.destination(i);
            const std::string bufferWhere =
                fmt::format("{} EMU op {} {}.addressIndex", where, i, source ? "src_data" : "dst_data");
            const std::int64_t index = buffer.get("addressIndex");
            if (index < 0 || std::size_t(index) >= task.addressList.size()) {
                error(bufferWhere, "{} is outside the task's {} addresses", index, task.addressList.size());
                continue;
            }
            const std::uint16_t id = task.addressList[std::size_t(index)];
            if (id >= l_.addresses.size())
                continue;
            const std::int64_t offset = buffer.layout().find("addressIndexOffset") ? buffer.get("addressIndexOffset") : 0;
            if (std::uint64_t(offset + buffer.get("size")) > l_.addresses[id].size)
                error(bufferWhere, "offset {} + size {} passes the end of address {} ({} bytes)", offset,
                      buffer.get("size"), id, l_.addresses[id].size);
            const std::int64_t format = buffer.get("format");
            if (format > 5)
                error(fmt::format("{} EMU op {} {}.format", where, i, source ? "src_data" : "dst_data"),
                      "{} is not an EMU buffer format (0..5)", format);
        }
}

}  // namespace

std::vector<Finding> validateLoadable(const Loadable& loadable) { return Checker(loadable).run(); }

bool isValid(const std::vector<Finding>& findings)
{
    return std::none_of(findings.begin(), findings.end(),
                        [](const Finding& finding) { return finding.severity == Finding::Severity::Error; });
}

std::string formatFindings(const std::vector<Finding>& findings)
{
    std::string text;
    for (const Finding& finding : findings)
        text += fmt::format("{}: {}: {}\n", finding.severity == Finding::Severity::Error ? "error" : "warning",
                            finding.where, finding.message);
    return text;
}

}  // namespace tessera::nvdla
