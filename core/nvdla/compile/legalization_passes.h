// The legalization passes (legalization.h lists them with their summaries), and the graph edits
// they share.
#pragma once

#include "ir/graph.h"
#include "nvdla/compile/legalization.h"
#include "target/nvdla_configs.h"

#include <optional>

namespace tessera::nvdla {

void explicitPaddingPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void foldPadPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void excludePadCountPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void foldBatchNormPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void gemmToConvPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void globalPoolPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void depthToSpaceOrderPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void splitInputChannelsPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void channelShufflePass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void removeViewsPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);
void fuseActivationPass(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log);

// The attribute fuse-activation sets on a Conv or element-wise node whose SDP applies the activation
// ("Relu" or "Clip"), and a fused Clip's bounds.
inline constexpr const char* kFusedActivation = "tessera_activation";
inline constexpr const char* kClipMin = "tessera_clip_min";
inline constexpr const char* kClipMax = "tessera_clip_max";
// The Mul exclude-pad-count adds after a pooling: its output keeps the pooling's INT8 scale.
inline constexpr const char* kPadCountCorrection = "tessera_pad_count_correction";

// A Clip's constant bounds (attributes before opset 11, inputs after); nullopt when either is not a
// finite constant.
std::optional<std::pair<float, float>> clipBounds(const Graph& graph, const Node& clip);

// The parts of its input's channels a Slice (one output) or Split (one per output) along the
// channels of a cube with constant bounds and step 1 takes: (first channel, count) per output;
// nullopt for other Slices and Splits. split-input-channels writes such Slices.
std::optional<std::vector<std::pair<std::int64_t, std::int64_t>>> channelParts(const Graph& graph, const Node& node);

// A Gather along the channels of a cube with constant indices that are a permutation of them (what
// channel-shuffle writes): output channel j is input channel order[j]. nullopt for other Gathers.
std::optional<std::vector<std::int64_t>> channelPermutation(const Graph& graph, const Node& node);

// A Flatten, Reshape, Squeeze or Unsqueeze whose output is the same cube as its input: no work.
bool isCubeView(const Graph& graph, const Node& node);

// Graph edits.
// Every use of `from` (node inputs and graph outputs) becomes `to`.
void replaceUses(Graph& graph, TensorId from, TensorId to);
// The one node reading `tensor`, when exactly one does and the tensor is not a graph output.
std::optional<NodeId> soleConsumer(const Graph& graph, TensorId tensor);
// The node writing `tensor`, if any.
std::optional<NodeId> producerOf(const Graph& graph, TensorId tensor);
// Makes `node`'s output `oldOutput` be `newOutput` instead (the node takes over the tensor of a node
// removed after it); uses of `oldOutput` move to `newOutput`.
void takeOverOutput(Graph& graph, NodeId node, TensorId oldOutput, TensorId newOutput);
// A new constant tensor with a name built from `base`.
TensorId addConstant(Graph& graph, const std::string& base, TensorData value);
// A new untyped tensor (shape inference types it) with a name built from `base`.
TensorId addTensor(Graph& graph, const std::string& base);
// A Reshape node `name` from `input` to `shape`, writing `output` (a new tensor when kNoTensor);
// returns the tensor it writes.
TensorId addReshape(Graph& graph, const std::string& name, TensorId input, const std::vector<std::int64_t>& shape,
                    TensorId output = kNoTensor);

}  // namespace tessera::nvdla
