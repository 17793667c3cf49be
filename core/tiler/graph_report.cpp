#include "tiler/graph_report.h"

#include <iomanip>
#include <sstream>

namespace tessera::tiler {

std::vector<NodeFigures> nodeFigures(const GraphReportInput& input)
{
    std::vector<NodeFigures> figures;
    for (std::size_t n = 0; n < input.graph.nodes.size(); ++n) {
        NodeFigures node;
        node.kernel = input.graph.nodes[n].kernel;
        for (const KernelTiling& tiling : input.tilings) {
            if (tiling.kernel->name != node.kernel)
                continue;
            node.tiles = tiling.tileCount * tiling.outerTileCount;  // every inner tile of every outer one
            node.l1 = tiling.l1Bytes;
            node.l2Read = tiling.dmaRead;
            node.l2Write = tiling.dmaWrite;
            node.l3Read = tiling.l3Read;
            node.l3Write = tiling.l3Write;
            node.cycles = tiling.estimatedCycles;
            node.operations = tiling.kernel->operations;
        }
        figures.push_back(node);
    }
    return figures;
}

nlohmann::json graphReportJson(const GraphReportInput& input)
{
    const GraphAllocation& allocation = input.allocation;
    nlohmann::json tensors = nlohmann::json::array();
    for (const GraphTensor& tensor : allocation.tensors)
        tensors.push_back({{"name", tensor.name}, {"bytes", tensor.bytes}, {"placement", placementName(tensor.placement)},
                           {"offset", tensor.offset}, {"first_node", tensor.firstNode}, {"last_node", tensor.lastNode},
                           {"prefetch_node", tensor.prefetchNode}, {"prefetch_offset", tensor.prefetchOffset},
                           {"privileged_flash", tensor.privilegedFlash}, {"reason", tensor.reason}});
    const std::vector<NodeFigures> figures = nodeFigures(input);
    nlohmann::json nodes = nlohmann::json::array();
    std::uint64_t operations = 0;
    double cycles = 0;
    for (std::size_t n = 0; n < figures.size(); ++n) {
        const NodeExecution& node = allocation.nodes[n];
        const NodeFigures& figure = figures[n];
        operations += figure.operations;
        cycles += figure.cycles;
        nodes.push_back({{"kernel", node.kernel}, {"source_kernel", node.sourceKernel},
                         {"l3_arguments", node.l3Arguments}, {"staging_offset", node.stagingOffset},
                         {"staging_bytes", node.stagingBytes}, {"l3_read", node.l3Read}, {"l3_write", node.l3Write},
                         {"tiles", figure.tiles}, {"l1_bytes", figure.l1}, {"l2_read", figure.l2Read},
                         {"l2_write", figure.l2Write}, {"operations", figure.operations},
                         {"estimated_cycles", figure.cycles}});
    }
    return {{"name", input.graph.name}, {"l1_bytes", input.l1Bytes}, {"l2_static", allocation.l2Static},
            {"l2_arguments", allocation.l2Arguments}, {"l2_dynamic", allocation.l2Dynamic}, {"l2_dynamic_lower_bound", allocation.l2DynamicLowerBound},
            {"l3_static", allocation.l3Static}, {"l3_dynamic", allocation.l3Dynamic},
            {"l3_traffic", allocation.l3Traffic}, {"flash_bytes", allocation.flashBytes},
            {"privileged_flash_bytes", allocation.privilegedFlashBytes},
            {"operations", operations}, {"estimated_cycles", cycles}, {"tensors", tensors}, {"nodes", nodes}};
}

std::string graphReportText(const GraphReportInput& input)
{
    const GraphAllocation& allocation = input.allocation;
    const std::vector<NodeFigures> figures = nodeFigures(input);
    std::size_t kernelWidth = 6, tensorWidth = 6;
    for (const NodeFigures& figure : figures)
        kernelWidth = std::max(kernelWidth, figure.kernel.size());
    for (const GraphTensor& tensor : allocation.tensors)
        tensorWidth = std::max(tensorWidth, tensor.name.size());

    std::ostringstream out;
    out << "Graph " << input.graph.name << "\n\n";
    out << std::left << std::setw(5) << "node" << std::setw(int(kernelWidth) + 2) << "kernel" << std::right
        << std::setw(6) << "tiles" << std::setw(9) << "L1 B" << std::setw(11) << "L2 in B" << std::setw(10)
        << "L2 out B" << std::setw(10) << "L3 in B" << std::setw(10) << "L3 out B" << std::setw(12) << "MACs"
        << std::setw(13) << "est. cycles" << std::setw(11) << "MAC/cycle" << "\n";
    std::uint64_t operations = 0;
    double cycles = 0;
    for (std::size_t n = 0; n < figures.size(); ++n) {
        const NodeFigures& f = figures[n];
        operations += f.operations;
        cycles += f.cycles;
        out << std::left << std::setw(5) << n << std::setw(int(kernelWidth) + 2) << f.kernel << std::right
            << std::setw(6) << f.tiles << std::setw(9) << f.l1 << std::setw(11) << f.l2Read << std::setw(10)
            << f.l2Write << std::setw(10) << f.l3Read << std::setw(10) << f.l3Write << std::setw(12) << f.operations
            << std::setw(13) << std::fixed << std::setprecision(0) << f.cycles << std::setw(11)
            << std::setprecision(2) << (f.cycles > 0 ? double(f.operations) / f.cycles : 0.0) << "\n";
    }
    out << std::left << std::setw(5) << "" << std::setw(int(kernelWidth) + 2) << "total" << std::right
        << std::setw(68) << operations << std::setw(13) << std::setprecision(0) << cycles << std::setw(11)
        << std::setprecision(2) << (cycles > 0 ? double(operations) / cycles : 0.0) << "\n\n";

    out << std::left << std::setw(int(tensorWidth) + 2) << "tensor" << std::right << std::setw(9) << "bytes" << "  "
        << std::left << std::setw(11) << "memory" << std::right << std::setw(9) << "offset" << std::setw(8) << "nodes"
        << "  reason\n";
    for (const GraphTensor& tensor : allocation.tensors) {
        const bool placed = tensor.placement != GraphTensor::Placement::Caller;
        const std::string nodes = tensor.firstNode < 0 ? "-"
                                                       : std::to_string(tensor.firstNode) + "-" +
                                                             std::to_string(tensor.lastNode);
        out << std::left << std::setw(int(tensorWidth) + 2) << tensor.name << std::right << std::setw(9)
            << tensor.bytes << "  " << std::left << std::setw(11) << placementName(tensor.placement) << std::right
            << std::setw(9) << (placed ? std::to_string(tensor.offset) : "-") << std::setw(8) << nodes << "  "
            << tensor.reason << "\n";
    }
    out << "\nMemory: L1 " << input.l1Bytes << " B; L2 " << allocation.l2Static << " B static + "
        << allocation.l2Dynamic << " B dynamic (lower bound " << allocation.l2DynamicLowerBound << "); L3 "
        << allocation.l3Static << " B static + " << allocation.l3Dynamic << " B dynamic; constants image "
        << allocation.flashBytes << " B"
        << (allocation.privilegedFlashBytes
                ? ", privileged flash image " + std::to_string(allocation.privilegedFlashBytes) + " B"
                : std::string())
        << "; L3 traffic " << allocation.l3Traffic << " B per run\n";
    out << "Estimated cycles are the tile solver's model (DMA and compute overlap, " << "fork cost per tile), "
        << "not a measurement.\n";
    return out.str();
}

}  // namespace tessera::tiler
