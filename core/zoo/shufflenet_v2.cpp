// ShuffleNet v2 1.0x (Ma et al. 2018, torchvision's shufflenet_v2_x1_0) in the operator patterns
// PyTorch's ONNX exporter writes with batch normalization folded: a 3x3/2 convolution and 3x3/2 max
// pooling, three stages of units (stride 2: two branches on the whole input; stride 1: Split in
// halves, one half through the branch), each ending in Concat and the channel shuffle as
// Reshape [1, 2, C/2, H, W], Transpose [0, 2, 1, 3, 4], Reshape back; a 1x1 convolution to 1024,
// the global pooling as x.mean([2, 3]) (ReduceMean) and a Gemm.
#include "zoo/zoo_layers.h"
#include "zoo/zoo_networks.h"

#include <string>

namespace tessera::zoo {

Graph buildShufflenetV2(const ZooOptions& options)
{
    GraphBuilder builder("shufflenet_v2_x1_0_" + std::to_string(options.resolution), 13);
    LayerBuilder layers(builder, options.seed);
    auto shape = [&](const std::string& name, const std::vector<int64_t>& values) {
        return builder.constant(name, TensorData::fromInts(DType::Int64, {int64_t(values.size())}, values));
    };
    auto shuffle = [&](TensorId x, const std::string& prefix) {
        const Shape s = builder.tensor(x).shape;  // a copy: adding constants moves the tensors
        x = builder.op("Reshape", {x, shape(prefix + "/Constant_output_0", {1, 2, s[1] / 2, s[2], s[3]})}, {},
                       prefix + "/Reshape");
        x = builder.op("Transpose", {x}, {{"perm", Attribute::ofInts({0, 2, 1, 3, 4})}}, prefix + "/Transpose");
        return builder.op("Reshape", {x, shape(prefix + "/Constant_1_output_0", {1, -1, s[2], s[3]})}, {},
                          prefix + "/Reshape_1");
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, options.resolution, options.resolution});
    x = layers.relu(layers.conv(x, {24, {3, 3}, 2}, "/conv1/conv1.0/Conv"), "/conv1/conv1.2/Relu");
    x = builder.op("MaxPool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})},
                    {"strides", Attribute::ofInts({2, 2})},
                    {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                   "/maxpool/MaxPool");
    const int repeats[] = {4, 8, 4};
    const int64_t outputs[] = {116, 232, 464};
    for (int stage = 0; stage < 3; ++stage) {
        const int64_t branch = outputs[stage] / 2;
        for (int unit = 0; unit < repeats[stage]; ++unit) {
            const std::string prefix = "/stage" + std::to_string(stage + 2) + "/stage" + std::to_string(stage + 2) +
                                       "." + std::to_string(unit);
            const int64_t stride = unit == 0 ? 2 : 1;
            TensorId left = x, right = x;
            if (stride == 1) {
                const std::vector<TensorId> halves =
                    builder.node("Split", {x, builder.constant(prefix + "/split", TensorData::fromInts(DType::Int64, {2}, {branch, branch}))},
                                 {{"axis", Attribute::ofInt(1)}}, 2, prefix + "/Split");
                left = halves[0];
                right = halves[1];
            } else {
                const int64_t in = builder.tensor(x).shape.at(1);
                left = layers.conv(x, {in, {3, 3}, 2, in}, prefix + "/branch1/branch1.0/Conv");
                left = layers.relu(layers.conv(left, {branch, {1, 1}}, prefix + "/branch1/branch1.2/Conv"),
                                   prefix + "/branch1/branch1.4/Relu");
            }
            right = layers.relu(layers.conv(right, {branch, {1, 1}}, prefix + "/branch2/branch2.0/Conv"),
                                prefix + "/branch2/branch2.2/Relu");
            right = layers.conv(right, {branch, {3, 3}, stride, branch}, prefix + "/branch2/branch2.3/Conv");
            right = layers.relu(layers.conv(right, {branch, {1, 1}}, prefix + "/branch2/branch2.5/Conv"),
                                prefix + "/branch2/branch2.7/Relu");
            x = builder.op("Concat", {left, right}, {{"axis", Attribute::ofInt(1)}}, prefix + "/Concat");
            x = shuffle(x, prefix);
        }
    }
    x = layers.relu(layers.conv(x, {1024, {1, 1}}, "/conv5/conv5.0/Conv"), "/conv5/conv5.2/Relu");
    x = builder.op("ReduceMean", {x}, {{"axes", Attribute::ofInts({2, 3})}, {"keepdims", Attribute::ofInt(0)}},
                   "/ReduceMean");
    x = layers.dense(x, 1000, "/fc/Gemm");
    builder.output(x);
    return builder.finish();
}

} // namespace tessera::zoo
