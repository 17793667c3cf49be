#include "nvdla_project/nvdla_sample.h"

#include "base/error.h"
#include "nvdla/simulator/descriptor_simulator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
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

// The pixels nvdla_runtime reads from a JPEG: libjpeg's accurate integer DCT, channels blue,
// green, red.
std::vector<std::uint8_t> decodeAsRuntime(const std::string& jpeg, unsigned width, unsigned height)
{
    jpeg_decompress_struct decompressor{};
    jpeg_error_mgr errors{};
    decompressor.err = jpeg_std_error(&errors);
    errors.error_exit = [](j_common_ptr info) {
        char message[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, message);
        throw Error(std::string("reading the sample JPEG back: ") + message);
    };
    jpeg_create_decompress(&decompressor);
    std::vector<std::uint8_t> bgr(std::size_t(width) * height * 3);
    try {
        jpeg_mem_src(&decompressor, reinterpret_cast<const unsigned char*>(jpeg.data()), jpeg.size());
        jpeg_read_header(&decompressor, TRUE);
        decompressor.out_color_space = JCS_EXT_BGR;
        decompressor.dct_method = JDCT_ISLOW;
        jpeg_start_decompress(&decompressor);
        while (decompressor.output_scanline < height) {
            JSAMPROW row = &bgr[std::size_t(decompressor.output_scanline) * width * 3];
            jpeg_read_scanlines(&decompressor, &row, 1);
        }
        jpeg_finish_decompress(&decompressor);
    } catch (...) {
        jpeg_destroy_decompress(&decompressor);
        throw;
    }
    jpeg_destroy_decompress(&decompressor);
    return bgr;
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
        std::vector<std::uint8_t> pixels = samplePixels(width, height, channels);
        if (channels == 1) {
            sample.imageName = "input.pgm";
            sample.imageBytes = pgmFile(pixels, width, height);
        } else {
            sample.imageName = "input.jpg";
            sample.imageBytes = jpegFile(pixels, width, height);
            pixels = decodeAsRuntime(sample.imageBytes, width, height);  // what the runtime sees: lossy, blue first
        }
        std::vector<double> values(pixels.size());
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned y = 0; y < height; ++y)
                for (unsigned x = 0; x < width; ++x) {
                    const double pixel = pixels[(std::size_t(y) * width + x) * channels + c];
                    values[(std::size_t(c) * height + y) * width + x] =
                        int8 ? std::floor(pixel * 127.0 / 255.0 + 0.5) : pixel / kRuntimeNormalize;
                }
        sample.inputs.push_back(TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32,
                                                  {1, first.c, first.h, first.w}, values));
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
    for (std::size_t k = 0; k < sample.inputs.size(); ++k) {
        TensorData real = TensorData::fromDoubles(DType::Float32, sample.inputs[k].shape(), sample.inputs[k].toDoubles());
        if (int8)
            for (std::int64_t i = 0; i < real.elements(); ++i)
                real.setDouble(i, real.getDouble(i) * scaleOf(inputs[k].name));
        sample.realInputs.push_back(std::move(real));
    }
    return sample;
}

}  // namespace tessera::nvdla
