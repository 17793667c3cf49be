#pragma once
// The subcommands of the `tessera` command line. Each registers its options on the CLI11 app and
// returns the action to run once parsing succeeded.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace tessera {
struct SessionChoices;
}

namespace tessera::cli {

// --target, --l1, --l2, --l3, --flash, --privileged-flash, --quant, --calibration and --seed, filling
// `choices` (which must outlive the parse); `prefix` starts each option's help text.
void addBudgetOptions(CLI::App& command, SessionChoices& choices, const std::string& prefix);

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

} // namespace tessera::cli
