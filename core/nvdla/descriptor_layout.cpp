#include "nvdla/descriptor_layout.h"

#include "base/error.h"

#include <cstring>
#include <fmt/format.h>

namespace tessera::nvdla {

const FieldLayout* StructLayout::find(const std::string& fieldName) const
{
    for (const FieldLayout& field : fields)
        if (field.name == fieldName)
            return &field;
    return nullptr;
}

const FieldLayout& StructLayout::field(const std::string& fieldName) const
{
    if (const FieldLayout* found = find(fieldName))
        return *found;
    throw Error(fmt::format("{} has no field '{}'", name, fieldName));
}

LayoutBuilder& LayoutBuilder::scalar(const std::string& name, unsigned bytes, bool isSigned, unsigned count)
{
    if (count == 0) {
        layout_.fields.push_back({name, offset_, bytes, isSigned, false});
        offset_ += bytes;
        return *this;
    }
    for (unsigned i = 0; i < count; ++i) {
        layout_.fields.push_back({fmt::format("{}[{}]", name, i), offset_, bytes, isSigned, false});
        offset_ += bytes;
    }
    return *this;
}

LayoutBuilder& LayoutBuilder::f32(const std::string& name)
{
    layout_.fields.push_back({name, offset_, 4, true, true});
    offset_ += 4;
    return *this;
}

LayoutBuilder& LayoutBuilder::alignTo(unsigned alignment)
{
    offset_ = (offset_ + alignment - 1) / alignment * alignment;
    return *this;
}

LayoutBuilder& LayoutBuilder::nested(const std::string& name, const StructLayout& inner, unsigned count)
{
    const unsigned copies = count == 0 ? 1 : count;
    for (unsigned i = 0; i < copies; ++i) {
        const std::string prefix = count == 0 ? name + "." : fmt::format("{}[{}].", name, i);
        for (const FieldLayout& field : inner.fields) {
            FieldLayout copy = field;
            copy.name = prefix + field.name;
            copy.offset += offset_;
            layout_.fields.push_back(copy);
        }
        offset_ += inner.size;
    }
    return *this;
}

StructLayout LayoutBuilder::finish(unsigned alignment)
{
    alignTo(alignment);
    layout_.size = offset_;
    return layout_;
}

namespace {

std::int64_t readField(const FieldLayout& field, const std::uint8_t* at)
{
    std::uint64_t raw = 0;
    for (unsigned i = 0; i < field.bytes; ++i)
        raw |= std::uint64_t(at[field.offset + i]) << (8 * i);
    if (field.isSigned && field.bytes < 8) {
        const std::uint64_t sign = std::uint64_t(1) << (8 * field.bytes - 1);
        if (raw & sign)
            raw |= ~((sign << 1) - 1);
    }
    return std::int64_t(raw);
}

void writeField(const FieldLayout& field, std::uint8_t* at, std::int64_t value)
{
    if (field.bytes < 8) {
        const std::int64_t lowest = field.isSigned ? -(std::int64_t(1) << (8 * field.bytes - 1)) : 0;
        const std::int64_t highest = field.isSigned ? (std::int64_t(1) << (8 * field.bytes - 1)) - 1
                                                    : (std::int64_t(1) << (8 * field.bytes)) - 1;
        if (value < lowest || value > highest)
            throw Error(fmt::format("field '{}' cannot hold {} ({} {}-bit)", field.name, value,
                                    field.isSigned ? "signed" : "unsigned", 8 * field.bytes));
    }
    const auto raw = std::uint64_t(value);
    for (unsigned i = 0; i < field.bytes; ++i)
        at[field.offset + i] = std::uint8_t(raw >> (8 * i));
}

float floatOf(std::int64_t raw)
{
    const auto bits = std::uint32_t(raw);
    float value;
    std::memcpy(&value, &bits, 4);
    return value;
}

}  // namespace

Record::Record(const StructLayout& layout, std::span<std::uint8_t> bytes) : layout_(&layout), bytes_(bytes)
{
    if (bytes.size() < layout.size)
        throw Error(fmt::format("{} needs {} bytes, {} given", layout.name, layout.size, bytes.size()));
}

std::int64_t Record::get(const std::string& fieldName) const
{
    return readField(layout_->field(fieldName), bytes_.data());
}

double Record::getFloat(const std::string& fieldName) const { return floatOf(get(fieldName)); }

void Record::set(const std::string& fieldName, std::int64_t value)
{
    writeField(layout_->field(fieldName), bytes_.data(), value);
}

void Record::setFloat(const std::string& fieldName, double value)
{
    const FieldLayout& field = layout_->field(fieldName);
    const auto single = float(value);
    std::uint32_t bits;
    std::memcpy(&bits, &single, 4);
    for (unsigned i = 0; i < 4; ++i)
        bytes_[field.offset + i] = std::uint8_t(bits >> (8 * i));
}

ConstRecord::ConstRecord(const StructLayout& layout, std::span<const std::uint8_t> bytes)
    : layout_(&layout), bytes_(bytes)
{
    if (bytes.size() < layout.size)
        throw Error(fmt::format("{} needs {} bytes, {} given", layout.name, layout.size, bytes.size()));
}

std::int64_t ConstRecord::get(const std::string& fieldName) const { return value(layout_->field(fieldName)); }

std::int64_t ConstRecord::value(const FieldLayout& field) const { return readField(field, bytes_.data()); }

double ConstRecord::getFloat(const std::string& fieldName) const { return floatOf(get(fieldName)); }

const char* dlaOpName(DlaOp op)
{
    switch (op) {
    case DlaOp::Bdma: return "BDMA";
    case DlaOp::Conv: return "CONV";
    case DlaOp::Sdp: return "SDP";
    case DlaOp::Pdp: return "PDP";
    case DlaOp::Cdp: return "CDP";
    case DlaOp::Rubik: return "RUBIK";
    }
    return "?";
}

std::string InterfaceVersion::text() const { return fmt::format("{}.{}.{}", major, minor, subMinor); }

namespace {

// The firmware interface's structures; `cubeWithOffset` selects the 0.12 data cube.
DlaInterface makeDlaInterface(bool cubeWithOffset)
{
    DlaInterface dla;
    dla.version = cubeWithOffset ? InterfaceVersion{0, 12, 5} : InterfaceVersion{0, 11, 0};
    dla.era = cubeWithOffset ? "0.12 (32-byte data cube)" : "0.10/0.11 (28-byte data cube)";

    dla.networkDesc = LayoutBuilder("dla_network_desc")
                          .s16("operation_desc_index").s16("surface_desc_index").s16("dependency_graph_index")
                          .s16("lut_data_index").s16("roi_array_index").s16("surface_index").s16("stat_list_index")
                          .s16("reserved1").s16("op_head", kDlaOpCount).u16("num_rois").u16("num_operations")
                          .u16("num_luts").u16("num_addresses").s16("input_layer").u8("dynamic_roi").u8("reserved0")
                          .finish(4);
    const StructLayout consumer = LayoutBuilder("dla_consumer").s16("index").u8("event").u8("res").finish(4);
    dla.commonOpDesc = LayoutBuilder("dla_common_op_desc")
                           .s16("index").s8("roi_index").u8("op_type").u8("dependency_count").u8("reserved0", 3)
                           .nested("consumers", consumer, kDlaOpCount).nested("fused_parent", consumer)
                           .finish(4);
    LayoutBuilder cube("dla_data_cube");
    cube.u16("type").s16("address");
    if (cubeWithOffset)
        cube.u32("offset");
    dla.dataCube = cube.u32("size").u16("width").u16("height").u16("channel").u16("reserved0")
                       .u32("line_stride").u32("surf_stride").u32("plane_stride").finish(4);
    dla.cvtParam = LayoutBuilder("dla_cvt_param").s16("scale").u8("truncate").u8("enable").s32("offset").finish(4);

    // BDMA
    const StructLayout transfer = LayoutBuilder("dla_bdma_transfer_desc")
                                      .s16("source_address").s16("destination_address").u32("line_size")
                                      .u32("line_repeat").u32("source_line").u32("destination_line")
                                      .u32("surface_repeat").u32("source_surface").u32("destination_surface")
                                      .finish(4);
    dla.surfaceDesc[DlaOp::Bdma] = LayoutBuilder("dla_bdma_surface_desc")
                                       .u8("source_type").u8("destination_type").u16("num_transfers")
                                       .nested("transfers", transfer, 20).finish(4);
    dla.opDesc[DlaOp::Bdma] = LayoutBuilder("dla_bdma_op_desc").u16("num_transfers").u16("reserved0").finish(4);
    dla.cubes[DlaOp::Bdma] = {};

    // CONV
    dla.surfaceDesc[DlaOp::Conv] = LayoutBuilder("dla_conv_surface_desc")
                                       .nested("weight_data", dla.dataCube).nested("wmb_data", dla.dataCube)
                                       .nested("wgs_data", dla.dataCube).nested("src_data", dla.dataCube)
                                       .nested("dst_data", dla.dataCube).s64("offset_u").u32("in_line_uv_stride")
                                       .finish(4);
    dla.opDesc[DlaOp::Conv] =
        LayoutBuilder("dla_conv_op_desc")
            .u8("conv_mode").u8("data_reuse").u8("weight_reuse").u8("skip_data_rls").u8("skip_weight_rls")
            .u8("reserved0").u16("entry_per_slice").u8("data_format").u8("pixel_mapping").u16("fetch_grain")
            .u8("reserved_b", 8).u8("batch").u8("weight_format").u8("data_bank").u8("weight_bank")
            .u32("batch_stride").u8("post_extension").u8("pixel_override").u16("release")
            .u16("input_width_csc").u16("input_height_csc").u16("input_channel_csc").u16("kernel_width_csc")
            .u16("kernel_height_csc").u16("kernel_channel_csc").u16("input_width_cmac").u16("input_height_cmac")
            .u32("bytes_per_kernel").s16("mean_ry").s16("mean_gu").s16("mean_bv").s16("mean_ax").u8("mean_format")
            .u8("conv_stride_x").u8("conv_stride_y").u8("pad_x_left").u8("pad_x_right").u8("pad_y_top")
            .u8("pad_y_bottom").u8("dilation_x").u8("dilation_y").u8("reserved2", 2).u8("pra_truncate")
            .u8("in_precision").u8("out_precision").s16("pad_val").nested("in_cvt", dla.cvtParam)
            .nested("out_cvt", dla.cvtParam)
            .finish(4);
    dla.cubes[DlaOp::Conv] = {"weight_data", "wmb_data", "wgs_data", "src_data", "dst_data"};

    // SDP
    dla.surfaceDesc[DlaOp::Sdp] = LayoutBuilder("dla_sdp_surface_desc")
                                      .nested("src_data", dla.dataCube).nested("x1_data", dla.dataCube)
                                      .nested("x2_data", dla.dataCube).nested("y_data", dla.dataCube)
                                      .nested("dst_data", dla.dataCube).finish(4);
    const StructLayout sdpCvt =
        LayoutBuilder("dla_sdp_cvt").nested("alu_cvt", dla.cvtParam).nested("mul_cvt", dla.cvtParam).finish(4);
    const StructLayout sdpOp = LayoutBuilder("dla_sdp_op")
                                   .u8("enable").u8("alu_type").u8("type").u8("mode").u8("act").u8("shift_value")
                                   .u8("truncate").u8("precision").s32("alu_operand").s32("mul_operand")
                                   .nested("cvt", sdpCvt).finish(4);
    dla.opDesc[DlaOp::Sdp] = LayoutBuilder("dla_sdp_op_desc")
                                 .u8("src_precision").u8("dst_precision").s16("lut_index").nested("out_cvt", dla.cvtParam)
                                 .u8("conv_mode").u8("batch_num").u16("reserved0").u32("batch_stride")
                                 .nested("x1_op", sdpOp).nested("x2_op", sdpOp).nested("y_op", sdpOp).finish(4);
    dla.cubes[DlaOp::Sdp] = {"src_data", "x1_data", "x2_data", "y_data", "dst_data"};

    // PDP, CDP, RUBIK: a source and a destination cube each.
    for (DlaOp op : {DlaOp::Pdp, DlaOp::Cdp, DlaOp::Rubik}) {
        const std::string unit = op == DlaOp::Pdp ? "pdp" : op == DlaOp::Cdp ? "cdp" : "rubik";
        dla.surfaceDesc[op] = LayoutBuilder("dla_" + unit + "_surface_desc")
                                  .nested("src_data", dla.dataCube).nested("dst_data", dla.dataCube).finish(4);
        dla.cubes[op] = {"src_data", "dst_data"};
    }
    dla.opDesc[DlaOp::Pdp] = LayoutBuilder("dla_pdp_op_desc")
                                 .u16("partial_in_width_first").u16("partial_in_width_mid").u16("partial_in_width_last")
                                 .u16("partial_width_first").u16("partial_width_mid").u16("partial_width_last")
                                 .u8("split_num").u8("pool_mode").u8("pool_width").u8("pool_height").u8("stride_x")
                                 .u8("stride_y").u8("pad_left").u8("pad_right").u8("pad_top").u8("pad_bottom")
                                 .u8("precision").u8("reserved0").s32("padding_value", 7).finish(4);
    dla.opDesc[DlaOp::Cdp] = LayoutBuilder("dla_cdp_op_desc")
                                 .u8("in_precision").u8("out_precision").s16("lut_index").nested("in_cvt", dla.cvtParam)
                                 .nested("out_cvt", dla.cvtParam).u8("local_size").u8("bypass_sqsum")
                                 .u8("bypass_out_mul").u8("reserved0").finish(4);
    dla.opDesc[DlaOp::Rubik] =
        LayoutBuilder("dla_rubik_op_desc").u8("mode").u8("precision").u8("stride_x").u8("stride_y").finish(4);

    // The unions the op and surface lists are arrays of.
    unsigned opSize = 0, surfaceSize = 0;
    for (const auto& [op, layout] : dla.opDesc)
        opSize = std::max(opSize, layout.size);
    for (const auto& [op, layout] : dla.surfaceDesc)
        surfaceSize = std::max(surfaceSize, layout.size);
    dla.opContainerSize.name = "dla_operation_container";
    dla.opContainerSize.size = opSize;
    dla.surfaceContainerSize.name = "dla_surface_container";
    dla.surfaceContainerSize.size = surfaceSize;

    // The LUT: a 65-entry exponential and a 257-entry linear table, their offsets, ranges and slopes.
    const StructLayout slope = LayoutBuilder("dla_slope").s16("scale").s8("shifter").u8("reserved0").finish(4);
    dla.lutParam = LayoutBuilder("dla_lut_param")
                       .s16("linear_exp_table", 65).s16("linear_only_table", 257)
                       .s8("linear_exp_offset").pad(1).s8("linear_only_offset").pad(1)
                       .u64("linear_exp_start").u64("linear_exp_end").u64("linear_only_start").u64("linear_only_end")
                       .nested("linear_exp_underflow_slope", slope).nested("linear_exp_overflow_slope", slope)
                       .nested("linear_only_underflow_slope", slope).nested("linear_only_overflow_slope", slope)
                       .u8("hybrid_priority").u8("underflow_priority").u8("overflow_priority").u8("method")
                       .finish(4);
    return dla;
}

EmuInterface makeEmuInterface(bool withScaleFactors)
{
    EmuInterface emu;
    emu.withScaleFactors = withScaleFactors;
    emu.networkDesc = LayoutBuilder("emu_network_desc")
                          .s16("operation_desc_index").s16("operation_buffer_desc_index").u16("num_operations")
                          .finish(256);
    // emu_common_op_desc is not packed: the scale factors sit at their natural alignment.
    LayoutBuilder common("emu_common_op_desc");
    common.u8("op_type");
    if (withScaleFactors)
        common.alignTo(4).f32("input_scale_factor").f32("output_scale_factor");
    emu.commonOpDesc = common.finish(withScaleFactors ? 4 : 1);
    emu.powerOpDesc = LayoutBuilder("emu_power_op_desc")
                          .nested("common", emu.commonOpDesc).f32("power").f32("scale").f32("shift").finish(4);
    emu.softmaxOpDesc = LayoutBuilder("emu_softmax_op_desc").nested("common", emu.commonOpDesc).u8("axis").finish(4);
    LayoutBuilder buffer("emu_buffer_desc");
    buffer.s16("addressIndex");
    if (withScaleFactors)
        buffer.u32("addressIndexOffset");
    emu.bufferDesc = buffer.u32("size").u16("format").u16("width").u16("height").u16("channel")
                         .u32("line_stride").u32("surf_stride").finish(256);
    emu.opContainerBytes = std::max(emu.powerOpDesc.size, emu.softmaxOpDesc.size);
    emu.bufferContainerBytes = 2 * emu.bufferDesc.size;
    return emu;
}

}  // namespace

const DlaInterface& currentDlaInterface()
{
    static const DlaInterface current = makeDlaInterface(true);
    return current;
}

const DlaInterface* dlaInterfaceFor(const InterfaceVersion& version)
{
    static const DlaInterface older = makeDlaInterface(false);
    if (version.major != 0)
        return nullptr;
    if (version.minor == 12)
        return &currentDlaInterface();
    if (version.minor == 10 || version.minor == 11)
        return &older;
    return nullptr;
}

const EmuInterface& currentEmuInterface()
{
    static const EmuInterface current = makeEmuInterface(true);
    return current;
}

const EmuInterface& preInt8EmuInterface()
{
    static const EmuInterface older = makeEmuInterface(false);
    return older;
}

}  // namespace tessera::nvdla
