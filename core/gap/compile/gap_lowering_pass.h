#pragma once
// The lowering pass from an ONNX graph to GAP layers (lowerForGap), internal to it and shared by
// its files, one per operator family: gap_lowering.cpp (the pass, its bookkeeping and the dispatch
// by operator), gap_lowering_convolutions.cpp (Conv, Pad, batch normalization, pooling, global
// pooling, Gemm and MatMul, Softmax), gap_lowering_elementwise.cpp (Add, Sub, activations, gates,
// per-channel PRelu, Resize) and gap_lowering_channels.cpp (Concat, Split, Slice, the channel
// shuffle).
#include "gap/compile/gap_network.h"
#include "ir/graph.h"
#include "ir/topology.h"

#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::gap::lowering {

// A problem that stops one node from being lowered; all of them are reported together.
struct NodeProblem : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Lowering {
public:
    explicit Lowering(const Graph& graph)
        : graph_(graph), uses_(computeUses(graph)), gapTensorOf_(graph.tensorCount(), -1),
          fused_(graph.nodeCount(), false)
    {
    }

    GapNetwork run();

private:
    // The pass and its bookkeeping (gap_lowering.cpp).
    bool isNetworkInput(int tensor) const;
    int newTensor(TensorId source, const std::string& name);
    int activation(TensorId tensor) const;
    const TensorData& constantInput(const Node& node, size_t index, const char* role) const;
    std::optional<NodeId> soleConsumer(TensorId tensor) const;
    std::optional<NodeId> soleConsumerOfType(TensorId tensor, std::initializer_list<const char*> types) const;
    std::string uniqueLayerName(const std::string& base);
    GapLayer& addLayer(GapLayerKind kind, const Node& first, std::vector<int> inputs);
    void finishLayer(GapLayer& layer, TensorId output);
    void fuse(GapLayer& layer, NodeId id);
    void lowerNode(NodeId id);
    void lowerView(const Node& node);

    // Convolutions, pooling, linear layers, softmax (gap_lowering_convolutions.cpp).
    void lowerPad(NodeId id);
    void lowerConv(NodeId id);
    void foldBatchNormalization(GapLayer& layer, const Node& norm) const;
    bool poolFitsStandalone(const Node& pool) const;
    static void setPooling(const Node& pool, fixed_point::ConvPoolReluParams::Pool& kind, int& width, int& height,
                           int& strideX, int& strideY);
    bool isRelu6(const Node& clip) const;
    void fuseRelu6(GapLayer& layer, TensorId& current);
    void fuseRelu(GapLayer& layer, TensorId& current, bool& relu);
    void lowerPool(NodeId id);
    void lowerGlobalAveragePool(const Node& node);
    void lowerGlobalMaxPool(const Node& node);
    void lowerSpatialReduction(const Node& node);
    void lowerLinear(NodeId id);
    static void addBias(GapLayer& layer, const TensorData& bias);
    void lowerSoftmax(const Node& node);

    // Element-wise operators (gap_lowering_elementwise.cpp).
    void lowerAdd(NodeId id);
    std::optional<NodeId> gatedProduct(const Node& gate) const;
    void lowerActivation(const Node& node);
    void lowerResize(const Node& node);
    void lowerChannelPRelu(const Node& node, const TensorData& slope);
    void lowerMul(const Node& node);

    // Channel copies (gap_lowering_channels.cpp).
    void lowerConcat(const Node& node);
    void addSlice(const Node& node, TensorId input, int64_t begin, TensorId output, const std::string& name);
    static void requireChannelsOfNchw(const Shape& shape, int64_t axis, const char* what);
    void lowerSplit(const Node& node);
    void lowerSlice(const Node& node);
    bool lowerChannelShuffle(const Node& reshape);

    struct PendingPad {
        TensorId source = kNoTensor;
        std::vector<int64_t> pads;  // top, left, bottom, right
        std::string node;
    };

    const Graph& graph_;
    TensorUses uses_;
    GapNetwork network_;
    std::vector<int> gapTensorOf_;  // per ONNX tensor: the GAP tensor holding it, or -1
    std::vector<bool> fused_;       // per node: already part of a layer
    std::map<TensorId, PendingPad> pendingPads_;
    std::set<std::string> layerNames_;
    std::vector<std::string> problems_;
};

}  // namespace tessera::gap::lowering
