#include "nvdla_project/runtime_image.h"

#include "base/error.h"
#include "io/file_io.h"

#include <fmt/format.h>

#include <cmath>
#include <sstream>

#include <jpeglib.h>

namespace tessera::nvdla {

namespace {

bool endsWith(const std::string& name, const std::string& suffix)
{
    return name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The runtime reads three header lines, skipping lines that start with '#': "P5", "width height",
// "255"; then width x height bytes.
RuntimeImage readPgm(const std::string& name, const std::string& bytes)
{
    std::istringstream in(bytes);
    std::vector<std::string> header;
    std::string line;
    while (header.size() < 3 && std::getline(in, line))
        if (line.empty() || line[0] != '#')
            header.push_back(line);
    if (header.size() < 3 || header[0] != "P5")
        throw Error(name + ": not a binary PGM as nvdla_runtime reads it (three header lines: P5, the width and "
                           "height, 255; no comment inside a line, no CR)");
    RuntimeImage image;
    std::istringstream size(header[1]);
    long width = 0, height = 0;
    if (!(size >> width >> height) || width <= 0 || height <= 0 || width > 8192 || height > 8192)
        throw Error(fmt::format("{}: the PGM's second header line '{}' is not a width and height of 1..8192", name,
                                header[1]));
    if (header[2] != "255")
        throw Error(fmt::format("{}: the PGM's maximum value is '{}'; nvdla_runtime reads only 8-bit PGMs (255)", name,
                                header[2]));
    image.width = unsigned(width);
    image.height = unsigned(height);
    image.channels = 1;
    image.pixels.resize(std::size_t(width) * std::size_t(height));
    in.read(reinterpret_cast<char*>(image.pixels.data()), std::streamsize(image.pixels.size()));
    if (in.gcount() != std::streamsize(image.pixels.size()))
        throw Error(fmt::format("{}: the PGM holds {} of its {}x{} pixels; the file is cut short", name, in.gcount(),
                                width, height));
    return image;
}

// libjpeg's accurate integer DCT; grey stays one channel, colour comes out blue, green, red.
RuntimeImage readJpeg(const std::string& name, const std::string& bytes)
{
    struct Failure {
        std::string message;
    };
    jpeg_decompress_struct decompressor{};
    jpeg_error_mgr errors{};
    decompressor.err = jpeg_std_error(&errors);
    errors.error_exit = [](j_common_ptr info) {
        char message[JMSG_LENGTH_MAX];
        (*info->err->format_message)(info, message);
        throw Failure{message};
    };
    errors.emit_message = [](j_common_ptr, int) {};  // warnings on a damaged file are not fatal
    jpeg_create_decompress(&decompressor);
    RuntimeImage image;
    try {
        jpeg_mem_src(&decompressor, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
        jpeg_read_header(&decompressor, TRUE);
        if (decompressor.jpeg_color_space == JCS_CMYK || decompressor.jpeg_color_space == JCS_YCCK)
            throw Failure{"a CMYK JPEG, which nvdla_runtime does not read; save it as RGB or greyscale"};
        const bool grey = decompressor.jpeg_color_space == JCS_GRAYSCALE;
        decompressor.out_color_space = grey ? JCS_GRAYSCALE : JCS_EXT_BGR;
        decompressor.dct_method = JDCT_ISLOW;
        if (decompressor.image_width > 8192 || decompressor.image_height > 8192)
            throw Failure{fmt::format("{}x{} pixels; an NVDLA input is at most 8192 on a side",
                                      decompressor.image_width, decompressor.image_height)};
        jpeg_start_decompress(&decompressor);
        image.width = decompressor.output_width;
        image.height = decompressor.output_height;
        image.channels = grey ? 1 : 3;
        image.pixels.resize(std::size_t(image.width) * image.height * image.channels);
        while (decompressor.output_scanline < image.height) {
            JSAMPROW row = &image.pixels[std::size_t(decompressor.output_scanline) * image.width * image.channels];
            if (jpeg_read_scanlines(&decompressor, &row, 1) != 1)
                throw Failure{"the file ends before the last line"};
        }
        jpeg_finish_decompress(&decompressor);
    } catch (const Failure& failure) {
        jpeg_destroy_decompress(&decompressor);
        throw Error(name + ": cannot read the JPEG: " + failure.message);
    }
    jpeg_destroy_decompress(&decompressor);
    return image;
}

}  // namespace

bool isRuntimeImageName(const std::string& name)
{
    return endsWith(name, ".pgm") || endsWith(name, ".jpg");
}

RuntimeImage readRuntimeImage(const std::string& name, const std::string& bytes)
{
    if (endsWith(name, ".pgm"))
        return readPgm(name, bytes);
    if (endsWith(name, ".jpg"))
        return readJpeg(name, bytes);
    throw Error(name + ": nvdla_runtime takes its --image by the extension, .pgm or .jpg (in lower case); rename "
                       "the file or convert it");
}

RuntimeImage readRuntimeImageFile(const std::string& path)
{
    if (!isRuntimeImageName(path))
        return readRuntimeImage(path, {});  // the message about the extension, before reading anything
    return readRuntimeImage(path, readFileBytes(path));
}

TensorData runtimeImageInput(const RuntimeImage& image, const TensorDesc& input, const std::string& name,
                             const RuntimeImageOptions& options)
{
    if (std::int64_t(image.width) != input.w || std::int64_t(image.height) != input.h)
        throw Error(fmt::format("{}: the image is {}x{} pixels but input '{}' is {}x{} (width x height); "
                                "nvdla_runtime does not resize, so resize the image first",
                                name, image.width, image.height, input.name, input.w, input.h));
    if (std::int64_t(image.channels) > input.c)
        throw Error(fmt::format("{}: the image has {} channels but input '{}' has {}; give a {} image", name,
                                image.channels, input.name, input.c, input.c == 1 ? "greyscale" : "smaller"));
    if (options.normalize < 1 || options.normalize > 255)
        throw Error(fmt::format("--normalize {}: nvdla_runtime keeps it in one byte, so it is 1..255",
                                options.normalize));
    const bool int8 = input.dataType == kDataTypeInt8;
    std::vector<double> values(std::size_t(input.c) * std::size_t(input.h) * std::size_t(input.w), 0.0);
    for (unsigned c = 0; c < image.channels; ++c)
        for (unsigned y = 0; y < image.height; ++y)
            for (unsigned x = 0; x < image.width; ++x) {
                const double pixel = image.pixels[(std::size_t(y) * image.width + x) * image.channels + c];
                values[(std::size_t(c) * image.height + y) * image.width + x] =
                    int8 ? std::floor(pixel * 127.0 / 255.0 + 0.5)
                         : (float(pixel) - options.mean[c]) / float(options.normalize);
            }
    return TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32, {1, input.c, input.h, input.w}, values);
}

}  // namespace tessera::nvdla
