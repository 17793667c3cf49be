// An NVDLA loadable in memory: the eight lists and the blobs of the format (loadable.fbs), as plain
// values. writeLoadable() and readLoadable() convert to and from the FlatBuffers file NVIDIA's
// runtime loads; nothing else in Tessera touches the FlatBuffers form.
#pragma once

#include "nvdla/descriptor_layout.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::nvdla {

// Interface values of blobs and tasks.
inline constexpr std::uint32_t kInterfaceNone = 0, kInterfaceDla1 = 1, kInterfaceEmu1 = 2;
// sub_interface of the DLA task blobs.
inline constexpr std::uint32_t kSubAddr0 = 1, kSubDeps = 2, kSubOps = 3, kSubSurfs = 4, kSubLuts = 5;
// MemoryListEntry flags.
inline constexpr std::uint16_t kMemoryAlloc = 1, kMemorySet = 2, kMemoryInput = 4, kMemoryOutput = 8;
// EventListEntry op.
inline constexpr std::uint8_t kEventWait = 0, kEventSignal = 1;
// TensorDescListEntry data types and formats.
inline constexpr std::uint8_t kDataTypeHalf = 2, kDataTypeInt16 = 3, kDataTypeInt8 = 4;
inline constexpr std::uint8_t kDataFormatNchw = 1, kDataFormatNhwc = 2, kDataFormatNcxhwx = 3;
inline constexpr std::uint8_t kPixelFormatFeature = 36;
inline constexpr std::uint8_t kDataCategoryFeature = 2;

struct LoadableBlob {
    std::string name;
    std::uint64_t size = 0;
    std::uint32_t interface = kInterfaceNone;
    std::uint32_t subInterface = 0;
    InterfaceVersion version;
    std::vector<std::uint8_t> data;
};

struct MemoryEntry {
    std::uint16_t id = 0;
    std::uint8_t domain = 0;  // 0 DRAM
    std::uint16_t flags = 0;
    std::uint64_t size = 0;
    std::uint32_t alignment = 0;
    std::vector<std::string> contents;
    std::vector<std::uint64_t> offsets;
    std::uint16_t bindId = 0;
    std::uint16_t tensorDescId = 0;
};

struct EventEntry {
    std::uint16_t id = 0;
    std::uint8_t type = 0;
    std::uint16_t target = 0;
    std::uint32_t value = 0;
    std::uint8_t op = kEventWait;
};

struct TaskEntry {
    std::uint16_t id = 0;
    std::uint32_t interface = kInterfaceDla1;
    std::int16_t instance = -1;
    std::vector<std::uint16_t> addressList;
    std::vector<std::uint16_t> preActions;
    std::vector<std::uint16_t> postActions;
};

struct AddressEntry {
    std::uint16_t id = 0;
    std::uint16_t memId = 0;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

struct SubmitEntry {
    std::uint16_t id = 0;
    std::vector<std::uint16_t> taskIds;
};

struct TensorDesc {
    std::string name;
    std::uint16_t id = 0;
    std::uint16_t memId = 0;
    std::uint64_t size = 0;
    std::uint64_t offset = 0;
    std::uint8_t dataFormat = 0;
    std::uint8_t dataType = 0;
    std::uint8_t dataCategory = 0;
    std::uint8_t pixelFormat = 0;
    std::uint8_t pixelMapping = 0;
    std::int32_t n = 0, c = 0, h = 0, w = 0;
    std::array<std::uint32_t, 8> strides{};
};

// Relocation types: the stride a relocation entry rewrites.
inline constexpr std::uint8_t kRelocLineStride = 1, kRelocSurfaceStride = 2;

// Where the runtime writes a bound tensor's stride when the application binds one of other strides:
// `addressId` names the bound tensor's address, `writeId` the memory holding the descriptor blob,
// `offset` the stride's byte offset in it.
struct RelocEntry {
    std::uint16_t addressId = 0;
    std::uint16_t writeId = 0;  // a memory id
    std::uint64_t offset = 0;
    std::uint32_t interface = 0;
    std::uint32_t subInterface = 0;
    std::uint8_t relocType = 0;
};

// The lists in the order of the format; ListPresence tells which a file carried.
enum class LoadableList { Task, Memory, Address, Event, Blob, TensorDesc, Reloc, Submit };
inline constexpr unsigned kLoadableListCount = 8;
const char* loadableListName(LoadableList list);  // "task_list", ...

struct Loadable {
    InterfaceVersion version{0, 7, 0};
    std::vector<TaskEntry> tasks;
    std::vector<MemoryEntry> memories;
    std::vector<AddressEntry> addresses;
    std::vector<EventEntry> events;
    std::vector<LoadableBlob> blobs;
    std::vector<TensorDesc> tensorDescs;
    std::vector<RelocEntry> relocs;
    std::vector<SubmitEntry> submits;

    // What readLoadable() saw of the container (a loadable built in memory has every list).
    std::array<bool, kLoadableListCount> listPresent{true, true, true, true, true, true, true, true};
    bool hasFileIdentifier = true;    // bytes 4..7 are "NVDA"
    bool alignedForVerifier = true;   // passes FlatBuffers' verifier with its alignment checks

    const LoadableBlob* blob(const std::string& name) const;  // nullptr when absent
};

// The file bytes: every list written, even empty; file identifier "NVDA".
std::vector<std::uint8_t> writeLoadable(const Loadable& loadable);

// Reads and verifies a loadable. Throws tessera::ModelError naming `source` when the bytes are not
// a FlatBuffers loadable (too short, fails the verifier even without alignment checks, no version).
Loadable readLoadable(std::span<const std::uint8_t> bytes, const std::string& source);

}  // namespace tessera::nvdla
