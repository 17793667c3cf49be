// How NVDLA's direct convolution reads weights from memory (uncompressed): kernels in groups
// (16 FP16 / 32 INT8 kernels on nv_full, 4 / 8 on nv_small: atomic K, halved for 2-byte elements),
// each kernel cut into blocks of atomic C channels (64 on nv_full, 8 on nv_small, for every
// precision). Within a group the full channel blocks come first, then the partial one; each block
// is laid out row by row, column by column, kernel by kernel, channel by channel. Groups and
// blocks follow each other without padding; the whole is padded with zeros to a multiple of the
// CBUF entry (128 bytes on nv_full). NVIDIA's documentation of the in-memory formats describes the
// same order ("Basic Weight for Direct Convolution").
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::nvdla {

struct WeightLayout {
    unsigned kernels = 0, channels = 0, height = 0, width = 0;  // K, C, R, S
    unsigned elementBytes = 0;
    unsigned kernelsPerGroup = 0;
    unsigned channelsPerBlock = 0;
    std::uint64_t bytes = 0;            // padded
    std::uint64_t bytesPerKernel = 0;   // C * R * S * elementBytes, unpadded

    // Byte offset of weight [k][c][r][s].
    std::uint64_t offsetOf(unsigned k, unsigned c, unsigned r, unsigned s) const;
};

// atomicK / atomicC / entryBytes: the configuration's; elementBytes 1 (INT8) or 2 (FP16).
WeightLayout directWeightLayout(unsigned kernels, unsigned channels, unsigned height, unsigned width,
                                unsigned elementBytes, unsigned atomicK, unsigned atomicC, unsigned entryBytes);

}  // namespace tessera::nvdla
