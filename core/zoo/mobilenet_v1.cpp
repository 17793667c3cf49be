// MobileNet v1 (Howard et al. 2017): a 3x3 stride-2 convolution, 13 depthwise-separable blocks
// (3x3 depthwise + 1x1 pointwise, each with folded batch norm and ReLU6), global average pooling
// and a 1000-class classifier. Width multiplier scales every channel count.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <cmath>
#include <string>

namespace tessera::zoo {

Graph buildMobilenetV1(const ZooOptions& options)
{
    auto channels = [&](int64_t base) { return static_cast<int64_t>(std::lround(base * options.width)); };
    const std::string name = "mobilenet_v1_" + std::to_string(static_cast<int>(std::lround(options.width * 100))) +
                             "_" + std::to_string(options.resolution);
    GraphBuilder builder(name, 13);
    LayerBuilder layers(builder, options.seed);
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu6(layers.conv(x, {channels(32), {3, 3}, 2}, "conv0"), "conv0_relu6");

    // (pointwise output channels, depthwise stride) of the 13 blocks.
    const std::pair<int64_t, int64_t> blocks[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1},
                                                  {512, 2}, {512, 1}, {512, 1}, {512, 1}, {512, 1},
                                                  {512, 1}, {1024, 2}, {1024, 1}};
    int index = 1;
    for (const auto& [outChannels, stride] : blocks) {
        const std::string prefix = "block" + std::to_string(index++);
        const int64_t inChannels = builder.tensor(x).shape.at(1);
        x = layers.conv(x, {inChannels, {3, 3}, stride, inChannels}, prefix + "_dw");
        x = layers.relu6(x, prefix + "_dw_relu6");
        x = layers.conv(x, {channels(outChannels), {1, 1}}, prefix + "_pw");
        x = layers.relu6(x, prefix + "_pw_relu6");
    }
    x = builder.op("GlobalAveragePool", {x}, {}, "pool");
    x = layers.flatten(x, "flatten");
    x = layers.dense(x, 1000, "classifier");
    x = builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "softmax");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
