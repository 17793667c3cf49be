// tessera conformance DIR...: runs ONNX backend test cases; one line per failure, then the counts.
#include "commands.h"

#include "base/error.h"
#include "session/conformance.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <unistd.h>

namespace tessera::cli {

void addConformanceCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("conformance", "Check the interpreter against ONNX backend test cases");
    struct Options {
        std::vector<std::string> directories;
        bool verbose = false;
    };
    auto options = std::make_shared<Options>();
    command->add_option("directories", options->directories, "Test case directories, or directories of them")
        ->required();
    command->add_flag("-v,--verbose", options->verbose, "Also list passed and skipped cases");
    command->callback([&action, options] {
        action = [options] {
            const std::vector<std::string> cases = findConformanceCases(options->directories);
            if (cases.empty())  // a count of nothing would read as a pass
                throw ModelError(fmt::format("no ONNX backend test cases in {}: a case is a folder holding model.onnx and "
                                             "test_data_set_* folders; give such folders, or folders of them",
                                             fmt::join(options->directories, ", ")));
            const bool progress = ::isatty(STDERR_FILENO) != 0;
            size_t done = 0;
            const ConformanceSummary summary = runConformance(cases, [&](const CaseResult& result) {
                ++done;
                if (progress)
                    fmt::print(stderr, "\r[{}/{}]", done, cases.size());
                if (result.outcome == CaseOutcome::Failed)
                    fmt::print("{}FAIL {}: {}\n", progress ? "\r" : "", result.name, result.message);
                else if (options->verbose)
                    fmt::print("{}{} {}{}\n", progress ? "\r" : "",
                               result.outcome == CaseOutcome::Passed ? "pass" : "skip", result.name,
                               result.message.empty() ? "" : ": " + result.message);
            });
            if (progress)
                fmt::print(stderr, "\r");
            fmt::print("{} passed, {} failed, {} skipped\n", summary.passed, summary.failed, summary.skipped);
            return summary.failed == 0 ? 0 : 1;
        };
    });
}

} // namespace tessera::cli
