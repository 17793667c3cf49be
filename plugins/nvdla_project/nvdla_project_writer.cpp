#include "nvdla_project/nvdla_project_writer.h"

#include "nvdla_project/nvdla_sample.h"

#include "base/error.h"
#include "io/file_io.h"
#include "io/staged_folder.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "onnx/tensor_proto.h"
#include "target/nvdla_configs.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace tessera::nvdla {

namespace {

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
    const bool image = inputs.size() == 1 && (first.c == 1 || first.c == 3);
    const auto scaleOf = [&](const std::string& name) {
        return compilation.int8 ? compilation.int8->scales.at(name) : 1.0;
    };

    StagedFolder folder(directory);
    const std::filesystem::path root(folder.path());
    const auto write = [&](const char* name, const std::string& bytes) { writeFileAtomically((root / name).string(), bytes); };
    write("model.nvdla", std::string(compilation.bytes.begin(), compilation.bytes.end()));
    write("report.txt", compilation.reportText());
    write("report.json", compilation.reportJson().dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");

    // The inputs as the runtime fills them: from an image's pixels, or a seeded sample.
    const NvdlaSample sample = nvdlaSample(compilation);
    const std::vector<TensorData>& samples = sample.inputs;
    const std::string& imageName = sample.imageName;
    const std::string& contract = sample.contract;
    if (image)
        write(imageName.c_str(), sample.imageBytes);
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
{imageCheck})MD",
                      fmt::arg("config", compilation.config),
                      fmt::arg("precision", target::nvdlaPrecisionName(compilation.precision)),
                      fmt::arg("scales", int8 ? "; every tensor's INT8 scale" : ""),
                      fmt::arg("imageRow", image ? fmt::format("| `{}` | the sample image `run.sh` gives the runtime |\n",
                                                               imageName)
                                                 : std::string()),
                      fmt::arg("imageCheck", image ? fmt::format("    tessera nvdla run model.nvdla --image {} {}-o out   "
                                                                 "# the same, from the image as run.sh gives it\n",
                                                                 imageName, int8 ? std::string() : fmt::format("--normalize {} ", kRuntimeNormalize))
                                                   : std::string()),
                      fmt::arg("imageSource", image ? " the runtime makes of the image" : ", a seeded sample in [0, 1]"),
                      fmt::arg("inputs", inputList), fmt::arg("contract", contract), fmt::arg("outputs", outputList),
                      fmt::arg("valueForm", int8 ? "int8 values, not rescaled" : "FP16 values printed to 6 digits")));
    folder.commit();
}

}  // namespace tessera::nvdla
