#include "nvdla/compile/legalization.h"

#include "base/error.h"
#include "ir/shape_inference.h"
#include "ir/topology.h"
#include "ir/verifier.h"
#include "nvdla/compile/legalization_passes.h"

#include <fmt/format.h>

namespace tessera::nvdla {

std::vector<const PassRecord*> LegalizationLog::of(const std::string& node) const
{
    std::vector<const PassRecord*> found;
    for (const PassRecord& record : records)
        if (record.node == node)
            found.push_back(&record);
    return found;
}

const std::vector<LegalizationPass>& legalizationPasses()
{
    static const std::vector<LegalizationPass> passes = {
        {"explicit-padding", "auto_pad of convolutions and pooling resolved into explicit pads", explicitPaddingPass},
        {"fold-pad", "a zero Pad over H,W folded into the convolution or average pooling after it", foldPadPass},
        {"exclude-pad-count", "average pooling that leaves the padding out of its count as pooling over the whole "
                              "window and a multiply of the border",
         excludePadCountPass},
        {"fold-batchnorm", "BatchNormalization after a convolution folded into its weights and bias", foldBatchNormPass},
        {"gemm-to-conv", "Gemm and MatMul with a constant operand as a convolution over the whole input cube",
         gemmToConvPass},
        {"global-pool", "GlobalAveragePool, GlobalMaxPool and ReduceMean/ReduceMax over H,W as pooling, split "
                        "into windows of at most 8",
         globalPoolPass},
        {"depth-to-space-order", "DepthToSpace in CRD order made DCR (what RUBIK's contract reads) by reordering the "
                                 "output channels of the convolution before it",
         depthToSpaceOrderPass},
        {"split-input-channels", "a convolution whose one kernel group and kernel height of input lines do not fit "
                                 "the CBUF as convolutions over slices of its input channels, their results added",
         splitInputChannelsPass},
        {"channel-shuffle", "Reshape, Transpose, Reshape that shuffle the channels as one Gather of the channels",
         channelShufflePass},
        {"views", "Flatten, Reshape, Squeeze, Unsqueeze, Identity and Dropout that keep the cube removed",
         removeViewsPass},
        {"fuse-activation", "ReLU and Clip after a convolution or an element-wise operation done by its SDP",
         fuseActivationPass},
    };
    return passes;
}

const LegalizationPass* findLegalizationPass(const std::string& name)
{
    for (const LegalizationPass& pass : legalizationPasses())
        if (name == pass.name)
            return &pass;
    return nullptr;
}

void legalize(Graph& graph, const target::NvdlaConfig& config, LegalizationLog& log, const std::string& stopAfter,
              const std::string& startAfter)
{
    for (const std::string& name : {stopAfter, startAfter})
        if (!name.empty() && !findLegalizationPass(name)) {
            std::string names;
            for (const LegalizationPass& pass : legalizationPasses())
                names += (names.empty() ? "" : ", ") + std::string(pass.name);
            throw Error(fmt::format("unknown NVDLA pass '{}'; the passes are {}", name, names));
        }
    bool started = startAfter.empty();
    for (const LegalizationPass& pass : legalizationPasses()) {
        if (!started) {
            started = startAfter == pass.name;
            continue;
        }
        pass.run(graph, config, log);
        inferShapes(graph);
        requireValidGraph(graph);
        if (stopAfter == pass.name)
            break;
    }
}

std::optional<Cube> cubeOf(const Shape& shape)
{
    switch (shape.size()) {
    case 4:
        if (shape[0] == 1)
            return Cube{shape[1], shape[2], shape[3]};
        break;
    case 3:
        if (shape[0] == 1)
            return Cube{shape[1], 1, shape[2]};
        break;
    case 2:
        if (shape[0] == 1)
            return Cube{shape[1], 1, 1};
        break;
    case 1:
        return Cube{shape[0], 1, 1};
    default:
        break;
    }
    return std::nullopt;
}

namespace {
std::string attributeText(const Attribute& attribute)
{
    switch (attribute.kind) {
    case Attribute::Kind::Int: return std::to_string(attribute.i);
    case Attribute::Kind::Float: return fmt::format("{:g}", attribute.f);
    case Attribute::Kind::String: return "\"" + attribute.s + "\"";
    case Attribute::Kind::Ints: return fmt::format("[{}]", fmt::join(attribute.ints, ","));
    case Attribute::Kind::Floats: return fmt::format("[{}]", fmt::join(attribute.floats, ","));
    default: return "...";
    }
}
}  // namespace

std::string dumpGraph(const Graph& graph)
{
    std::string text = fmt::format("graph {}: {} nodes\n", graph.name, graph.nodeCount());
    auto tensorText = [&](TensorId id) {
        if (id == kNoTensor)
            return std::string("-");
        const Tensor& tensor = graph.tensor(id);
        return fmt::format("{}{}[{}]", tensor.isConstant() ? "const " : "", tensor.name, fmt::join(tensor.shape, "x"));
    };
    for (TensorId id : graph.inputs)
        text += "input " + tensorText(id) + "\n";
    for (NodeId id : topologicalOrder(graph)) {
        const Node& node = graph.node(id);
        std::vector<std::string> inputs, outputs, attributes;
        for (TensorId input : node.inputs)
            inputs.push_back(tensorText(input));
        for (TensorId output : node.outputs)
            outputs.push_back(tensorText(output));
        for (const auto& [key, value] : node.attributes)
            attributes.push_back(key + "=" + attributeText(value));
        text += fmt::format("{} = {} '{}' ({}){}\n", fmt::join(outputs, ", "), node.opType, node.name,
                            fmt::join(inputs, ", "),
                            attributes.empty() ? "" : " {" + fmt::format("{}", fmt::join(attributes, " ")) + "}");
    }
    for (TensorId id : graph.outputs)
        text += "output " + tensorText(id) + "\n";
    return text;
}

}  // namespace tessera::nvdla
