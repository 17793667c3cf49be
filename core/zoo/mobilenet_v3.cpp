// MobileNet v3 Large and Small (Howard et al. 2019, torchvision's mobilenet_v3_large and
// mobilenet_v3_small) in the operator patterns PyTorch's ONNX exporter writes at opset 13 with batch
// normalization folded: Hardswish as x * HardSigmoid(x), inverted residual blocks (1x1 expansion,
// depthwise convolution, optional squeeze-and-excitation gate of GlobalAveragePool, 1x1 convolutions
// with ReLU and a HardSigmoid multiplied into the channels, linear 1x1 projection, Add when the
// shape is kept), a 1x1 convolution, GlobalAveragePool, Flatten and two Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <algorithm>
#include <string>
#include <vector>

namespace tessera::zoo {
namespace {

// One inverted residual block of torchvision's table: input channels, kernel, expanded channels,
// output channels, squeeze-and-excitation, Hardswish (else ReLU), stride.
struct Bneck {
    int64_t in, kernel, expanded, out;
    bool se, hardSwish;
    int64_t stride;
};

// torchvision's _make_divisible(v, 8): v rounded to a multiple of 8, at least 8 and not below
// 90 % of v.
int64_t divisibleBy8(double v)
{
    int64_t rounded = std::max<int64_t>(8, (int64_t(v + 4.0) / 8) * 8);
    if (double(rounded) < 0.9 * v)
        rounded += 8;
    return rounded;
}

Graph buildMobilenetV3(const ZooOptions& options, const std::string& name, const std::vector<Bneck>& blocks,
                       int64_t lastChannels, int64_t classifierChannels)
{
    GraphBuilder builder(name + "_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    auto feature = [](size_t index, const std::string& what) { return "/features/features." + std::to_string(index) + what; };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.hardSwish(layers.conv(x, {16, {3, 3}, 2}, feature(0, "/features.0.0/Conv")),
                         feature(0, "/features.0.2/HardSigmoid"));
    for (size_t b = 0; b < blocks.size(); ++b) {
        const Bneck& block = blocks[b];
        const std::string prefix = feature(b + 1, "/block");
        auto activate = [&](TensorId y, const std::string& where) {
            return block.hardSwish ? layers.hardSwish(y, where + "/HardSigmoid") : layers.relu(y, where + "/Relu");
        };
        TensorId y = x;
        int part = 0;
        if (block.expanded != block.in) {
            const std::string where = prefix + "/block." + std::to_string(part++);
            y = activate(layers.conv(y, {block.expanded, {1, 1}}, where + "/block.0.0/Conv"), where + "/block.0.2");
        }
        const std::string depthwise = prefix + "/block." + std::to_string(part++);
        y = activate(layers.conv(y, {block.expanded, {block.kernel, block.kernel}, block.stride, block.expanded},
                                 depthwise + "/block.1.0/Conv"),
                     depthwise + "/block.1.2");
        if (block.se) {
            const std::string se = prefix + "/block." + std::to_string(part++);
            const int64_t squeezed = divisibleBy8(double(block.expanded) / 4.0);
            TensorId gate = layers.globalAveragePool(y, se + "/avgpool/GlobalAveragePool");
            gate = layers.relu(layers.conv(gate, {squeezed, {1, 1}}, se + "/fc1/Conv"), se + "/activation/Relu");
            gate = layers.hardSigmoid(layers.conv(gate, {block.expanded, {1, 1}}, se + "/fc2/Conv"),
                                      se + "/scale_activation/HardSigmoid");
            y = builder.op("Mul", {gate, y}, {}, se + "/Mul");
        }
        y = layers.conv(y, {block.out, {1, 1}}, prefix + "/block." + std::to_string(part) + "/block.3.0/Conv");
        x = block.stride == 1 && block.in == block.out ? builder.op("Add", {y, x}, {}, feature(b + 1, "/Add")) : y;
    }
    const size_t last = blocks.size() + 1;
    x = layers.hardSwish(layers.conv(x, {lastChannels, {1, 1}}, feature(last, "/features." + std::to_string(last) + ".0/Conv")),
                         feature(last, "/features." + std::to_string(last) + ".2/HardSigmoid"));
    x = layers.flatten(layers.globalAveragePool(x, "/avgpool/GlobalAveragePool"), "/Flatten");
    x = layers.hardSwish(layers.dense(x, classifierChannels, "/classifier/classifier.0/Gemm"),
                         "/classifier/classifier.1/HardSigmoid");
    builder.output(layers.dense(x, 1000, "/classifier/classifier.3/Gemm"));
    return builder.finish();
}

}  // namespace

Graph buildMobilenetV3Large(const ZooOptions& options)
{
    const std::vector<Bneck> blocks = {
        {16, 3, 16, 16, false, false, 1},    {16, 3, 64, 24, false, false, 2},   {24, 3, 72, 24, false, false, 1},
        {24, 5, 72, 40, true, false, 2},     {40, 5, 120, 40, true, false, 1},   {40, 5, 120, 40, true, false, 1},
        {40, 3, 240, 80, false, true, 2},    {80, 3, 200, 80, false, true, 1},   {80, 3, 184, 80, false, true, 1},
        {80, 3, 184, 80, false, true, 1},    {80, 3, 480, 112, true, true, 1},   {112, 3, 672, 112, true, true, 1},
        {112, 5, 672, 160, true, true, 2},   {160, 5, 960, 160, true, true, 1},  {160, 5, 960, 160, true, true, 1}};
    return buildMobilenetV3(options, "mobilenet_v3_large", blocks, 960, 1280);
}

Graph buildMobilenetV3Small(const ZooOptions& options)
{
    const std::vector<Bneck> blocks = {
        {16, 3, 16, 16, true, false, 2},   {16, 3, 72, 24, false, false, 2}, {24, 3, 88, 24, false, false, 1},
        {24, 5, 96, 40, true, true, 2},    {40, 5, 240, 40, true, true, 1},  {40, 5, 240, 40, true, true, 1},
        {40, 5, 120, 48, true, true, 1},   {48, 5, 144, 48, true, true, 1},  {48, 5, 288, 96, true, true, 2},
        {96, 5, 576, 96, true, true, 1},   {96, 5, 576, 96, true, true, 1}};
    return buildMobilenetV3(options, "mobilenet_v3_small", blocks, 576, 1024);
}

}  // namespace tessera::zoo
