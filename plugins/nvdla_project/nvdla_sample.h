// The sample input of an NVDLA compilation as nvdla_runtime makes it: for a single input of 1 or 3
// channels from an image (a PGM, or a JPEG the runtime decodes blue, green, red; FP16 takes
// pixel / 255, INT8 round(pixel x 127 / 255)), otherwise a seeded sample in [0, 1]. The project
// exporter writes it; the studio simulates the loadable on it.
#pragma once

#include "nvdla/compile/nvdla_compiler.h"

#include <string>
#include <vector>

namespace tessera::nvdla {

// nvdla_runtime --normalize: FP16 inputs take (pixel - mean) / normalize; Tessera's projects use
// mean 0 and normalize 255, so an FP16 network sees pixels in [0, 1].
inline constexpr int kRuntimeNormalize = 255;

struct NvdlaSample {
    std::vector<TensorData> inputs;      // as the loadable binds them: float32 (FP16) or the int8 values
    std::vector<TensorData> realInputs;  // the real values the network sees (INT8: int8 x the input's scale)
    std::string imageName;               // "input.pgm" or "input.jpg"; empty when the input is no image
    std::string imageBytes;              // that file
    std::string contract;                // what the runtime does to the pixels, in one sentence
};

NvdlaSample nvdlaSample(const NvdlaCompilation& compilation);

// The input from a user's file for a loadable of one input: an image (.pgm, .jpg) as nvdla_runtime
// reads it with Tessera's --normalize, or an ONNX tensor file (.pb) of the input's values (int8
// values for an INT8 input, or real values, which an INT8 input quantizes with its scale).
NvdlaSample nvdlaSampleFromFile(const NvdlaCompilation& compilation, const std::string& path);

}  // namespace tessera::nvdla
