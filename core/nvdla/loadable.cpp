#include "nvdla/loadable.h"

#include "base/error.h"

#include "loadable_generated.h"  // from loadable.fbs, by flatc at build time

#include <fmt/format.h>

namespace tessera::nvdla {

namespace fb = ::nvdla::loadable;

const char* loadableListName(LoadableList list)
{
    static const char* const names[] = {"task_list", "memory_list", "address_list", "event_list",
                                        "blobs",     "tensor_desc_list", "reloc_list", "submit_list"};
    return names[unsigned(list)];
}

const LoadableBlob* Loadable::blob(const std::string& name) const
{
    for (const LoadableBlob& candidate : blobs)
        if (candidate.name == name)
            return &candidate;
    return nullptr;
}

std::vector<std::uint8_t> writeLoadable(const Loadable& loadable)
{
    flatbuffers::FlatBufferBuilder builder(1 << 16);

    std::vector<flatbuffers::Offset<fb::TaskListEntry>> tasks;
    for (const TaskEntry& task : loadable.tasks)
        tasks.push_back(fb::CreateTaskListEntry(builder, task.id, fb::Interface(task.interface), task.instance,
                                                builder.CreateVector(task.addressList),
                                                builder.CreateVector(task.preActions),
                                                builder.CreateVector(task.postActions)));
    std::vector<flatbuffers::Offset<fb::MemoryListEntry>> memories;
    for (const MemoryEntry& memory : loadable.memories)
        memories.push_back(fb::CreateMemoryListEntry(
            builder, memory.id, fb::MemoryDomain(memory.domain), fb::MemoryFlags(memory.flags), memory.size,
            memory.alignment, builder.CreateVectorOfStrings(memory.contents), builder.CreateVector(memory.offsets),
            memory.bindId, memory.tensorDescId));
    std::vector<flatbuffers::Offset<fb::AddressListEntry>> addresses;
    for (const AddressEntry& address : loadable.addresses)
        addresses.push_back(fb::CreateAddressListEntry(builder, address.id, address.memId, address.offset, address.size));
    std::vector<flatbuffers::Offset<fb::EventListEntry>> events;
    for (const EventEntry& event : loadable.events)
        events.push_back(fb::CreateEventListEntry(builder, event.id, fb::EventType(event.type), event.target,
                                                  event.value, fb::EventOp(event.op)));
    std::vector<flatbuffers::Offset<fb::Blob>> blobs;
    for (const LoadableBlob& blob : loadable.blobs) {
        const fb::Version version(blob.version.major, blob.version.minor, blob.version.subMinor);
        blobs.push_back(fb::CreateBlob(builder, builder.CreateString(blob.name), blob.size,
                                       fb::Interface(blob.interface), blob.subInterface, &version,
                                       builder.CreateVector(blob.data)));
    }
    std::vector<flatbuffers::Offset<fb::TensorDescListEntry>> tensors;
    for (const TensorDesc& tensor : loadable.tensorDescs) {
        const auto& s = tensor.strides;
        tensors.push_back(fb::CreateTensorDescListEntry(
            builder, builder.CreateString(tensor.name), tensor.id, tensor.memId, tensor.size, tensor.offset,
            fb::DataFormat(tensor.dataFormat), fb::DataType(tensor.dataType), fb::DataCategory(tensor.dataCategory),
            fb::PixelFormat(tensor.pixelFormat), fb::PixelMapping(tensor.pixelMapping), tensor.n, tensor.c, tensor.h,
            tensor.w, s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]));
    }
    std::vector<flatbuffers::Offset<fb::RelocListEntry>> relocs;
    for (const RelocEntry& reloc : loadable.relocs)
        relocs.push_back(fb::CreateRelocListEntry(builder, reloc.addressId, reloc.writeId, reloc.offset,
                                                  reloc.interface, reloc.subInterface, reloc.relocType));
    std::vector<flatbuffers::Offset<fb::SubmitListEntry>> submits;
    for (const SubmitEntry& submit : loadable.submits)
        submits.push_back(fb::CreateSubmitListEntry(builder, submit.id, builder.CreateVector(submit.taskIds)));

    // Every list is written even when empty: NVIDIA's reader dereferences all eight.
    const fb::Version version(loadable.version.major, loadable.version.minor, loadable.version.subMinor);
    const auto root = fb::CreateLoadable(builder, &version, builder.CreateVector(tasks), builder.CreateVector(memories),
                                         builder.CreateVector(addresses), builder.CreateVector(events),
                                         builder.CreateVector(blobs), builder.CreateVector(tensors),
                                         builder.CreateVector(relocs), builder.CreateVector(submits));
    fb::FinishLoadableBuffer(builder, root);
    return {builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize()};
}

namespace {

template <typename T>
std::vector<T> copied(const flatbuffers::Vector<T>* vector)
{
    return vector ? std::vector<T>(vector->begin(), vector->end()) : std::vector<T>{};
}

std::string text(const flatbuffers::String* string) { return string ? string->str() : std::string{}; }

bool verifies(std::span<const std::uint8_t> bytes, bool checkAlignment)
{
    flatbuffers::Verifier::Options options;
    options.check_alignment = checkAlignment;
    flatbuffers::Verifier verifier(bytes.data(), bytes.size(), options);
    return verifier.VerifyBuffer<fb::Loadable>(nullptr);
}

}  // namespace

Loadable readLoadable(std::span<const std::uint8_t> bytes, const std::string& source)
{
    if (bytes.size() < 8)
        throw ModelError(fmt::format("{}: {} bytes is too short for an NVDLA loadable (a FlatBuffers file)", source,
                                     bytes.size()));
    if (bytes.size() >= (std::size_t(1) << 31))
        throw ModelError(fmt::format("{}: {} bytes is larger than any FlatBuffers file can be", source, bytes.size()));
    Loadable loadable;
    loadable.alignedForVerifier = verifies(bytes, true);
    if (!loadable.alignedForVerifier && !verifies(bytes, false))
        throw ModelError(fmt::format("{}: not an NVDLA loadable: the FlatBuffers structure is corrupt or truncated "
                                     "(an offset or length points outside the file's {} bytes)",
                                     source, bytes.size()));
    loadable.hasFileIdentifier = flatbuffers::BufferHasIdentifier(bytes.data(), fb::LoadableIdentifier());
    const fb::Loadable* root = fb::GetLoadable(bytes.data());
    if (!root->version())
        throw ModelError(fmt::format("{}: not an NVDLA loadable: the required 'version' is missing", source));
    loadable.version = {root->version()->major(), root->version()->minor(), root->version()->sub_minor()};
    loadable.listPresent = {root->task_list() != nullptr,    root->memory_list() != nullptr,
                            root->address_list() != nullptr, root->event_list() != nullptr,
                            root->blobs() != nullptr,        root->tensor_desc_list() != nullptr,
                            root->reloc_list() != nullptr,   root->submit_list() != nullptr};
    if (root->task_list())
        for (const fb::TaskListEntry* task : *root->task_list())
            loadable.tasks.push_back({task->id(), std::uint32_t(task->interface()), task->instance(),
                                      copied(task->address_list()), copied(task->pre_actions()),
                                      copied(task->post_actions())});
    if (root->memory_list())
        for (const fb::MemoryListEntry* memory : *root->memory_list()) {
            MemoryEntry entry{memory->id(), std::uint8_t(memory->domain()), std::uint16_t(memory->flags()),
                              memory->size(), memory->alignment(), {}, copied(memory->offsets()),
                              memory->bind_id(), memory->tensor_desc_id()};
            if (memory->contents())
                for (const flatbuffers::String* name : *memory->contents())
                    entry.contents.push_back(text(name));
            loadable.memories.push_back(std::move(entry));
        }
    if (root->address_list())
        for (const fb::AddressListEntry* address : *root->address_list())
            loadable.addresses.push_back({address->id(), address->mem_id(), address->offset(), address->size()});
    if (root->event_list())
        for (const fb::EventListEntry* event : *root->event_list())
            loadable.events.push_back({event->id(), std::uint8_t(event->type()), event->target(), event->val(),
                                       std::uint8_t(event->op())});
    if (root->blobs())
        for (const fb::Blob* blob : *root->blobs()) {
            InterfaceVersion version;
            if (blob->version())
                version = {blob->version()->major(), blob->version()->minor(), blob->version()->sub_minor()};
            loadable.blobs.push_back({text(blob->name()), blob->size(), std::uint32_t(blob->interface()),
                                      blob->sub_interface(), version, copied(blob->data())});
        }
    if (root->tensor_desc_list())
        for (const fb::TensorDescListEntry* t : *root->tensor_desc_list())
            loadable.tensorDescs.push_back(
                {text(t->name()), t->id(), t->mem_id(), t->size(), t->offset(), std::uint8_t(t->data_format()),
                 std::uint8_t(t->data_type()), std::uint8_t(t->data_category()), std::uint8_t(t->pixel_format()),
                 std::uint8_t(t->pixel_mapping()), t->n(), t->c(), t->h(), t->w(),
                 {t->stride_0(), t->stride_1(), t->stride_2(), t->stride_3(), t->stride_4(), t->stride_5(),
                  t->stride_6(), t->stride_7()}});
    if (root->reloc_list())
        for (const fb::RelocListEntry* reloc : *root->reloc_list())
            loadable.relocs.push_back({reloc->address_id(), reloc->write_id(), reloc->offset(), reloc->interface(),
                                       reloc->sub_interface(), reloc->reloc_type()});
    if (root->submit_list())
        for (const fb::SubmitListEntry* submit : *root->submit_list())
            loadable.submits.push_back({submit->id(), copied(submit->task_id())});
    return loadable;
}

}  // namespace tessera::nvdla
