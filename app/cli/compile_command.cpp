// tessera compile MODEL.onnx --target gap8|gap9 [--l1 N] [--l2 N] [--l3 N] [--flash N] [--privileged-flash N]
//   [--quant int16|int8] [--calibration DIR] -o OUTDIR
// compiles an ONNX model into a GAP project folder: generated code, constants image, the host
// emulation build (make -C OUTDIR emul) and report.json / report.txt.
#include "commands.h"

#include "gap/compile/gap_compiler.h"
#include "gap_project/gap_paths.h"
#include "gap_project/gap_project_writer.h"
#include "session/model_loader.h"

#include <fmt/format.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tessera::cli {
namespace {

struct CompileOptions {
    std::string model;
    std::string outputDir;
    gap::GapCompileOptions gap;
    uint64_t l1 = 0, l2 = 0, l3 = 0, flash = 0;  // 0: the target's default
    std::optional<uint64_t> privilegedFlash;     // unset: the target's default; 0: none
};

std::optional<uint64_t> budget(uint64_t value)
{
    return value == 0 ? std::nullopt : std::optional<uint64_t>(value);
}

int compileModel(CompileOptions options)
{
    const Graph graph = loadModel(options.model);
    options.gap.l1 = budget(options.l1);
    options.gap.l2 = budget(options.l2);
    options.gap.l3 = budget(options.l3);
    options.gap.flash = budget(options.flash);
    options.gap.privilegedFlash = options.privilegedFlash;
    const auto progress = [](const std::string& step) { fmt::print(stderr, "tessera compile: {}\n", step); };
    const gap::GapCompileResult result = gap::compileForGap(graph, options.gap, options.outputDir, progress);
    progress("writing the project to " + options.outputDir);
    gap::writeGapProject(graph, result, gap::gapPaths().projectSources(), options.outputDir);
    fmt::print("{}", result.reportText());
    fmt::print("project written to {} (host build: make -C {} emul)\n", options.outputDir, options.outputDir);
    return 0;
}

} // namespace

void addCompileCommand(CLI::App& app, Action& action)
{
    auto options = std::make_shared<CompileOptions>();
    auto* command = app.add_subcommand("compile", "Compile an ONNX model into a GAP project folder");
    command->add_option("model", options->model, "ONNX model file")->required()->check(CLI::ExistingFile);
    command->add_option("-o,--output-dir", options->outputDir, "Project folder to write")->required();
    command->add_option("--target", options->gap.target, "Chip: gap8 or gap9")
        ->check(CLI::IsMember({"gap8", "gap9"}))
        ->capture_default_str();
    const auto size = [&](const char* name, uint64_t& value, const char* what) {
        command->add_option(name, value, what)->transform(CLI::AsSizeValue(false));
    };
    size("--l1", options->l1, "L1 budget in bytes (K/M suffixes: 1024-based); default: the chip's L1");
    size("--l2", options->l2, "L2 budget in bytes; default: the chip's L2 less its code reserve");
    size("--l3", options->l3, "L3 RAM budget in bytes; default 8M");
    size("--flash", options->flash, "Flash budget in bytes; default 16M");
    command
        ->add_option("--privileged-flash", options->privilegedFlash,
                     "Privileged flash filled first with constants, in bytes (0: none); default: GAP9's 2M MRAM, "
                     "none on GAP8")
        ->transform(CLI::AsSizeValue(false));
    command->add_option("--quant", options->gap.quantization, "Quantization: int16 (power-of-two Q formats) or int8 (symmetric, per-channel filter scales)")
        ->capture_default_str();
    command->add_option("--calibration", options->gap.calibrationDir,
                        "Folder of calibration inputs (.pb files, or folders of input_K.pb)");
    command->add_option("--seed", options->gap.seed, "Seed of the random calibration inputs")->capture_default_str();
    command->callback([options, &action] { action = [options] { return compileModel(*options); }; });
}

} // namespace tessera::cli
