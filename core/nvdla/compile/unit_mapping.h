// Which NVDLA unit runs each operation of a legalized graph, or why none can: the capability report
// `tessera nvdla check` prints and compile refuses on. CONV with its SDP for convolutions (bias and a
// fused ReLU in the SDP), SDP for activations and element-wise operations, PDP for pooling, CDP for
// LRN, the runtime's CPU emulator (EMU) for Softmax, and no unit for views that keep the cube.
#pragma once

#include "ir/graph.h"
#include "nvdla/compile/legalization.h"
#include "target/nvdla_configs.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace tessera::nvdla {

struct NodeMapping {
    std::string node;
    std::string opType;
    std::string units;     // "CONV+SDP", "SDP", "PDP", "CDP", "EMU", "view"; empty when none
    std::string detail;    // what the unit does ("bias, ReLU", "max 2x2 stride 2")
    std::vector<std::string> passes;  // what legalization did to it
    std::string problem;   // why no unit runs it (empty when mapped)
    std::string fallback;  // what would make it run, when known
};

struct MappingReport {
    std::string config;
    target::NvdlaPrecision precision = target::NvdlaPrecision::Fp16;
    std::vector<NodeMapping> nodes;  // problems first, then in graph order
    std::vector<PassRecord> removed; // nodes legalization folded away, with how

    bool ok() const;
    std::string text() const;
    nlohmann::json json() const;
    // "node 'x' (Op): problem; fallback" for every problem, one per line.
    std::string problems() const;
};

// How a node of the model the mapping was made from runs: the units of the node itself, or for a
// node legalization removed, of the node that does its work now (`doneBy`); "view" for a view;
// "CANNOT RUN" with the problem for a node no unit runs.
struct ModelNodeMapping {
    std::string units;
    std::string detail;
    std::string problem;
    std::string doneBy;               // empty when the node itself runs
    std::vector<std::string> passes;  // what legalization did to it
};
// One entry per node of `model`, by NodeId.
std::vector<ModelNodeMapping> mapModelNodes(const Graph& model, const MappingReport& report);

// Throws tessera::UnsupportedError when the configuration does not run `precision` at all.
void requirePrecision(const target::NvdlaConfig& config, target::NvdlaPrecision precision);

MappingReport mapToUnits(const Graph& legalized, const target::NvdlaConfig& config, target::NvdlaPrecision precision,
                         const LegalizationLog& log);

}  // namespace tessera::nvdla
