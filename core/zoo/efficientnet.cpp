// EfficientNet-B0 (Tan and Le 2019, torchvision's efficientnet_b0) in the operator patterns
// PyTorch's ONNX exporter writes at opset 13 with batch normalization folded: SiLU as
// x * Sigmoid(x), MBConv blocks (1x1 expansion, depthwise convolution, a squeeze-and-excitation
// gate of GlobalAveragePool, 1x1 convolutions with SiLU and a Sigmoid multiplied into the channels,
// linear 1x1 projection, Add when the shape is kept), a 1x1 convolution to 1280 channels,
// GlobalAveragePool, Flatten and a Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <algorithm>
#include <string>

namespace tessera::zoo {

Graph buildEfficientnetB0(const ZooOptions& options)
{
    GraphBuilder builder("efficientnet_b0_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    auto feature = [](int index, const std::string& what) { return "/features/features." + std::to_string(index) + what; };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.silu(layers.conv(x, {32, {3, 3}, 2}, feature(0, "/features.0.0/Conv")), feature(0, "/features.0.2/Sigmoid"));
    // (expansion, kernel, stride, input channels, output channels, repeats) of the seven stages.
    struct Stage {
        int64_t expansion, kernel, stride, in, out, repeats;
    };
    const Stage stages[] = {{1, 3, 1, 32, 16, 1},  {6, 3, 2, 16, 24, 2},  {6, 5, 2, 24, 40, 2},   {6, 3, 2, 40, 80, 3},
                            {6, 5, 1, 80, 112, 3}, {6, 5, 2, 112, 192, 4}, {6, 3, 1, 192, 320, 1}};
    int index = 1;
    for (const Stage& stage : stages) {
        for (int64_t repeat = 0; repeat < stage.repeats; ++repeat) {
            const std::string prefix = feature(index, "/features." + std::to_string(index) + "." + std::to_string(repeat) + "/block");
            const int64_t in = repeat == 0 ? stage.in : stage.out;
            const int64_t stride = repeat == 0 ? stage.stride : 1;
            const int64_t expanded = in * stage.expansion;
            TensorId y = x;
            int part = 0;
            if (expanded != in) {
                const std::string where = prefix + "/block." + std::to_string(part++);
                y = layers.silu(layers.conv(y, {expanded, {1, 1}}, where + "/block.0.0/Conv"), where + "/block.0.2/Sigmoid");
            }
            const std::string depthwise = prefix + "/block." + std::to_string(part++);
            y = layers.silu(layers.conv(y, {expanded, {stage.kernel, stage.kernel}, stride, expanded},
                                        depthwise + "/block.1.0/Conv"),
                            depthwise + "/block.1.2/Sigmoid");
            const std::string se = prefix + "/block." + std::to_string(part++);
            TensorId gate = layers.globalAveragePool(y, se + "/avgpool/GlobalAveragePool");
            gate = layers.silu(layers.conv(gate, {std::max<int64_t>(1, in / 4), {1, 1}}, se + "/fc1/Conv"),
                               se + "/activation/Sigmoid");
            gate = builder.op("Sigmoid", {layers.conv(gate, {expanded, {1, 1}}, se + "/fc2/Conv")}, {},
                              se + "/scale_activation/Sigmoid");
            y = builder.op("Mul", {gate, y}, {}, se + "/Mul");
            y = layers.conv(y, {stage.out, {1, 1}}, prefix + "/block." + std::to_string(part) + "/block.3.0/Conv");
            x = stride == 1 && in == stage.out
                    ? builder.op("Add", {y, x}, {}, feature(index, "/features." + std::to_string(index) + "." +
                                                                       std::to_string(repeat) + "/Add"))
                    : y;
        }
        ++index;
    }
    x = layers.silu(layers.conv(x, {1280, {1, 1}}, feature(8, "/features.8.0/Conv")), feature(8, "/features.8.2/Sigmoid"));
    x = layers.flatten(layers.globalAveragePool(x, "/avgpool/GlobalAveragePool"), "/Flatten");
    builder.output(layers.dense(x, 1000, "/classifier/classifier.1/Gemm"));
    return builder.finish();
}

}  // namespace tessera::zoo
