// tessera scamp KERNELS.json [--ops all|basic] [--registers N] [--threads N] [--time S] [--nodes N]
//                            [--seed S] [--format text|cain|scamp5] [-o FILE]
//   compiles the kernels by reverse search and prints the program, its count, the time to the best
//   plan and the nodes explored. --format cain writes Cain's program text, scamp5 a C++ function
//   for the SCAMP-5 SDK.
// tessera scamp --verify PROGRAM.txt KERNELS.json
//   checks a program (Tessera's or Cain's text) in the symbolic and the numeric model: exit 0 only
//   when exact.
// Exit 1 when no program was found or verification failed, 2 on unreadable input.
#include "commands.h"

#include "io/file_io.h"
#include "base/error.h"
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/reverse_search.h"
#include "scamp/program_forms.h"
#include "scamp/simulator.h"

#include <fmt/format.h>

#include <optional>
#include <unistd.h>

namespace tessera::cli {

namespace {

struct ScampOptions {
    std::string kernels;
    std::string verify;
    std::string ops = "all";
    std::optional<int> registers;
    int threads = 1;
    double seconds = 10.0;
    uint64_t nodes = 0;
    uint32_t seed = 1;
    std::string format = "text";
    std::string output;
};

int verifyCommand(const ScampOptions& options, const scamp::KernelSet& set, const scamp::ApproximatedKernels& kernels)
{
    scamp::Program program;
    try {
        program = scamp::parseProgram(readFileBytes(options.verify), options.verify);
    } catch (const std::exception& error) {
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    }
    const scamp::VerificationReport report = scamp::verifyProgram(program, set, kernels, options.seed);
    fmt::print("kernels: {} (d = {}), instructions: {}\n", set.kernels.size(), kernels.depth, program.instructions.size());
    for (size_t k = 0; k < kernels.errors.size(); ++k)
        fmt::print("kernel {} -> {}: approximation error {}\n", k, set.kernels[k].outputRegister, kernels.errors[k]);
    if (!report.exact) {
        for (const std::string& problem : report.problems)
            fmt::print(stderr, "error: {}\n", problem);
        fmt::print("verification: FAILED\n");
        return 1;
    }
    fmt::print("verification: exact (symbolic, and {} random images)\n", report.imagesChecked);
    return 0;
}

int searchCommand(const ScampOptions& options, const scamp::KernelSet& set, const scamp::ApproximatedKernels& kernels)
{
    scamp::SearchOptions search;
    search.allOps = options.ops == "all";
    search.threads = options.threads;
    search.seconds = options.seconds;
    search.seed = options.seed;
    search.nodeLimit = options.nodes;
    const bool progress = ::isatty(STDERR_FILENO) != 0;
    const scamp::CompileResult result = scamp::compileKernels(
        set, kernels, search, [&](const scamp::SearchProgress& p, const scamp::Program&) {
            if (progress)
                fmt::print(stderr, "best {} instructions at {:.2f} s ({} nodes)\n", p.bestCount, p.seconds, p.nodes);
        });
    if (!result.best) {
        if (options.nodes && result.nodes >= options.nodes)
            fmt::print(stderr, "error: no program found within {} nodes; allow more (--nodes) or registers\n", result.nodes);
        else
            fmt::print(stderr, "error: no program found in {} s ({} nodes); allow more time (--time) or registers\n",
                       options.seconds, result.nodes);
        return 1;
    }
    const scamp::VerificationReport report = scamp::verifyProgram(*result.best, set, kernels, options.seed);
    if (!report.exact)
        throw Error("internal compiler error: the program found does not verify: " + report.problems.front());
    std::vector<std::string> outputs;
    for (const scamp::KernelSpec& k : set.kernels)
        outputs.push_back(k.outputRegister);
    std::string text;
    try {
        text = scamp::formatProgramAs(*scamp::programFormNamed(options.format), *result.best,
                                      {set.name, set.inputRegister, outputs, kernels.depth});
    } catch (const Error& error) {
        fmt::print(stderr, "error: {}: {}\n", options.kernels, error.what());
        return 2;
    }
    if (options.output != "-")
        fmt::print("{}", text);
    fmt::print(summaryStream(options.output),
               "instructions: {}\ntime_to_best_s: {:.3f}\nnodes_to_best: {}\nnodes: {}\ntime_s: {:.1f}\n"
               "frontier_peak_mib: {:.1f}\nseen_bags: {}\nverification: exact\n",
               result.best->instructions.size(), result.atBest.seconds, result.atBest.nodes, result.nodes, result.seconds,
               double(result.peakFrontierBytes) / (1 << 20), result.seenBags);
    if (!options.output.empty())
        writeOutput(options.output, text);
    return 0;
}

} // namespace

void addScampCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("scamp", "Compile convolution kernels to SCAMP-5 programs, or verify one");
    auto options = std::make_shared<ScampOptions>();
    command->add_option("kernels", options->kernels, "Kernels JSON file")->required();
    command->add_option("--verify", options->verify, "Check this program against the kernels instead of compiling");
    command->add_option("--ops", options->ops, "Instruction set: all or basic")
        ->check(CLI::IsMember({"all", "basic"}))
        ->capture_default_str();
    command->add_option("--registers", options->registers, "Use only the first N registers of the file")
        ->check(CLI::Range(1, 64));
    command->add_option("--threads", options->threads, "Search threads")->check(CLI::Range(1, 64))->capture_default_str();
    command->add_option("--time", options->seconds, "Search time in seconds")
        ->check(secondsLimit(kMaxSearchSeconds))
        ->capture_default_str();
    command->add_option("--nodes", options->nodes, "Stop after this many search nodes (0: no limit); with one "
                        "thread and a seed, the same program every run")
        ->capture_default_str();
    command->add_option("--seed", options->seed, "Seed (search order and test images)")->capture_default_str();
    command->add_option("--format", options->format,
                        "Program form: text (Tessera's), cain (Cain's program text) or scamp5 (C++ for the SCAMP-5 SDK)")
        ->check(CLI::IsMember({"text", "cain", "scamp5"}))
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the program to this file ('-': standard output)")
        ->check(nonEmptyPath());
    command->callback([&action, options] {
        action = [options] {
            scamp::KernelSet set;
            scamp::ApproximatedKernels kernels;
            try {
                set = scamp::readKernelSet(options->kernels);
                if (options->registers) {
                    if (size_t(*options->registers) > set.registers.size())
                        throw Error(options->kernels + ": --registers " + std::to_string(*options->registers) +
                                    " but the file names only " + std::to_string(set.registers.size()));
                    set.registers.resize(size_t(*options->registers));
                    set = scamp::parseKernelSet(scamp::kernelSetToJson(set), options->kernels);
                }
                kernels = scamp::approximateKernels(set);
            } catch (const std::exception& error) {
                fmt::print(stderr, "error: {}\n", error.what());
                return 2;
            }
            return options->verify.empty() ? searchCommand(*options, set, kernels) : verifyCommand(*options, set, kernels);
        };
    });
}

} // namespace tessera::cli
