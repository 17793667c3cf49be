// The RadioML 2018 modulation classifier: 1024 complex I/Q samples (2x1024), seven blocks of a
// 64-filter 1-D convolution (kernel 7, same padding) with ReLU and 2:1 max pooling, then dense
// layers 512 -> 128 (SELU) -> 128 (SELU) -> 24 modulation classes (softmax).
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildRadioml(const ZooOptions& options)
{
    GraphBuilder builder("radioml", 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("iq_samples", DType::Float32, {1, 2, 1024});
    for (int block = 0; block < 7; ++block) {
        const std::string conv = "conv1d_w" + std::to_string(2 * block + 1);
        const std::string pool = "max_pool1d_w" + std::to_string(2 * block + 2);
        x = layers.relu(layers.conv(x, {64, {7}}, conv), conv + "_relu");
        x = layers.maxPool(x, {2}, {2}, pool);
    }
    x = layers.flatten(x, "flatten_w15");
    x = builder.op("Selu", {layers.dense(x, 128, "dense_w16")}, {}, "dense_w16_selu");
    x = builder.op("Selu", {layers.dense(x, 128, "dense_w17")}, {}, "dense_w17_selu");
    x = layers.dense(x, 24, "dense_w18");
    x = builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "softmax");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
