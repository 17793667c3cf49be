// The options every command that plans or compiles a model for a chip takes, with the session's
// one rule: a budget not given is the chip's default (core/target/chip_table.h).
#include "commands.h"

#include "session/session.h"
#include "target/chip_table.h"

#include <string>
#include <vector>

namespace tessera::cli {

void addBudgetOptions(CLI::App& command, SessionChoices& choices, const std::string& prefix,
                      const std::vector<std::string>& otherTargets)
{
    std::vector<std::string> targets;
    for (const target::ChipDescription& chip : target::chips())
        targets.push_back(chip.name);
    targets.insert(targets.end(), otherTargets.begin(), otherTargets.end());
    command.add_option("--target", choices.target, prefix + "Chip")
        ->check(CLI::IsMember(targets))
        ->capture_default_str();
    const auto size = [&](const char* name, std::optional<std::uint64_t>& value, const std::string& what) {
        command
            .add_option_function<std::uint64_t>(
                name, [&value](const std::uint64_t& bytes) { value = bytes; }, prefix + what)
            ->check(notNegative())
            ->transform(CLI::AsSizeValue(false));
    };
    size("--l1", choices.budgets.l1, "L1 budget in bytes (K/M suffixes: 1024-based); default: the chip's L1");
    size("--l2", choices.budgets.l2, "L2 budget in bytes; default: the chip's L2 less its code reserve");
    size("--l3", choices.budgets.l3, "L3 RAM budget in bytes; default: the board's 8M");
    size("--flash", choices.budgets.flash, "Flash budget in bytes; default: the board's 16M");
    size("--privileged-flash", choices.budgets.privilegedFlash,
         "Privileged flash filled first with constants, in bytes (0: none); default: GAP9's 2M MRAM, none on GAP8");
    command.add_option("--quant", choices.quantization.quantization,
                       prefix + "Quantization: int16 (power-of-two Q formats) or int8 (symmetric, per-channel filter "
                                "scales)")
        ->check(CLI::IsMember({"int16", "int8"}))
        ->capture_default_str();
    command.add_option("--calibration", choices.quantization.calibrationDir,
                       prefix + "Folder of calibration inputs (.pb files, or folders of input_K.pb)");
    command.add_option("--calibration-method", choices.quantization.calibrationMethod,
                       prefix + "How ranges are taken from the calibration runs: minmax (largest values), percentile "
                                "(99.99th percentile of the magnitudes) or mse (least squared quantization error)")
        ->check(CLI::IsMember({"minmax", "percentile", "mse"}))
        ->capture_default_str();
    command.add_option("--seed", choices.quantization.seed, prefix + "Seed of the random calibration inputs")
        ->capture_default_str();
    command.add_flag_function(
        "--copy-concat-split", [&choices](std::int64_t) { choices.quantization.concatSplitInPlace = false; },
        prefix + "Join every Concat and split every Split with a copy layer; by default those along the channels "
                 "are done in place where they can be (a Concat's inputs written into its parts, a Split's parts "
                 "read where they are)");
}

} // namespace tessera::cli
