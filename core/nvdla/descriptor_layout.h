// The byte layouts of the descriptors NVDLA's firmware and the runtime's CPU emulator read from a
// loadable's task blobs (the firmware interface's dla_network_desc, dla_common_op_desc, the
// operation and surface descriptors, dla_lut_param; the EMU interface's emu_* structures), as data.
// One table describes each structure field by field, so the writer, the reader, the validator, the
// inspector and the simulator all read and write the same bytes, and a structure is printed by its
// field names. The layouts are packed and little-endian, as the firmware declares them.
//
// Two firmware-interface eras exist: 0.12.x, whose dla_data_cube carries a 32-bit `offset` (32 B),
// and 0.10.x/0.11.x, whose cube has none (28 B). The surface descriptors differ accordingly.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera::nvdla {

struct FieldLayout {
    std::string name;  // "src_data.width", "padding_value[3]"
    unsigned offset = 0;
    unsigned bytes = 0;  // 1, 2, 4 or 8
    bool isSigned = false;
    bool isFloat = false;  // IEEE single (EMU scale factors)
};

struct StructLayout {
    std::string name;  // "dla_conv_op_desc"
    unsigned size = 0;
    std::vector<FieldLayout> fields;

    const FieldLayout* find(const std::string& fieldName) const;
    const FieldLayout& field(const std::string& fieldName) const;  // throws naming the structure
};

// Builds a StructLayout field by field, packed; finish() rounds the size up to the alignment.
class LayoutBuilder {
public:
    explicit LayoutBuilder(std::string name) { layout_.name = std::move(name); }
    LayoutBuilder& u8(const std::string& name, unsigned count = 0) { return scalar(name, 1, false, count); }
    LayoutBuilder& s8(const std::string& name, unsigned count = 0) { return scalar(name, 1, true, count); }
    LayoutBuilder& u16(const std::string& name, unsigned count = 0) { return scalar(name, 2, false, count); }
    LayoutBuilder& s16(const std::string& name, unsigned count = 0) { return scalar(name, 2, true, count); }
    LayoutBuilder& u32(const std::string& name, unsigned count = 0) { return scalar(name, 4, false, count); }
    LayoutBuilder& s32(const std::string& name, unsigned count = 0) { return scalar(name, 4, true, count); }
    LayoutBuilder& u64(const std::string& name, unsigned count = 0) { return scalar(name, 8, false, count); }
    LayoutBuilder& s64(const std::string& name, unsigned count = 0) { return scalar(name, 8, true, count); }
    LayoutBuilder& f32(const std::string& name);
    LayoutBuilder& pad(unsigned bytes) { offset_ += bytes; return *this; }
    LayoutBuilder& alignTo(unsigned alignment);
    // Every field of `inner` under "name.", `count` times when count > 0 ("name[i].").
    LayoutBuilder& nested(const std::string& name, const StructLayout& inner, unsigned count = 0);
    StructLayout finish(unsigned alignment);

private:
    LayoutBuilder& scalar(const std::string& name, unsigned bytes, bool isSigned, unsigned count);
    StructLayout layout_;
    unsigned offset_ = 0;
};

// One structure's bytes, read and written by field name. A view: it does not own the bytes.
class Record {
public:
    Record(const StructLayout& layout, std::span<std::uint8_t> bytes);
    std::int64_t get(const std::string& fieldName) const;
    double getFloat(const std::string& fieldName) const;
    void set(const std::string& fieldName, std::int64_t value);
    void setFloat(const std::string& fieldName, double value);
    const StructLayout& layout() const { return *layout_; }

private:
    const StructLayout* layout_;
    std::span<std::uint8_t> bytes_;
};

// Read-only counterpart of Record.
class ConstRecord {
public:
    ConstRecord(const StructLayout& layout, std::span<const std::uint8_t> bytes);
    std::int64_t get(const std::string& fieldName) const;
    double getFloat(const std::string& fieldName) const;
    std::int64_t value(const FieldLayout& field) const;
    const StructLayout& layout() const { return *layout_; }

private:
    const StructLayout* layout_;
    std::span<const std::uint8_t> bytes_;
};

// The DLA operation types, in the firmware's numbering (DLA_OP_*).
enum class DlaOp : std::uint8_t { Bdma = 0, Conv = 1, Sdp = 2, Pdp = 3, Cdp = 4, Rubik = 5 };
inline constexpr unsigned kDlaOpCount = 6;
const char* dlaOpName(DlaOp op);  // "BDMA", "CONV", ...

struct InterfaceVersion {
    std::uint8_t major = 0, minor = 0, subMinor = 0;
    std::string text() const;  // "0.12.5"
    bool operator==(const InterfaceVersion&) const = default;
};

// The firmware interface (DLA1 blobs) of one era: every structure the firmware reads.
struct DlaInterface {
    InterfaceVersion version;  // the version blobs of this era are written with
    std::string era;           // "0.12 (32-byte data cube)"
    StructLayout networkDesc, commonOpDesc, dataCube, cvtParam, lutParam;
    StructLayout opContainerSize;       // only the union's size is used; fields empty
    StructLayout surfaceContainerSize;
    std::map<DlaOp, StructLayout> opDesc;       // dla_*_op_desc
    std::map<DlaOp, StructLayout> surfaceDesc;  // dla_*_surface_desc
    // The data-cube fields of each surface descriptor ("src_data", "dst_data", ...).
    std::map<DlaOp, std::vector<std::string>> cubes;
};

// The interface Tessera writes: firmware interface 0.12.5 (32-byte cube).
const DlaInterface& currentDlaInterface();
// The interface a blob of `version` was written for: 0.12.x, or 0.10.x/0.11.x (28-byte cube);
// nullptr for any other version (refused, never guessed).
const DlaInterface* dlaInterfaceFor(const InterfaceVersion& version);

// The runtime's CPU emulator interface (EMU1 blobs), version 0.0.1. Its INT8 revision added scale
// factors to emu_common_op_desc and an address offset to emu_buffer_desc without changing the
// version; `withScaleFactors` tells the two apart.
struct EmuInterface {
    bool withScaleFactors = true;
    StructLayout networkDesc, commonOpDesc, powerOpDesc, softmaxOpDesc, bufferDesc;
    unsigned opContainerBytes = 0;      // emu_operation_container
    unsigned bufferContainerBytes = 0;  // emu_operation_buffer_container (src and dst buffers)
};
inline constexpr std::uint8_t kEmuOpPower = 0, kEmuOpSoftmax = 1;
// The EMU buffer formats (emu_buffer_desc.format).
inline constexpr std::uint16_t kEmuFormatInt8 = 0, kEmuFormatInt8Atom8 = 1, kEmuFormatFp16 = 3;
const EmuInterface& currentEmuInterface();
const EmuInterface& preInt8EmuInterface();
inline const InterfaceVersion kEmuInterfaceVersion{0, 0, 1};

// Precision codes of the descriptors (PRECISION_*).
inline constexpr std::uint8_t kPrecisionInt8 = 0, kPrecisionInt16 = 1, kPrecisionFp16 = 2;
inline constexpr std::uint16_t kMemoryMc = 0, kMemoryCv = 1, kMemoryHw = 2;  // dla_data_cube.type
inline constexpr std::int64_t kRubikContract = 0, kRubikSplit = 1, kRubikMerge = 2;  // dla_rubik_op_desc.mode
inline constexpr std::uint8_t kEventOpCompleted = 1;

}  // namespace tessera::nvdla
