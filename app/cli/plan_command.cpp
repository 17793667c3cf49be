// tessera plan: the memory planner.
//   tessera plan BUFFERS.csv [--capacity N] [--minimize] [--timeout S] [--half-open] [-o OUT.csv]
//   tessera plan --model MODEL.onnx --l2 N [--l3 N] [--target gap8|gap9] [--dump]
// Exit status: 0 a plan under the capacity was found, 1 infeasible or timed out, 2 bad input.
#include "commands.h"

#include "io/file_io.h"
#include "ir/error.h"
#include "memory/buffer_csv.h"
#include "memory/hierarchy_planner.h"
#include "memory/memory_planner.h"
#include "memory/plan_validator.h"
#include "session/model_loader.h"

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
    std::optional<int64_t> l2;
    std::optional<int64_t> l3;
    std::string target = "gap8";
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
    const PlanResult result = planMemory(buffers, planOptions);
    const int64_t capacity = options.capacity.value_or(result.peak);
    const bool found = result.status == PlanStatus::Optimal || result.status == PlanStatus::Feasible;
    if (found) {
        // Belt and braces: never report a plan the independent validator rejects.
        const auto problems = validatePlan(buffers, result.offsets, capacity);
        if (!problems.empty())
            throw Error("internal planner error: " + problems.front());
    }
    fmt::print("buffers: {}\npeak: {}\nlower_bound: {}\nratio: {:.6f}\ntime_ms: {:.1f}\nstatus: {}\n", buffers.size(),
               result.peak, result.lowerBound, result.ratio(), result.milliseconds, planStatusName(result.status));
    if (!result.message.empty())
        fmt::print(stderr, "{}\n", result.message);
    if (found && !options.output.empty())
        writeFileAtomically(options.output, formatBufferCsv(buffers, result.offsets));
    return found ? 0 : 1;
}

int planModel(const PlanCommandOptions& options)
{
    if (!options.l2) {
        fmt::print(stderr, "error: plan --model needs the L2 budget: --l2 BYTES\n");
        return 2;
    }
    Graph graph;
    MemoryHierarchy hierarchy;
    try {
        graph = loadModel(options.model);
        hierarchy = hierarchyForTarget(options.target);
    } catch (const Error& error) {
        fmt::print(stderr, "error: {}\n", error.what());
        return 2;
    }
    HierarchyPlanOptions planOptions;
    planOptions.l2Budget = *options.l2;
    planOptions.l3Budget = options.l3;
    HierarchyPlan plan;
    try {
        plan = planHierarchy(graph, hierarchy, planOptions);
    } catch (const Error& error) {
        fmt::print(stderr, "error: {}\n", error.what());
        return 1;
    }
    const std::string text = formatHierarchyPlan(plan);
    if (options.dump) {
        fmt::print("{}", text);
    } else {
        // Without --dump only the totals (the last three lines).
        size_t cut = text.size();
        for (int lines = 0; lines < 4 && cut > 0; ++lines)
            cut = text.rfind('\n', cut - 1);
        fmt::print("{}", text.substr(cut == std::string::npos ? 0 : cut + 1));
    }
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
    command->add_option("--capacity", options->capacity, "Arena size in bytes (decide whether a plan fits)");
    command->add_flag("--minimize", options->minimize, "Find the smallest peak (the default without --capacity)");
    command->add_option("--timeout", options->timeout, "Seconds the search may take")->capture_default_str();
    command->add_option("-o,--output", options->output, "Write the buffers with their offsets as CSV");
    command->add_option("--model", options->model, "Plan the tensors of an ONNX model across the memory hierarchy");
    command->add_option("--l2", options->l2, "L2 budget in bytes (with --model)");
    command->add_option("--l3", options->l3, "L3 RAM budget in bytes (with --model)");
    command->add_option("--target", options->target, "Memory hierarchy: gap8 or gap9")->capture_default_str();
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
