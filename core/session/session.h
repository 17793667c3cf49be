// The session: one model, and what Tessera decides for it on a chip. Both front ends call it, the
// command line (app/cli) and the studio (app/studio):
//   Session session = Session::open("model.onnx");
//   gap::GapPlan plan = session.plan(choices);                 // tessera plan --model, the timeline
//   gap::GapCompileResult out = session.compile(choices, dir); // tessera compile, File > Export
// A plan and a compilation with the same choices are the same decisions: compile generates the
// plan that plan() returns. The slow part, lowering and quantizing the model for the chip, is done
// once per target and quantization and shared by every later call, from any thread.
#pragma once

#include "gap/compile/gap_compiler.h"
#include "gap/compile/gap_deployment.h"
#include "ir/graph.h"
#include "target/chip_table.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tessera {

// Budgets as the user gives them: an unset one is the chip's default (core/target/chip_table.h).
// That is the one rule of the command line and the studio alike.
struct BudgetRequest {
    std::optional<std::uint64_t> l1, l2, l3, flash;
    std::optional<std::uint64_t> privilegedFlash;  // 0: none
};

// How the model is turned into numbers for the chip.
struct QuantizationChoice {
    std::string quantization = "int16";  // "int16" (power-of-two Q formats) or "int8" (SQ8)
    std::string calibrationDir;          // empty: seeded random inputs, with a warning
    std::string calibrationMethod = "minmax";  // "minmax", "percentile" or "mse"
    unsigned seed = 1;
    std::size_t randomCalibrationSets = 4;
    // Concats and Splits along channels done in place where they can be (a Concat's inputs then
    // written in its format); false: every one is a copy layer and a Concat keeps its inputs' formats.
    bool concatSplitInPlace = true;
    bool operator==(const QuantizationChoice&) const = default;
};

// Everything a user chooses for a compilation besides the model.
struct SessionChoices {
    std::string target = "gap8";
    BudgetRequest budgets;
    QuantizationChoice quantization;
};

class Session {
public:
    // Loads and checks an ONNX model; throws ModelError (or UnsupportedError, ShapeError) naming
    // the file and the place.
    static Session open(const std::string& path);
    explicit Session(std::shared_ptr<const Graph> graph);

    const Graph& graph() const { return *graph_; }
    const std::shared_ptr<const Graph>& sharedGraph() const { return graph_; }

    // The budgets of `choices` on its target, every unset one the chip's default. Throws
    // tessera::Error naming the known targets for an unknown one.
    static target::Budgets resolveBudgets(const SessionChoices& choices);

    // The model lowered and quantized for the target (computed on the first call for a target and
    // quantization, then shared). Throws tessera::Error naming the node the generators refuse.
    std::shared_ptr<const gap::GapDeployment> deployment(const SessionChoices& choices,
                                                         const gap::GapProgress& progress = {}) const;

    // Where every tensor of the deployed graph lives at these budgets, and how every layer is tiled.
    // A budget too small gives a plan whose error() says so and shortfall() which budget and what
    // works.
    // Plans are kept (the most recent few dozen): asking again for the same budgets, as compile()
    // does and a user dragging back and forth does, returns the same plan at once.
    gap::GapPlan plan(const SessionChoices& choices, const gap::GapProgress& progress = {}) const;

    // The plan's code, constants images and report generated into `folder` (the GAP project
    // exporter in plugins/gap_project completes it). Throws tessera::Error when there is no plan.
    gap::GapCompileResult compile(const SessionChoices& choices, const std::string& folder,
                                  const gap::GapProgress& progress = {}) const;

private:
    struct Caches;
    std::shared_ptr<const Graph> graph_;
    std::shared_ptr<Caches> cache_;
};

}  // namespace tessera
