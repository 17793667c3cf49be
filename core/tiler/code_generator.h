// Tiles every user kernel of a model and writes the generated C files: user kernels and groups
// with the L1/L2 symbols they use (GenKernels.c/.h), and a machine-readable record of
// the tiling decisions and predicted DMA traffic (<kernels source stem>.tiling.json).
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::tiler {

struct GenerationResult {
    bool ok = false;
    std::string error;                    // why generation failed, naming kernel and argument
    std::vector<std::string> writtenFiles;
    std::string log;                      // human-readable summary (tiles, L1 used, DMA bytes)
};

// A model with every decision taken and nothing written: its graphs' tensors placed and every user
// kernel tiled. What the studio shows and `tessera plan --model` prints is this; generating the
// code from it writes exactly those decisions. It holds pointers into itself: share it, never copy.
struct PlacedModel {
    bool ok = false;
    std::string error;                      // why it cannot be placed or tiled, naming the fix
    std::uint64_t minimumL1 = 0;            // the L1 every kernel needs at least
    std::optional<BudgetShortfall> shortfall;  // when a budget is too small: which, and what works
    KernelModel model;                      // as declared; the allocations point into its graphs
    std::vector<GraphAllocation> allocations;  // one per graph
    KernelModel generated;                  // with the node variants that stream L3 tensors
    std::vector<KernelTiling> tilings;      // one per user kernel of `generated`, pointing into it

    PlacedModel() = default;
    PlacedModel(const PlacedModel&) = delete;
    PlacedModel& operator=(const PlacedModel&) = delete;

    const KernelTiling* tilingOf(const std::string& kernel) const;
    // The L1 block the generated kernels share (at least 4 bytes).
    std::uint64_t l1Used() const;
    // Graph g's generation report (the "graphs" entries of <kernels>.tiling.json).
    nlohmann::json graphReport(std::size_t g) const;
};

// Places the graphs' tensors (allocateGraph at the model's L2 size) and tiles every kernel. A memo
// (for models of one graph) speeds up placing the same graph at another L2 budget.
std::shared_ptr<const PlacedModel> placeModel(const KernelModel& model, AllocationMemo* memo = nullptr);

// Writes the code of a placed model into `folder` (empty: the model's output folder).
GenerationResult generateTilingCode(const PlacedModel& placed, const std::string& folder = {});

// placeModel, then the code.
GenerationResult generateTilingCode(const KernelModel& model);

}  // namespace tessera::tiler
