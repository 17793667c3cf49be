// RUBIK and BDMA: DepthToSpace as RUBIK's contract (channel block phase*C.. of the source becomes
// phase (dy, dx) of the plane, whole atoms at a time); a permutation of the channels as RUBIK
// splitting the cube into one plane per channel, BDMA copying the planes in the new order, and RUBIK
// merging them back into the feature layout; Concat, Slice and Split that cannot share surfaces as
// copies through planes (a plane per channel needs no alignment of the channel offsets).
#include "nvdla/compile/emitter_state.h"

namespace tessera::nvdla::emission {

namespace {

// Planes [source, source + count * sourceStep) step sourceStep go to [destination, ...) step
// destinationStep: one BDMA transfer.
struct PlaneRun {
    std::int64_t source = 0, destination = 0, count = 0, sourceStep = 1, destinationStep = 1;
};

// The permutation (output channel j from input channel order[j]) as runs of planes that advance by
// a constant positive step on both sides, in source order.
std::vector<PlaneRun> planeRuns(const std::vector<std::int64_t>& order)
{
    std::vector<std::int64_t> destinationOf(order.size());
    for (std::size_t j = 0; j < order.size(); ++j)
        destinationOf[std::size_t(order[j])] = std::int64_t(j);
    std::vector<PlaneRun> runs;
    for (std::int64_t c = 0; c < std::int64_t(order.size()); ++c) {
        const std::int64_t destination = destinationOf[std::size_t(c)];
        if (!runs.empty()) {
            PlaneRun& run = runs.back();
            const std::int64_t step = destination - (run.destination + (run.count - 1) * run.destinationStep);
            if (run.count == 1 && step > 0)
                run.destinationStep = step;
            if (step > 0 && step == run.destinationStep) {
                ++run.count;
                continue;
            }
        }
        runs.push_back({c, destination, 1, 1, 1});
    }
    return runs;
}

constexpr std::size_t kTransfersPerBdma = 20;  // dla_bdma_surface_desc holds 20

}  // namespace

int Emitter::addRubik(std::int64_t mode)
{
    DlaTaskBuilder& task = dla();
    const int rubik = task.addOperation(DlaOp::Rubik);
    Record op = task.opDesc(rubik);
    op.set("mode", mode);
    op.set("precision", dataPrecision());
    op.set("stride_x", 1);
    op.set("stride_y", 1);
    return rubik;
}

void Emitter::emitDepthToSpace(const Node& node, EmittedNode& record)
{
    const std::int64_t block = node.attrInt("blocksize", 1);
    DlaTaskBuilder& task = dla();
    const int rubik = addRubik(kRubikContract);
    Record op = task.opDesc(rubik);
    op.set("stride_x", block);
    op.set("stride_y", block);
    Record surfaceDesc = task.surfaceDesc(rubik);
    connectSourceAndDestination(surfaceDesc, rubik, node);
    record.operations = {fmt::format("RUBIK {} (contract {}x{})", rubik, block, block)};
}

void Emitter::emitChannelPermutation(const Node& node, EmittedNode& record)
{
    const std::vector<std::int64_t> order = *channelPermutation(graph_, node);
    const std::vector<int>& workspace = plan_.workspaces.at(node.name);
    const int planes = workspace.at(0), reordered = workspace.at(1);
    const FeatureLayout& layout = plan_.surfaces[std::size_t(planes)].layout;
    DlaTaskBuilder& task = dla();

    const int split = addRubik(kRubikSplit);
    Record splitSurface = task.surfaceDesc(split);
    setFeatureCube(splitSurface, "src_data", node.inputs[0]);
    setPlanes(splitSurface, "dst_data", planes, 0, layout.channels);
    reads(split, surfaceIndex(node.inputs[0]), split);
    writes(split, planes);
    record.operations.push_back(fmt::format("RUBIK {} (split)", split));

    // Each run of planes is one transfer: a plane is `height` lines, a run `count` planes apart by
    // its steps.
    const std::vector<PlaneRun> runs = planeRuns(order);
    const std::uint64_t base[2] = {plan_.surfaces[std::size_t(planes)].offset,
                                   plan_.surfaces[std::size_t(reordered)].offset};
    for (std::size_t first = 0; first < runs.size(); first += kTransfersPerBdma) {
        const std::size_t count = std::min(kTransfersPerBdma, runs.size() - first);
        const int copy = task.addOperation(DlaOp::Bdma);
        task.opDesc(copy).set("num_transfers", std::int64_t(count));
        Record surface = task.surfaceDesc(copy);
        surface.set("source_type", kMemoryMc);
        surface.set("destination_type", kMemoryMc);
        surface.set("num_transfers", std::int64_t(count));
        for (std::size_t t = 0; t < count; ++t) {
            const PlaneRun& run = runs[first + t];
            const std::string transfer = fmt::format("transfers[{}].", t);
            // A transfer addresses a whole address entry: one per run start.
            const auto address = [&](int side, std::int64_t plane, std::int64_t step) {
                const std::uint64_t offset = std::uint64_t(plane) * layout.surfaceStride;
                const std::uint64_t extent = (std::uint64_t(run.count - 1) * std::uint64_t(step) + 1) * layout.surfaceStride;
                return task.addressIndex(builder_.addAddress(scratchMemory_, base[side] + offset, extent));
            };
            surface.set(transfer + "source_address", address(0, run.source, run.sourceStep));
            surface.set(transfer + "destination_address", address(1, run.destination, run.destinationStep));
            surface.set(transfer + "line_size", std::int64_t(layout.lineStride));
            surface.set(transfer + "line_repeat", layout.height);
            surface.set(transfer + "source_line", std::int64_t(layout.lineStride));
            surface.set(transfer + "destination_line", std::int64_t(layout.lineStride));
            surface.set(transfer + "surface_repeat", run.count);
            surface.set(transfer + "source_surface", std::int64_t(layout.surfaceStride) * run.sourceStep);
            surface.set(transfer + "destination_surface", std::int64_t(layout.surfaceStride) * run.destinationStep);
        }
        reads(copy, planes, copy);
        writes(copy, reordered);
        record.operations.push_back(fmt::format("BDMA {} ({} transfer{})", copy, count, count == 1 ? "" : "s"));
    }

    const int merge = addRubik(kRubikMerge);
    Record mergeSurface = task.surfaceDesc(merge);
    setPlanes(mergeSurface, "src_data", reordered, 0, layout.channels);
    setFeatureCube(mergeSurface, "dst_data", node.outputs[0]);
    reads(merge, reordered, merge);
    writes(merge, surfaceIndex(node.outputs[0]));
    record.operations.push_back(fmt::format("RUBIK {} (merge)", merge));
    record.note = fmt::format("{} channels in {} run{} of planes", order.size(), runs.size(), runs.size() == 1 ? "" : "s");
}

void Emitter::emitConcatCopy(const Node& node, EmittedNode& record)
{
    const int planes = plan_.workspaces.at(node.name).at(0);
    DlaTaskBuilder& task = dla();
    unsigned offset = 0;
    for (TensorId input : node.inputs) {
        const unsigned channels = unsigned(cubeOf(graph_.tensor(input).shape)->channels);
        const int split = addRubik(kRubikSplit);
        Record surface = task.surfaceDesc(split);
        setFeatureCube(surface, "src_data", input);
        setPlanes(surface, "dst_data", planes, offset, channels);
        reads(split, surfaceIndex(input), split);
        writes(split, planes);
        record.operations.push_back(fmt::format("RUBIK {} (split '{}' to planes {}..{})", split,
                                                graph_.tensor(input).name, offset, offset + channels - 1));
        offset += channels;
    }
    const int merge = addRubik(kRubikMerge);
    Record surface = task.surfaceDesc(merge);
    setPlanes(surface, "src_data", planes, 0, offset);
    setFeatureCube(surface, "dst_data", node.outputs[0]);
    reads(merge, planes, merge);
    writes(merge, surfaceIndex(node.outputs[0]));
    record.operations.push_back(fmt::format("RUBIK {} (merge)", merge));
}

void Emitter::emitChannelCopy(const Node& node, EmittedNode& record)
{
    const int planes = plan_.workspaces.at(node.name).at(0);
    const auto parts = *channelParts(graph_, node);
    DlaTaskBuilder& task = dla();
    const int split = addRubik(kRubikSplit);
    Record splitSurface = task.surfaceDesc(split);
    setFeatureCube(splitSurface, "src_data", node.inputs[0]);
    setPlanes(splitSurface, "dst_data", planes, 0, plan_.surfaces[std::size_t(planes)].layout.channels);
    reads(split, surfaceIndex(node.inputs[0]), split);
    writes(split, planes);
    record.operations.push_back(fmt::format("RUBIK {} (split)", split));
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const int merge = addRubik(kRubikMerge);
        Record surface = task.surfaceDesc(merge);
        setPlanes(surface, "src_data", planes, unsigned(parts[k].first), unsigned(parts[k].second));
        setFeatureCube(surface, "dst_data", node.outputs[k]);
        reads(merge, planes, merge);
        writes(merge, surfaceIndex(node.outputs[k]));
        record.operations.push_back(fmt::format("RUBIK {} (merge planes {}..{})", merge, parts[k].first,
                                                parts[k].first + parts[k].second - 1));
    }
}

}  // namespace tessera::nvdla::emission
