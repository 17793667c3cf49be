// The units that move bytes without arithmetic: BDMA (strided copies between memories) and RUBIK
// (contract: channel blocks spread into a larger plane, as deconvolution and DepthToSpace need;
// split: feature layout to one plane per channel; merge: planes back to feature layout). Written
// from NVIDIA's hardware documentation and C model; both are exact in every precision.
#include "nvdla/simulator/machine.h"

#include <algorithm>
#include <cstring>

namespace tessera::nvdla::simulation {

namespace {

constexpr std::int64_t kBdmaMaxTransfers = 20, kBdmaMaxRepeat = 8192;
constexpr std::uint64_t kDmaAlignment = 32;  // the units' address and stride registers drop bits 4..0

// Throws unless `first + extent` bytes lie within `memory`.
void requireInside(const std::vector<std::uint8_t>& memory, std::uint64_t first, std::uint64_t extent,
                   const std::string& where)
{
    if (first > memory.size() || extent > memory.size() - first)
        throw ModelError(fmt::format("{}: {} bytes at byte {} pass the end of their memory ({} bytes)", where, extent,
                                     first, memory.size()));
}

}  // namespace

void Machine::bdma(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord surface = view.surface(i);
    const std::int64_t count = surface.get("num_transfers");
    if (count > kBdmaMaxTransfers)
        throw ModelError(fmt::format("{} num_transfers: {} exceeds the firmware's {}", where, count, kBdmaMaxTransfers));
    for (std::int64_t t = 0; t < count; ++t) {
        const std::string transfer = fmt::format("{} transfers[{}]", where, t);
        const auto field = [&](const char* name) { return surface.get(fmt::format("transfers[{}].{}", t, name)); };
        const std::int64_t lineSize = field("line_size"), lineRepeat = field("line_repeat"),
                           surfaceRepeat = field("surface_repeat");
        if (lineSize < 1 || lineSize % std::int64_t(kDmaAlignment) != 0)
            throw ModelError(fmt::format("{}.line_size: {} is not a positive multiple of 32 bytes", transfer, lineSize));
        if (lineRepeat < 1 || lineRepeat > kBdmaMaxRepeat || surfaceRepeat < 1 || surfaceRepeat > kBdmaMaxRepeat)
            throw ModelError(fmt::format("{}: line_repeat {} and surface_repeat {} must be 1..{}", transfer, lineRepeat,
                                         surfaceRepeat, kBdmaMaxRepeat));
        const std::uint64_t sourceLine = std::uint64_t(field("source_line")),
                            destinationLine = std::uint64_t(field("destination_line")),
                            sourceSurface = std::uint64_t(field("source_surface")),
                            destinationSurface = std::uint64_t(field("destination_surface"));
        const auto [source, sourceBase] = resolve(view.addressList, field("source_address"), transfer + ".source_address");
        const auto [destination, destinationBase] =
            resolve(view.addressList, field("destination_address"), transfer + ".destination_address");
        if (sourceBase % kDmaAlignment != 0 || destinationBase % kDmaAlignment != 0 || sourceLine % kDmaAlignment != 0 ||
            destinationLine % kDmaAlignment != 0 || sourceSurface % kDmaAlignment != 0 ||
            destinationSurface % kDmaAlignment != 0)
            throw ModelError(fmt::format("{}: addresses and strides must be multiples of 32 bytes (the unit drops the "
                                         "low bits)",
                                         transfer));
        requireInside(*source, sourceBase,
                      (std::uint64_t(surfaceRepeat) - 1) * sourceSurface + (std::uint64_t(lineRepeat) - 1) * sourceLine +
                          std::uint64_t(lineSize),
                      transfer + " source");
        requireInside(*destination, destinationBase,
                      (std::uint64_t(surfaceRepeat) - 1) * destinationSurface +
                          (std::uint64_t(lineRepeat) - 1) * destinationLine + std::uint64_t(lineSize),
                      transfer + " destination");
        for (std::int64_t s = 0; s < surfaceRepeat; ++s)
            for (std::int64_t l = 0; l < lineRepeat; ++l)
                std::memmove(destination->data() + destinationBase + std::uint64_t(s) * destinationSurface +
                                 std::uint64_t(l) * destinationLine,
                             source->data() + sourceBase + std::uint64_t(s) * sourceSurface + std::uint64_t(l) * sourceLine,
                             std::size_t(lineSize));
    }
    trace.push_back(fmt::format("{}: {} transfer{}", where, count, count == 1 ? "" : "s"));
}

void Machine::rubik(const DlaTaskView& view, std::size_t i, const std::string& where)
{
    const ConstRecord op = view.op(i), surface = view.surface(i);
    const std::int64_t mode = op.get("mode"), precision = op.get("precision");
    if (mode > kRubikMerge)
        throw ModelError(fmt::format("{} mode: {} is not contract (0), split (1) or merge (2)", where, mode));
    if (precision > kPrecisionFp16)
        throw ModelError(fmt::format("{} precision: {} is not INT8, INT16 or FP16", where, precision));
    const unsigned elementBytes = precision == kPrecisionInt8 ? 1 : 2;
    const CubeAccess source = access(view, surface, "src_data", where, elementBytes, mode != kRubikMerge);
    CubeAccess destination = access(view, surface, "dst_data", where, elementBytes, mode == kRubikMerge);
    const std::uint64_t atom = source.atomBytes, perAtom = atom / elementBytes;
    for (const auto& [cube, name] : {std::pair<const CubeAccess*, const char*>{&source, "src_data"},
                                     std::pair<const CubeAccess*, const char*>{&destination, "dst_data"}})
        if (cube->base % kDmaAlignment != 0 || cube->line % kDmaAlignment != 0 || cube->surface % kDmaAlignment != 0)
            throw ModelError(fmt::format("{} {}: address, line and surface strides must be multiples of 32 bytes",
                                         where, name));
    const unsigned width = source.width, height = source.height;
    std::vector<std::uint8_t>& in = *source.memory;
    std::vector<std::uint8_t>& out = *destination.memory;
    if (mode == kRubikContract) {
        // Channel block (dy * sx + dx) of the source becomes output phase (dy, dx): whole atoms move.
        const std::int64_t sx = op.get("stride_x"), sy = op.get("stride_y");
        if (sx < 1 || sx > 32 || sy < 1 || sy > 32)
            throw ModelError(fmt::format("{}: contract strides {}x{} must be 1..32", where, sx, sy));
        const std::uint64_t groups = (destination.channels + perAtom - 1) / perAtom;
        if (destination.width != width * sx || destination.height != height * sy)
            throw ModelError(fmt::format("{} dst_data: {}x{} is not the source's {}x{} times the strides {}x{}", where,
                                         destination.width, destination.height, width, height, sx, sy));
        requireInside(in, source.base,
                      (std::uint64_t(sx * sy) * groups - 1) * source.surface + (height - 1) * source.line + width * atom,
                      where + " src_data");
        requireInside(out, destination.base,
                      (groups - 1) * destination.surface + (destination.height - 1) * destination.line +
                          destination.width * atom,
                      where + " dst_data");
        for (std::int64_t dy = 0; dy < sy; ++dy)
            for (std::int64_t dx = 0; dx < sx; ++dx)
                for (std::uint64_t group = 0; group < groups; ++group)
                    for (unsigned y = 0; y < height; ++y)
                        for (unsigned x = 0; x < width; ++x)
                            std::memmove(out.data() + destination.base + group * destination.surface +
                                             (y * sy + dy) * destination.line + (x * sx + dx) * atom,
                                         in.data() + source.base + (std::uint64_t(dy * sx + dx) * groups + group) *
                                                                       source.surface +
                                             y * source.line + x * atom,
                                         atom);
    } else if (mode == kRubikSplit) {
        // One plane per output channel; each line's tail up to the next 32 bytes is written as zeros.
        const std::uint64_t plane = std::uint64_t(surface.get("dst_data.plane_stride"));
        const std::uint64_t lineBytes = (std::uint64_t(width) * elementBytes + kDmaAlignment - 1) / kDmaAlignment *
                                        kDmaAlignment;
        if (plane % kDmaAlignment != 0 || destination.line < lineBytes)
            throw ModelError(fmt::format("{} dst_data: plane stride {} must be a multiple of 32 and line stride {} at "
                                         "least {}",
                                         where, plane, destination.line, lineBytes));
        const unsigned channels = destination.channels;
        if (channels > source.channels)
            throw ModelError(fmt::format("{}: {} planes from a cube of {} channels", where, channels, source.channels));
        requireInside(out, destination.base,
                      channels == 0 ? 0 : (channels - 1) * plane + (height - 1) * destination.line + lineBytes,
                      where + " dst_data");
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned y = 0; y < height; ++y) {
                std::uint8_t* line = out.data() + destination.base + c * plane + y * destination.line;
                std::fill(line, line + lineBytes, std::uint8_t(0));
                for (unsigned x = 0; x < width; ++x)
                    std::memcpy(line + x * elementBytes, in.data() + source.offsetOf(c, y, x), elementBytes);
            }
    } else {
        // Planes back into feature layout; the channels past the last plane in its atom are zeros.
        const std::uint64_t plane = std::uint64_t(surface.get("src_data.plane_stride"));
        if (plane == 0 || plane % kDmaAlignment != 0)
            throw ModelError(fmt::format("{} src_data.plane_stride: {} must be a nonzero multiple of 32 (the firmware "
                                         "asserts it)",
                                         where, plane));
        const unsigned channels = source.channels;
        requireInside(in, source.base,
                      channels == 0 ? 0 : (channels - 1) * plane + (height - 1) * source.line + width * elementBytes,
                      where + " src_data");
        destination.channels = unsigned((channels + perAtom - 1) / perAtom * perAtom);
        requireInside(out, destination.base,
                      channels == 0 ? 0 : destination.offsetOf(destination.channels - 1, height - 1, width - 1) + elementBytes -
                                              destination.base,
                      where + " dst_data");
        for (unsigned c = 0; c < destination.channels; ++c)
            for (unsigned y = 0; y < height; ++y)
                for (unsigned x = 0; x < width; ++x) {
                    std::uint8_t* to = out.data() + destination.offsetOf(c, y, x);
                    if (c < channels)
                        std::memcpy(to, in.data() + source.base + c * plane + y * source.line + x * elementBytes,
                                    elementBytes);
                    else
                        std::fill(to, to + elementBytes, std::uint8_t(0));
                }
    }
    trace.push_back(fmt::format("{}: {} {}x{}x{}", where,
                                mode == kRubikContract ? "contract" : mode == kRubikSplit ? "split" : "merge", width,
                                height, source.channels));
}

}  // namespace tessera::nvdla::simulation
