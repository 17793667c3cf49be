// A quantized GAP network turned into CNN generator calls and a graph through the model API, in
// this process, then tiled, allocated and generated like any model program's graph.
#pragma once

#include "gap/compile/gap_network.h"
#include "tiler/kernel_model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

// Memory budgets in bytes.
struct GapBudgets {
    uint64_t l1 = 64 * 1024;
    uint64_t l2 = 0;
    uint64_t l3 = 8 * 1024 * 1024;
    uint64_t flash = 16 * 1024 * 1024;
    // A privileged flash (GAP9's on-chip MRAM) filled first with the constants that stay in
    // flash; 0: none.
    uint64_t privilegedFlash = 0;
};

struct GapGeneration {
    std::string kernelsSource;  // file names inside the output folder
    std::string kernelsHeader;
    std::vector<std::string> sources;  // every generated C source (kernels, memory definitions)
    std::string constantsImage; // empty when the graph has no constants in flash
    std::string privilegedImage; // the privileged flash's image; empty when it holds nothing
    std::vector<std::string> files;
    std::string log;            // the tiler's summary
    nlohmann::json graph;       // the graph's generation report (placement, traffic, cycles)
};

// Writes the fixed-point constants to <folder>/constants/, builds the model and generates its code
// into `folder`. Throws tessera::Error with the generator's or tiler's message on failure (budget
// too small, a layer the generators refuse).
// `costModel`: the chip the estimated cycles are for.
GapGeneration generateGapCode(const GapNetwork& network, const GapBudgets& budgets, const std::string& folder,
                              const tiler::TilerCostModel& costModel = {});

}  // namespace tessera::gap
