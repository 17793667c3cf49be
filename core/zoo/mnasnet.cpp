// MnasNet 1.0 (Tan et al. 2019, torchvision's mnasnet1_0) in the operator patterns PyTorch's ONNX
// exporter writes with batch normalization folded: a 3x3/2 convolution, a depthwise-separable
// block, six stacks of inverted residual blocks (1x1 expansion with ReLU, 3x3 or 5x5 depthwise with
// ReLU, linear 1x1 projection, Add when the shape is kept), a 1x1 convolution to 1280 channels,
// the global pooling as PyTorch writes x.mean([2, 3]) (ReduceMean over H and W) and a Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildMnasnet10(const ZooOptions& options)
{
    GraphBuilder builder("mnasnet1_0_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    // Node names as torchvision's Sequential numbers them (batch norms folded away).
    auto layer = [](int index, const std::string& what) { return "/layers/layers." + std::to_string(index) + what; };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu(layers.conv(x, {32, {3, 3}, 2}, layer(0, "/Conv")), layer(2, "/Relu"));
    x = layers.relu(layers.conv(x, {32, {3, 3}, 1, 32}, layer(3, "/Conv")), layer(5, "/Relu"));
    x = layers.conv(x, {16, {1, 1}}, layer(6, "/Conv"));
    // (output channels, kernel, stride, expansion, repeats) of the six stacks.
    struct Stack {
        int64_t out, kernel, stride, expansion, repeats;
    };
    const Stack stacks[] = {{24, 3, 2, 3, 3}, {40, 5, 2, 3, 3},  {80, 5, 2, 6, 3},
                            {96, 3, 1, 6, 2}, {192, 5, 2, 6, 4}, {320, 3, 1, 6, 1}};
    int index = 8;
    for (const Stack& stack : stacks) {
        for (int64_t repeat = 0; repeat < stack.repeats; ++repeat) {
            const std::string prefix = layer(index, "/layers." + std::to_string(index) + "." + std::to_string(repeat));
            const int64_t in = builder.tensor(x).shape.at(1);
            const int64_t stride = repeat == 0 ? stack.stride : 1;
            const int64_t mid = in * stack.expansion;
            TensorId y = layers.relu(layers.conv(x, {mid, {1, 1}}, prefix + "/layers/layers.0/Conv"),
                                     prefix + "/layers/layers.2/Relu");
            y = layers.relu(layers.conv(y, {mid, {stack.kernel, stack.kernel}, stride, mid}, prefix + "/layers/layers.3/Conv"),
                            prefix + "/layers/layers.5/Relu");
            y = layers.conv(y, {stack.out, {1, 1}}, prefix + "/layers/layers.6/Conv");
            x = in == stack.out && stride == 1 ? builder.op("Add", {y, x}, {}, prefix + "/Add") : y;
        }
        ++index;
    }
    x = layers.relu(layers.conv(x, {1280, {1, 1}}, layer(14, "/Conv")), layer(16, "/Relu"));
    x = builder.op("ReduceMean", {x}, {{"axes", Attribute::ofInts({2, 3})}, {"keepdims", Attribute::ofInt(0)}},
                   "/ReduceMean");
    x = layers.dense(x, 1000, "/classifier/classifier.1/Gemm");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
