// gemm-to-conv: a fully connected layer is a convolution whose kernel covers the whole input cube.
// Gemm(A, B, C) (transA 0, constant B and C; alpha and beta folded into them) and MatMul(A, B) with
// a constant B become Conv over the cube A came from: over X directly when A = Flatten(X) or a
// Reshape of X to [1, C*H*W] (kernel C x H x W, as NVIDIA's compiler maps InnerProduct), else over A
// as a cube of F channels (kernel 1 x 1). A Reshape back to the layer's [1, K] output follows; it
// is a view of the [1, K, 1, 1] result.
#include "nvdla/compile/legalization_passes.h"

#include "ir/topology.h"

#include <fmt/format.h>

#include <algorithm>

namespace tessera::nvdla {

namespace {

// The 4-D [1,C,H,W] tensor a [1,F] tensor is a flattening of, when it is one.
std::optional<TensorId> flattenedFrom(const Graph& graph, TensorId flat)
{
    const auto producer = producerOf(graph, flat);
    if (!producer)
        return std::nullopt;
    const Node& node = graph.node(*producer);
    if ((node.opType != "Flatten" && node.opType != "Reshape") || node.inputs.empty())
        return std::nullopt;
    const Tensor& source = graph.tensor(node.inputs[0]);
    if (source.shape.size() != 4 || source.shape[0] != 1)
        return std::nullopt;
    if (node.opType == "Flatten" && node.attrInt("axis", 1) != 1)
        return std::nullopt;
    return node.inputs[0];
}

}  // namespace

void gemmToConvPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    // Nodes added below lie past `remove`'s end and so are kept.
    std::vector<bool> remove(graph.nodeCount(), false);
    const std::size_t originalCount = graph.nodeCount();
    for (std::size_t n = 0; n < originalCount; ++n) {
        const Node layer = graph.node(NodeId(n));
        const bool gemm = layer.opType == "Gemm", matmul = layer.opType == "MatMul";
        if ((!gemm && !matmul) || layer.inputs.size() < 2 || layer.outputs.size() != 1)
            continue;
        const Tensor& a = graph.tensor(layer.inputs[0]);
        const Tensor& b = graph.tensor(layer.inputs[1]);
        if (!b.isConstant() || b.shape.size() != 2 || a.shape.size() != 2 || a.shape[0] != 1)
            continue;
        if (gemm && layer.attrInt("transA", 0) != 0)
            continue;
        const bool transB = gemm && layer.attrInt("transB", 0) != 0;
        const std::int64_t features = a.shape[1];
        const std::int64_t kernels = transB ? b.shape[0] : b.shape[1];
        if ((transB ? b.shape[1] : b.shape[0]) != features)
            continue;
        const double alpha = gemm ? layer.attrFloat("alpha", 1.0f) : 1.0, beta = gemm ? layer.attrFloat("beta", 1.0f) : 1.0;
        std::vector<double> bias(std::size_t(kernels), 0.0);
        if (gemm && layer.inputs.size() > 2 && layer.inputs[2] != kNoTensor) {
            const Tensor& c = graph.tensor(layer.inputs[2]);
            if (!c.isConstant() || c.elements() != kernels)
                continue;  // a bias broadcast over rows or computed at run time stays a Gemm
            bias = c.constant->toDoubles();
            for (double& value : bias)
                value *= beta;
        }
        // The cube the convolution reads, and its kernel shape.
        TensorId source = layer.inputs[0];
        Shape kernel = {kernels, features, 1, 1};
        bool overFlattenedCube = false;
        if (const auto cube = flattenedFrom(graph, layer.inputs[0])) {
            const Shape& shape = graph.tensor(*cube).shape;
            if (shape[1] * shape[2] * shape[3] == features) {
                source = *cube;
                kernel = {kernels, shape[1], shape[2], shape[3]};
                overFlattenedCube = true;
            }
        }
        const std::vector<double> matrix = b.constant->toDoubles();
        std::vector<double> weights(std::size_t(kernels * features));
        for (std::int64_t k = 0; k < kernels; ++k)
            for (std::int64_t f = 0; f < features; ++f)
                weights[std::size_t(k * features + f)] =
                    alpha * matrix[std::size_t(transB ? k * features + f : f * kernels + k)];
        const DType type = b.dtype;
        const TensorId weightId = addConstant(graph, layer.name + "_conv_weight", TensorData::fromDoubles(type, kernel, weights));
        const TensorId biasId = addConstant(graph, layer.name + "_conv_bias", TensorData::fromDoubles(type, {kernels}, bias));
        if (source == layer.inputs[0])  // a [1,F] input: reshaped to the [1,F,1,1] cube it already is
            source = addReshape(graph, layer.name + "_cube", layer.inputs[0], {1, features, 1, 1});
        const TensorId convolvedId = addTensor(graph, layer.name + "_conv");
        Node conv;
        conv.name = layer.name;
        conv.opType = "Conv";
        conv.inputs = {source, weightId, biasId};
        conv.outputs = {convolvedId};
        conv.attributes["kernel_shape"] = Attribute::ofInts({kernel[2], kernel[3]});
        graph.addNode(conv);
        addReshape(graph, layer.name + "_output", convolvedId, {1, kernels}, layer.outputs[0]);
        remove[n] = true;
        log.add("gemm-to-conv", layer.name,
                fmt::format("{} as a {}x{}x{} convolution with {} kernels{}", layer.opType, kernel[1], kernel[2],
                            kernel[3], kernels, overFlattenedCube ? " over the cube its input flattens" : ""));
    }
    graph.removeNodes(remove);
    // Flattens left without a reader go with the layer that read them.
    const TensorUses uses = computeUses(graph);
    std::vector<bool> unused(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node& node = graph.node(NodeId(n));
        const TensorId output = node.outputs.empty() ? kNoTensor : node.outputs[0];
        unused[n] = (node.opType == "Flatten" || node.opType == "Reshape") && node.outputs.size() == 1 &&
                    uses.consumers[std::size_t(output)].empty() &&
                    std::find(graph.outputs.begin(), graph.outputs.end(), output) == graph.outputs.end();
        if (unused[n])
            log.addRemoved("gemm-to-conv", node.name, {},
                           node.opType + " removed: the convolution reads the cube it flattened");
    }
    graph.removeNodes(unused);
}

}  // namespace tessera::nvdla
