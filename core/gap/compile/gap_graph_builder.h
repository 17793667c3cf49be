// A quantized GAP network turned into CNN generator calls and a graph through the model API, in
// this process, then tiled, allocated and generated like any model program's graph.
#pragma once

#include "gap/compile/gap_network.h"
#include "target/chip_table.h"
#include "tiler/code_generator.h"
#include "tiler/kernel_model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera::gap {

// Memory budgets in bytes (a privileged flash of 0: none).
using GapBudgets = target::Budgets;

struct GapGeneration {
    std::string kernelsSource;  // file names inside the output folder
    std::string kernelsHeader;
    std::vector<std::string> sources;  // every generated C source (kernels, memory definitions)
    std::string constantsImage; // empty when the graph has no constants in flash
    std::string privilegedImage; // the privileged flash's image; empty when it holds nothing
    std::vector<std::string> files;
    std::string log;            // the tiler's summary
    nlohmann::json graph;       // the graph's generation report (placement, traffic, cycles), in process
};

// The values of the network's constants by graph symbol (<layer>_W, _B, and for SQ8 _S, _N), as the
// kernels read them.
using GapConstantValues = std::map<std::string, std::shared_ptr<const std::vector<double>>>;
GapConstantValues gapConstantValues(const GapNetwork& network);

// The network's layers declared through the CNN generators and its graph through the model API, in
// this process, for these budgets, with the constants' values attached. Throws tessera::Error
// naming the layer on a generator's refusal and the budget when one is out of range.
tiler::KernelModel buildGapKernelModel(const GapNetwork& network, const GapBudgets& budgets,
                                       const tiler::TilerCostModel& costModel, const GapConstantValues& values);

// The file name of the network's constants image (or of its privileged flash's image).
std::string gapFlashImageName(const GapNetwork& network, bool privileged);

// Generates the code and constants images of a placed model into `folder`. Throws tessera::Error
// when a file cannot be written.
GapGeneration generateGapCode(const GapNetwork& network, const tiler::PlacedModel& placed, const std::string& folder);

}  // namespace tessera::gap
