#pragma once
// Layer helpers for the zoo networks: each adds the node and its seeded weights to a GraphBuilder.
#include "ir/builder.h"

#include <cstdint>
#include <random>
#include <string>

namespace tessera::zoo {

struct ConvSpec {
    int64_t outChannels = 0;
    std::vector<int64_t> kernel;  // one entry per spatial dimension
    int64_t stride = 1;
    int64_t group = 1;
    bool samePadding = true;      // explicit symmetric pads of kernel/2
};

class LayerBuilder {
public:
    LayerBuilder(GraphBuilder& builder, uint32_t seed) : builder_(builder), random_(seed) {}

    // Conv with bias (batch normalization folded in, as deployed models have it).
    TensorId conv(TensorId x, const ConvSpec& spec, const std::string& name);
    // Gemm with transposed weights [out, in] and bias, on a [batch, in] input.
    TensorId dense(TensorId x, int64_t outFeatures, const std::string& name);
    TensorId relu(TensorId x, const std::string& name) { return builder_.op("Relu", {x}, {}, name); }
    // ReLU6 as Clip(x, 0, 6) with min/max inputs (opset 11 and later).
    TensorId relu6(TensorId x, const std::string& name);
    TensorId maxPool(TensorId x, std::vector<int64_t> kernel, std::vector<int64_t> strides, const std::string& name);
    TensorId averagePool(TensorId x, std::vector<int64_t> kernel, std::vector<int64_t> strides, const std::string& name);
    TensorId flatten(TensorId x, const std::string& name);
    TensorId globalAveragePool(TensorId x, const std::string& name)
    {
        return builder_.op("GlobalAveragePool", {x}, {}, name);
    }
    // HardSigmoid with PyTorch's alpha 1/6 (beta 0.5).
    TensorId hardSigmoid(TensorId x, const std::string& name);
    // Hardswish and SiLU as PyTorch's exporter writes them before opset 14: x * HardSigmoid(x) and
    // x * Sigmoid(x), the Mul named name + "_mul".
    TensorId hardSwish(TensorId x, const std::string& name) { return builder_.op("Mul", {x, hardSigmoid(x, name)}, {}, name + "_mul"); }
    TensorId silu(TensorId x, const std::string& name)
    {
        return builder_.op("Mul", {x, builder_.op("Sigmoid", {x}, {}, name)}, {}, name + "_mul");
    }

    GraphBuilder& builder() { return builder_; }

private:
    // Uniform weights scaled to fanIn (He initialisation), so activations stay in range.
    TensorData weights(const Shape& shape, int64_t fanIn);

    GraphBuilder& builder_;
    std::mt19937 random_;
};

} // namespace tessera::zoo
