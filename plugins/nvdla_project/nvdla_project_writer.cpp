#include "nvdla_project/nvdla_project_writer.h"

#include "base/error.h"
#include "io/file_io.h"
#include "io/staged_folder.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "onnx/tensor_proto.h"
#include "target/nvdla_configs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <sstream>

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

// Output 0 as `nvdla_runtime --rawdump` prints it: channel, row, column order, each value and a space.
std::string rawDump(const TensorData& output)
{
    std::ostringstream text;
    for (std::int64_t i = 0; i < output.elements(); ++i) {
        if (output.dtype() == DType::Float32)
            text << float(output.getDouble(i)) << ' ';
        else
            text << output.getInt(i) << ' ';
    }
    return text.str();
}

std::string runScript(const std::string& imageOption, bool int8)
{
    const std::string compare =
        int8 ? "exactly" : "within 2% of the largest expected value (FP16 rounding differs between the DLA and the "
                           "simulator)";
    return fmt::format(R"SH(#!/bin/sh
# Runs model.nvdla on the sample input with NVIDIA's nvdla_runtime (on the board or the virtual
# platform, with the opendla kernel module loaded) and compares output 0 with what Tessera's
# descriptor simulator computed: {compare}.
set -e
cd "$(dirname "$0")"
nvdla_runtime --loadable model.nvdla {image}--rawdump
awk -v int8={int8} '
    NR == FNR {{ for (i = 1; i <= NF; ++i) expected[i] = $i; n = NF; next }}
    {{
        if (NF != n) {{ print "output.dimg has " NF " values, expected_output.txt " n; exit 1 }}
        largest = 0; worst = 0
        for (i = 1; i <= n; ++i) {{
            e = expected[i] < 0 ? -expected[i] : expected[i]; if (e > largest) largest = e
            d = $i - expected[i]; if (d < 0) d = -d; if (d > worst) worst = d
        }}
        limit = int8 ? 0 : 0.02 * (largest > 0 ? largest : 1)
        printf "%d values, largest difference %g (allowed %g)\n", n, worst, limit
        exit worst > limit
    }}' expected_output.txt output.dimg
)SH",
                       fmt::arg("compare", compare), fmt::arg("image", imageOption), fmt::arg("int8", int8 ? 1 : 0));
}

}  // namespace

void exportNvdlaProject(const NvdlaCompilation& compilation, const std::string& directory)
{
    const std::vector<TensorDesc> inputs = loadableInputs(compilation.loadable);
    if (inputs.empty())
        throw Error("the loadable binds no input; there is no sample to write");
    const bool int8 = compilation.precision == target::NvdlaPrecision::Int8;
    const TensorDesc& first = inputs.front();
    const unsigned width = unsigned(first.w), height = unsigned(first.h), channels = unsigned(first.c);
    const bool image = inputs.size() == 1 && (channels == 1 || channels == 3);
    const auto scaleOf = [&](const std::string& name) {
        return compilation.int8 ? compilation.int8->scales.at(name) : 1.0;
    };

    StagedFolder folder(directory);
    const std::filesystem::path root(folder.path());
    const auto write = [&](const char* name, const std::string& bytes) { writeFileAtomically((root / name).string(), bytes); };
    write("model.nvdla", std::string(compilation.bytes.begin(), compilation.bytes.end()));
    write("report.txt", compilation.reportText());
    write("report.json", compilation.reportJson().dump(2) + "\n");

    // The inputs as the runtime fills them: from an image's pixels, or a seeded sample.
    std::vector<TensorData> samples;
    std::string imageName, contract;
    if (image) {
        std::vector<std::uint8_t> pixels = samplePixels(width, height, channels);
        if (channels == 1) {
            imageName = "input.pgm";
            write("input.pgm", pgmFile(pixels, width, height));
        } else {
            imageName = "input.jpg";
            const std::string jpeg = jpegFile(pixels, width, height);
            write("input.jpg", jpeg);
            pixels = decodeAsRuntime(jpeg, width, height);  // what the runtime sees: lossy, blue first
        }
        std::vector<double> values(pixels.size());
        for (unsigned c = 0; c < channels; ++c)
            for (unsigned y = 0; y < height; ++y)
                for (unsigned x = 0; x < width; ++x) {
                    const double pixel = pixels[(std::size_t(y) * width + x) * channels + c];
                    values[(std::size_t(c) * height + y) * width + x] =
                        int8 ? std::floor(pixel * 127.0 / 255.0 + 0.5) : pixel / kRuntimeNormalize;
                }
        samples.push_back(TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32,
                                                  {1, first.c, first.h, first.w}, values));
        contract = int8 ? fmt::format("the runtime writes each pixel p as the int8 value round(p x 127 / 255) "
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
            samples.push_back(TensorData::fromDoubles(int8 ? DType::Int8 : DType::Float32, {1, input.c, input.h, input.w},
                                                      values));
        }
        contract = "nvdla_runtime fills its input from an image only (--image, a .pgm or .jpg), and this network's "
                   "input is not an image of 1 or 3 channels: give it its input through your own application, "
                   "with the tensor of input.pb";
    }
    for (std::size_t k = 0; k < samples.size(); ++k)
        writeTensorFile((root / (k == 0 ? std::string("input.pb") : fmt::format("input_{}.pb", k))).string(), samples[k],
                        inputs[k].name);

    const SimulationResult expected =
        simulateLoadable(compilation.loadable, samples, target::nvdlaConfig(compilation.config));
    for (std::size_t k = 0; k < expected.outputs.size(); ++k)
        writeTensorFile(
            (root / (k == 0 ? std::string("expected_output.pb") : fmt::format("expected_output_{}.pb", k))).string(),
            expected.outputs[k], expected.names[k]);
    write("expected_output.txt", rawDump(expected.outputs.front()));

    std::string script = image ? runScript(fmt::format("--image {} {}", imageName,
                                                       int8 ? std::string() : fmt::format("--normalize {} ", kRuntimeNormalize)),
                                           int8)
                               : "#!/bin/sh\necho \"nvdla_runtime takes images only; see README.md\" >&2\nexit 2\n";
    write("run.sh", script);
    std::filesystem::permissions(root / "run.sh", std::filesystem::perms::owner_exec | std::filesystem::perms::group_exec |
                                                      std::filesystem::perms::others_exec,
                                 std::filesystem::perm_options::add);

    std::string inputList;
    for (const TensorDesc& input : inputs)
        inputList += fmt::format("- '{}': {} x {} x {} (channels x height x width), {}{}\n", input.name, input.c, input.h,
                                 input.w, int8 ? "INT8" : "FP16",
                                 int8 ? fmt::format(", real value = int8 x {:.6g}", scaleOf(input.name)) : std::string());
    std::string outputList;
    for (std::size_t k = 0; k < expected.outputs.size(); ++k) {
        const Shape& shape = expected.outputs[k].shape();
        outputList += fmt::format("- '{}': {}{}\n", expected.names[k], fmt::join(shape, " x "),
                                  int8 ? fmt::format(", real value = int8 x {:.6g}", scaleOf(expected.names[k]))
                                       : std::string());
    }
    write("README.md",
          fmt::format(R"MD(# NVDLA project: {config}, {precision}

Written by `tessera compile --target nvdla`. Take this folder to a board or the virtual platform
that runs NVIDIA's `nvdla_runtime` with the opendla kernel module.

| file | what it is |
|---|---|
| `model.nvdla` | the loadable `nvdla_runtime --loadable` takes |
| `report.txt`, `report.json` | what ran where: per node the unit, the passes, the operations; the DRAM surfaces{scales} |
{imageRow}| `input.pb` | the input tensor{imageSource} (an ONNX TensorProto) |
| `expected_output.pb`, `expected_output.txt` | output 0 that Tessera's descriptor simulator computes for that input; the text is in the form `nvdla_runtime --rawdump` writes to `output.dimg` |
| `run.sh` | runs the loadable on the sample and compares `output.dimg` with `expected_output.txt` |

## Inputs

{inputs}
Input contract: {contract}.

## Outputs

{outputs}
`nvdla_runtime` writes output 0 only, to `output.dimg` in the current folder: with `--rawdump` as
text (values in channel, row, column order, each followed by a space; {valueForm}),
without it as a binary DIMG file.

## Checking on the host

    tessera nvdla inspect model.nvdla          # every list and descriptor, and the firmware's rules
    tessera nvdla run model.nvdla -i input.pb -o out   # out/output_0.pb equals expected_output.pb
)MD",
                      fmt::arg("config", compilation.config),
                      fmt::arg("precision", target::nvdlaPrecisionName(compilation.precision)),
                      fmt::arg("scales", int8 ? "; every tensor's INT8 scale" : ""),
                      fmt::arg("imageRow", image ? fmt::format("| `{}` | the sample image `run.sh` gives the runtime |\n",
                                                               imageName)
                                                 : std::string()),
                      fmt::arg("imageSource", image ? " the runtime makes of the image" : ", a seeded sample in [0, 1]"),
                      fmt::arg("inputs", inputList), fmt::arg("contract", contract), fmt::arg("outputs", outputList),
                      fmt::arg("valueForm", int8 ? "int8 values, not rescaled" : "FP16 values printed to 6 digits")));
    folder.commit();
}

}  // namespace tessera::nvdla
