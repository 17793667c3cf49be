// The DLA units on FP16 data: direct convolution (accumulating in single precision), the SDP
// stages and PDP pooling, rounding to half precision where the hardware writes memory.
#include "nvdla/lut_param.h"
#include "nvdla/simulator/machine.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::nvdla::simulation {

Cube Machine::convolution(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("in_precision") != kPrecisionFp16 || op.get("out_precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 convolutions are simulated");
    if (op.get("conv_mode") != 0 || op.get("weight_format") != 0)
        throw ModelError(where + ": only direct convolution with uncompressed weights is simulated");
    const CubeAccess src = access(view, surface, "src_data", where, 2);
    const Cube input = loadHalves(src);
    const unsigned kernels = unsigned(surface.get("dst_data.channel"));
    const unsigned channels = unsigned(op.get("kernel_channel_csc")), rows = unsigned(op.get("kernel_height_csc")),
                   columns = unsigned(op.get("kernel_width_csc"));
    if (channels != input.channels)
        throw ModelError(fmt::format("{}: kernel_channel_csc {} differs from the source's {} channels", where, channels,
                                     input.channels));
    const WeightLayout layout = directWeightLayout(kernels, channels, rows, columns, 2, config_.atomicK, config_.atomicC,
                                                   config_.cbufEntryBytes);
    const auto [weightMemory, weightBase] = weights(view, surface, layout, where);
    const unsigned outW = unsigned(op.get("input_width_cmac")), outH = unsigned(op.get("input_height_cmac"));
    const int strideX = int(op.get("conv_stride_x")), strideY = int(op.get("conv_stride_y"));
    const int padLeft = int(op.get("pad_x_left")), padTop = int(op.get("pad_y_top"));
    const int dilationX = std::max<int>(1, int(op.get("dilation_x"))), dilationY = std::max<int>(1, int(op.get("dilation_y")));
    std::vector<float> weights(std::size_t(kernels) * channels * rows * columns);
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned r = 0; r < rows; ++r)
                for (unsigned s = 0; s < columns; ++s)
                    weights[((std::size_t(k) * channels + c) * rows + r) * columns + s] =
                        readHalf(*weightMemory, weightBase + layout.offsetOf(k, c, r, s));
    requireSimulatable(double(kernels) * outH * outW * channels * rows * columns, where);
    Cube output(kernels, outH, outW);
    for (unsigned k = 0; k < kernels; ++k)
        for (unsigned y = 0; y < outH; ++y)
            for (unsigned x = 0; x < outW; ++x) {
                float sum = 0.0f;
                for (unsigned c = 0; c < channels; ++c)
                    for (unsigned r = 0; r < rows; ++r) {
                        const int iy = int(y) * strideY - padTop + int(r) * dilationY;
                        if (iy < 0 || iy >= int(input.height))
                            continue;
                        for (unsigned s = 0; s < columns; ++s) {
                            const int ix = int(x) * strideX - padLeft + int(s) * dilationX;
                            if (ix < 0 || ix >= int(input.width))
                                continue;
                            sum += input.at(c, unsigned(iy), unsigned(ix)) *
                                   weights[((std::size_t(k) * channels + c) * rows + r) * columns + s];
                        }
                    }
                output.at(k, y, x) = sum;
            }
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{}", where, input.width, input.height, input.channels, outW, outH,
                                kernels));
    return output;
}

void Machine::sdp(const DlaTaskView& view, std::size_t i, std::optional<Cube> onTheFly, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("src_precision") != kPrecisionFp16 || op.get("dst_precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 SDP operations are simulated");
    Cube data;
    if (surface.get("src_data.type") == kMemoryHw) {
        if (!onTheFly)
            throw ModelError(where + ": reads its source on the fly, but no convolution feeds it");
        data = std::move(*onTheFly);
    } else {
        data = loadHalves(access(view, surface, "src_data", where, 2));
    }
    for (const std::string stage : {"x1", "x2", "y"}) {
        const std::string prefix = stage + "_op.";
        if (!op.get(prefix + "enable"))
            continue;
        const std::int64_t type = op.get(prefix + "type"), mode = op.get(prefix + "mode"), act = op.get(prefix + "act");
        if (type != 0) {
            // Operands per kernel (channel) from memory; a per-layer operand from the descriptor.
            std::vector<float> operand(data.channels, 0.0f);
            std::optional<Cube> perPoint;
            if (mode == 2) {
                perPoint = loadHalves(access(view, surface, stage + "_data", where, 2));
                if (perPoint->channels != data.channels || perPoint->height != data.height || perPoint->width != data.width)
                    throw ModelError(fmt::format("{} {}_data: a {}x{}x{} operand for {}x{}x{} data", where, stage,
                                                 perPoint->width, perPoint->height, perPoint->channels, data.width,
                                                 data.height, data.channels));
            } else if (mode == 1) {
                const CubeAccess a = access(view, surface, stage + "_data", where, 2);
                if (a.channels < data.channels)
                    throw ModelError(fmt::format("{} {}_data: {} operands for {} channels", where, stage, a.channels,
                                                 data.channels));
                for (unsigned c = 0; c < data.channels; ++c)
                    operand[c] = readHalf(*a.memory, a.offsetOf(c, 0, 0));
            } else if (mode == 0) {
                const std::int64_t bits = type == 1 ? op.get(prefix + "mul_operand") : op.get(prefix + "alu_operand");
                std::fill(operand.begin(), operand.end(), halfToFloat(std::uint16_t(bits)));
            } else {
                throw ModelError(fmt::format("{}: {} operand mode {} is not one of per layer, kernel or point", where,
                                             stage, mode));
            }
            if (type == 3)
                throw ModelError(fmt::format("{}: {} with both ALU and multiplier is not simulated", where, stage));
            const std::int64_t alu = op.get(prefix + "alu_type");
            for (unsigned c = 0; c < data.channels; ++c)
                for (unsigned y = 0; y < data.height; ++y)
                    for (unsigned x = 0; x < data.width; ++x) {
                        float& v = data.at(c, y, x);
                        const float w = perPoint ? perPoint->at(c, y, x) : operand[c];
                        if (type == 1)
                            v = act == 3 && v >= 0.0f ? v : v * w;  // PReLU multiplies the negatives only
                        else if (alu == 2)
                            v += w;
                        else if (alu == 0)
                            v = std::max(v, w);
                        else if (alu == 1)
                            v = std::min(v, w);
                        else
                            throw ModelError(fmt::format("{}: {} ALU {} is not simulated", where, stage, alu));
                    }
        }
        if (act == 1) {
            for (float& v : data.values)
                v = std::max(v, 0.0f);
        } else if (act == 2 && stage == "y") {
            const dla::Lut lut = lutOf(view, op, where);
            for (float& v : data.values)
                v = lutInFloat(v, lut);
        } else if (act != 0 && !(act == 3 && type == 1))
            throw ModelError(fmt::format("{}: {} activation {} (LUT, PReLU) is not simulated", where, stage, act));
    }
    const CubeAccess dst = access(view, surface, "dst_data", where, 2);
    if (dst.channels != data.channels || dst.height != data.height || dst.width != data.width)
        throw ModelError(fmt::format("{}: the destination is {}x{}x{}, the data {}x{}x{}", where, dst.width, dst.height,
                                     dst.channels, data.width, data.height, data.channels));
    storeHalves(dst, data);
    trace.push_back(fmt::format("{}: {}x{}x{}", where, data.width, data.height, data.channels));
}

void Machine::pdp(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 pooling is simulated");
    const Cube input = loadHalves(access(view, surface, "src_data", where, 2));
    const CubeAccess dst = access(view, surface, "dst_data", where, 2);
    const int kw = int(op.get("pool_width")) + 1, kh = int(op.get("pool_height")) + 1;
    const int sx = int(op.get("stride_x")), sy = int(op.get("stride_y"));
    const int padTop = int(op.get("pad_top"));
    const std::int64_t mode = op.get("pool_mode");
    if (sx < 1 || sy < 1 || mode > 2)
        throw ModelError(fmt::format("{}: stride {}x{} or pool mode {} is not valid", where, sx, sy, mode));
    if (double(dst.channels) * dst.height * dst.width * kw * kh > kMaxSimulatedMacs)
        throw ModelError(where + ": the pooling windows hold more elements than the simulator runs for one operation");
    Cube output(dst.channels, dst.height, dst.width);
    for (const PoolingPass& pass : poolingPasses(op, input.width, dst.width, where))
        for (unsigned c = 0; c < dst.channels && c < input.channels; ++c)
            for (unsigned y = 0; y < dst.height; ++y)
                for (std::int64_t x = 0; x < pass.outputs; ++x) {
                    float sum = 0.0f;
                    float best = mode == 1 ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
                    for (int r = 0; r < kh; ++r)
                        for (int s = 0; s < kw; ++s) {
                            const int iy = int(y) * sy - padTop + r;
                            const std::int64_t ix = x * sx - pass.padLeft + s;  // within the pass's columns
                            // Padding counts as zero (the average divides by the whole window).
                            const bool inside = iy >= 0 && ix >= 0 && iy < int(input.height) && ix < pass.columns;
                            const float v = inside ? input.at(c, unsigned(iy), unsigned(pass.start + ix)) : 0.0f;
                            sum += v;
                            best = mode == 1 ? std::max(best, v) : std::min(best, v);
                        }
                    output.at(c, y, unsigned(pass.outStart + x)) = mode == 0 ? sum / float(kw * kh) : best;
                }
    storeHalves(dst, output);
    trace.push_back(fmt::format("{}: {}x{}x{} -> {}x{}x{}", where, input.width, input.height, input.channels, dst.width,
                                dst.height, dst.channels));
}

// Local response normalization: each element times the LUT's value at the sum of the squares of
// the channels around it (the unit's input and output converters are the identity in FP16).
void Machine::cdp(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    if (op.get("in_precision") != kPrecisionFp16 || op.get("out_precision") != kPrecisionFp16)
        throw ModelError(where + ": only FP16 or INT8 local response normalization is simulated");
    const std::int64_t size = op.get("local_size");
    if (size != 3 && size != 5 && size != 7 && size != 9)
        throw ModelError(fmt::format("{}: local_size {} is not 3, 5, 7 or 9", where, size));
    const dla::Lut lut = lutOf(view, op, where);
    const Cube input = loadHalves(access(view, surface, "src_data", where, 2));
    const CubeAccess dst = access(view, surface, "dst_data", where, 2);
    if (dst.channels != input.channels || dst.height != input.height || dst.width != input.width)
        throw ModelError(fmt::format("{}: the destination is {}x{}x{}, the source {}x{}x{}", where, dst.width, dst.height,
                                     dst.channels, input.width, input.height, input.channels));
    requireSimulatable(double(input.values.size()) * double(size), where);
    const bool sumSquares = !op.get("bypass_sqsum"), multiply = !op.get("bypass_out_mul");
    const int half = int(size / 2);
    Cube output(input.channels, input.height, input.width);
    for (unsigned c = 0; c < input.channels; ++c)
        for (unsigned y = 0; y < input.height; ++y)
            for (unsigned x = 0; x < input.width; ++x) {
                const float v = input.at(c, y, x);
                float squares = v;
                if (sumSquares) {
                    squares = 0.0f;
                    for (int j = -half; j <= half; ++j)
                        if (int(c) + j >= 0 && int(c) + j < int(input.channels)) {
                            const float neighbour = input.at(unsigned(int(c) + j), y, x);
                            squares += neighbour * neighbour;
                        }
                }
                const float factor = lutInFloat(squares, lut);
                output.at(c, y, x) = multiply ? v * factor : factor;
            }
    storeHalves(dst, output);
    trace.push_back(fmt::format("{}: {}x{}x{} over {} channels", where, input.width, input.height, input.channels, size));
}

}  // namespace tessera::nvdla::simulation
