// The MNIST classifier of the GAP Autotiler guide: 5x5 convolution 1->32 with ReLU and 2x2 max
// pooling, 5x5 convolution 32->64 with ReLU and 2x2 max pooling, a linear layer 1024->10 and a
// softmax; input 1x1x28x28, output 1x10 class probabilities.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

namespace tessera::zoo {

Graph buildMnist(const ZooOptions& options)
{
    GraphBuilder builder("mnist", 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("input", DType::Float32, {1, 1, 28, 28});
    // Valid convolutions as in the guide: 28 -> 24 -> 12 -> 8 -> 4.
    x = layers.relu(layers.conv(x, {32, {5, 5}, 1, 1, false}, "conv5x5_0"), "relu_0");
    x = layers.maxPool(x, {2, 2}, {2, 2}, "maxpool2x2_0");
    x = layers.relu(layers.conv(x, {64, {5, 5}, 1, 1, false}, "conv5x5_1"), "relu_1");
    x = layers.maxPool(x, {2, 2}, {2, 2}, "maxpool2x2_1");
    x = layers.flatten(x, "flatten");
    x = layers.dense(x, 10, "linear");
    x = builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "softmax");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
