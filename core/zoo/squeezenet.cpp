// SqueezeNet 1.1 (Iandola et al. 2016, torchvision's squeezenet1_1) in the operator patterns
// PyTorch's ONNX exporter writes: a 3x3/2 convolution, max pooling 3x3/2 in ceil mode, eight fire
// modules (a 1x1 squeeze, then 1x1 and 3x3 expands joined by Concat along the channels) with two
// more ceil-mode poolings, a 1x1 classifier convolution with ReLU and global average pooling.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildSqueezenet11(const ZooOptions& options)
{
    GraphBuilder builder("squeezenet1_1_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    auto ceilPool = [&](TensorId x, const std::string& name) {
        return builder.op("MaxPool", {x},
                          {{"kernel_shape", Attribute::ofInts({3, 3})},
                           {"strides", Attribute::ofInts({2, 2})},
                           {"pads", Attribute::ofInts({0, 0, 0, 0})},
                           {"ceil_mode", Attribute::ofInt(1)}},
                          name);
    };
    auto fire = [&](TensorId x, int index, int64_t squeeze, int64_t expand) {
        const std::string prefix = "/features/features." + std::to_string(index);
        TensorId s = layers.relu(layers.conv(x, {squeeze, {1, 1}}, prefix + "/squeeze/Conv"),
                                 prefix + "/squeeze_activation/Relu");
        TensorId e1 = layers.relu(layers.conv(s, {expand, {1, 1}}, prefix + "/expand1x1/Conv"),
                                  prefix + "/expand1x1_activation/Relu");
        TensorId e3 = layers.relu(layers.conv(s, {expand, {3, 3}}, prefix + "/expand3x3/Conv"),
                                  prefix + "/expand3x3_activation/Relu");
        return builder.op("Concat", {e1, e3}, {{"axis", Attribute::ofInt(1)}}, prefix + "/Concat");
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu(layers.conv(x, {64, {3, 3}, 2, 1, false}, "/features/features.0/Conv"),
                    "/features/features.1/Relu");
    x = ceilPool(x, "/features/features.2/MaxPool");
    x = fire(x, 3, 16, 64);
    x = fire(x, 4, 16, 64);
    x = ceilPool(x, "/features/features.5/MaxPool");
    x = fire(x, 6, 32, 128);
    x = fire(x, 7, 32, 128);
    x = ceilPool(x, "/features/features.8/MaxPool");
    x = fire(x, 9, 48, 192);
    x = fire(x, 10, 48, 192);
    x = fire(x, 11, 64, 256);
    x = fire(x, 12, 64, 256);
    x = layers.relu(layers.conv(x, {1000, {1, 1}}, "/classifier/classifier.1/Conv"), "/classifier/classifier.2/Relu");
    x = builder.op("GlobalAveragePool", {x}, {}, "/classifier/classifier.3/GlobalAveragePool");
    x = layers.flatten(x, "/Flatten");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
