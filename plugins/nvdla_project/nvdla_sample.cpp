#include "nvdla_project/nvdla_sample.h"

#include "base/error.h"
#include "io/file_io.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "nvdla_project/runtime_image.h"
#include "onnx/tensor_proto.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include <jpeglib.h>

namespace tessera::nvdla {

namespace {

// A sample picture: smooth waves that differ per channel, so a channel mix-up shows.
std::vector<std::uint8_t> samplePixels(unsigned width, unsigned height, unsigned channels)
{
    std::vector<std::uint8_t> pixels(std::size_t(width) * height * channels);
    for (unsigned y = 0; y < height; ++y)
        for (unsigned x = 0; x < width; ++x)
            for (unsigned c = 0; c < channels; ++c) {
                const double wave = std::sin(0.35 * x + 0.9 * c) * std::cos(0.27 * y - 0.5 * c);
                pixels[(std::size_t(y) * width + x) * channels + c] =
                    std::uint8_t(std::clamp(std::lround(127.5 + 127.5 * wave), 0L, 255L));
            }
    return pixels;
}

std::string pgmFile(const std::vector<std::uint8_t>& gray, unsigned width, unsigned height)
{
    // The runtime reads three header lines: P5, the size, 255.
    return fmt::format("P5\n{} {}\n255\n", width, height) + std::string(gray.begin(), gray.end());
}

// RGB pixels as a JPEG of the best quality without chroma subsampling.
std::string jpegFile(const std::vector<std::uint8_t>& rgb, unsigned width, unsigned height)
{
    jpeg_compress_struct compressor{};
    jpeg_error_mgr errors{};
    compressor.err = jpeg_std_error(&errors);
    errors.error_exit = [](j_common_ptr info) {
        char message[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, message);
        throw Error(std::string("writing the sample JPEG: ") + message);
    };
    jpeg_create_compress(&compressor);
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    std::string bytes;
    try {
        jpeg_mem_dest(&compressor, &buffer, &size);
        compressor.image_width = width;
        compressor.image_height = height;
        compressor.input_components = 3;
        compressor.in_color_space = JCS_RGB;
        jpeg_set_defaults(&compressor);
        jpeg_set_quality(&compressor, 100, TRUE);
        for (int c = 0; c < 3; ++c)
            compressor.comp_info[c].h_samp_factor = compressor.comp_info[c].v_samp_factor = 1;
        jpeg_start_compress(&compressor, TRUE);
        while (compressor.next_scanline < height) {
            JSAMPROW row = const_cast<JSAMPROW>(&rgb[std::size_t(compressor.next_scanline) * width * 3]);
            jpeg_write_scanlines(&compressor, &row, 1);
        }
        jpeg_finish_compress(&compressor);
        bytes.assign(reinterpret_cast<const char*>(buffer), size);
    } catch (...) {
        jpeg_destroy_compress(&compressor);
        std::free(buffer);
        throw;
    }
    jpeg_destroy_compress(&compressor);
    std::free(buffer);
    return bytes;
}

// The real values the network sees: INT8 inputs are their int8 values times the input's scale.
void addRealInputs(const NvdlaCompilation& compilation, NvdlaSample& sample)
{
    const std::vector<TensorDesc> inputs = loadableInputs(compilation.loadable);
    for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
        TensorData real = TensorData::fromDoubles(DType::Float32, sample.inputs[k].shape(), sample.inputs[k].toDoubles());
        if (compilation.int8)
            for (std::int64_t i = 0; i < real.elements(); ++i)
                real.setDouble(i, real.getDouble(i) * compilation.int8->scales.at(inputs[k].name));
        sample.realInputs.push_back(std::move(real));
    }
}

}  // namespace

NvdlaSample nvdlaSample(const NvdlaCompilation& compilation)
{
    const std::vector<TensorDesc> inputs = loadableInputs(compilation.loadable);
    if (inputs.empty())
        throw Error("the loadable binds no input; there is no sample to make");
    const bool int8 = compilation.precision == target::NvdlaPrecision::Int8;
    const TensorDesc& first = inputs.front();
    const unsigned width = unsigned(first.w), height = unsigned(first.h), channels = unsigned(first.c);
    const bool image = inputs.size() == 1 && (channels == 1 || channels == 3);
    const auto scaleOf = [&](const std::string& name) {
        return compilation.int8 ? compilation.int8->scales.at(name) : 1.0;
    };
    NvdlaSample sample;
    if (image) {
        const std::vector<std::uint8_t> pixels = samplePixels(width, height, channels);
        if (channels == 1) {
            sample.imageName = "input.pgm";
            sample.imageBytes = pgmFile(pixels, width, height);
        } else {
            sample.imageName = "input.jpg";
            sample.imageBytes = jpegFile(pixels, width, height);
        }
        // What the runtime makes of the file (a JPEG lossy, blue first), as run.sh runs it.
        RuntimeImageOptions options;
        options.normalize = kRuntimeNormalize;
        sample.inputs.push_back(
            runtimeImageInput(readRuntimeImage(sample.imageName, sample.imageBytes), first, sample.imageName, options));
        sample.contract = int8 ? fmt::format("the runtime writes each pixel p as the int8 value round(p x 127 / 255) "
                                      "(it ignores --mean and --normalize for INT8); the network reads it as real "
                                      "value int8 x {:.6g} (the input's scale in report.json), so p / 255 x "
                                      "{:.6g}",
                                      scaleOf(first.name), 127.0 * scaleOf(first.name))
                        : fmt::format("the runtime writes each pixel p as the FP16 value (p - mean) / normalize; "
                                      "run.sh passes --normalize {} and no mean, so the network sees p / 255 in "
                                      "[0, 1]",
                                      kRuntimeNormalize);
    } else {
        std::mt19937 random(1);
        std::uniform_real_distribution<double> uniform(0.0, 1.0);
        for (const TensorDesc& input : inputs) {
            std::vector<double> values(std::size_t(input.c) * input.h * input.w);
            for (double& v : values)
                v = int8 ? std::clamp(std::round(uniform(random) / scaleOf(input.name)), -128.0, 127.0) : uniform(random);
            sample.inputs.push_back(TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32, {1, input.c, input.h, input.w},
                                                      values));
        }
        sample.contract = "nvdla_runtime fills its input from an image only (--image, a .pgm or .jpg), and this network's "
                   "input is not an image of 1 or 3 channels: give it its input through your own application, "
                   "with the tensor of input.pb";
    }
    addRealInputs(compilation, sample);
    return sample;
}

NvdlaSample nvdlaSampleFromFile(const NvdlaCompilation& compilation, const std::string& path)
{
    const std::vector<TensorDesc> inputs = loadableInputs(compilation.loadable);
    if (inputs.size() != 1)
        throw Error(fmt::format("{}: the loadable binds {} inputs and one file gives one; run it with `tessera nvdla "
                                "run model.nvdla -i FILE ...`, a tensor file per input",
                                path, inputs.size()));
    const TensorDesc& input = inputs.front();
    const bool int8 = compilation.precision == target::NvdlaPrecision::Int8;
    const std::string fileName = std::filesystem::path(path).filename().string();
    NvdlaSample sample;
    if (isRuntimeImageName(path)) {
        RuntimeImageOptions options;
        options.normalize = kRuntimeNormalize;
        sample.imageName = fileName;
        sample.imageBytes = readFileBytes(path);
        sample.inputs.push_back(runtimeImageInput(readRuntimeImage(path, sample.imageBytes), input, path, options));
        sample.contract = "the image as nvdla_runtime reads it with --normalize " + std::to_string(kRuntimeNormalize);
    } else if (path.size() > 3 && path.compare(path.size() - 3, 3, ".pb") == 0) {
        // A tensor of int8 values is what an INT8 input holds; any other type holds real values.
        const TensorData tensor = readTensorFile(path);
        const std::int64_t elements = std::int64_t(input.c) * input.h * input.w;
        if (tensor.elements() != elements)
            throw Error(fmt::format("{}: the tensor has shape {} ({} values) but input '{}' is 1x{}x{}x{} ({} values)",
                                    path, shapeToString(tensor.shape()), tensor.elements(), input.name, input.c,
                                    input.h, input.w, elements));
        std::vector<double> values = tensor.toDoubles();
        if (tensor.dtype() == DType::Int8 && !int8)
            throw Error(fmt::format("{}: the tensor holds int8 values but input '{}' is FP16; give its real values "
                                    "as a float tensor",
                                    path, input.name));
        if (int8 && tensor.dtype() != DType::Int8)
            for (double& v : values)  // real values quantized with the input's scale
                v = std::clamp(std::round(v / compilation.int8->scales.at(input.name)), -128.0, 127.0);
        sample.inputs.push_back(
            TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32, {1, input.c, input.h, input.w}, values));
        sample.contract = "the tensor of " + fileName;
    } else {
        throw Error(path + ": give an image as nvdla_runtime reads it (.pgm or .jpg) or an ONNX tensor file (.pb)");
    }
    addRealInputs(compilation, sample);
    return sample;
}

}  // namespace tessera::nvdla
