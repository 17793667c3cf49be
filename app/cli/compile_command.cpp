// tessera compile MODEL.onnx --target gap8|gap9 [--l1 N] [--l2 N] [--l3 N] [--flash N] [--privileged-flash N]
//   [--quant int16|int8] [--calibration DIR] -o OUTDIR
// compiles an ONNX model into a GAP project folder: generated code, constants image, the host
// emulation build (make -C OUTDIR emul) and report.json / report.txt.
#include "commands.h"

#include "gap_project/gap_project_writer.h"
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
};

int compileModel(const CompileOptions& options)
{
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
    auto* command = app.add_subcommand("compile", "Compile an ONNX model into a GAP project folder");
    command->add_option("model", options->model, "ONNX model file")->required()->check(CLI::ExistingFile);
    command->add_option("-o,--output-dir", options->outputDir, "Project folder to write")->required()->check(nonEmptyPath());
    addBudgetOptions(*command, options->choices, "");
    command->callback([options, &action] { action = [options] { return compileModel(*options); }; });
}

} // namespace tessera::cli
