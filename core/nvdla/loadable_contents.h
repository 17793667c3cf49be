// Reading a loadable's contents through its own cross-references: the bytes behind an address
// entry (the blob a SET memory was filled with), and the DLA and EMU task programs decoded by the
// interface version their blobs declare. Shared by the validator, the inspector and the simulator.
#pragma once

#include "nvdla/descriptor_layout.h"
#include "nvdla/loadable.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::nvdla {

// What an address entry points at.
struct ResolvedAddress {
    const AddressEntry* address = nullptr;
    const MemoryEntry* memory = nullptr;
    const LoadableBlob* blob = nullptr;    // the blob whose placement covers the address, if any
    std::span<const std::uint8_t> bytes;   // the blob's bytes from the address on (empty when none)
};

// Resolves address entry `addressId`; nullopt with `problem` set when an id or range is invalid.
std::optional<ResolvedAddress> resolveAddress(const Loadable& loadable, std::uint32_t addressId, std::string& problem);

struct DlaOperationView {
    DlaOp type;
    std::span<const std::uint8_t> common, op, surface;  // the operation's three descriptors
};

// A DLA task decoded from its blobs. Construction throws tessera::ModelError naming the task and the
// field when a blob is missing, too small, or of an unknown interface version.
struct DlaTaskView {
    const DlaInterface* interface = nullptr;
    InterfaceVersion version;
    std::vector<std::uint8_t> networkBytes;
    std::vector<DlaOperationView> operations;
    std::vector<std::span<const std::uint8_t>> luts;
    std::vector<std::uint16_t> addressList;  // the task's local-index -> address id

    ConstRecord network() const { return ConstRecord(interface->networkDesc, networkBytes); }
    ConstRecord common(std::size_t i) const { return ConstRecord(interface->commonOpDesc, operations[i].common); }
    ConstRecord op(std::size_t i) const { return ConstRecord(interface->opDesc.at(operations[i].type), operations[i].op); }
    ConstRecord surface(std::size_t i) const
    {
        return ConstRecord(interface->surfaceDesc.at(operations[i].type), operations[i].surface);
    }
};
DlaTaskView decodeDlaTask(const Loadable& loadable, const TaskEntry& task);

struct EmuOperationView {
    std::uint8_t opType = 0;
    std::span<const std::uint8_t> op, source, destination;
};

struct EmuTaskView {
    const EmuInterface* interface = nullptr;
    std::vector<EmuOperationView> operations;
    std::vector<std::uint16_t> addressList;
    ConstRecord opDesc(std::size_t i) const;
    ConstRecord source(std::size_t i) const { return ConstRecord(interface->bufferDesc, operations[i].source); }
    ConstRecord destination(std::size_t i) const
    {
        return ConstRecord(interface->bufferDesc, operations[i].destination);
    }
};
EmuTaskView decodeEmuTask(const Loadable& loadable, const TaskEntry& task);

}  // namespace tessera::nvdla
