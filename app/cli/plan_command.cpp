// tessera plan: the memory planner.
//   tessera plan BUFFERS.csv [--capacity N] [--minimize] [--timeout S] [--half-open] [-o OUT.csv]
//   tessera plan --model MODEL.onnx [--target gap8|gap9] [--l1 N] [--l2 N] [--l3 N] [--flash N]
//                [--privileged-flash N] [--quant int16|int8] [--calibration DIR] [--dump]
// Exit status: 0 a plan under the capacity was found, 1 infeasible or timed out, 2 bad input.
// A model's plan is the session's (core/session/session.h): the deployed graph's placement that
// `tessera compile` generates with the same options.
#include "commands.h"

#include "io/file_io.h"
#include "base/error.h"
#include "memory/buffer_csv.h"
#include "memory/hierarchy_planner.h"
#include "memory/memory_planner.h"
#include "memory/plan_validator.h"
#include "session/deployed_memory_plan.h"
#include "session/session.h"

#include <fmt/format.h>

namespace tessera::cli {

namespace {

struct PlanCommandOptions {
    std::string buffersCsv;
    std::optional<int64_t> capacity;
    bool minimize = false;
    double timeout = 10.0;
    std::string output;
    std::string model;
    SessionChoices choices;
    bool dump = false;
    bool halfOpen = false;
};

int planBuffers(const PlanCommandOptions& options)
{
    std::vector<Buffer> buffers;
    try {
        buffers = readBufferCsv(options.buffersCsv, !options.halfOpen);
    } catch (const Error& error) {
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    }
    PlanOptions planOptions;
    planOptions.capacity = options.capacity;
    planOptions.minimize = options.minimize;
    planOptions.timeoutSeconds = options.timeout;
    PlanResult result;
    try {
        result = planMemory(buffers, planOptions);
    } catch (const Error& error) {  // buffers the planner refuses: bad input
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    }
    const int64_t capacity = options.capacity.value_or(result.peak);
    const bool found = result.status == PlanStatus::Optimal || result.status == PlanStatus::Feasible;
    if (found) {
        // Belt and braces: never report a plan the independent validator rejects.
        const auto problems = validatePlan(buffers, result.offsets, capacity);
        if (!problems.empty())
            throw Error("internal planner error: " + problems.front());
    }
    fmt::print(summaryStream(options.output), "buffers: {}\npeak: {}\nlower_bound: {}\nratio: {:.6f}\ntime_ms: {:.1f}\nstatus: {}\n",
               buffers.size(), result.peak, result.lowerBound, result.ratio(), result.milliseconds,
               planStatusName(result.status));
    if (!result.message.empty())
        fmt::print(stderr, "{}\n", result.message);
    if (found && !options.output.empty())
        writeOutput(options.output, formatBufferCsv(buffers, result.offsets));
    return found ? 0 : 1;
}

int planModel(const PlanCommandOptions& options)
{
    std::optional<Session> session;
    gap::GapPlan plan;
    try {
        session = Session::open(options.model);
        const auto progress = [](const std::string& step) { fmt::print(stderr, "tessera plan: {}\n", step); };
        plan = session->plan(options.choices, progress);
    } catch (const Error& error) {
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    }
    if (!plan.ok()) {
        fmt::print(stderr, "error: {}\n", plan.error());
        return 1;
    }
    if (options.dump)
        fmt::print("{}", formatPlacements(deployedMemoryPlan(*session->deployment(options.choices), plan)));
    fmt::print("{}", formatPlanTotals(plan));
    return 0;
}

} // namespace

void addPlanCommand(CLI::App& app, Action& action)
{
    auto* command = app.add_subcommand("plan", "Place buffers in memory (a CSV of lifetimes, or a model's tensors)");
    auto options = std::make_shared<PlanCommandOptions>();
    command->add_option("buffers", options->buffersCsv, "CSV with columns id,lower,upper,size[,alignment][,offset]");
    command->add_flag("--half-open", options->halfOpen,
                      "Read an 'end' column as exclusive, like 'upper' (files that label half-open lifetimes 'end')");
    command->add_option("--capacity", options->capacity, "Arena size in bytes (decide whether a plan fits)")
        ->check(CLI::Range(std::int64_t{1}, kMaxCapacity));
    command->add_flag("--minimize", options->minimize, "Find the smallest peak (the default without --capacity)");
    command->add_option("--timeout", options->timeout, "Seconds the search may take")
        ->check(secondsLimit(kMaxSearchSeconds))
        ->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the buffers with their offsets as CSV ('-': standard output)")
        ->check(nonEmptyPath());
    command->add_option("--model", options->model, "Plan the tensors of an ONNX model across the memory hierarchy");
    addBudgetOptions(*command, options->choices, "(with --model) ");
    command->add_flag("--dump", options->dump, "Print the per-tensor placement table (with --model)");
    command->callback([&action, options] {
        action = [options] {
            if (!options->model.empty() && !options->buffersCsv.empty()) {
                fmt::print(stderr, "error: give either BUFFERS.csv or --model, not both\n");
                return 2;
            }
            if (options->model.empty() && options->buffersCsv.empty()) {
                fmt::print(stderr, "error: give a buffers CSV file or --model MODEL.onnx\n");
                return 2;
            }
            return options->model.empty() ? planBuffers(*options) : planModel(*options);
        };
    });
}

} // namespace tessera::cli
