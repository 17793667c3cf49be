// The DLA units on INT8 data, through the integer arithmetic of interp/fixed_point/dla_arithmetic.h:
// CDMA's input converter, direct convolution into CACC's int32, the SDP X stages (BS, BN) with
// operands from registers or memory, the Y stage's ALU with a register operand, the output
// converter, and PDP pooling.
#include "interp/fixed_point/dla_arithmetic.h"
#include "nvdla/simulator/machine.h"

#include <algorithm>

namespace tessera::nvdla::simulation {

namespace {

constexpr std::int64_t kOpNone = 0, kOpMul = 1, kOpAdd = 2, kOpBoth = 3;
constexpr std::int64_t kModePerLayer = 0, kModePerKernel = 1, kModePerPoint = 2;

std::int16_t readInt16(const std::vector<std::uint8_t>& memory, std::uint64_t at)
{
    return std::int16_t(std::uint16_t(memory[at] | (memory[at + 1] << 8)));
}

}  // namespace

IntCube Machine::convolutionInt8(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("out_precision") != kPrecisionInt8)
        throw ModelError(fmt::format("{}: INT8 input with output precision {} is not simulated", where,
                                     op.get("out_precision")));
    if (op.get("conv_mode") != 0 || op.get("weight_format") != 0)
        throw ModelError(where + ": only direct convolution with uncompressed weights is simulated");
    const CubeAccess src = access(view, surface, "src_data", where, 1);
    IntCube input = loadInt8(src);
    if (op.get("in_cvt.enable"))
        for (std::int32_t& v : input.values)
            v = dla::inputConvert(std::int8_t(v), std::int32_t(op.get("in_cvt.offset")),
                                  std::int16_t(op.get("in_cvt.scale")), unsigned(op.get("in_cvt.truncate") & 63));
    dla::ConvolutionGeometry g;
    g.channels = input.channels;
    g.height = input.height;
    g.width = input.width;
    g.kernels = unsigned(surface.get("dst_data.channel"));
    g.kernelHeight = unsigned(op.get("kernel_height_csc"));
    g.kernelWidth = unsigned(op.get("kernel_width_csc"));
    if (unsigned(op.get("kernel_channel_csc")) != g.channels)
        throw ModelError(fmt::format("{}: kernel_channel_csc {} differs from the source's {} channels", where,
                                     op.get("kernel_channel_csc"), g.channels));
    g.strideX = unsigned(op.get("conv_stride_x"));
    g.strideY = unsigned(op.get("conv_stride_y"));
    g.dilationX = unsigned(std::max<std::int64_t>(1, op.get("dilation_x")));
    g.dilationY = unsigned(std::max<std::int64_t>(1, op.get("dilation_y")));
    g.padLeft = unsigned(op.get("pad_x_left"));
    g.padTop = unsigned(op.get("pad_y_top"));
    g.outWidth = unsigned(op.get("input_width_cmac"));
    g.outHeight = unsigned(op.get("input_height_cmac"));
    g.padValue = std::int8_t(op.get("pad_val"));
    if (g.strideX < 1 || g.strideY < 1)
        throw ModelError(fmt::format("{}: stride {}x{} is not valid", where, g.strideX, g.strideY));
    requireSimulatable(double(g.kernels) * g.outHeight * g.outWidth * g.channels * g.kernelHeight * g.kernelWidth, where);
    const WeightLayout layout = directWeightLayout(g.kernels, g.channels, g.kernelHeight, g.kernelWidth, 1,
                                                   config_.atomicK, config_.atomicC, config_.cbufEntryBytes);
    const auto [memory, base] = weights(view, surface, layout, where);
    std::vector<std::int8_t> packed(std::size_t(g.kernels) * g.channels * g.kernelHeight * g.kernelWidth);
    std::size_t at = 0;
    for (unsigned k = 0; k < g.kernels; ++k)
        for (unsigned c = 0; c < g.channels; ++c)
            for (unsigned r = 0; r < g.kernelHeight; ++r)
                for (unsigned s = 0; s < g.kernelWidth; ++s)
                    packed[at++] = std::int8_t((*memory)[base + layout.offsetOf(k, c, r, s)]);
    std::vector<std::int8_t> data(input.values.size());
    std::transform(input.values.begin(), input.values.end(), data.begin(), [](std::int32_t v) { return std::int8_t(v); });
    IntCube output(g.kernels, g.outHeight, g.outWidth);
    output.values = dla::convolutionAccumulators(g, data, packed, unsigned(op.get("out_cvt.truncate") & 31));
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{} INT8", where, g.width, g.height, g.channels, g.outWidth,
                                g.outHeight, g.kernels));
    return output;
}

void Machine::sdpInt8(const DlaTaskView& view, std::size_t i, std::optional<IntCube> onTheFly, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("dst_precision") != kPrecisionInt8)
        throw ModelError(fmt::format("{}: INT8 source with destination precision {} is not simulated", where,
                                     op.get("dst_precision")));
    IntCube data;
    if (surface.get("src_data.type") == kMemoryHw) {
        if (!onTheFly)
            throw ModelError(where + ": reads its source on the fly, but no convolution feeds it");
        data = std::move(*onTheFly);
    } else {
        data = loadInt8(access(view, surface, "src_data", where, 1));
    }
    for (const std::string stage : {"x1", "x2"}) {
        const std::string prefix = stage + "_op.";
        if (!op.get(prefix + "enable"))
            continue;
        const std::int64_t type = op.get(prefix + "type"), mode = op.get(prefix + "mode"), act = op.get(prefix + "act");
        if (type < kOpNone || type > kOpBoth || act > 3 || act < 0 || act == 2)
            throw ModelError(fmt::format("{}: {} type {} or activation {} is not simulated (LUT, PReLU)", where, stage,
                                         type, act));
        dla::XStage x;
        x.alu = type == kOpAdd || type == kOpBoth;
        x.mul = type == kOpMul || type == kOpBoth;
        x.relu = act == 1;
        x.prelu = act == 3;
        x.aluShift = unsigned(op.get(prefix + "shift_value") & 63);
        x.mulShift = unsigned(op.get(prefix + "truncate") & 63);
        const std::int64_t algorithm = op.get(prefix + "alu_type");
        if (x.alu && (algorithm < 0 || algorithm > 2))
            throw ModelError(fmt::format("{}: {} ALU {} is not simulated", where, stage, algorithm));
        x.algorithm = dla::Alu(algorithm);
        // The operands of each channel (per layer or per kernel) or of each element (per point).
        const unsigned operandBytes = op.get(prefix + "precision") == kPrecisionInt8 ? 1 : 2;
        std::vector<std::int16_t> alu(data.channels, std::int16_t(op.get(prefix + "alu_operand"))),
            mul(data.channels, std::int16_t(op.get(prefix + "mul_operand")));
        std::optional<IntCube> perPoint;
        if (type != kOpNone && mode == kModePerKernel) {
            // Read in channel order, one value (or an ALU, multiplier pair) per channel.
            const auto [memory, base] = resolve(view.addressList, surface.get(stage + "_data.address"), where + " " + stage + "_data");
            const std::uint64_t offset = view.interface->dataCube.find("offset") ? surface.get(stage + "_data.offset") : 0;
            const unsigned perChannel = operandBytes * (type == kOpBoth ? 2 : 1);
            if (base + offset + std::uint64_t(perChannel) * data.channels > memory->size())
                throw ModelError(fmt::format("{} {}_data: {} operands pass the end of their memory", where, stage,
                                             data.channels));
            for (unsigned c = 0; c < data.channels; ++c) {
                const std::uint64_t at = base + offset + std::uint64_t(perChannel) * c;
                const auto value = [&](unsigned k) {
                    return operandBytes == 1 ? std::int16_t(std::int8_t((*memory)[at + k]))
                                             : readInt16(*memory, at + 2 * k);
                };
                if (type == kOpBoth) {
                    alu[c] = value(0);
                    mul[c] = value(1);
                } else if (type == kOpMul) {
                    mul[c] = value(0);
                } else {
                    alu[c] = value(0);
                }
            }
        } else if (type != kOpNone && mode == kModePerPoint) {
            if (operandBytes != 1 || type == kOpBoth)
                throw ModelError(fmt::format("{}: per-point {} operands other than one int8 each are not simulated",
                                             where, stage));
            perPoint = loadInt8(access(view, surface, stage + "_data", where, 1));
            if (perPoint->channels != data.channels || perPoint->height != data.height || perPoint->width != data.width)
                throw ModelError(fmt::format("{} {}_data: a {}x{}x{} operand for {}x{}x{} data", where, stage,
                                             perPoint->width, perPoint->height, perPoint->channels, data.width,
                                             data.height, data.channels));
        } else if (type != kOpNone && mode != kModePerLayer) {
            throw ModelError(fmt::format("{}: {} operand mode {} is not one of per layer, kernel or point", where, stage,
                                         mode));
        }
        for (unsigned c = 0; c < data.channels; ++c)
            for (unsigned y = 0; y < data.height; ++y)
                for (unsigned xx = 0; xx < data.width; ++xx) {
                    std::int32_t& v = data.at(c, y, xx);
                    if (perPoint) {
                        const std::int16_t operand = std::int16_t(perPoint->at(c, y, xx));
                        v = dla::sdpXStage(v, x, x.alu ? operand : alu[c], x.mul ? operand : mul[c]);
                    } else {
                        v = dla::sdpXStage(v, x, alu[c], mul[c]);
                    }
                }
    }
    if (op.get("y_op.enable")) {
        const std::int64_t type = op.get("y_op.type"), act = op.get("y_op.act");
        if ((type != kOpNone && (type != kOpAdd || op.get("y_op.mode") != kModePerLayer)) || (act != 0 && act != 2))
            throw ModelError(where + ": the y stage is simulated with a register ALU operand and the LUT only");
        if (type == kOpAdd) {
            const auto algorithm = dla::Alu(std::clamp<std::int64_t>(op.get("y_op.alu_type"), 0, 2));
            for (std::int32_t& v : data.values)
                v = dla::sdpYAlu(v, algorithm, std::int32_t(op.get("y_op.alu_operand")));
        }
        if (act == 2) {
            const dla::Lut lut = lutOf(view, op, where);
            for (std::int32_t& v : data.values)
                v = dla::sdpLut(v, lut);
        }
    }
    const dla::OutputConverter converter{std::int32_t(op.get("out_cvt.offset")), std::int16_t(op.get("out_cvt.scale")),
                                         unsigned(op.get("out_cvt.truncate") & 63)};
    std::vector<std::int8_t> out(data.values.size());
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = dla::sdpOutput(data.values[k], converter);
    const CubeAccess dst = access(view, surface, "dst_data", where, 1);
    if (dst.channels != data.channels || dst.height != data.height || dst.width != data.width)
        throw ModelError(fmt::format("{}: the destination is {}x{}x{}, the data {}x{}x{}", where, dst.width, dst.height,
                                     dst.channels, data.width, data.height, data.channels));
    storeInt8(dst, out);
    trace.push_back(fmt::format("{}: {}x{}x{} INT8", where, data.width, data.height, data.channels));
}

void Machine::pdpInt8(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    for (int k = 0; k < 7; ++k)
        if (op.get(fmt::format("padding_value[{}]", k)) != 0)
            throw ModelError(fmt::format("{}: padding_value[{}] is {}; pooling with padding values other than 0 is not "
                                         "simulated",
                                         where, k, op.get(fmt::format("padding_value[{}]", k))));
    const IntCube input = loadInt8(access(view, surface, "src_data", where, 1));
    const CubeAccess dst = access(view, surface, "dst_data", where, 1);
    dla::PoolingGeometry g;
    g.channels = std::min(input.channels, dst.channels);
    g.height = input.height;
    g.width = input.width;
    g.windowWidth = unsigned(op.get("pool_width")) + 1;
    g.windowHeight = unsigned(op.get("pool_height")) + 1;
    g.strideX = unsigned(op.get("stride_x"));
    g.strideY = unsigned(op.get("stride_y"));
    g.padLeft = unsigned(op.get("pad_left"));
    g.padTop = unsigned(op.get("pad_top"));
    g.outWidth = dst.width;
    g.outHeight = dst.height;
    const std::int64_t mode = op.get("pool_mode");
    if (g.strideX < 1 || g.strideY < 1 || mode > 2 || g.windowWidth > 8 || g.windowHeight > 8)
        throw ModelError(fmt::format("{}: stride {}x{}, window {}x{} or pool mode {} is not valid", where, g.strideX,
                                     g.strideY, g.windowWidth, g.windowHeight, mode));
    requireSimulatable(double(dst.channels) * dst.height * dst.width * g.windowWidth * g.windowHeight, where);
    // Each pass pools its columns as a cube of their own into its output columns.
    std::vector<std::int8_t> out(std::size_t(dst.channels) * dst.height * dst.width, 0);
    for (const PoolingPass& pass : poolingPasses(op, input.width, dst.width, where)) {
        dla::PoolingGeometry part = g;
        part.width = unsigned(pass.columns);
        part.padLeft = unsigned(pass.padLeft);
        part.outWidth = unsigned(pass.outputs);
        std::vector<std::int8_t> data(std::size_t(g.channels) * g.height * part.width);
        for (unsigned c = 0; c < g.channels; ++c)
            for (unsigned y = 0; y < g.height; ++y)
                for (unsigned x = 0; x < part.width; ++x)
                    data[(std::size_t(c) * g.height + y) * part.width + x] =
                        std::int8_t(input.at(c, y, unsigned(pass.start) + x));
        const std::vector<std::int8_t> pooled = dla::pooling(part, dla::Pooling(mode), data);
        for (unsigned c = 0; c < g.channels; ++c)
            for (unsigned y = 0; y < g.outHeight; ++y)
                for (unsigned x = 0; x < part.outWidth; ++x)
                    out[(std::size_t(c) * dst.height + y) * dst.width + unsigned(pass.outStart) + x] =
                        pooled[(std::size_t(c) * g.outHeight + y) * part.outWidth + x];
    }
    storeInt8(dst, out);
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{} INT8", where, input.width, input.height, input.channels,
                                dst.width, dst.height, dst.channels));
}

void Machine::cdpInt8(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("out_precision") != kPrecisionInt8)
        throw ModelError(fmt::format("{}: INT8 input with output precision {}: CDP does not convert precision", where,
                                     op.get("out_precision")));
    if (op.get("bypass_sqsum") || op.get("bypass_out_mul"))
        throw ModelError(where + ": CDP with its square sum or multiplier bypassed is not simulated in INT8");
    if (op.get("in_cvt.offset") != 0 || op.get("in_cvt.scale") != 1 || op.get("in_cvt.truncate") != 0)
        throw ModelError(where + ": an INT8 CDP input converter other than the identity is not simulated");
    const IntCube input = loadInt8(access(view, surface, "src_data", where, 1));
    const CubeAccess dst = access(view, surface, "dst_data", where, 1);
    if (dst.channels != input.channels || dst.height != input.height || dst.width != input.width)
        throw ModelError(fmt::format("{}: the destination is {}x{}x{}, the source {}x{}x{}", where, dst.width, dst.height,
                                     dst.channels, input.width, input.height, input.channels));
    const unsigned size = unsigned(op.get("local_size"));
    requireSimulatable(double(input.values.size()) * double(size), where);
    std::vector<std::int8_t> data(input.values.size());
    for (std::size_t k = 0; k < data.size(); ++k)
        data[k] = std::int8_t(input.values[k]);
    const dla::OutputConverter converter{std::int32_t(op.get("out_cvt.offset")), std::int16_t(op.get("out_cvt.scale")),
                                         unsigned(op.get("out_cvt.truncate") & 63)};
    storeInt8(dst, dla::cdpLocalResponse(data, input.channels, std::size_t(input.height) * input.width, size,
                                         lutOf(view, op, where), converter));
    trace.push_back(fmt::format("{}: {}x{}x{} INT8 over {} channels", where, input.width, input.height, input.channels,
                                size));
}

}  // namespace tessera::nvdla::simulation
