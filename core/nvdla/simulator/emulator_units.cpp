// EMU tasks as NVIDIA's runtime emulator computes them on the CPU: Softmax over the channels of a
// 1x1 cube (FP16, or INT8 through FP16 with the descriptor's scale factors) and Power.
#include "interp/fixed_point/dla_arithmetic.h"
#include "nvdla/simulator/machine.h"

#include <algorithm>
#include <cmath>

namespace tessera::nvdla::simulation {

void Machine::runEmu(const TaskEntry& task)
{
    const EmuTaskView view = decodeEmuTask(l_, task);
    for (std::size_t i = 0; i < view.operations.size(); ++i) {
        const std::string where = fmt::format("task {} EMU op {}", task.id, i);
        const ConstRecord src = view.source(i), dst = view.destination(i);
        const std::int64_t format = src.get("format");
        const bool int8 = format == kEmuFormatInt8 || format == kEmuFormatInt8Atom8;
        if ((format != kEmuFormatFp16 && !int8) || dst.get("format") != format)
            throw ModelError(fmt::format("{}: buffer formats {} and {}; the simulator runs FP16 (3) or INT8 (0, 1) "
                                         "buffers of one format",
                                         where, format, dst.get("format")));
        const auto offsetOf = [&](const ConstRecord& buffer) {
            return std::uint64_t(buffer.layout().find("addressIndexOffset") ? buffer.get("addressIndexOffset") : 0);
        };
        auto [srcMemory, srcBase] = resolve(view.addressList, src.get("addressIndex"), where + " src_data");
        auto [dstMemory, dstBase] = resolve(view.addressList, dst.get("addressIndex"), where + " dst_data");
        srcBase += offsetOf(src);
        dstBase += offsetOf(dst);
        if (view.operations[i].opType == kEmuOpSoftmax) {
            // NVIDIA's emulator reads `channel` values one after the other and writes them so.
            const auto channels = std::uint64_t(src.get("channel"));
            const std::uint64_t bytes = (int8 ? 1 : 2) * channels;
            if (srcBase + bytes > srcMemory->size() || dstBase + bytes > dstMemory->size())
                throw ModelError(where + ": the softmax's values pass the end of their memory");
            if (int8) {
                // Scaled into FP16, the softmax, then divided by the output's scale (emu_common_op_desc).
                const ConstRecord common = view.opDesc(i);
                if (!common.layout().find("common.input_scale_factor"))
                    throw ModelError(where + ": an INT8 softmax in an EMU interface without scale factors");
                std::vector<std::int8_t> values(channels);
                for (std::uint64_t c = 0; c < channels; ++c)
                    values[c] = std::int8_t((*srcMemory)[srcBase + c]);
                const std::vector<std::int8_t> out =
                    dla::emulatorSoftmax(values, float(common.getFloat("common.input_scale_factor")),
                                         float(common.getFloat("common.output_scale_factor")));
                for (std::uint64_t c = 0; c < channels; ++c)
                    (*dstMemory)[dstBase + c] = std::uint8_t(out[c]);
                trace.push_back(fmt::format("{} (SOFTMAX INT8): {} values", where, channels));
                continue;
            }
            std::vector<float> values(channels);
            for (std::uint64_t c = 0; c < channels; ++c)
                values[c] = readHalf(*srcMemory, srcBase + 2 * c);
            const float most = channels ? *std::max_element(values.begin(), values.end()) : 0.0f;
            float sum = 0.0f;
            for (float& v : values)
                sum += (v = std::exp(v - most));
            for (std::uint64_t c = 0; c < channels; ++c)
                writeHalf(*dstMemory, dstBase + 2 * c, values[c] / sum);
            trace.push_back(fmt::format("{} (SOFTMAX): {} values", where, channels));
        } else {
            if (int8)
                throw ModelError(where + ": an INT8 power operation is not simulated");
            const ConstRecord power = view.opDesc(i);
            const float exponent = float(power.getFloat("power")), scale = float(power.getFloat("scale")),
                        shift = float(power.getFloat("shift"));
            const unsigned channels = unsigned(src.get("channel")), height = unsigned(src.get("height")),
                           width = unsigned(src.get("width"));
            const auto at = [&](std::uint64_t base, const ConstRecord& buffer, unsigned c, unsigned y, unsigned x) {
                return base + (c / 16) * std::uint64_t(buffer.get("surf_stride")) + y * std::uint64_t(buffer.get("line_stride")) +
                       x * 32ull + (c % 16) * 2;
            };
            for (unsigned c = 0; c < channels; ++c)
                for (unsigned y = 0; y < height; ++y)
                    for (unsigned x = 0; x < width; ++x) {
                        const std::uint64_t from = at(srcBase, src, c, y, x), to = at(dstBase, dst, c, y, x);
                        if (from + 2 > srcMemory->size() || to + 2 > dstMemory->size())
                            throw ModelError(where + ": the power operation's values pass the end of their memory");
                        writeHalf(*dstMemory, to, std::pow(shift + scale * readHalf(*srcMemory, from), exponent));
                    }
            trace.push_back(fmt::format("{} (POWER): {}x{}x{}", where, width, height, channels));
        }
    }
}

}  // namespace tessera::nvdla::simulation
