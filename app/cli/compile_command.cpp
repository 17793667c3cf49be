// tessera compile MODEL.onnx --target gap8|gap9 [--l1 N] [--l2 N] [--l3 N] [--flash N] [--privileged-flash N]
//   [--quant int16|int8] [--calibration DIR] -o OUTDIR
// compiles an ONNX model into a GAP project folder: generated code, constants image, the host
// emulation build (make -C OUTDIR emul) and report.json / report.txt.
// tessera compile MODEL.onnx --target nvdla [--config nv_full|nv_large|nv_small] [--precision fp16|int8]
//   [--calibration DIR] -o OUTDIR
// compiles it into an NVDLA loadable: OUTDIR/model.nvdla and report.txt / report.json.
#include "commands.h"

#include "gap_project/gap_project_writer.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla_project/nvdla_project_writer.h"
#include "onnx/input_sets.h"
#include "session/model_loader.h"
#include "target/nvdla_configs.h"
#include "session/session.h"

#include <fmt/format.h>

#include <memory>
#include <string>

namespace tessera::cli {
namespace {

struct CompileOptions {
    std::string model;
    std::string outputDir;
    SessionChoices choices;
    std::string nvdlaConfig = "nv_full";
    std::string nvdlaPrecision;
    std::string dumpAfter;
};

int compileForNvdla(const CompileOptions& options)
{
    nvdla::NvdlaCompileOptions nvdlaOptions;
    nvdlaOptions.config = options.nvdlaConfig;
    if (!options.nvdlaPrecision.empty())
        nvdlaOptions.precision = target::parseNvdlaPrecision(options.nvdlaPrecision);
    fmt::print(stderr, "tessera compile: loading {}\n", options.model);
    const Graph graph = loadModel(options.model);
    if (!options.dumpAfter.empty()) {
        Graph legalized = graph;
        nvdla::LegalizationLog log;
        nvdla::legalize(legalized, target::nvdlaConfig(options.nvdlaConfig), log, options.dumpAfter);
        fmt::print("{}", nvdla::dumpGraph(legalized));
        return 0;
    }
    const QuantizationChoice& quantization = options.choices.quantization;
    if (!quantization.calibrationDir.empty()) {
        nvdlaOptions.calibrationSets = readCalibrationFolder(graph, quantization.calibrationDir);
        nvdlaOptions.calibrationSource = quantization.calibrationDir;
    }
    nvdlaOptions.seed = quantization.seed;
    nvdlaOptions.calibrationMethod = calibrationMethodNamed(quantization.calibrationMethod);
    const target::NvdlaPrecision precision =
        nvdlaOptions.precision.value_or(target::nvdlaConfig(options.nvdlaConfig).precisions.back());
    fmt::print(stderr, "tessera compile: legalizing, mapping{} and emitting for NVDLA {} {}\n",
               precision == target::NvdlaPrecision::Int8 ? ", calibrating" : "", options.nvdlaConfig,
               target::nvdlaPrecisionName(precision));
    const nvdla::NvdlaCompilation compilation = nvdla::compileForNvdla(graph, nvdlaOptions);
    for (const std::string& warning : compilation.warnings)
        fmt::print(stderr, "warning: {}\n", warning);
    fmt::print(stderr, "tessera compile: writing the project (sample input, expected output from the simulator)\n");
    nvdla::exportNvdlaProject(compilation, options.outputDir);
    fmt::print("{}", compilation.reportText());
    fmt::print("project written to {0}: model.nvdla, the sample input and its expected output, run.sh for "
               "nvdla_runtime, README.md (check the loadable: tessera nvdla inspect {0}/model.nvdla)\n",
               options.outputDir);
    return 0;
}

int compileModel(const CompileOptions& options)
{
    if (options.choices.target == "nvdla")
        return compileForNvdla(options);
    if (!options.dumpAfter.empty())
        throw Error("--dump-after prints NVDLA legalization passes: give --target nvdla");
    const Session session = Session::open(options.model);
    const auto progress = [](const std::string& step) { fmt::print(stderr, "tessera compile: {}\n", step); };
    const gap::GapCompileResult result = gap::exportGapProject(session, options.choices, options.outputDir, progress);
    fmt::print("{}", result.reportText());
    fmt::print("project written to {} (host build: make -C {} emul)\n", options.outputDir, options.outputDir);
    return 0;
}

} // namespace

void addCompileCommand(CLI::App& app, Action& action)
{
    auto options = std::make_shared<CompileOptions>();
    auto* command = app.add_subcommand("compile", "Compile an ONNX model into a GAP project folder or an NVDLA loadable");
    command->add_option("model", options->model, "ONNX model file")->required()->check(CLI::ExistingFile);
    command->add_option("-o,--output-dir", options->outputDir, "Project folder to write")->required()->check(nonEmptyPath());
    addBudgetOptions(*command, options->choices, "", {"nvdla"});
    command->add_option("--config", options->nvdlaConfig, "NVDLA: nv_full, nv_large or nv_small")->capture_default_str();
    command->add_option("--dump-after", options->dumpAfter,
                        "NVDLA: print the graph after this legalization pass and stop (tessera nvdla check "
                        "--help lists the passes)");
    command->add_option("--precision", options->nvdlaPrecision,
                        "NVDLA: fp16 or int8 (default: fp16 where the configuration has it, else int8)");
    command->callback([options, &action] { action = [options] { return compileModel(*options); }; });
}

} // namespace tessera::cli
