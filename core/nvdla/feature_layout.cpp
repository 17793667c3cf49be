#include "nvdla/feature_layout.h"

#include "base/error.h"

#include <fmt/format.h>

namespace tessera::nvdla {

FeatureLayout featureLayout(unsigned width, unsigned height, unsigned channels, unsigned elementBytes,
                            unsigned atomBytes)
{
    if (width == 0 || height == 0 || channels == 0 || width > 8192 || height > 8192 || channels > 8192)
        throw Error(fmt::format("a {}x{}x{} feature cube is outside what NVDLA's descriptors describe (1..8192 "
                                "per dimension)",
                                width, height, channels));
    if (elementBytes == 0 || atomBytes < elementBytes || atomBytes % elementBytes != 0)
        throw Error(fmt::format("{}-byte elements do not fill a {}-byte memory atom", elementBytes, atomBytes));
    FeatureLayout layout;
    layout.width = width;
    layout.height = height;
    layout.channels = channels;
    layout.elementBytes = elementBytes;
    layout.atomBytes = atomBytes;
    layout.channelsPerGroup = atomBytes / elementBytes;
    layout.lineStride = std::uint64_t(width) * atomBytes;
    layout.surfaceStride = layout.lineStride * height;
    const unsigned groups = (channels + layout.channelsPerGroup - 1) / layout.channelsPerGroup;
    layout.bytes = layout.surfaceStride * groups;
    return layout;
}

FeatureLayout planarLayout(unsigned width, unsigned height, unsigned channels, unsigned elementBytes)
{
    FeatureLayout layout = featureLayout(width, height, channels, elementBytes, elementBytes);
    layout.lineStride = (std::uint64_t(width) * elementBytes + 31) / 32 * 32;
    layout.surfaceStride = layout.lineStride * height;
    layout.bytes = layout.surfaceStride * channels;
    layout.planar = true;
    return layout;
}

void setCube(Record& surface, const std::string& cube, std::uint16_t memoryType, std::int16_t addressIndex,
             std::uint32_t offset, const FeatureLayout& layout)
{
    surface.set(cube + ".type", memoryType);
    surface.set(cube + ".address", addressIndex);
    if (surface.layout().find(cube + ".offset"))
        surface.set(cube + ".offset", offset);
    surface.set(cube + ".size", std::int64_t(layout.bytes));
    surface.set(cube + ".width", layout.width);
    surface.set(cube + ".height", layout.height);
    surface.set(cube + ".channel", layout.channels);
    surface.set(cube + ".line_stride", std::int64_t(layout.lineStride));
    surface.set(cube + ".surf_stride", std::int64_t(layout.surfaceStride));
    surface.set(cube + ".plane_stride", layout.planar ? std::int64_t(layout.surfaceStride) : 0);
}

}  // namespace tessera::nvdla
