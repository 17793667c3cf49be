// LeNet-5 (LeCun et al. 1998) with ReLU and average pooling: input 1x1x32x32, output 1x10 scores.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

namespace tessera::zoo {

Graph buildLenet5(const ZooOptions& options)
{
    GraphBuilder builder("lenet5", 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("image", DType::Float32, {1, 1, 32, 32});
    const ConvSpec c1{6, {5, 5}, 1, 1, false};
    const ConvSpec c3{16, {5, 5}, 1, 1, false};
    x = layers.relu(layers.conv(x, c1, "c1"), "c1_relu");
    x = layers.averagePool(x, {2, 2}, {2, 2}, "s2");
    x = layers.relu(layers.conv(x, c3, "c3"), "c3_relu");
    x = layers.averagePool(x, {2, 2}, {2, 2}, "s4");
    x = layers.flatten(x, "flatten");
    x = layers.relu(layers.dense(x, 120, "c5"), "c5_relu");
    x = layers.relu(layers.dense(x, 84, "f6"), "f6_relu");
    x = layers.dense(x, 10, "output");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
