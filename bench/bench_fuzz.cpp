// The fuzz campaigns over every parser of user files (tests/fuzz/fuzz_targets.h), at scale: for each
// parser, N mutated inputs (10^6 by default), with executions per second, how many were read and
// how many refused, and the ratio of a mutated input's time to a well-formed seed's (the reference,
// measured in the same run). Any failure is printed and its input written beside the working folder
// as fuzz-failure-<parser>-<k>, ready for tests/fuzz/corpus/<parser>/; the exit status is then 1.
// Usage: bench_fuzz [executions per parser, default 1000000] [parser ...] [--seed N]
#include "fuzz_targets.h"

#include "io/file_io.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>
#include <vector>

using namespace tessera;

int main(int argc, char** argv)
{
    std::uint64_t executions = 1000000;
    std::uint32_t seed = 20261129;
    std::vector<std::string> only;
    for (int k = 1; k < argc; ++k) {
        const std::string argument = argv[k];
        if (argument == "--seed" && k + 1 < argc)
            seed = std::uint32_t(std::strtoul(argv[++k], nullptr, 10));
        else if (!argument.empty() && std::isdigit(static_cast<unsigned char>(argument[0])))
            executions = std::strtoull(argument.c_str(), nullptr, 10);
        else
            only.push_back(argument);
    }
    const std::vector<fuzz::FuzzTarget> targets = fuzz::fuzzTargets(TESSERA_FUZZ_CORPUS, TESSERA_FUZZ_ONNX_TESTDATA);
    fmt::print("bench_fuzz: {} mutated inputs per parser, seed {}\n", executions, seed);
    fmt::print("{:<14} {:>6} {:>10} {:>9} {:>10} {:>10} {:>10} {:>7} {:>12}\n", "parser", "seeds", "executions",
               "seconds", "exec/s", "read", "refused", "failed", "vs seeds");
    int failures = 0;
    for (const fuzz::FuzzTarget& target : targets) {
        if (!only.empty() && std::find(only.begin(), only.end(), target.name) == only.end())
            continue;
        if (target.seeds.empty()) {
            fmt::print("{:<14} no seeds (is libonnx-testdata installed?)\n", target.name);
            continue;
        }
        // The reference: the seeds themselves, unmutated, enough rounds for a stable time.
        fuzz::CampaignResult reference;
        while (reference.seconds < 0.5 && reference.executions < 100000) {
            const fuzz::CampaignResult round = fuzz::runSeeds(target);
            reference.executions += round.executions;
            reference.seconds += round.seconds;
        }
        const fuzz::CampaignResult result = fuzz::runCampaign(target, executions, seed);
        const double perMutated = result.seconds / double(std::max<std::uint64_t>(1, result.executions));
        const double perSeed = reference.seconds / double(std::max<std::uint64_t>(1, reference.executions));
        fmt::print("{:<14} {:>6} {:>10} {:>9.1f} {:>10.0f} {:>10} {:>10} {:>7} {:>11.2f}x\n", target.name,
                   target.seeds.size(), result.executions, result.seconds,
                   double(result.executions) / std::max(1e-9, result.seconds), result.accepted, result.refused,
                   result.failed, perSeed > 0 ? perMutated / perSeed : 0.0);
        std::fflush(stdout);
        for (std::size_t k = 0; k < result.failures.size(); ++k) {
            const std::string file = fmt::format("fuzz-failure-{}-{}", target.name, k);
            writeFileAtomically(file, result.failingInputs[k]);
            fmt::print("  FAILED {} (input written to {})\n", result.failures[k], file);
        }
        failures += int(result.failed);
    }
    return failures == 0 ? 0 : 1;
}
