// The ONNX model zoo's MNIST classifier (mnist-8): two 5x5 convolutions with ReLU and max pooling,
// then one fully connected layer; input 1x1x28x28, output 1x10 scores.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

namespace tessera::zoo {

Graph buildMnist(const ZooOptions& options)
{
    GraphBuilder builder("mnist", 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("Input3", DType::Float32, {1, 1, 28, 28});
    x = layers.relu(layers.conv(x, {8, {5, 5}}, "Convolution28"), "ReLU32");
    x = layers.maxPool(x, {2, 2}, {2, 2}, "Pooling66");
    x = layers.relu(layers.conv(x, {16, {5, 5}}, "Convolution110"), "ReLU114");
    x = layers.maxPool(x, {3, 3}, {3, 3}, "Pooling160");
    const TensorId shape = builder.constant("Pooling160_Output_0_reshape0_shape",
                                            TensorData::fromInts(DType::Int64, {2}, {1, 256}));
    x = builder.op("Reshape", {x, shape}, {}, "Times212_reshape0");
    x = layers.dense(x, 10, "Plus214");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
