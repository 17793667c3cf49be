#include "nvdla_networks.h"

#include "ir/builder.h"
#include "session/model_loader.h"
#include "test_support.h"
#include "zoo/zoo.h"

namespace tessera::test {

Graph zooNetwork(const std::string& name)
{
    ZooOptions options;
    options.width = 0.25;
    options.resolution = 128;
    Graph graph = buildZooModel(name, options);
    prepareGraph(graph);
    return graph;
}

Graph caffeLenet()
{
    GraphBuilder builder("lenet", 13);
    TensorId x = builder.input("data", DType::Float32, {1, 1, 28, 28});
    auto conv = [&](TensorId in, std::int64_t k, std::int64_t c, const std::string& name, std::uint32_t seed) {
        const TensorId w = builder.constant(name + "_w", randomFloats({k, c, 5, 5}, seed, -0.2f, 0.2f));
        const TensorId b = builder.constant(name + "_b", randomFloats({k}, seed + 1, -0.1f, 0.1f));
        return builder.op("Conv", {in, w, b}, {}, name);
    };
    auto pool = [&](TensorId in, const std::string& name) {
        return builder.op("MaxPool", {in},
                          {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}}, name);
    };
    auto dense = [&](TensorId in, std::int64_t outFeatures, std::int64_t inFeatures, const std::string& name,
                     std::uint32_t seed) {
        const TensorId w = builder.constant(name + "_w", randomFloats({outFeatures, inFeatures}, seed, -0.05f, 0.05f));
        const TensorId b = builder.constant(name + "_b", randomFloats({outFeatures}, seed + 1, -0.1f, 0.1f));
        return builder.op("Gemm", {in, w, b}, {{"transB", Attribute::ofInt(1)}}, name);
    };
    x = pool(conv(x, 20, 1, "conv1", 1), "pool1");
    x = pool(conv(x, 50, 20, "conv2", 3), "pool2");
    x = builder.op("Flatten", {x}, {}, "flatten");
    x = builder.op("Relu", {dense(x, 500, 800, "ip1", 5)}, {}, "relu1");
    x = dense(x, 10, 500, "ip2", 7);
    x = builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "prob");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph residualBlock()
{
    GraphBuilder builder("residual", 13);
    const TensorId x = builder.input("x", DType::Float32, {1, 16, 10, 10});
    auto conv = [&](TensorId in, const std::string& name, std::uint32_t seed) {
        const TensorId w = builder.constant(name + "_w", randomFloats({16, 16, 3, 3}, seed, -0.15f, 0.15f));
        const TensorId b = builder.constant(name + "_b", randomFloats({16}, seed + 1, -0.1f, 0.1f));
        return builder.op("Conv", {in, w, b}, {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, name);
    };
    const TensorId zero = builder.constant("zero", TensorData::fromFloats({}, {0.0f}));
    const TensorId six = builder.constant("six", TensorData::fromFloats({}, {6.0f}));
    TensorId y = builder.op("Clip", {conv(x, "conv1", 21), zero, six}, {}, "relu6");
    y = conv(y, "conv2", 23);
    y = builder.op("Relu", {builder.op("Add", {y, x}, {}, "skip")}, {}, "skip_relu");
    y = builder.op("Mul", {y, builder.constant("scale", randomFloats({16, 1, 1}, 25, 0.5f, 1.5f))}, {}, "scale");
    y = builder.op("Sub", {y, builder.constant("offset", TensorData::fromFloats({}, {0.25f}))}, {}, "shift");
    y = builder.op("Max", {y, x}, {}, "max");
    const TensorId low = builder.constant("low", TensorData::fromFloats({}, {-1.0f}));
    const TensorId high = builder.constant("high", TensorData::fromFloats({}, {1.0f}));
    y = builder.op("Clip", {y, low, high}, {}, "clip");
    y = builder.op("AveragePool", {y}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "pool");
    builder.output(y);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph lookupNetwork()
{
    GraphBuilder builder("lookup", 13);
    const TensorId x = builder.input("x", DType::Float32, {1, 16, 6, 6});
    auto conv = [&](TensorId in, const std::string& name, std::uint32_t seed) {
        return builder.op("Conv", {in, builder.constant(name + "_w", randomFloats({16, 16, 3, 3}, seed, -0.3f, 0.3f)),
                                   builder.constant(name + "_b", randomFloats({16}, seed + 1, -0.5f, 0.5f))},
                          {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, name);
    };
    const TensorId a = conv(x, "conv1", 61);
    TensorId y = builder.op("Mul", {a, builder.op("Sigmoid", {a}, {}, "sigmoid")}, {}, "silu");
    y = builder.op("Tanh", {conv(y, "conv2", 63)}, {}, "tanh");
    builder.output(y);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph preluNetwork()
{
    GraphBuilder builder("prelu", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 16, 6, 6});
    auto conv = [&](TensorId in, const std::string& name, std::uint32_t seed) {
        return builder.op("Conv", {in, builder.constant(name + "_w", randomFloats({16, 16, 3, 3}, seed, -0.3f, 0.3f)),
                                   builder.constant(name + "_b", randomFloats({16}, seed + 1, -0.3f, 0.3f))},
                          {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, name);
    };
    x = builder.op("PRelu", {conv(x, "conv1", 81), builder.constant("slope", randomFloats({16, 1, 1}, 83, 0.0f, 0.5f))},
                   {}, "prelu");
    x = builder.op("LeakyRelu", {conv(x, "conv2", 85)}, {{"alpha", Attribute::ofFloat(0.1f)}}, "leaky");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph borderPoolNetwork()
{
    GraphBuilder builder("border_pool", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 8, 7, 7});
    x = convRelu(builder, x, 32, 8, 3, "conv1", 91);
    x = builder.op("AveragePool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})}}, "smooth");
    x = builder.op("AveragePool", {x},
                   {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})},
                    {"pads", Attribute::ofInts({0, 0, 1, 1})}},
                   "halve");
    x = convRelu(builder, x, 16, 32, 1, "conv2", 93);
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph widePoolNetwork()
{
    GraphBuilder builder("wide_pool", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 16, 3, 300});
    x = builder.op("MaxPool", {x}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "halve");
    x = builder.op("AveragePool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})},
                    {"count_include_pad", Attribute::ofInt(1)}},
                   "smooth");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph lrnNetwork()
{
    GraphBuilder builder("lrn", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 8, 8, 8});
    x = convRelu(builder, x, 32, 8, 3, "conv1", 71);
    x = builder.op("LRN", {x},
                   {{"size", Attribute::ofInt(5)}, {"alpha", Attribute::ofFloat(0.5f)}, {"beta", Attribute::ofFloat(0.75f)},
                    {"bias", Attribute::ofFloat(1.0f)}},
                   "norm1");
    x = builder.op("MaxPool", {x}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "pool1");
    x = convRelu(builder, x, 16, 32, 3, "conv2", 73);
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph rearrangeNetwork()
{
    GraphBuilder builder("rearrange", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 8, 6, 6});
    x = convRelu(builder, x, 128, 8, 3, "conv1", 81);
    x = builder.op("DepthToSpace", {x}, {{"blocksize", Attribute::ofInt(2)}, {"mode", Attribute::ofString("CRD")}},
                   "pixel_shuffle");
    const auto shuffle = [&](TensorId in, std::int64_t channels, std::int64_t groups, std::int64_t size,
                             const std::string& name) {
        const TensorId grouped = builder.constant(
            name + "_grouped", TensorData::fromInts(DType::Int64, {5}, {1, groups, channels / groups, size, size}));
        const TensorId flat =
            builder.constant(name + "_flat", TensorData::fromInts(DType::Int64, {4}, {1, channels, size, size}));
        TensorId t = builder.op("Reshape", {in, grouped}, {}, name + "_reshape");
        t = builder.op("Transpose", {t}, {{"perm", Attribute::ofInts({0, 2, 1, 3, 4})}}, name + "_transpose");
        return builder.op("Reshape", {t, flat}, {}, name + "_flatten");
    };
    x = shuffle(x, 32, 2, 12, "shuffle1");
    x = convRelu(builder, x, 48, 32, 3, "conv2", 83);
    x = shuffle(x, 48, 3, 12, "shuffle2");
    const TensorId w = builder.constant("conv3_w", randomFloats({8, 48, 1, 1}, 85, -0.2f, 0.2f));
    x = builder.op("Conv", {x, w}, {}, "conv3");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph wideChannelsNetwork()
{
    GraphBuilder builder("wide_channels", 13);
    const TensorId x = builder.input("x", DType::Float32, {1, 2048, 4, 4});
    const auto dense = [&](TensorId in, std::int64_t outFeatures, std::int64_t inFeatures, const std::string& name,
                           std::uint32_t seed) {
        const float bound = 2.0f / float(inFeatures);
        const TensorId w = builder.constant(name + "_w", randomFloats({outFeatures, inFeatures}, seed, -bound, 2 * bound));
        const TensorId b = builder.constant(name + "_b", randomFloats({outFeatures}, seed + 1, -0.1f, 0.1f));
        return builder.op("Gemm", {in, w, b}, {{"transB", Attribute::ofInt(1)}}, name);
    };
    const TensorId convW = builder.constant("wide_conv_w", randomFloats({16, 2048, 3, 3}, 91, -0.004f, 0.006f));
    TensorId a = builder.op("Conv", {x, convW}, {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, "wide_conv");
    a = builder.op("Relu", {a}, {}, "wide_conv_relu");
    a = builder.op("Flatten", {a}, {}, "flatten_a");
    builder.output(dense(a, 10, 256, "classifier_a", 93));
    TensorId b = builder.op("Flatten", {x}, {}, "flatten_b");
    b = builder.op("Relu", {dense(b, 16, 32768, "wide_fc", 95)}, {}, "wide_fc_relu");
    builder.output(dense(b, 10, 16, "classifier_b", 97));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

Graph shuffleUnitNetwork()
{
    GraphBuilder builder("shuffle_unit", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 24, 8, 8});
    const auto split = [&](TensorId in, std::vector<std::int64_t> sizes, const std::string& name) {
        const TensorId lengths =
            builder.constant(name + "_sizes", TensorData::fromInts(DType::Int64, {std::int64_t(sizes.size())}, sizes));
        return builder.node("Split", {in, lengths}, {{"axis", Attribute::ofInt(1)}}, sizes.size(), name);
    };
    const auto concat = [&](std::vector<TensorId> inputs, const std::string& name) {
        return builder.op("Concat", inputs, {{"axis", Attribute::ofInt(1)}}, name);
    };
    x = convRelu(builder, x, 96, 24, 1, "stem", 101);
    const std::vector<TensorId> stem = split(x, {32, 64}, "stem_split");
    const TensorId p = convRelu(builder, stem[0], 22, 32, 1, "narrow", 103);
    const TensorId q = convRelu(builder, stem[1], 94, 64, 1, "wide", 105);
    const std::vector<TensorId> halves = split(concat({p, q}, "join"), {58, 58}, "halves");
    TensorId branch = builder.op(
        "Conv", {halves[1], builder.constant("unit_conv1_w", randomFloats({58, 58, 1, 1}, 107, -0.2f, 0.25f))}, {},
        "unit_conv1");
    branch = builder.op("BatchNormalization",
                        {branch, builder.constant("bn_scale", randomFloats({58}, 109, 0.5f, 1.5f)),
                         builder.constant("bn_bias", randomFloats({58}, 110, -0.1f, 0.1f)),
                         builder.constant("bn_mean", randomFloats({58}, 111, -0.1f, 0.1f)),
                         builder.constant("bn_var", randomFloats({58}, 112, 0.5f, 1.5f))},
                        {}, "unit_bn1");
    branch = builder.op("Relu", {branch}, {}, "unit_relu1");
    branch = builder.op("Conv",
                        {branch, builder.constant("unit_dw_w", randomFloats({58, 1, 3, 3}, 113, -0.3f, 0.4f))},
                        {{"group", Attribute::ofInt(58)}, {"pads", Attribute::ofInts({1, 1, 1, 1})}}, "unit_dw");
    branch = convRelu(builder, branch, 58, 58, 1, "unit_conv2", 115);
    x = concat({halves[0], branch}, "unit_join");
    const TensorId grouped = builder.constant("shuffle_grouped", TensorData::fromInts(DType::Int64, {5}, {1, 2, 58, 8, 8}));
    const TensorId flat = builder.constant("shuffle_flat", TensorData::fromInts(DType::Int64, {4}, {1, 116, 8, 8}));
    x = builder.op("Reshape", {x, grouped}, {}, "shuffle_reshape");
    x = builder.op("Transpose", {x}, {{"perm", Attribute::ofInts({0, 2, 1, 3, 4})}}, "shuffle_transpose");
    x = builder.op("Reshape", {x, flat}, {}, "shuffle_flatten");
    x = builder.op("Conv", {x, builder.constant("classifier_w", randomFloats({10, 116, 1, 1}, 117, -0.2f, 0.2f))}, {},
                   "classifier");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

}  // namespace tessera::test
