// The generation report of a graph, as text (the generator prints it and writes
// <kernels>.report.txt) and as JSON (the "graphs" of <kernels>.tiling.json, for the studio): per node
// the kernel and its tiling, L1, DMA bytes, MACs and estimated cycles; per tensor its memory,
// offset, lifetime and the reason for its placement; totals per memory.
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tiler {

struct GraphReportInput {
    const KernelModel& model;              // as generated (node kernels may be L3 variants)
    const GraphModel& graph;
    const GraphAllocation& allocation;
    const std::vector<KernelTiling>& tilings;
    std::uint64_t l1Bytes = 0;             // the kernels' L1 block
};

// What the report says about one node: its kernel's tiling and costs (the L3 figures are the
// kernel's own; the node's staging traffic is in the allocation's NodeExecution).
struct NodeFigures {
    std::string kernel;
    unsigned tiles = 0;
    std::uint64_t l1 = 0, l2Read = 0, l2Write = 0, l3Read = 0, l3Write = 0, operations = 0;
    double cycles = 0;
};

// One entry per node of the graph, in order.
std::vector<NodeFigures> nodeFigures(const GraphReportInput& input);

nlohmann::json graphReportJson(const GraphReportInput& input);
std::string graphReportText(const GraphReportInput& input);

}  // namespace tessera::tiler
