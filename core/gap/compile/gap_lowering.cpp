// The lowering pass (see gap_lowering_pass.h): tensors, layers and fusion bookkeeping, and the
// dispatch of each node to its operator family.
#include "gap/compile/gap_lowering.h"

#include "gap/compile/gap_lowering_pass.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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

namespace lowering {

GapNetwork Lowering::run()
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

bool Lowering::isNetworkInput(int tensor) const
{
    for (int input : network_.inputs)
        if (input == tensor)
            return true;
    return false;
}

int Lowering::newTensor(TensorId source, const std::string& name)
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
int Lowering::activation(TensorId tensor) const
{
    const int index = gapTensorOf_[size_t(tensor)];
    if (index >= 0)
        return index;
    if (graph_.tensor(tensor).isConstant())
        throw NodeProblem(fmt::format("input '{}' is a constant where the generators expect an activation",
                                      graph_.tensor(tensor).name));
    throw NodeProblem(fmt::format("input '{}' comes from a node that was not lowered", graph_.tensor(tensor).name));
}

const TensorData& Lowering::constantInput(const Node& node, size_t index, const char* role) const
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
std::optional<NodeId> Lowering::soleConsumer(TensorId tensor) const
{
    const auto& consumers = uses_.consumers[size_t(tensor)];
    if (consumers.size() != 1)
        return std::nullopt;
    for (TensorId output : graph_.outputs)
        if (output == tensor)
            return std::nullopt;
    return consumers.front();
}

std::optional<NodeId> Lowering::soleConsumerOfType(TensorId tensor, std::initializer_list<const char*> types) const
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

std::string Lowering::uniqueLayerName(const std::string& base)
{
    std::string name = cIdentifier(base);
    std::string candidate = name;
    for (int suffix = 2; !layerNames_.insert(candidate).second; ++suffix)
        candidate = name + "_" + std::to_string(suffix);
    return candidate;
}

GapLayer& Lowering::addLayer(GapLayerKind kind, const Node& first, std::vector<int> inputs)
{
    GapLayer layer;
    layer.kind = kind;
    layer.name = uniqueLayerName(first.name.empty() ? first.opType : first.name);
    layer.nodes.push_back(first.name);
    layer.inputs = std::move(inputs);
    network_.layers.push_back(std::move(layer));
    return network_.layers.back();
}

void Lowering::finishLayer(GapLayer& layer, TensorId output)
{
    layer.output = newTensor(output, layer.name + "_Out");
}

void Lowering::fuse(GapLayer& layer, NodeId id)
{
    fused_[size_t(id)] = true;
    layer.nodes.push_back(graph_.node(id).name);
}

void Lowering::lowerNode(NodeId id)
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
                      "GlobalAveragePool, GlobalMaxPool, ReduceMean and ReduceMax over H and W, Gemm, MatMul, Add, "
                      "Sub, Concat along C, H or W, Split and Slice along channels, the Reshape-Transpose-Reshape "
                      "channel shuffle, Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, PRelu with one slope or "
                      "one per channel, Mul by one value per channel, Resize and Upsample in nearest mode by whole "
                      "factors, Softmax, Pad, Flatten, Reshape, Identity, Dropout)");
}

void Lowering::lowerView(const Node& node)
{
    gapTensorOf_[size_t(node.outputs.at(0))] = activation(node.inputs.at(0));
}

}  // namespace lowering

GapNetwork lowerForGap(const Graph& graph)
{
    return lowering::Lowering(graph).run();
}

}  // namespace tessera::gap
