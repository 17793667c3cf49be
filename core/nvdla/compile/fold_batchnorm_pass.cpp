// fold-batchnorm: y = scale * (conv(x) - mean) / sqrt(var + eps) + B becomes a convolution with
// weights scaled per output channel and the bias shifted, when the BatchNormalization is the
// convolution's only reader and its parameters are constants.
#include "nvdla/compile/legalization_passes.h"

#include <cmath>

namespace tessera::nvdla {

void foldBatchNormPass(Graph& graph, const target::NvdlaConfig&, LegalizationLog& log)
{
    std::vector<bool> remove(graph.nodeCount(), false);
    for (std::size_t n = 0; n < graph.nodeCount(); ++n) {
        const Node norm = graph.node(NodeId(n));
        if (norm.opType != "BatchNormalization" || norm.inputs.size() < 5 || norm.outputs.size() != 1)
            continue;
        const auto conv = producerOf(graph, norm.inputs[0]);
        if (!conv || graph.node(*conv).opType != "Conv" || soleConsumer(graph, norm.inputs[0]) != NodeId(n))
            continue;
        bool constant = true;
        for (int k = 1; k < 5; ++k)
            constant = constant && norm.inputs[std::size_t(k)] != kNoTensor && graph.tensor(norm.inputs[std::size_t(k)]).isConstant();
        Node& convolution = graph.node(*conv);
        const TensorId weightId = convolution.inputs.at(1);
        if (!constant || !graph.tensor(weightId).isConstant())
            continue;
        const std::vector<double> scale = graph.tensor(norm.inputs[1]).constant->toDoubles();
        const std::vector<double> shift = graph.tensor(norm.inputs[2]).constant->toDoubles();
        const std::vector<double> mean = graph.tensor(norm.inputs[3]).constant->toDoubles();
        const std::vector<double> variance = graph.tensor(norm.inputs[4]).constant->toDoubles();
        const double epsilon = norm.attrFloat("epsilon", 1e-5f);
        TensorData weights = *graph.tensor(weightId).constant;
        const std::size_t kernels = std::size_t(weights.shape().at(0));
        if (scale.size() != kernels || shift.size() != kernels || mean.size() != kernels || variance.size() != kernels)
            continue;
        const std::size_t perKernel = std::size_t(weights.elements()) / kernels;
        std::vector<double> bias(kernels, 0.0);
        if (convolution.inputs.size() > 2 && convolution.inputs[2] != kNoTensor) {
            if (!graph.tensor(convolution.inputs[2]).isConstant())
                continue;
            bias = graph.tensor(convolution.inputs[2]).constant->toDoubles();
        }
        for (std::size_t k = 0; k < kernels; ++k) {
            const double factor = scale[k] / std::sqrt(variance[k] + epsilon);
            for (std::size_t i = 0; i < perKernel; ++i)
                weights.setDouble(std::int64_t(k * perKernel + i), weights.getDouble(std::int64_t(k * perKernel + i)) * factor);
            bias[k] = (bias[k] - mean[k]) * factor + shift[k];
        }
        const TensorId newWeights = addConstant(graph, convolution.name + "_folded_weight", std::move(weights));
        const TensorId newBias = addConstant(graph, convolution.name + "_folded_bias",
                                             TensorData::fromDoubles(graph.tensor(weightId).dtype, {std::int64_t(kernels)}, bias));
        Node& folded = graph.node(*conv);
        folded.inputs.resize(3);
        folded.inputs[1] = newWeights;
        folded.inputs[2] = newBias;
        takeOverOutput(graph, *conv, norm.inputs[0], norm.outputs[0]);
        remove[n] = true;
        log.add("fold-batchnorm", folded.name, "folded BatchNormalization '" + norm.name + "' into the weights and bias");
        log.addRemoved("fold-batchnorm", norm.name, folded.name, "folded into Conv '" + folded.name + "'");
    }
    graph.removeNodes(remove);
}

}  // namespace tessera::nvdla
