// An image file made into a loadable's input the way NVIDIA's nvdla_runtime does with --image:
// a binary PGM (P5, maxval 255) or a JPEG (decoded with libjpeg's accurate integer DCT; colour as
// blue, green, red), of exactly the input's width and height, no resizing. Channel z of the tensor
// takes image channel z; tensor channels beyond the image's stay 0. FP16 inputs take
// (pixel - mean[z]) / normalize, INT8 inputs round(pixel x 127 / 255) whatever mean and normalize.
#pragma once

#include "nvdla/loadable.h"
#include "ir/tensor_data.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::nvdla {

struct RuntimeImage {
    unsigned width = 0, height = 0, channels = 0;
    std::vector<std::uint8_t> pixels;  // interleaved, (y * width + x) * channels + c
};

// `name` is the file's name for messages; its extension picks the reader as the runtime's does
// (".pgm" or ".jpg", case-sensitive). Throws tessera::Error naming the file and what is wrong.
RuntimeImage readRuntimeImage(const std::string& name, const std::string& bytes);
RuntimeImage readRuntimeImageFile(const std::string& path);
bool isRuntimeImageName(const std::string& name);

struct RuntimeImageOptions {
    std::array<float, 4> mean{};  // --mean, per image channel
    int normalize = 1;            // --normalize (an integer 1..255 in the runtime)
};

// The input tensor [1, c, h, w] the loadable reads: float values for an FP16 input (rounded to FP16
// by whoever writes the surface), int8 values for an INT8 one. Throws when the sizes differ or
// the image has more channels than the input.
TensorData runtimeImageInput(const RuntimeImage& image, const TensorDesc& input, const std::string& name,
                             const RuntimeImageOptions& options = {});

}  // namespace tessera::nvdla
