#pragma once
// The subcommands of the `tessera` command line. Each registers its options on the CLI11 app and
// returns the action to run once parsing succeeded.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <functional>
#include <string>

namespace tessera {
struct SessionChoices;
}

namespace tessera::cli {

// --target, --l1, --l2, --l3, --flash, --privileged-flash, --quant, --calibration and --seed, filling
// `choices` (which must outlive the parse); `prefix` starts each option's help text. `otherTargets`
// are accepted by --target besides the chips (compile's "nvdla").
void addBudgetOptions(CLI::App& command, SessionChoices& choices, const std::string& prefix,
                      const std::vector<std::string>& otherTargets = {});

// A command's output file: "-" writes standard output, any other name the file, atomically.
void writeOutput(const std::string& path, const std::string& bytes);
// Where a command prints its summary: standard error when its output is standard output.
std::FILE* summaryStream(const std::string& outputPath);

// Option checks: a path that is not empty; a time limit in seconds above 0 and at most `most`
// (not NaN or infinite); a size that is not negative (before unsigned conversion wraps it).
CLI::Validator nonEmptyPath();
CLI::Validator secondsLimit(double most);
CLI::Validator notNegative();

// The longest time limit a search command takes (a week); longer is surely a typing slip.
inline constexpr double kMaxSearchSeconds = 7 * 24 * 3600.0;

using Action = std::function<int()>;

// Each add* function stores the chosen subcommand's action in `action` when it is parsed.
void addInspectCommand(CLI::App& app, Action& action);
void addRunCommand(CLI::App& app, Action& action);
void addConformanceCommand(CLI::App& app, Action& action);
void addZooCommand(CLI::App& app, Action& action);
void addPlanCommand(CLI::App& app, Action& action);
void addScampCommand(CLI::App& app, Action& action);
void addAieCommand(CLI::App& app, Action& action);
void addGapCommand(CLI::App& app, Action& action);
void addCompileCommand(CLI::App& app, Action& action);
void addNvdlaCommand(CLI::App& app, Action& action);

} // namespace tessera::cli
