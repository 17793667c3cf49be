#pragma once
// Buffer splitting for AI Engine layers whose inputs or outputs do not fit a compute tile: how
// much local storage each side needs (ping-pong included), into how many chunks (NSPLIT) the
// work is split, how the kernel and the memory tile are repeated, whether an asynchronous buffer
// is needed, which dimension is split, and the memory-tile tiling that feeds padded and
// overlapping windows. Every decision carries its reason.
#include "aie/aie_architecture.h"
#include "aie/aie_layers.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::aie {

struct SplitOptions {
    int64_t elementBytes = 2; // bf16
    int64_t tileSamples = 16; // output samples per memory-tile window of the conv template
    int64_t tileNodes = 8;    // nodes per memory-tile window
};

// A memory-tile access pattern over a (nodes, samples) buffer.
struct MemtileTiling {
    std::vector<int64_t> bufferDims;  // {nodes, samples}
    std::vector<int64_t> tileDims;
    std::vector<int64_t> offset;      // negative: zero padding before the data
    std::vector<int64_t> strides;     // traversal step per dimension
};

struct LayerPlan {
    AieLayer layer;
    double inputKB = 0;               // local-tile storage of the whole input, ping-pong included
    double outputKB = 0;
    int64_t nsplit = 1;
    int64_t kernelInvocations = 1;    // kernel repetition count per graph iteration
    std::optional<int64_t> memtileInvocations; // none when the layer has no memory-tile buffer
    std::optional<std::string> asyncBuffer;    // "input" or "output"
    std::optional<std::string> splitDim;       // "samples" or "nodes"
    std::string note;
    std::vector<std::string> reasons;
    int64_t kernelInputElements = 0;  // one kernel buffer (one side of the ping-pong pair)
    int64_t kernelOutputElements = 0;
    int64_t weightBytes = 0;
    int64_t weightTiles = 0;          // tiles holding the single-buffered weights
    std::optional<MemtileTiling> inputTiling;
    std::optional<MemtileTiling> outputTiling;
    std::string refusal;              // planSplitsMarkingRefusals: why this layer does not fit (else empty)
};

struct AiePlan {
    AieArchitecture arch;
    SplitOptions options;
    std::vector<LayerPlan> layers;

    size_t refusedLayers() const;
};

// Plans every layer of `graph`. Throws Error naming the layer when it cannot fit even split to
// one sample (or node) per chunk, and UnsupportedError for layers the planner does not handle.
AiePlan planSplits(const Graph& graph, const AieArchitecture& arch, const SplitOptions& options = {});
// The same, but a layer that cannot fit is kept with its `refusal` and the others are still
// planned: what a user dragging the tile size needs to see (which layers, and why).
AiePlan planSplitsMarkingRefusals(const Graph& graph, const AieArchitecture& arch, const SplitOptions& options = {});

// Smallest power of two >= value (value >= 1).
int64_t nextPowerOfTwo(int64_t value);

} // namespace tessera::aie
