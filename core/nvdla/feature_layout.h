// How NVDLA lays feature data out in memory: channels in groups that fill one memory atom (32 bytes
// on nv_full: 16 FP16 or 32 INT8 channels; 8 bytes on nv_small), each group a surface of lines of
// width atoms. The strides and sizes written into every dla_data_cube come from here.
#pragma once

#include "nvdla/descriptor_layout.h"

#include <cstdint>
#include <string>

namespace tessera::nvdla {

struct FeatureLayout {
    unsigned width = 0, height = 0, channels = 0;
    unsigned elementBytes = 0;      // 1 INT8, 2 FP16
    unsigned atomBytes = 0;         // the configuration's memory atom
    unsigned channelsPerGroup = 0;  // atomBytes / elementBytes
    std::uint64_t lineStride = 0;   // bytes from one line to the next within a group
    std::uint64_t surfaceStride = 0;  // bytes from one channel group to the next
    std::uint64_t bytes = 0;        // the whole cube
    bool planar = false;            // one plane per channel (RUBIK's split and merge): a group is a channel

    // Byte offset of element (c, y, x).
    std::uint64_t offsetOf(unsigned c, unsigned y, unsigned x) const
    {
        return (c / channelsPerGroup) * surfaceStride + y * lineStride + std::uint64_t(x) * atomBytes +
               (c % channelsPerGroup) * elementBytes;
    }
};

// Throws tessera::Error when a dimension is 0 or above the 16-bit fields of the descriptors.
FeatureLayout featureLayout(unsigned width, unsigned height, unsigned channels, unsigned elementBytes,
                            unsigned atomBytes);

// One plane per channel, each line padded to 32 bytes (what RUBIK's split writes and merge reads):
// channelsPerGroup 1, atomBytes the element, surfaceStride the plane stride.
FeatureLayout planarLayout(unsigned width, unsigned height, unsigned channels, unsigned elementBytes);

// Fills the data cube `cube` ("src_data", ...) of a surface descriptor: memory type, task address
// index, offset (when the interface has it), size, dimensions and strides.
void setCube(Record& surface, const std::string& cube, std::uint16_t memoryType, std::int16_t addressIndex,
             std::uint32_t offset, const FeatureLayout& layout);

}  // namespace tessera::nvdla
