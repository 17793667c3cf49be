// Assembles a loadable the way NVIDIA's runtime and firmware expect one: memories and addresses for
// every region, DLA tasks (network descriptor at task address index 0, dependency graph, operation,
// surface and LUT lists) and EMU tasks (network descriptor, operation and buffer lists) as blobs,
// one event chain that orders the tasks, and the submit list. Callers describe operations field by
// field (Record) and their data dependencies; the builder derives the firmware's dependency graph:
// op_head, the per-type consumer links, fused parents and dependency counts.
#pragma once

#include "nvdla/descriptor_layout.h"
#include "nvdla/loadable.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera::nvdla {

// One DLA task being built. Operation indices are positions in the task's operation list.
class DlaTaskBuilder {
public:
    explicit DlaTaskBuilder(const DlaInterface& interface);

    // The task-local index of a loadable address entry (added to the task's address list once).
    std::int16_t addressIndex(std::uint16_t addressId);

    // Adds an operation of `type`; its descriptors start zeroed, with the common defaults set
    // (every data cube's address -1, SDP LUT index -1).
    int addOperation(DlaOp type);
    Record opDesc(int operation);
    Record surfaceDesc(int operation);
    DlaOp type(int operation) const { return operations_.at(std::size_t(operation)).type; }
    int operationCount() const { return int(operations_.size()); }

    // `consumer` reads what `producer` wrote to memory: it starts once `producer` completed.
    void dependsOn(int consumer, int producer);
    // `child` (an SDP after a CONV, a PDP after an SDP) takes `parent`'s output on the fly, without
    // memory in between: the two run as one pipeline.
    void fuse(int child, int parent);
    // A LUT (dla_lut_param bytes); returns its index for lut_index fields.
    int addLut(std::vector<std::uint8_t> lut);
    const DlaInterface& interface() const { return *interface_; }

    // The task's blobs (network descriptor, dependency graph, operations, surfaces, LUTs).
    struct Blobs {
        std::vector<std::uint8_t> networkDesc, dependencyGraph, operations, surfaces, luts;
    };
    // Checks the dependencies (no cycle, fused pairs of adjacent unit types) and encodes the blobs.
    // Throws tessera::Error naming the operation at fault.
    Blobs encode() const;
    const std::vector<std::uint16_t>& addressList() const { return addressList_; }

private:
    friend class LoadableBuilder;
    struct Operation {
        DlaOp type;
        std::vector<std::uint8_t> op, surface;
        std::vector<int> producers;
        int fusedParent = -1;
    };
    const DlaInterface* interface_;
    std::vector<Operation> operations_;
    std::vector<std::vector<std::uint8_t>> luts_;
    std::vector<std::uint16_t> addressList_;  // index 0..3 reserved for the task's own blobs
};

// One EMU (CPU) task being built: softmax and power operations on DRAM buffers.
class EmuTaskBuilder {
public:
    std::int16_t addressIndex(std::uint16_t addressId);
    // Adds an operation (kEmuOpSoftmax or kEmuOpPower); fill its fields through the records.
    int addOperation(std::uint8_t opType);
    Record opDesc(int operation);
    Record sourceBuffer(int operation);
    Record destinationBuffer(int operation);
    int operationCount() const { return int(operations_.size()); }

private:
    friend class LoadableBuilder;
    struct Operation {
        std::vector<std::uint8_t> op, buffers;
    };
    std::vector<Operation> operations_;
    std::vector<std::uint16_t> addressList_ = {0, 0, 0};  // 0..2 reserved for the task's own blobs
};

class LoadableBuilder {
public:
    // DRAM the runtime allocates (ALLOC), for intermediate surfaces.
    std::uint16_t addMemory(std::uint64_t size, std::uint32_t alignment);
    // DRAM filled from a blob (ALLOC|SET): weights, biases, constants.
    std::uint16_t addConstantMemory(const std::string& blobName, std::vector<std::uint8_t> bytes,
                                    std::uint32_t alignment);
    // A network input or output the application binds (ALLOC|INPUT or ALLOC|OUTPUT), with its tensor
    // description; bind ids count the inputs and the outputs separately from 0.
    std::uint16_t addBoundMemory(bool isInput, TensorDesc tensor, std::uint32_t alignment);
    std::uint16_t addAddress(std::uint16_t memId, std::uint64_t offset, std::uint64_t size);
    // A relocation of a bound tensor's stride in a task's surface blob.
    void addReloc(RelocEntry reloc) { loadable_.relocs.push_back(reloc); }

    // Tasks run in the order they are added, each after the previous one completed.
    DlaTaskBuilder& addDlaTask(const DlaInterface& interface = currentDlaInterface());
    EmuTaskBuilder& addEmuTask();

    Loadable finish();

private:
    struct PendingTask {
        std::unique_ptr<DlaTaskBuilder> dla;
        std::unique_ptr<EmuTaskBuilder> emu;
    };
    std::uint16_t addBlobMemory(const std::string& name, std::uint32_t interface, std::uint32_t subInterface,
                                InterfaceVersion version, std::vector<std::uint8_t> bytes, std::uint32_t alignment);
    Loadable loadable_;
    std::vector<PendingTask> tasks_;
    std::uint16_t inputs_ = 0, outputs_ = 0;
};

}  // namespace tessera::nvdla
