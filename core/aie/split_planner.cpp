#include "aie/split_planner.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::aie {

namespace {

constexpr int64_t kPingPong = 2;

double kb(int64_t bytes) { return double(bytes) / 1024.0; }

// Chunks needed so that `bytes` (ping-pong included) fits the per-port budget.
int64_t chunksFor(int64_t bytes, int64_t budget)
{
    const int64_t ratio = (bytes + budget - 1) / budget;
    return ratio <= 1 ? 1 : nextPowerOfTwo(ratio);
}

class Planner {
public:
    Planner(const AieArchitecture& arch, const SplitOptions& options) : arch_(arch), options_(options) {}

    LayerPlan plan(const AieLayer& layer, const LayerPlan* previous)
    {
        LayerPlan p;
        p.layer = layer;
        const int64_t e = options_.elementBytes;
        const int64_t outBytes = layer.outNodes * layer.outSamples * e * kPingPong;
        p.outputKB = kb(outBytes);
        p.kernelOutputElements = layer.outNodes * layer.outSamples;
        switch (layer.kind) {
        case LayerKind::Conv1D: planConv(p, outBytes); break;
        case LayerKind::Pool1D:
        case LayerKind::Elementwise: planStreaming(p, outBytes, previous); break;
        case LayerKind::Dense: planDense(p, outBytes); break;
        }
        p.kernelInputElements = p.kernelInputElements ? p.kernelInputElements : layer.inNodes * layer.inSamples;
        return p;
    }

private:
    int64_t budget() const { return arch_.pingPongBudget(); }

    [[noreturn]] void cannotFit(const LayerPlan& p, const std::string& what) const
    {
        throw Error(fmt::format("aie plan: layer '{}' cannot fit a {} KB tile even split to {}; {} (use a "
                                "generation with a larger tile, or fewer nodes per layer)",
                                p.layer.name, arch_.tileBytes / 1024, what, "its ping-pong buffers exceed " +
                                                                           std::to_string(budget() / 1024) + " KB"));
    }

    // The memory-tile buffer (ping-pong) must fit the memory tile, or the three a tile's DMA
    // channels reach (its own and the east and west neighbours).
    void checkMemtile(LayerPlan& p, int64_t bytes) const
    {
        if (bytes <= arch_.memtileBytes)
            return;
        if (bytes > 3 * arch_.memtileBytes)
            throw Error(fmt::format("aie plan: layer '{}' needs a {:.1f} KB memory-tile buffer, more than the {} KB of "
                                    "the three memory tiles one column can reach; split the layer in the model",
                                    p.layer.name, kb(bytes), 3 * arch_.memtileBytes / 1024));
        p.reasons.push_back(fmt::format("its {:.1f} KB memory-tile buffer spans the neighbouring memory tiles", kb(bytes)));
    }

    void addWeights(LayerPlan& p) const
    {
        p.weightBytes = p.layer.weightElements * options_.elementBytes;
        if (p.weightBytes == 0)
            return;
        p.weightTiles = (p.weightBytes + arch_.tileBytes - 1) / arch_.tileBytes;
        p.reasons.push_back(fmt::format("weights {:.1f} KB are sent once as an asynchronous run-time parameter and "
                                        "kept single-buffered in {} neighbouring tile{}",
                                        kb(p.weightBytes), p.weightTiles, p.weightTiles > 1 ? "s" : ""));
    }

    void planConv(LayerPlan& p, int64_t outBytes)
    {
        const AieLayer& l = p.layer;
        const int64_t e = options_.elementBytes;
        const int64_t pads = l.padBegin + l.padEnd;
        const int64_t paddedIn = l.inNodes * (l.inSamples + pads) * e * kPingPong;
        addWeights(p);
        if (arch_.hasMemoryTile()) {
            p.memtileInvocations = 1;
            p.reasons.push_back("a memory-tile buffer inserts the zero padding (repetition count 1)");
            checkMemtile(p, std::max(paddedIn, outBytes));
        } else {
            p.reasons.push_back("no memory tile on " + arch_.name + ": the DMA sends the padded windows directly");
        }
        p.outputTiling = MemtileTiling{{l.outNodes, l.outSamples},
                                       {std::min(options_.tileNodes, l.outNodes), std::min(options_.tileSamples, l.outSamples)},
                                       {0, 0},
                                       {std::min(options_.tileNodes, l.outNodes), std::min(options_.tileSamples, l.outSamples)}};
        if (paddedIn <= budget() && outBytes <= budget()) {
            p.inputKB = kb(paddedIn);
            p.note = "NA";
            p.kernelInputElements = l.inNodes * (l.inSamples + pads);
            p.inputTiling = MemtileTiling{{l.inNodes, l.inSamples}, {l.inNodes, l.inSamples + pads}, {0, -l.padBegin}, {l.inNodes, l.inSamples + pads}};
            p.reasons.push_back(fmt::format("input {:.1f} KB and output {:.1f} KB both fit the {} KB ping-pong budget: no split",
                                            p.inputKB, p.outputKB, budget() / 1024));
            return;
        }
        if (paddedIn <= budget()) {
            // Only the output is too large: split it with an asynchronous buffer, over nodes.
            p.inputKB = kb(paddedIn);
            p.nsplit = chunksFor(outBytes, budget());
            if (p.nsplit > l.outNodes || l.outNodes % p.nsplit != 0)
                cannotFit(p, "one output node per chunk");
            p.kernelInvocations = 1;
            p.asyncBuffer = "output";
            p.splitDim = "nodes";
            p.kernelInputElements = l.inNodes * (l.inSamples + pads);
            p.kernelOutputElements = l.outNodes / p.nsplit * l.outSamples;
            p.inputTiling = MemtileTiling{{l.inNodes, l.inSamples}, {l.inNodes, l.inSamples + pads}, {0, -l.padBegin}, {l.inNodes, l.inSamples + pads}};
            p.note = fmt::format("Split output nodes by NSPLIT={}, handled inside kernel using async_output_buffer", p.nsplit);
            p.reasons.push_back(fmt::format(
                "input {:.1f} KB fits but output {:.1f} KB needs {} chunks; multi-rate scheduling would split both "
                "sides alike, so the output port is an async buffer the kernel releases every {} nodes",
                p.inputKB, p.outputKB, p.nsplit, l.outNodes / p.nsplit));
            p.reasons.push_back("output split over nodes: the whole input stays resident and is re-read from local "
                                "memory at no DMA cost, and each chunk needs only its own weights");
            return;
        }
        // Both sides split over samples; the memory tile re-sends the overlap (state history).
        const int64_t stride = l.stride;
        // Windows of `tile` output samples; the largest such width that divides the output.
        int64_t tile = std::min(options_.tileSamples, l.outSamples);
        while (l.outSamples % tile != 0)
            --tile;
        const int64_t window = (tile - 1) * stride + l.kernel;
        const int64_t tiles = (l.outSamples + tile - 1) / tile;
        const int64_t tiledIn = l.inNodes * tiles * window * e * kPingPong;
        p.inputKB = kb(tiledIn);
        p.nsplit = chunksFor(std::max(tiledIn, outBytes), budget());
        if (p.nsplit > tiles || tiles % p.nsplit != 0)
            cannotFit(p, "one window of " + std::to_string(tile) + " samples per chunk");
        p.kernelInvocations = p.nsplit;
        p.splitDim = "samples";
        p.kernelInputElements = l.inNodes * (tiles / p.nsplit) * window;
        p.kernelOutputElements = l.outNodes * (l.outSamples / p.nsplit);
        const int64_t nodesPerTile = std::min(options_.tileNodes, l.inNodes);
        p.inputTiling = MemtileTiling{{l.inNodes, l.inSamples}, {nodesPerTile, window}, {0, -l.padBegin}, {nodesPerTile, tile * stride}};
        if (firstSampleSplit_.empty()) {
            firstSampleSplit_ = l.name;
            p.note = "Split I/O over samples dimension";
        } else {
            p.note = "Same note as " + firstSampleSplit_;
        }
        p.reasons.push_back(fmt::format("input {:.1f} KB (windows of {} samples per {} outputs) and output {:.1f} KB "
                                        "exceed the {} KB budget: NSPLIT={} chunks, kernel repetition {}, memory tile 1",
                                        p.inputKB, window, tile, p.outputKB, budget() / 1024, p.nsplit, p.nsplit));
        const int64_t inputResend = (p.nsplit - 1) * l.inNodes * l.inSamples * e;
        if (p.weightTiles <= 1)
            p.reasons.push_back(fmt::format("output split over samples: the weights stay local and are re-read for each "
                                            "chunk; over nodes the input would be re-sent {} more times ({:.1f} KB)",
                                            p.nsplit - 1, kb(inputResend)));
        else
            p.reasons.push_back(fmt::format("output split over samples although the weights span {} tiles: re-sending "
                                            "the input ({:.1f} KB) would cost more than re-reading them",
                                            p.weightTiles, kb(inputResend)));
        p.reasons.push_back("input split over samples with overlapping windows re-sent by the memory tile; splitting "
                            "over nodes would need stored partial sums");
    }

    void planStreaming(LayerPlan& p, int64_t outBytes, const LayerPlan* previous)
    {
        const AieLayer& l = p.layer;
        const int64_t inBytes = l.inNodes * l.inSamples * options_.elementBytes * kPingPong;
        p.inputKB = kb(inBytes);
        p.note = "\u2014";
        p.nsplit = chunksFor(std::max(inBytes, outBytes), budget());
        const int64_t step = l.kind == LayerKind::Pool1D ? l.stride : 1;
        if (p.nsplit > 1) {
            if (l.outSamples % p.nsplit != 0 || p.nsplit > l.outSamples)
                cannotFit(p, "one output sample per chunk");
            p.kernelInvocations = p.nsplit;
            p.splitDim = "samples";
            p.kernelInputElements = l.inNodes * (l.outSamples / p.nsplit) * step;
            p.kernelOutputElements = l.outNodes * (l.outSamples / p.nsplit);
            p.reasons.push_back(fmt::format("input {:.1f} KB exceeds the {} KB budget: NSPLIT={} chunks over samples, "
                                            "input and output split alike (multi-rate, kernel repetition {})",
                                            p.inputKB, budget() / 1024, p.nsplit, p.nsplit));
        } else {
            p.reasons.push_back(fmt::format("input {:.1f} KB and output {:.1f} KB fit: no split", p.inputKB, p.outputKB));
        }
        // A layer fed by an output split over nodes receives node groups; a memory tile re-tiles
        // them into the sample chunks this layer consumes.
        if (previous && previous->splitDim == std::optional<std::string>("nodes") && arch_.hasMemoryTile()) {
            p.memtileInvocations = 1;
            checkMemtile(p, inBytes);
            p.inputTiling = MemtileTiling{{l.inNodes, l.inSamples},
                                          {l.inNodes, l.inSamples / p.nsplit},
                                          {0, 0},
                                          {l.inNodes, l.inSamples / p.nsplit}};
            p.reasons.push_back("its input arrives as node groups from " + previous->layer.name +
                                ": a memory-tile buffer re-tiles it into sample chunks (repetition count 1)");
        }
    }

    void planDense(LayerPlan& p, int64_t outBytes)
    {
        const AieLayer& l = p.layer;
        const int64_t inBytes = l.inNodes * options_.elementBytes * kPingPong;
        p.inputKB = kb(inBytes);
        p.note = "\u2014";
        addWeights(p);
        p.nsplit = chunksFor(std::max(inBytes, outBytes), budget());
        if (p.nsplit > 1) {
            if (l.outNodes % p.nsplit != 0)
                cannotFit(p, "one output node per chunk");
            p.kernelInvocations = p.nsplit;
            p.splitDim = "nodes";
            p.kernelOutputElements = l.outNodes / p.nsplit;
            p.reasons.push_back(fmt::format("NSPLIT={} chunks over output nodes", p.nsplit));
        } else {
            p.reasons.push_back(fmt::format("input {:.1f} KB and output {:.1f} KB fit: no split", p.inputKB, p.outputKB));
        }
    }

    const AieArchitecture& arch_;
    const SplitOptions& options_;
    std::string firstSampleSplit_;
};

} // namespace

int64_t nextPowerOfTwo(int64_t value)
{
    int64_t power = 1;
    while (power < value)
        power *= 2;
    return power;
}

size_t AiePlan::refusedLayers() const
{
    return size_t(std::count_if(layers.begin(), layers.end(), [](const LayerPlan& p) { return !p.refusal.empty(); }));
}

namespace {

AiePlan planLayers(const Graph& graph, const AieArchitecture& arch, const SplitOptions& options, bool markRefusals)
{
    if (options.elementBytes < 1 || options.tileSamples < 1 || options.tileNodes < 1)
        throw Error("aie plan: element size and tile dimensions must be positive");
    AiePlan plan{arch, options, {}};
    Planner planner(plan.arch, plan.options);
    for (const AieLayer& layer : extractLayers(graph)) {
        const LayerPlan* previous = plan.layers.empty() || !plan.layers.back().refusal.empty() ? nullptr : &plan.layers.back();
        if (!markRefusals) {
            plan.layers.push_back(planner.plan(layer, previous));
            continue;
        }
        try {
            plan.layers.push_back(planner.plan(layer, previous));
        } catch (const UnsupportedError&) {
            throw;  // not a matter of size: the whole graph is not an AIE design
        } catch (const Error& error) {
            LayerPlan refused;
            refused.layer = layer;
            refused.refusal = error.what();
            plan.layers.push_back(std::move(refused));
        }
    }
    return plan;
}

} // namespace

AiePlan planSplits(const Graph& graph, const AieArchitecture& arch, const SplitOptions& options)
{
    return planLayers(graph, arch, options, false);
}

AiePlan planSplitsMarkingRefusals(const Graph& graph, const AieArchitecture& arch, const SplitOptions& options)
{
    return planLayers(graph, arch, options, true);
}

} // namespace tessera::aie
