#include "nvdla/loadable_inspector.h"

#include "base/error.h"
#include "nvdla/loadable_contents.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>

namespace tessera::nvdla {

namespace {

const char* dataTypeName(std::uint8_t type)
{
    static const char* const names[] = {"UNKNOWN", "FLOAT", "FP16", "INT16", "INT8", "UINT8", "UINT16"};
    return type < 7 ? names[type] : "?";
}

std::string flagsText(std::uint16_t flags)
{
    std::string text;
    for (const auto& [bit, name] : std::map<std::uint16_t, const char*>{
             {kMemoryAlloc, "ALLOC"}, {kMemorySet, "SET"}, {kMemoryInput, "INPUT"}, {kMemoryOutput, "OUTPUT"}, {16, "DEBUG"}})
        if (flags & bit) {
            if (!text.empty())
                text += '|';
            text += name;
        }
    return text.empty() ? "NONE" : text;
}

std::string tensorText(const TensorDesc& tensor)
{
    return fmt::format("'{}' {}x{}x{}x{} {}", tensor.name, tensor.n, tensor.c, tensor.h, tensor.w,
                       dataTypeName(tensor.dataType));
}

// The bound tensor behind a task address index, if any.
const TensorDesc* boundTensor(const Loadable& loadable, const std::vector<std::uint16_t>& addressList, std::int64_t index)
{
    if (index < 0 || std::size_t(index) >= addressList.size() || addressList[std::size_t(index)] >= loadable.addresses.size())
        return nullptr;
    const std::uint16_t memId = loadable.addresses[addressList[std::size_t(index)]].memId;
    if (memId >= loadable.memories.size())
        return nullptr;
    const MemoryEntry& memory = loadable.memories[memId];
    if (!(memory.flags & (kMemoryInput | kMemoryOutput)) || memory.tensorDescId >= loadable.tensorDescs.size())
        return nullptr;
    return &loadable.tensorDescs[memory.tensorDescId];
}

nlohmann::json recordJson(const ConstRecord& record)
{
    nlohmann::json fields = nlohmann::json::object();
    for (const FieldLayout& field : record.layout().fields) {
        if (field.name.find("reserved") != std::string::npos)
            continue;
        if (field.isFloat)
            fields[field.name] = record.getFloat(field.name);
        else
            fields[field.name] = record.value(field);
    }
    return fields;
}

std::string cubeText(const ConstRecord& surface, const std::string& cube)
{
    return fmt::format("{}x{}x{} @{}", surface.get(cube + ".width"), surface.get(cube + ".height"),
                       surface.get(cube + ".channel"), surface.get(cube + ".address"));
}

}  // namespace

std::string explainLoadable(const Loadable& loadable)
{
    std::string text = fmt::format("NVDLA loadable, format {}: {} tasks, {} submits, {} memories, {} addresses, "
                                   "{} events, {} blobs, {} tensors, {} relocations\n",
                                   loadable.version.text(), loadable.tasks.size(), loadable.submits.size(),
                                   loadable.memories.size(), loadable.addresses.size(), loadable.events.size(),
                                   loadable.blobs.size(), loadable.tensorDescs.size(), loadable.relocs.size());
    for (const TensorDesc& tensor : loadable.tensorDescs) {
        const bool bound = tensor.memId < loadable.memories.size();
        const std::uint16_t flags = bound ? loadable.memories[tensor.memId].flags : 0;
        text += fmt::format("  {} {} in memory {} ({} bytes)\n",
                            flags & kMemoryInput ? "input " : flags & kMemoryOutput ? "output" : "tensor",
                            tensorText(tensor), tensor.memId, tensor.size);
    }
    for (const SubmitEntry& submit : loadable.submits) {
        for (std::uint16_t id : submit.taskIds) {
            if (id >= loadable.tasks.size())
                continue;
            const TaskEntry& task = loadable.tasks[id];
            try {
                if (task.interface == kInterfaceDla1) {
                    const DlaTaskView view = decodeDlaTask(loadable, task);
                    std::map<DlaOp, int> counts;
                    for (const DlaOperationView& op : view.operations)
                        ++counts[op.type];
                    std::string units;
                    for (const auto& [type, count] : counts)
                        units += fmt::format("{}{} {}", units.empty() ? "" : ", ", count, dlaOpName(type));
                    text += fmt::format("task {}: DLA (firmware interface {}), {} operations: {}; {} addresses, {} LUTs\n",
                                        task.id, view.version.text(), view.operations.size(), units,
                                        task.addressList.size(), view.luts.size());
                    for (std::size_t i = 0; i < view.operations.size(); ++i) {
                        const DlaOp type = view.operations[i].type;
                        const ConstRecord surface = view.surface(i);
                        std::string detail;
                        for (const std::string& cube : view.interface->cubes.at(type)) {
                            // Unused cubes: address -1 (or, from NVIDIA's compiler, all dimensions 0);
                            // on-the-fly data only between fused units.
                            const bool onTheFly = surface.get(cube + ".type") == kMemoryHw &&
                                                  (cube == "src_data" || cube == "dst_data");
                            const bool empty = surface.get(cube + ".width") == 0 && surface.get(cube + ".height") == 0 &&
                                               surface.get(cube + ".channel") == 0;
                            if (!onTheFly && (surface.get(cube + ".address") == -1 || empty))
                                continue;
                            detail += fmt::format(" {}={}", cube.substr(0, cube.find('_')),
                                                  onTheFly ? std::string("on-the-fly")
                                                                                          : cubeText(surface, cube));
                            if (const TensorDesc* tensor =
                                    boundTensor(loadable, view.addressList, surface.get(cube + ".address")))
                                detail += fmt::format(" ({})", tensorText(*tensor));
                        }
                        const ConstRecord common = view.common(i);
                        text += fmt::format("  op {:>3} {:<5} waits for {}{}\n", i, dlaOpName(type),
                                            common.get("dependency_count"), detail);
                    }
                } else if (task.interface == kInterfaceEmu1) {
                    const EmuTaskView view = decodeEmuTask(loadable, task);
                    text += fmt::format("task {}: EMU (CPU), {} operations{}\n", task.id, view.operations.size(),
                                        view.interface->withScaleFactors ? "" : " (interface before INT8)");
                    for (std::size_t i = 0; i < view.operations.size(); ++i) {
                        const ConstRecord src = view.source(i), dst = view.destination(i);
                        std::string detail = fmt::format(" src {}x{}x{} @{}", src.get("width"), src.get("height"),
                                                         src.get("channel"), src.get("addressIndex"));
                        if (const TensorDesc* tensor = boundTensor(loadable, view.addressList, src.get("addressIndex")))
                            detail += fmt::format(" ({})", tensorText(*tensor));
                        detail += fmt::format(" dst {}x{}x{} @{}", dst.get("width"), dst.get("height"), dst.get("channel"),
                                              dst.get("addressIndex"));
                        if (const TensorDesc* tensor = boundTensor(loadable, view.addressList, dst.get("addressIndex")))
                            detail += fmt::format(" ({})", tensorText(*tensor));
                        text += fmt::format("  op {:>3} {:<7}{}\n", i,
                                            view.operations[i].opType == kEmuOpSoftmax ? "SOFTMAX" : "POWER", detail);
                    }
                } else {
                    text += fmt::format("task {}: interface {} (unknown)\n", task.id, task.interface);
                }
            } catch (const Error& failure) {
                text += fmt::format("task {}: cannot be decoded: {}\n", task.id, failure.what());
            }
        }
    }
    text += "memories:\n";
    for (const MemoryEntry& memory : loadable.memories) {
        text += fmt::format("  {:>4} {:<14} {:>10} bytes, align {}", memory.id, flagsText(memory.flags), memory.size,
                            memory.alignment);
        for (std::size_t c = 0; c < memory.contents.size(); ++c)
            text += fmt::format(" {}'{}'", c == 0 ? "<- " : ", ", memory.contents[c]);
        text += "\n";
    }
    return text;
}

nlohmann::json loadableToJson(const Loadable& loadable)
{
    using nlohmann::json;
    json document;
    document["version"] = loadable.version.text();
    document["file_identifier"] = loadable.hasFileIdentifier;
    json memories = json::array(), addresses = json::array(), events = json::array(), blobs = json::array(),
         tensors = json::array(), relocs = json::array(), submits = json::array(), tasks = json::array();
    for (const MemoryEntry& m : loadable.memories)
        memories.push_back({{"id", m.id}, {"domain", m.domain}, {"flags", flagsText(m.flags)}, {"size", m.size},
                            {"alignment", m.alignment}, {"contents", m.contents}, {"offsets", m.offsets},
                            {"bind_id", m.bindId}, {"tensor_desc_id", m.tensorDescId}});
    for (const AddressEntry& a : loadable.addresses)
        addresses.push_back({{"id", a.id}, {"mem_id", a.memId}, {"offset", a.offset}, {"size", a.size}});
    for (const EventEntry& e : loadable.events)
        events.push_back({{"id", e.id}, {"type", e.type}, {"target", e.target}, {"val", e.value},
                          {"op", e.op == kEventWait ? "WAIT" : e.op == kEventSignal ? "SIGNAL" : "?"}});
    for (const LoadableBlob& b : loadable.blobs)
        blobs.push_back({{"name", b.name}, {"size", b.size}, {"interface", b.interface},
                         {"sub_interface", b.subInterface}, {"version", b.version.text()}});
    for (const TensorDesc& t : loadable.tensorDescs)
        tensors.push_back({{"name", t.name}, {"id", t.id}, {"mem_id", t.memId}, {"size", t.size}, {"offset", t.offset},
                           {"data_format", t.dataFormat}, {"data_type", dataTypeName(t.dataType)},
                           {"data_category", t.dataCategory}, {"pixel_format", t.pixelFormat},
                           {"pixel_mapping", t.pixelMapping}, {"nchw", {t.n, t.c, t.h, t.w}}, {"strides", t.strides}});
    for (const RelocEntry& r : loadable.relocs)
        relocs.push_back({{"address_id", r.addressId}, {"write_id", r.writeId}, {"offset", r.offset},
                          {"interface", r.interface}, {"sub_interface", r.subInterface}, {"reloc_type", r.relocType}});
    for (const SubmitEntry& s : loadable.submits)
        submits.push_back({{"id", s.id}, {"task_id", s.taskIds}});
    for (const TaskEntry& task : loadable.tasks) {
        json entry = {{"id", task.id},
                      {"interface", task.interface == kInterfaceDla1   ? "DLA1"
                                    : task.interface == kInterfaceEmu1 ? "EMU1"
                                                                       : "?"},
                      {"instance", task.instance},
                      {"address_list", task.addressList},
                      {"pre_actions", task.preActions},
                      {"post_actions", task.postActions}};
        try {
            if (task.interface == kInterfaceDla1) {
                const DlaTaskView view = decodeDlaTask(loadable, task);
                entry["firmware_interface"] = view.version.text();
                entry["network_desc"] = recordJson(view.network());
                json operations = json::array();
                for (std::size_t i = 0; i < view.operations.size(); ++i)
                    operations.push_back({{"unit", dlaOpName(view.operations[i].type)},
                                          {"common", recordJson(view.common(i))},
                                          {"op", recordJson(view.op(i))},
                                          {"surface", recordJson(view.surface(i))}});
                entry["operations"] = operations;
                json luts = json::array();
                for (const auto& lut : view.luts)
                    luts.push_back(recordJson(ConstRecord(view.interface->lutParam, lut)));
                entry["luts"] = luts;
            } else if (task.interface == kInterfaceEmu1) {
                const EmuTaskView view = decodeEmuTask(loadable, task);
                entry["emu_interface"] = view.interface->withScaleFactors ? "0.0.1" : "0.0.1 (before INT8)";
                json operations = json::array();
                for (std::size_t i = 0; i < view.operations.size(); ++i)
                    operations.push_back({{"op", view.operations[i].opType == kEmuOpSoftmax ? "SOFTMAX" : "POWER"},
                                          {"desc", recordJson(view.opDesc(i))},
                                          {"src_data", recordJson(view.source(i))},
                                          {"dst_data", recordJson(view.destination(i))}});
                entry["operations"] = operations;
            }
        } catch (const Error& failure) {
            entry["decode_error"] = failure.what();
        }
        tasks.push_back(entry);
    }
    document["task_list"] = tasks;
    document["memory_list"] = memories;
    document["address_list"] = addresses;
    document["event_list"] = events;
    document["blobs"] = blobs;
    document["tensor_desc_list"] = tensors;
    document["reloc_list"] = relocs;
    document["submit_list"] = submits;
    return document;
}

}  // namespace tessera::nvdla
