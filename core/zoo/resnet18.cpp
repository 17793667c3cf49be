// ResNet-18 (He et al. 2015, torchvision's resnet18) in the operator patterns PyTorch's ONNX
// exporter writes with batch normalization folded: a 7x7/2 convolution, ReLU and 3x3/2 max pooling
// padded by 1, four stages of two basic blocks (3x3 convolutions, a 1x1/2 downsampling convolution
// on the shortcut where the shape changes, Add then ReLU), global average pooling, Flatten, Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildResnet18(const ZooOptions& options)
{
    GraphBuilder builder("resnet18_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu(layers.conv(x, {64, {7, 7}, 2}, "/conv1/Conv"), "/relu/Relu");
    x = builder.op("MaxPool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})},
                    {"strides", Attribute::ofInts({2, 2})},
                    {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                   "/maxpool/MaxPool");
    int64_t channels = 64;
    for (int stage = 1; stage <= 4; ++stage) {
        const int64_t width = int64_t(64) << (stage - 1);
        for (int block = 0; block < 2; ++block) {
            const std::string prefix = "/layer" + std::to_string(stage) + "/layer" + std::to_string(stage) + "." +
                                       std::to_string(block);
            const int64_t stride = stage > 1 && block == 0 ? 2 : 1;
            TensorId y = layers.relu(layers.conv(x, {width, {3, 3}, stride}, prefix + "/conv1/Conv"),
                                     prefix + "/relu/Relu");
            y = layers.conv(y, {width, {3, 3}}, prefix + "/conv2/Conv");
            TensorId shortcut = x;
            if (stride != 1 || channels != width)
                shortcut = layers.conv(x, {width, {1, 1}, stride}, prefix + "/downsample/downsample.0/Conv");
            x = layers.relu(builder.op("Add", {y, shortcut}, {}, prefix + "/Add"), prefix + "/relu_1/Relu");
            channels = width;
        }
    }
    x = builder.op("GlobalAveragePool", {x}, {}, "/avgpool/GlobalAveragePool");
    x = layers.flatten(x, "/Flatten");
    x = layers.dense(x, 1000, "/fc/Gemm");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
