#include "gap/compile/gap_lowering.h"

#include "base/error.h"
#include "ir/op_shapes/resize_geometry.h"
#include "ir/topology.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace tessera::gap {

const char* gapLayerKindName(GapLayerKind kind)
{
    switch (kind) {
    case GapLayerKind::Convolution: return "convolution";
    case GapLayerKind::Pooling: return "pooling";
    case GapLayerKind::GlobalAveragePool: return "global average pooling";
    case GapLayerKind::Linear: return "linear";
    case GapLayerKind::Softmax: return "softmax";
    case GapLayerKind::Add: return "addition";
    case GapLayerKind::Subtract: return "subtraction";
    case GapLayerKind::Concat: return "concatenation";
    case GapLayerKind::Slice: return "channel slice";
    case GapLayerKind::Shuffle: return "channel shuffle";
    case GapLayerKind::Activation: return "activation";
    case GapLayerKind::ChannelScale: return "channel scaling";
    case GapLayerKind::Upsample: return "nearest upsampling";
    case GapLayerKind::ChannelPRelu: return "per-channel PRelu";
    }
    return "?";
}

std::string cIdentifier(const std::string& name)
{
    // C keywords and the C library's functions that generated code sees through the headers it
    // includes (a node named "tanh" must not declare a kernel tanh()).
    static const std::set<std::string> reserved = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
        "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
        "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "main",
        "abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "div", "erf", "exit", "exp", "exp2", "fabs",
        "floor", "fmax", "fmin", "fmod", "free", "log", "log2", "log10", "malloc", "memcpy", "memset", "pow", "printf",
        "rand", "round", "sin", "sinh", "sqrt", "tan", "tanh", "time", "trunc", "abort", "calloc", "realloc", "clock",
        "signal", "raise", "index", "select", "read", "write", "open", "close"};
    std::string identifier;
    for (char c : name)
        identifier += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (identifier.empty() || std::isdigit(static_cast<unsigned char>(identifier.front())))
        identifier = "N" + identifier;
    if (reserved.count(identifier) != 0)
        identifier += "_";
    return identifier;
}

namespace {

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

    GapNetwork run()
    {
        network_.name = cIdentifier(graph_.name.empty() ? "Network" : graph_.name);
        for (size_t k = 0; k < graph_.inputs.size(); ++k) {
            const TensorId input = graph_.inputs[k];
            try {
                network_.inputs.push_back(newTensor(input, "Input_" + std::to_string(k)));
            } catch (const NodeProblem& problem) {
                problems_.push_back(fmt::format("input '{}': {}", graph_.tensor(input).name, problem.what()));
            }
        }
        for (NodeId id : topologicalOrder(graph_)) {
            if (fused_[size_t(id)])
                continue;
            const Node& node = graph_.node(id);
            try {
                lowerNode(id);
            } catch (const NodeProblem& problem) {
                problems_.push_back(fmt::format("node '{}' ({}): {}", node.name, node.opType, problem.what()));
            }
        }
        for (size_t k = 0; k < graph_.outputs.size() && problems_.empty(); ++k) {
            const TensorId output = graph_.outputs[k];
            const int tensor = gapTensorOf_[size_t(output)];
            if (tensor < 0 || isNetworkInput(tensor)) {
                problems_.push_back(fmt::format("output '{}': not computed by any layer", graph_.tensor(output).name));
                continue;
            }
            network_.tensors[size_t(tensor)].name = "Output_" + std::to_string(k);
            network_.outputs.push_back(tensor);
        }
        if (!problems_.empty()) {
            std::string message = fmt::format("{} node{} of '{}' cannot be mapped onto the GAP CNN generators:",
                                              problems_.size(), problems_.size() == 1 ? "" : "s", graph_.name);
            // The causes first, then the nodes refused only because a node before them was; a long
            // list is cut (a model of thousands of layers would print thousands of lines).
            std::stable_partition(problems_.begin(), problems_.end(), [](const std::string& problem) {
                return problem.find("was not lowered") == std::string::npos &&
                       problem.find("follows a node that cannot take it") == std::string::npos;
            });
            constexpr std::size_t kShown = 20;
            for (std::size_t k = 0; k < problems_.size() && k < kShown; ++k)
                message += "\n  " + problems_[k];
            if (problems_.size() > kShown)
                message += fmt::format("\n  ... and {} more", problems_.size() - kShown);
            throw UnsupportedError(message);
        }
        return std::move(network_);
    }

private:
    bool isNetworkInput(int tensor) const
    {
        for (int input : network_.inputs)
            if (input == tensor)
                return true;
        return false;
    }

    int newTensor(TensorId source, const std::string& name)
    {
        const Tensor& tensor = graph_.tensor(source);
        if (tensor.dtype != DType::Float32)
            throw NodeProblem(fmt::format("tensor '{}' is {}, the GAP flow takes float32 models", tensor.name,
                                          dtypeName(tensor.dtype)));
        if (tensor.shape.empty() || tensor.shape.front() != 1)
            throw NodeProblem(fmt::format("tensor '{}' has shape {}; the GAP flow runs batch 1, export the model "
                                          "with a first dimension of 1",
                                          tensor.name, shapeToString(tensor.shape)));
        GapTensor gapTensor;
        gapTensor.name = name;
        gapTensor.source = source;
        gapTensor.shape.assign(tensor.shape.begin() + 1, tensor.shape.end());
        gapTensor.elements = tensor.elements();
        network_.tensors.push_back(gapTensor);
        const int index = int(network_.tensors.size()) - 1;
        gapTensorOf_[size_t(source)] = index;
        return index;
    }

    // The activation a node reads, computed by an earlier layer or a graph input.
    int activation(TensorId tensor) const
    {
        const int index = gapTensorOf_[size_t(tensor)];
        if (index >= 0)
            return index;
        if (graph_.tensor(tensor).isConstant())
            throw NodeProblem(fmt::format("input '{}' is a constant where the generators expect an activation",
                                          graph_.tensor(tensor).name));
        throw NodeProblem(fmt::format("input '{}' comes from a node that was not lowered", graph_.tensor(tensor).name));
    }

    const TensorData& constantInput(const Node& node, size_t index, const char* role) const
    {
        if (index >= node.inputs.size() || node.inputs[index] == kNoTensor)
            throw NodeProblem(fmt::format("the {} input is missing", role));
        const Tensor& tensor = graph_.tensor(node.inputs[index]);
        if (!tensor.isConstant())
            throw NodeProblem(fmt::format("the {} '{}' is computed at run time; the generators need it constant",
                                          role, tensor.name));
        return *tensor.constant;
    }

    // The node that alone reads `tensor`, when the tensor is not also a graph output.
    std::optional<NodeId> soleConsumer(TensorId tensor) const
    {
        const auto& consumers = uses_.consumers[size_t(tensor)];
        if (consumers.size() != 1)
            return std::nullopt;
        for (TensorId output : graph_.outputs)
            if (output == tensor)
                return std::nullopt;
        return consumers.front();
    }

    std::optional<NodeId> soleConsumerOfType(TensorId tensor, std::initializer_list<const char*> types) const
    {
        const std::optional<NodeId> consumer = soleConsumer(tensor);
        if (!consumer)
            return std::nullopt;
        const Node& node = graph_.node(*consumer);
        for (const char* type : types)
            if (node.opType == type && node.inputs.size() >= 1 && node.inputs[0] == tensor)
                return consumer;
        return std::nullopt;
    }

    std::string uniqueLayerName(const std::string& base)
    {
        std::string name = cIdentifier(base);
        std::string candidate = name;
        for (int suffix = 2; !layerNames_.insert(candidate).second; ++suffix)
            candidate = name + "_" + std::to_string(suffix);
        return candidate;
    }

    GapLayer& addLayer(GapLayerKind kind, const Node& first, std::vector<int> inputs)
    {
        GapLayer layer;
        layer.kind = kind;
        layer.name = uniqueLayerName(first.name.empty() ? first.opType : first.name);
        layer.nodes.push_back(first.name);
        layer.inputs = std::move(inputs);
        network_.layers.push_back(std::move(layer));
        return network_.layers.back();
    }

    void finishLayer(GapLayer& layer, TensorId output)
    {
        layer.output = newTensor(output, layer.name + "_Out");
    }

    void fuse(GapLayer& layer, NodeId id)
    {
        fused_[size_t(id)] = true;
        layer.nodes.push_back(graph_.node(id).name);
    }

    void lowerNode(NodeId id)
    {
        const Node& node = graph_.node(id);
        const std::string& op = node.opType;
        if (!node.domain.empty() && node.domain != "ai.onnx")
            throw NodeProblem("operators of domain '" + node.domain + "' are not supported");
        if (op == "Reshape" && lowerChannelShuffle(node))
            return;
        if (op == "Identity" || op == "Dropout" || op == "Flatten" || op == "Reshape" || op == "Squeeze" ||
            op == "Unsqueeze")
            return lowerView(node);
        if (op == "Split")
            return lowerSplit(node);
        if (op == "Slice")
            return lowerSlice(node);
        if (op == "Pad")
            return lowerPad(id);
        if (op == "Conv")
            return lowerConv(id);
        if (op == "Gemm" || op == "MatMul")
            return lowerLinear(id);
        if (op == "MaxPool" || op == "AveragePool")
            return lowerPool(id);
        if (op == "GlobalAveragePool")
            return lowerGlobalAveragePool(node);
        if (op == "GlobalMaxPool")
            return lowerGlobalMaxPool(node);
        if (op == "ReduceMean" || op == "ReduceMax")
            return lowerSpatialReduction(node);
        if (op == "Softmax")
            return lowerSoftmax(node);
        if (op == "Add" || op == "Sub")
            return lowerAdd(id);
        if (op == "Concat")
            return lowerConcat(node);
        if (op == "Sigmoid" || op == "Tanh" || op == "HardSigmoid" || op == "HardSwish" || op == "LeakyRelu" ||
            op == "PRelu")
            return lowerActivation(node);
        if (op == "Mul")
            return lowerMul(node);
        if (op == "Resize" || op == "Upsample")
            return lowerResize(node);
        if (op == "Relu")
            throw NodeProblem("a ReLU is fused into the convolution, linear, pooling or addition before it; this one "
                              "follows a node that cannot take it");
        if (op == "ConvTranspose")
            throw NodeProblem("no GAP CNN generator computes a transposed convolution (GreenWaves' CNN generators have "
                              "convolutions, poolings and linear layers only); a model that upsamples this way cannot "
                              "run on GAP through them");
        if (op == "Clip")
            throw NodeProblem("a Clip is fused as ReLU6 (bounds 0 and 6) into the convolution or linear layer before "
                              "it; this one has other bounds or follows another node");
        throw NodeProblem("no GAP CNN generator implements " + op +
                          " (supported: Conv, BatchNormalization after Conv, Relu, MaxPool, AveragePool, "
                          "GlobalAveragePool, GlobalMaxPool, ReduceMean and ReduceMax over H and W, Gemm, MatMul, "
                          "Add, Sub, Concat, Split and Slice along channels, the Reshape-Transpose-Reshape channel "
                          "shuffle, Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, PRelu with one slope or one per channel, "
                          "Mul by one value per channel, Resize and Upsample in nearest mode by whole factors, Softmax, Pad, Flatten, Reshape, Identity, Dropout)");
    }

    void lowerView(const Node& node)
    {
        gapTensorOf_[size_t(node.outputs.at(0))] = activation(node.inputs.at(0));
    }

    // A zero Pad of the spatial dimensions only feeds the convolution after it.
    void lowerPad(NodeId id)
    {
        const Node& node = graph_.node(id);
        if (node.attrString("mode", "constant") != "constant")
            throw NodeProblem("only constant (zero) padding folds into a convolution");
        if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
            const TensorData& value = constantInput(node, 2, "pad value");
            if (value.elements() != 1 || value.getDouble(0) != 0.0)
                throw NodeProblem("only zero padding folds into a convolution");
        }
        const std::vector<int64_t> pads = constantInput(node, 1, "pads").toInts();
        if (pads.size() != 8 || pads[0] || pads[1] || pads[4] || pads[5])
            throw NodeProblem("only padding of the two spatial dimensions of an NCHW tensor folds into a convolution");
        const std::optional<NodeId> conv = soleConsumerOfType(node.outputs.at(0), {"Conv"});
        if (!conv)
            throw NodeProblem("a Pad folds into the convolution it feeds alone; this one feeds something else");
        activation(node.inputs.at(0));
        pendingPads_[node.outputs.at(0)] = {node.inputs.at(0), {pads[2], pads[3], pads[6], pads[7]}, node.name};
    }

    void lowerConv(NodeId id)
    {
        const Node& node = graph_.node(id);
        const TensorData& weights = constantInput(node, 1, "weights");
        if (weights.rank() != 4)
            throw NodeProblem("only 2-D convolutions (4-D weights) are supported");
        TensorId input = node.inputs.at(0);
        std::vector<int64_t> pads = node.attrInts("pads", {0, 0, 0, 0});
        std::string padNode;
        if (const auto pending = pendingPads_.find(input); pending != pendingPads_.end()) {
            for (size_t k = 0; k < 4; ++k)
                pads[k] += pending->second.pads[k];
            padNode = pending->second.node;
            input = pending->second.source;
        }
        const std::string autoPad = node.attrString("auto_pad", "NOTSET");
        const Shape& weightShape = weights.shape();
        if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
            // Symmetric whenever the filter is odd and the stride 1; otherwise refused below.
            for (size_t axis = 0; axis < 2; ++axis) {
                const int64_t total = weightShape[2 + axis] - 1;
                pads[axis] = total / 2;
                pads[axis + 2] = total - total / 2;
            }
        }
        if (pads.size() != 4 || pads[0] != pads[1] || pads[0] != pads[2] || pads[0] != pads[3])
            throw NodeProblem(fmt::format("padding [{}] is not the same on every side, which is the only padding the "
                                          "GAP convolution generator has",
                                          fmt::join(pads, ", ")));
        const Tensor& x = graph_.tensor(input);
        const int64_t group = node.attrInt("group", 1);
        const int64_t inFeatures = x.shape.at(1);
        const int64_t outFeatures = weightShape[0];
        const bool depthwise = group > 1 && group == inFeatures && group == outFeatures && weightShape[1] == 1;
        if (group != 1 && !depthwise)
            throw NodeProblem(fmt::format("group {} is neither 1 nor depthwise (group = input channels = output "
                                          "channels); the generators have only those two",
                                          group));
        const std::vector<int64_t> strides = node.attrInts("strides", {1, 1});
        const std::vector<int64_t> dilations = node.attrInts("dilations", {1, 1});

        GapLayer& layer = addLayer(GapLayerKind::Convolution, node, {activation(input)});
        if (!padNode.empty())
            layer.nodes.insert(layer.nodes.begin(), padNode);
        fixed_point::ConvPoolReluParams& conv = layer.conv;
        conv.inFeatures = int(inFeatures);
        conv.outFeatures = int(outFeatures);
        conv.height = int(x.shape.at(2));
        conv.width = int(x.shape.at(3));
        conv.filterHeight = int(weightShape[2]);
        conv.filterWidth = int(weightShape[3]);
        conv.strideY = int(strides.at(0));
        conv.strideX = int(strides.at(1));
        conv.dilationY = int(dilations.at(0));
        conv.dilationX = int(dilations.at(1));
        conv.pad = int(pads[0]);
        conv.depthwise = depthwise;
        layer.weights = weights.toFloats();
        if (node.inputs.size() > 2 && node.inputs[2] != kNoTensor)
            layer.bias = constantInput(node, 2, "bias").toFloats();
        else
            layer.bias.assign(size_t(outFeatures), 0.0f);

        TensorId current = node.outputs.at(0);
        if (const auto norm = soleConsumerOfType(current, {"BatchNormalization"})) {
            foldBatchNormalization(layer, graph_.node(*norm));
            fuse(layer, *norm);
            current = graph_.node(*norm).outputs.at(0);
        }
        layer.normalized = current;
        bool pooled = false;
        while (const auto next = soleConsumerOfType(current, {"Relu", "Clip", "MaxPool", "AveragePool"})) {
            const Node& follower = graph_.node(*next);
            if (follower.opType == "Relu" || follower.opType == "Clip") {
                if (layer.conv.relu || (follower.opType == "Clip" && !isRelu6(follower)))
                    break;
                layer.conv.relu = true;
                layer.relu6 = follower.opType == "Clip";
            } else {
                // Pooling then ReLU is what the generator computes; ReLU then average pooling is not.
                const bool average = follower.opType == "AveragePool";
                if (pooled || (average && layer.conv.relu) || !poolFitsStandalone(follower))
                    break;
                setPooling(follower, layer.conv.pool, layer.conv.poolWidth, layer.conv.poolHeight,
                           layer.conv.poolStrideX, layer.conv.poolStrideY);
                layer.conv.poolPad = int(follower.attrInts("pads", {0, 0, 0, 0}).at(0));
                layer.conv.poolCeilMode = follower.attrInt("ceil_mode", 0) != 0;
                layer.poolNode = follower.name;
                layer.poolInput = current;
                pooled = true;
            }
            fuse(layer, *next);
            current = follower.outputs.at(0);
        }
        finishLayer(layer, current);
    }

    void foldBatchNormalization(GapLayer& layer, const Node& norm) const;

    // Pooling, alone or fused into the convolution before it, may pad, as long as every side has
    // the same padding, smaller than the window. The padding is skipped, as ONNX does: MaxPool
    // ignores it, AveragePool divides by the values it covers (count_include_pad = 0, the default).
    bool poolFitsStandalone(const Node& pool) const
    {
        const std::vector<int64_t> pads = pool.attrInts("pads", {0, 0, 0, 0});
        const std::vector<int64_t> kernel = pool.attrInts("kernel_shape");
        if (pads.size() != 4 || kernel.size() != 2 || std::adjacent_find(pads.begin(), pads.end(), std::not_equal_to<>()) != pads.end() ||
            pads[0] < 0 || pads[0] >= kernel[0] || pads[0] >= kernel[1])
            return false;
        const bool ceilMode = pool.attrInt("ceil_mode", 0) != 0;
        if ((pads[0] > 0 || ceilMode) && pool.opType == "AveragePool" && pool.attrInt("count_include_pad", 0) != 0)
            return false;
        for (int64_t dilation : pool.attrInts("dilations", {1, 1}))
            if (dilation != 1)
                return false;
        return pool.attrInts("kernel_shape").size() == 2 &&
               pool.attrString("auto_pad", "NOTSET") != "SAME_UPPER" &&
               pool.attrString("auto_pad", "NOTSET") != "SAME_LOWER";
    }

    static void setPooling(const Node& pool, fixed_point::ConvPoolReluParams::Pool& kind, int& width, int& height,
                           int& strideX, int& strideY)
    {
        const std::vector<int64_t> kernel = pool.attrInts("kernel_shape");
        const std::vector<int64_t> strides = pool.attrInts("strides", {1, 1}); // ONNX: 1 when absent
        kind = pool.opType == "MaxPool" ? fixed_point::ConvPoolReluParams::Pool::Max
                                        : fixed_point::ConvPoolReluParams::Pool::Average;
        height = int(kernel.at(0));
        width = int(kernel.at(1));
        strideY = int(strides.at(0));
        strideX = int(strides.at(1));
    }

    // Clip(x, 0, 6): bounds from inputs (opset 11 and later) or attributes (earlier).
    bool isRelu6(const Node& clip) const
    {
        auto bound = [&](size_t input, const char* attribute, float fallback) -> std::optional<float> {
            if (input < clip.inputs.size() && clip.inputs[input] != kNoTensor) {
                const Tensor& tensor = graph_.tensor(clip.inputs[input]);
                if (!tensor.isConstant() || tensor.constant->elements() != 1)
                    return std::nullopt;
                return float(tensor.constant->getDouble(0));
            }
            return clip.attrFloat(attribute, fallback);
        };
        const std::optional<float> low = bound(1, "min", -3.4e38f);
        const std::optional<float> high = bound(2, "max", 3.4e38f);
        return low && high && *low == 0.0f && *high == 6.0f;
    }

    void fuseRelu6(GapLayer& layer, TensorId& current)
    {
        if (const auto next = soleConsumerOfType(current, {"Clip"}); next && isRelu6(graph_.node(*next))) {
            layer.relu = layer.relu6 = true;
            fuse(layer, *next);
            current = graph_.node(*next).outputs.at(0);
        }
    }

    void fuseRelu(GapLayer& layer, TensorId& current, bool& relu)
    {
        if (const auto next = soleConsumerOfType(current, {"Relu"})) {
            relu = true;
            fuse(layer, *next);
            current = graph_.node(*next).outputs.at(0);
        }
    }

    void lowerPool(NodeId id)
    {
        const Node& node = graph_.node(id);
        if (!poolFitsStandalone(node))
            throw NodeProblem("the pooling generator takes 2-D windows without dilation, and padding only when it is "
                              "the same on every side and smaller than the window; an AveragePool with padding or "
                              "ceil_mode must leave the padding out of the average (count_include_pad = 0)");
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        GapLayer& layer = addLayer(GapLayerKind::Pooling, node, {activation(node.inputs.at(0))});
        layer.pool.features = int(x.shape.at(1));
        layer.pool.height = int(x.shape.at(2));
        layer.pool.width = int(x.shape.at(3));
        setPooling(node, layer.pool.pool, layer.pool.poolWidth, layer.pool.poolHeight, layer.pool.strideX,
                   layer.pool.strideY);
        layer.pool.pad = int(node.attrInts("pads", {0, 0, 0, 0}).at(0));
        layer.pool.ceilMode = node.attrInt("ceil_mode", 0) != 0;
        TensorId current = node.outputs.at(0);
        fuseRelu(layer, current, layer.pool.relu);
        finishLayer(layer, current);
    }

    void lowerGlobalAveragePool(const Node& node)
    {
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        if (x.shape.size() != 4)
            throw NodeProblem("only NCHW inputs are supported");
        if (x.shape[2] * x.shape[3] > 65535)
            throw NodeProblem("planes of more than 65535 pixels exceed the global pooling generator");
        GapLayer& layer = addLayer(GapLayerKind::GlobalAveragePool, node, {activation(node.inputs.at(0))});
        layer.pool.features = int(x.shape[1]);
        layer.pool.height = int(x.shape[2]);
        layer.pool.width = int(x.shape[3]);
        finishLayer(layer, node.outputs.at(0));
    }

    // GlobalMaxPool: a pooling layer whose one window is the whole plane.
    void lowerGlobalMaxPool(const Node& node)
    {
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        if (x.shape.size() != 4)
            throw NodeProblem("only NCHW inputs are supported");
        GapLayer& layer = addLayer(GapLayerKind::Pooling, node, {activation(node.inputs.at(0))});
        layer.pool.features = int(x.shape[1]);
        layer.pool.height = layer.pool.poolHeight = int(x.shape[2]);
        layer.pool.width = layer.pool.poolWidth = int(x.shape[3]);
        layer.pool.pool = fixed_point::PoolReluParams::Pool::Max;
        TensorId current = node.outputs.at(0);
        fuseRelu(layer, current, layer.pool.relu);
        finishLayer(layer, current);
    }

    // ReduceMean / ReduceMax over H and W of an NCHW tensor, as PyTorch writes x.mean((2, 3)):
    // global average or max pooling. The axes come from the attribute (opset < 18) or the input.
    void lowerSpatialReduction(const Node& node)
    {
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        if (x.shape.size() != 4)
            throw NodeProblem("only the H and W axes of an NCHW input reduce as global pooling");
        std::vector<int64_t> axes = node.attrInts("axes", {});
        if (node.inputs.size() > 1 && node.inputs[1] != kNoTensor)
            axes = constantInput(node, 1, "axes").toInts();
        for (int64_t& axis : axes)
            if (axis < 0)
                axis += 4;
        std::sort(axes.begin(), axes.end());
        if (axes != std::vector<int64_t>{2, 3})
            throw NodeProblem(fmt::format("only a reduction over the axes H and W ([2, 3]) is global pooling; this one "
                                          "reduces [{}]",
                                          fmt::join(axes, ", ")));
        if (node.opType == "ReduceMax")
            return lowerGlobalMaxPool(node);
        lowerGlobalAveragePool(node);
    }

    void lowerLinear(NodeId id)
    {
        const Node& node = graph_.node(id);
        const bool gemm = node.opType == "Gemm";
        if (gemm && (node.attrInt("transA", 0) != 0 || node.attrFloat("alpha", 1.0f) != 1.0f ||
                     node.attrFloat("beta", 1.0f) != 1.0f))
            throw NodeProblem("only Gemm with transA = 0, alpha = 1 and beta = 1 maps onto a linear layer");
        const Tensor& a = graph_.tensor(node.inputs.at(0));
        if (a.shape.size() != 2 || a.shape[0] != 1)
            throw NodeProblem(fmt::format("the input has shape {}; a linear layer takes [1, N] (add a Flatten)",
                                          shapeToString(a.shape)));
        const TensorData& b = constantInput(node, 1, "weights");
        if (b.rank() != 2)
            throw NodeProblem("the weights must be a matrix");
        const bool transposed = gemm && node.attrInt("transB", 0) != 0;
        const int64_t inDim = a.shape[1];
        const int64_t outDim = transposed ? b.shape()[0] : b.shape()[1];
        GapLayer& layer = addLayer(GapLayerKind::Linear, node, {activation(node.inputs.at(0))});
        layer.inDim = int(inDim);
        layer.outDim = int(outDim);
        const std::vector<float> values = b.toFloats();
        layer.weights.resize(values.size());
        for (int64_t o = 0; o < outDim; ++o)
            for (int64_t i = 0; i < inDim; ++i)
                layer.weights[size_t(o * inDim + i)] =
                    transposed ? values[size_t(o * inDim + i)] : values[size_t(i * outDim + o)];
        layer.bias.assign(size_t(outDim), 0.0f);
        TensorId current = node.outputs.at(0);
        if (gemm && node.inputs.size() > 2 && node.inputs[2] != kNoTensor) {
            addBias(layer, constantInput(node, 2, "bias"));
        } else if (!gemm) {
            if (const auto add = soleConsumerOfType(current, {"Add"})) {
                const Node& addNode = graph_.node(*add);
                const TensorId other = addNode.inputs.at(1);
                if (graph_.tensor(other).isConstant()) {
                    addBias(layer, *graph_.tensor(other).constant);
                    fuse(layer, *add);
                    current = addNode.outputs.at(0);
                }
            }
        }
        layer.normalized = current;
        fuseRelu(layer, current, layer.relu);
        if (!layer.relu)
            fuseRelu6(layer, current);
        finishLayer(layer, current);
    }

    static void addBias(GapLayer& layer, const TensorData& bias)
    {
        const std::vector<float> values = bias.toFloats();
        if (values.size() == 1)
            for (float& b : layer.bias)
                b += values[0];
        else if (values.size() == layer.bias.size())
            for (size_t k = 0; k < values.size(); ++k)
                layer.bias[k] += values[k];
        else
            throw NodeProblem(fmt::format("the bias has {} values for {} outputs", values.size(), layer.bias.size()));
    }

    void lowerSoftmax(const Node& node)
    {
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        const int64_t rank = int64_t(x.shape.size());
        int64_t axis = node.attrInt("axis", -1);
        if (axis < 0)
            axis += rank;
        if (axis != rank - 1 || x.elements() != x.shape.back())
            throw NodeProblem("the softmax generator normalizes one vector; the input must be [1, N] with axis -1 or 1");
        GapLayer& layer = addLayer(GapLayerKind::Softmax, node, {activation(node.inputs.at(0))});
        finishLayer(layer, node.outputs.at(0));
    }

    void lowerAdd(NodeId id)
    {
        const Node& node = graph_.node(id);
        const Tensor& a = graph_.tensor(node.inputs.at(0));
        const Tensor& b = graph_.tensor(node.inputs.at(1));
        const bool subtract = node.opType == "Sub";
        if (a.isConstant() || b.isConstant())
            throw NodeProblem(subtract ? "a subtraction of a constant is not supported; fold it into the convolution "
                                         "bias before it, or into the input's preprocessing"
                                       : "an addition of a constant is a bias, which only a MatMul before it can take");
        if (a.shape != b.shape || a.shape.size() != 4)
            throw NodeProblem(fmt::format("the addition generator {} two NCHW tensors of the same shape, not {} and {}",
                                          subtract ? "subtracts" : "adds", shapeToString(a.shape),
                                          shapeToString(b.shape)));
        GapLayer& layer = addLayer(subtract ? GapLayerKind::Subtract : GapLayerKind::Add, node,
                                   {activation(node.inputs[0]), activation(node.inputs[1])});
        layer.pool.features = int(a.shape[1]);
        layer.pool.height = int(a.shape[2]);
        layer.pool.width = int(a.shape[3]);
        TensorId current = node.outputs.at(0);
        layer.normalized = current;
        fuseRelu(layer, current, layer.relu);
        finishLayer(layer, current);
    }

    // Concat along the channels of NCHW tensors (or of [1, N] vectors): a copy layer writing each
    // input after the channels of the ones before it, which CHW order keeps contiguous.
    void lowerConcat(const Node& node)
    {
        const Shape& first = graph_.tensor(node.inputs.at(0)).shape;
        const int64_t rank = int64_t(first.size());
        int64_t axis = node.attrInt("axis", 1);
        if (axis < 0)
            axis += rank;
        if ((rank != 4 && rank != 2) || axis != 1)
            throw NodeProblem(fmt::format("only a concatenation along the channels (axis 1) of NCHW tensors or [1, N] "
                                          "vectors maps onto a copy layer; this one joins axis {} of rank {} tensors",
                                          node.attrInt("axis", 1), rank));
        std::vector<int> inputs;
        std::vector<int> channels;
        for (TensorId input : node.inputs) {
            const Shape& shape = graph_.tensor(input).shape;
            Shape other = shape, expected = first;
            if (shape.size() == first.size())
                other[1] = expected[1] = 0;
            if (other != expected)
                throw NodeProblem(fmt::format("input '{}' has shape {}, which differs from {} outside the channels",
                                              graph_.tensor(input).name, shapeToString(shape), shapeToString(first)));
            inputs.push_back(activation(input));
            channels.push_back(int(shape[1]));
        }
        GapLayer& layer = addLayer(GapLayerKind::Concat, node, inputs);
        layer.plane = rank == 4 ? int(first[2] * first[3]) : 1;
        layer.channels = std::move(channels);
        finishLayer(layer, node.outputs.at(0));
    }

    // The Mul of x * f(x) when f's output feeds only that: x * sigmoid(x) is Swish (SiLU, as PyTorch
    // writes it), x * HardSigmoid(x) is HardSwish (as PyTorch writes it before opset 14).
    std::optional<NodeId> gatedProduct(const Node& gate) const
    {
        const TensorId output = gate.outputs.at(0);
        const std::optional<NodeId> mul = soleConsumer(output);
        if (!mul || graph_.node(*mul).opType != "Mul" || graph_.node(*mul).inputs.size() != 2)
            return std::nullopt;
        const Node& product = graph_.node(*mul);
        const TensorId other = product.inputs[0] == output ? product.inputs[1] : product.inputs[0];
        return other == gate.inputs.at(0) ? mul : std::nullopt;
    }

    // Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, PRelu with one slope, and the gated
    // products above: an activation layer.
    void lowerActivation(const Node& node)
    {
        using fixed_point::ActivationKind;
        const std::string& op = node.opType;
        ActivationKind kind = ActivationKind::LeakyRelu;
        double alpha = 0.0, beta = 0.0;
        std::optional<NodeId> multiply;
        if (op == "Sigmoid") {
            multiply = gatedProduct(node);
            kind = multiply ? ActivationKind::Swish : ActivationKind::Sigmoid;
        } else if (op == "Tanh") {
            kind = ActivationKind::Tanh;
        } else if (op == "HardSwish") {
            kind = ActivationKind::HardSwish;
            alpha = 1.0 / 6.0;
            beta = 0.5;
        } else if (op == "HardSigmoid") {
            alpha = node.attrFloat("alpha", 0.2f);
            beta = node.attrFloat("beta", 0.5f);
            if (!(alpha >= 1.0 / 256 && alpha <= 16.0) || !(std::fabs(beta / alpha) <= 256.0))
                throw NodeProblem(fmt::format("alpha {} and beta {} are outside what the fixed-point HardSigmoid takes "
                                              "(alpha 1/256 to 16, |beta / alpha| at most 256)",
                                              alpha, beta));
            multiply = gatedProduct(node);
            kind = multiply ? ActivationKind::HardSwish : ActivationKind::HardSigmoid;
        } else if (op == "LeakyRelu") {
            alpha = node.attrFloat("alpha", 0.01f);
        } else {
            const TensorData& slope = constantInput(node, 1, "slope");
            if (slope.elements() != 1)
                return lowerChannelPRelu(node, slope);
            alpha = slope.getDouble(0);
        }
        if (kind == ActivationKind::LeakyRelu && !(std::fabs(alpha) < 1.0))
            throw NodeProblem(fmt::format("a negative slope of {} is outside (-1, 1), what the fixed-point LeakyRelu "
                                          "takes",
                                          alpha));
        GapLayer& layer = addLayer(GapLayerKind::Activation, node, {activation(node.inputs.at(0))});
        layer.activation.kind = kind;
        layer.activationAlpha = alpha;
        layer.activationBeta = beta;
        TensorId output = node.outputs.at(0);
        if (multiply) {
            fuse(layer, *multiply);
            output = graph_.node(*multiply).outputs.at(0);
        }
        finishLayer(layer, output);
    }

    // Resize or Upsample of an NCHW tensor in nearest mode by whole factors along H and W, where
    // output position o copies input o / factor (PyTorch's Upsample(scale_factor=k, mode="nearest"),
    // and ONNX's half_pixel modes, which pick the same pixels): a nearest upsampling layer.
    void lowerResize(const Node& node)
    {
        const Tensor& x = graph_.tensor(node.inputs.at(0));
        if (x.shape.size() != 4)
            throw NodeProblem(fmt::format("the input has shape {}; the upsampling layer takes NCHW tensors",
                                          shapeToString(x.shape)));
        const ResizeInputs where = resizeInputs(node, graph_.opset);
        auto given = [&](int index) -> const TensorData* {
            if (index < 0 || size_t(index) >= node.inputs.size() || node.inputs[size_t(index)] == kNoTensor)
                return nullptr;
            return &constantInput(node, size_t(index), index == where.scales ? "scales" : "sizes");
        };
        const ResizeGeometry g = resizeGeometry(node, graph_.opset, x.shape, given(where.scales), given(where.sizes));
        if (g.mode != "nearest")
            throw NodeProblem("only nearest-mode resizing maps onto a GAP layer (the upsampling layer copies values); "
                              "mode '" + g.mode + "' would need interpolation");
        if (g.output[0] != x.shape[0] || g.output[1] != x.shape[1])
            throw NodeProblem("only H and W can be resized; the batch and channel scales must be 1");
        int factors[2] = {1, 1};
        for (size_t axis = 2; axis < 4; ++axis) {
            const int64_t in = x.shape[axis], out = g.output[axis];
            const int64_t factor = out / in;
            bool whole = out == factor * in && factor >= 1;
            for (int64_t o = 0; whole && o < out; ++o)
                whole = g.nearestIndex(axis, o) == o / factor;
            if (!whole)
                throw NodeProblem(fmt::format(
                    "{} from {} to {} is not an upsampling by a whole factor where position o copies o / factor "
                    "(coordinate_transformation_mode '{}', nearest_mode '{}'); use scale factors of 1, 2, 3, ... with "
                    "asymmetric coordinates and floor, or half_pixel coordinates, as PyTorch's nearest Upsample does",
                    axis == 2 ? "H" : "W", in, out, g.coordinateMode, g.nearestMode));
            factors[axis - 2] = int(factor);
        }
        GapLayer& layer = addLayer(GapLayerKind::Upsample, node, {activation(node.inputs.at(0))});
        layer.pool.features = int(x.shape[1]);
        layer.pool.height = int(x.shape[2]);
        layer.pool.width = int(x.shape[3]);
        layer.factorY = factors[0];
        layer.factorX = factors[1];
        finishLayer(layer, node.outputs.at(0));
    }

    // PRelu with one slope per channel (PyTorch's nn.PReLU(num_parameters=C), its slope [C, 1, 1]):
    // a per-channel PRelu layer, the slopes a constant of the layer.
    void lowerChannelPRelu(const Node& node, const TensorData& slope)
    {
        const Shape& x = graph_.tensor(node.inputs.at(0)).shape;
        Shape slopeShape = slope.shape();
        while (slopeShape.size() < x.size())
            slopeShape.insert(slopeShape.begin(), 1);
        if (x.size() != 4 || slopeShape != Shape{1, x[1], 1, 1})
            throw NodeProblem(fmt::format("PRelu with slopes of shape {} on an input of shape {} is not supported; "
                                          "one slope for every channel, or one per channel ([C, 1, 1], PyTorch's "
                                          "nn.PReLU(num_parameters=C)) on an NCHW input map onto GAP layers",
                                          shapeToString(slope.shape()), shapeToString(x)));
        GapLayer& layer = addLayer(GapLayerKind::ChannelPRelu, node, {activation(node.inputs.at(0))});
        layer.plane = int(x[2] * x[3]);
        layer.channels = {int(x[1])};
        layer.weights = slope.toFloats();
        finishLayer(layer, node.outputs.at(0));
    }

    // Mul of an NCHW activation by a per-channel [N, C, 1, 1] one (a squeeze-and-excitation block's
    // gate): a channel scaling layer.
    void lowerMul(const Node& node)
    {
        if (node.inputs.size() != 2)
            throw NodeProblem("a Mul takes two inputs");
        TensorId x = node.inputs[0], gate = node.inputs[1];
        auto perChannel = [&](TensorId t) {
            const Shape& shape = graph_.tensor(t).shape;
            return shape.size() == 4 && shape[2] == 1 && shape[3] == 1;
        };
        if (perChannel(x) && !perChannel(gate))
            std::swap(x, gate);
        const Shape& shape = graph_.tensor(x).shape;
        const Shape& gateShape = graph_.tensor(gate).shape;
        if (graph_.tensor(x).isConstant() || graph_.tensor(gate).isConstant())
            throw NodeProblem("a Mul by a constant is not supported; fold it into the convolution before it");
        if (shape.size() != 4 || gateShape.size() != 4 || gateShape[0] != shape[0] || gateShape[1] != shape[1] ||
            gateShape[2] != 1 || gateShape[3] != 1)
            throw NodeProblem(fmt::format("only a Mul of an NCHW tensor by one value per channel ([N, C, 1, 1], as in "
                                          "squeeze-and-excitation blocks) is supported; this one multiplies {} by {}",
                                          shapeToString(shape), shapeToString(gateShape)));
        GapLayer& layer = addLayer(GapLayerKind::ChannelScale, node, {activation(x), activation(gate)});
        layer.plane = int(shape[2] * shape[3]);
        layer.channels = {int(shape[1])};
        finishLayer(layer, node.outputs.at(0));
    }

    // Channels [begin, begin + count) of an NCHW activation into `output`: a copy layer.
    void addSlice(const Node& node, TensorId input, int64_t begin, TensorId output, const std::string& name)
    {
        const Shape& shape = graph_.tensor(input).shape;
        const int source = activation(input);
        GapLayer& layer = addLayer(GapLayerKind::Slice, node, {source});
        if (name != node.name)  // a Split's outputs after the first
            layer.name = uniqueLayerName(name);
        layer.plane = int(shape[2] * shape[3]);
        layer.channels = {int(shape[1])};
        layer.sliceBegin = int(begin);
        layer.sliceCount = int(graph_.tensor(output).shape.at(1));
        if (layer.sliceCount < 1 || begin + layer.sliceCount > shape[1])
            throw NodeProblem(fmt::format("channels {} to {} are not within the input's {}", begin,
                                          begin + layer.sliceCount - 1, shape[1]));
        finishLayer(layer, output);
    }

    static void requireChannelsOfNchw(const Shape& shape, int64_t axis, const char* what)
    {
        if (shape.size() != 4 || (axis != 1 && axis != -3))
            throw NodeProblem(fmt::format("only a {} along the channels (axis 1) of an NCHW tensor maps onto a copy "
                                          "layer; this one takes axis {} of a rank {} tensor",
                                          what, axis, shape.size()));
    }

    // Split along channels, as PyTorch writes x.chunk(n, 1) or x.split(sizes, 1): one copy layer
    // per output.
    void lowerSplit(const Node& node)
    {
        const Shape& shape = graph_.tensor(node.inputs.at(0)).shape;
        requireChannelsOfNchw(shape, node.attrInt("axis", 0), "Split");
        std::vector<int64_t> sizes = node.attrInts("split", {});
        if (node.inputs.size() > 1 && node.inputs[1] != kNoTensor)
            sizes = constantInput(node, 1, "split").toInts();
        if (sizes.empty())
            for (TensorId output : node.outputs)
                sizes.push_back(graph_.tensor(output).shape.at(1));
        int64_t begin = 0;
        for (size_t k = 0; k < node.outputs.size() && k < sizes.size(); ++k) {
            addSlice(node, node.inputs[0], begin, node.outputs[k], k == 0 ? node.name : node.name + "_" + std::to_string(k));
            begin += sizes[k];
        }
    }

    // Slice of the channels only, step 1 (starts/ends/axes as inputs, opset 10 and later).
    void lowerSlice(const Node& node)
    {
        const Shape& shape = graph_.tensor(node.inputs.at(0)).shape;
        if (node.inputs.size() < 3)
            throw NodeProblem("only Slice with starts and ends as inputs (opset 10 and later) is supported");
        const std::vector<int64_t> starts = constantInput(node, 1, "starts").toInts();
        std::vector<int64_t> axes(starts.size());
        for (size_t k = 0; k < axes.size(); ++k)
            axes[k] = int64_t(k);
        if (node.inputs.size() > 3 && node.inputs[3] != kNoTensor)
            axes = constantInput(node, 3, "axes").toInts();
        if (node.inputs.size() > 4 && node.inputs[4] != kNoTensor)
            for (int64_t step : constantInput(node, 4, "steps").toInts())
                if (step != 1)
                    throw NodeProblem("only a Slice of step 1 maps onto a copy layer");
        if (axes.size() != 1)
            throw NodeProblem("only a Slice of one axis, the channels, maps onto a copy layer");
        requireChannelsOfNchw(shape, axes[0], "Slice");
        int64_t begin = starts.at(0);
        if (begin < 0)
            begin += shape[1];
        begin = std::clamp<int64_t>(begin, 0, shape[1]);
        addSlice(node, node.inputs[0], begin, node.outputs.at(0), node.name);
    }

    // ShuffleNet's channel shuffle as PyTorch writes it: Reshape [1, C, H, W] to [1, g, C/g, H, W],
    // Transpose perm [0, 2, 1, 3, 4], Reshape back to [1, C, H, W]. Returns false (a plain view)
    // for any other Reshape.
    bool lowerChannelShuffle(const Node& reshape)
    {
        const Shape& in = graph_.tensor(reshape.inputs.at(0)).shape;
        const Shape& grouped = graph_.tensor(reshape.outputs.at(0)).shape;
        if (in.size() != 4 || grouped.size() != 5 || grouped[0] != in[0] || grouped[1] * grouped[2] != in[1] ||
            grouped[3] != in[2] || grouped[4] != in[3])
            return false;
        const auto transpose = soleConsumerOfType(reshape.outputs.at(0), {"Transpose"});
        if (!transpose || graph_.node(*transpose).attrInts("perm", {}) != std::vector<int64_t>{0, 2, 1, 3, 4})
            return false;
        const auto back = soleConsumerOfType(graph_.node(*transpose).outputs.at(0), {"Reshape"});
        if (!back || graph_.tensor(graph_.node(*back).outputs.at(0)).shape != in)
            return false;
        GapLayer& layer = addLayer(GapLayerKind::Shuffle, reshape, {activation(reshape.inputs.at(0))});
        layer.plane = int(in[2] * in[3]);
        layer.channels = {int(in[1])};
        layer.groups = int(grouped[1]);
        fuse(layer, *transpose);
        fuse(layer, *back);
        finishLayer(layer, graph_.node(*back).outputs.at(0));
        return true;
    }

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

void Lowering::foldBatchNormalization(GapLayer& layer, const Node& norm) const
{
    // y = scale * (x - mean) / sqrt(var + epsilon) + B, with x = W * in + b: each output channel's
    // filter and bias are multiplied by s = scale / sqrt(var + epsilon), then B - s * mean added.
    const std::vector<float> scale = constantInput(norm, 1, "scale").toFloats();
    const std::vector<float> shift = constantInput(norm, 2, "bias").toFloats();
    const std::vector<float> mean = constantInput(norm, 3, "mean").toFloats();
    const std::vector<float> variance = constantInput(norm, 4, "variance").toFloats();
    const size_t channels = layer.bias.size();
    if (scale.size() != channels || shift.size() != channels || mean.size() != channels || variance.size() != channels)
        throw NodeProblem(fmt::format("batch normalization '{}' has parameters for other than {} channels", norm.name,
                                      channels));
    const double epsilon = norm.attrFloat("epsilon", 1e-5f);
    const size_t perChannel = layer.weights.size() / channels;
    for (size_t c = 0; c < channels; ++c) {
        const double s = scale[c] / std::sqrt(double(variance[c]) + epsilon);
        for (size_t k = 0; k < perChannel; ++k)
            layer.weights[c * perChannel + k] = float(layer.weights[c * perChannel + k] * s);
        layer.bias[c] = float((layer.bias[c] - mean[c]) * s + shift[c]);
    }
}

}  // namespace

GapNetwork lowerForGap(const Graph& graph)
{
    return Lowering(graph).run();
}

}  // namespace tessera::gap
