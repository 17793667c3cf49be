// MobileNet v2 1.0 (Sandler et al. 2018, torchvision's mobilenet_v2) in the operator patterns PyTorch's
// ONNX exporter writes with batch normalization folded: a 3x3/2 convolution with ReLU6 (Clip with
// min/max inputs), seventeen inverted residual blocks (1x1 expansion with ReLU6 unless the expansion
// is 1, 3x3 depthwise with ReLU6, linear 1x1 projection, Add of the block input when the shape is
// kept), a 1x1 convolution to 1280 channels with ReLU6, GlobalAveragePool, Flatten and a Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildMobilenetV2(const ZooOptions& options)
{
    GraphBuilder builder("mobilenet_v2_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    // Node names as torchvision's Sequential numbers them (batch norms folded away).
    auto feature = [](int index) { return "/features/features." + std::to_string(index); };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu6(layers.conv(x, {32, {3, 3}, 2}, feature(0) + "/features.0.0/Conv"),
                     feature(0) + "/features.0.2/Clip");
    // (expansion, output channels, repeats, stride of the first block) of the seven stages.
    struct Stage {
        int64_t expansion, out, repeats, stride;
    };
    const Stage stages[] = {{1, 16, 1, 1},  {6, 24, 2, 2},  {6, 32, 3, 2},  {6, 64, 4, 2},
                            {6, 96, 3, 1},  {6, 160, 3, 2}, {6, 320, 1, 1}};
    int index = 1;
    for (const Stage& stage : stages) {
        for (int64_t repeat = 0; repeat < stage.repeats; ++repeat, ++index) {
            const std::string prefix = feature(index) + "/conv";
            const int64_t in = builder.tensor(x).shape.at(1);
            const int64_t stride = repeat == 0 ? stage.stride : 1;
            const int64_t mid = in * stage.expansion;
            // torchvision numbers the sub-layers conv.0, conv.1, ... with the expansion first if any.
            int part = 0;
            auto convRelu6 = [&](TensorId y, const ConvSpec& spec) {
                const std::string sub = prefix + "/conv." + std::to_string(part) + "/conv." + std::to_string(part);
                ++part;
                return layers.relu6(layers.conv(y, spec, sub + ".0/Conv"), sub + ".2/Clip");
            };
            TensorId y = x;
            if (stage.expansion != 1)
                y = convRelu6(y, {mid, {1, 1}});
            y = convRelu6(y, {mid, {3, 3}, stride, mid});
            y = layers.conv(y, {stage.out, {1, 1}}, prefix + "/conv." + std::to_string(part) + "/Conv");
            x = in == stage.out && stride == 1 ? builder.op("Add", {x, y}, {}, feature(index) + "/Add") : y;
        }
    }
    x = layers.relu6(layers.conv(x, {1280, {1, 1}}, feature(18) + "/features.18.0/Conv"),
                     feature(18) + "/features.18.2/Clip");
    x = layers.globalAveragePool(x, "/GlobalAveragePool");
    x = layers.flatten(x, "/Flatten");
    x = layers.dense(x, 1000, "/classifier/classifier.1/Gemm");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
