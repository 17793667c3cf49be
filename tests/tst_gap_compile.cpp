// tessera compile for GAP: ONNX models lowered, quantized, tiled, allocated and generated into a
// project folder; the project's host emulation build runs and its outputs equal the fixed-point
// reference bit for bit, with the L3 traffic the report predicts.
#include "gap/compile/gap_compiler.h"
#include "gap/compile/gap_deployment.h"
#include "gap/compile/gap_lowering.h"
#include "gap/compile/gap_quantizer.h"
#include "gap/compile/gap_reference.h"
#include "gap_compile_check.h"
#include "gap_project/gap_project_writer.h"
#include "gap_toolchain.h"
#include "test_support.h"
#include "interp/calibration.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "base/error.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "zoo/zoo.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <map>
#include <random>

using namespace tessera;
using namespace tessera::test;

namespace {


// The patterns PyTorch's exporter writes: Conv without bias + BatchNormalization + Relu, MaxPool,
// a residual Add, GlobalAveragePool, Flatten and Gemm.
Graph pytorchStyleGraph()
{
    GraphBuilder builder("torch_net", 13);
    std::mt19937 random(5);
    TensorId x = builder.input("input", DType::Float32, {1, 3, 16, 16});
    auto convBn = [&](TensorId in, int64_t channels, int64_t outChannels, int64_t group, const std::string& name) {
        const int64_t perGroup = channels / group;
        const float limit = std::sqrt(6.0f / float(perGroup * 9));
        const TensorId w = builder.constant(name + ".weight", uniformTensor({outChannels, perGroup, 3, 3}, random,
                                                                            -limit, limit));
        TensorId y = builder.op("Conv", {in, w},
                                {{"kernel_shape", Attribute::ofInts({3, 3})},
                                 {"pads", Attribute::ofInts({1, 1, 1, 1})},
                                 {"group", Attribute::ofInt(group)}},
                                name);
        const TensorId scale = builder.constant(name + "_bn.scale", uniformTensor({outChannels}, random, 0.5f, 1.5f));
        const TensorId bias = builder.constant(name + "_bn.bias", uniformTensor({outChannels}, random, -0.2f, 0.2f));
        const TensorId mean = builder.constant(name + "_bn.mean", uniformTensor({outChannels}, random, -0.1f, 0.1f));
        const TensorId var = builder.constant(name + "_bn.var", uniformTensor({outChannels}, random, 0.5f, 2.0f));
        return builder.op("BatchNormalization", {y, scale, bias, mean, var}, {}, name + "_bn");
    };
    TensorId a = builder.op("Relu", {convBn(x, 3, 8, 1, "conv1")}, {}, "relu1");
    a = builder.op("MaxPool", {a}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "pool1");
    TensorId b = builder.op("Relu", {convBn(a, 8, 8, 8, "dw2")}, {}, "relu2");
    b = convBn(b, 8, 8, 1, "conv3");
    TensorId sum = builder.op("Relu", {builder.op("Add", {a, b}, {}, "add")}, {}, "relu3");
    TensorId pooled = builder.op("GlobalAveragePool", {sum}, {}, "gap");
    TensorId flat = builder.op("Flatten", {pooled}, {{"axis", Attribute::ofInt(1)}}, "flatten");
    const TensorId fcW = builder.constant("fc.weight", uniformTensor({5, 8}, random, -0.6f, 0.6f));
    const TensorId fcB = builder.constant("fc.bias", uniformTensor({5}, random, -0.1f, 0.1f));
    builder.output(builder.op("Gemm", {flat, fcW, fcB}, {{"transB", Attribute::ofInt(1)}}, "fc"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A ResNet-style stem: a convolution, then max pooling 3x3/2 padded by 1 (fused into the
// convolution), then average pooling 3x3/1 padded by 1 (`countIncludePad` as given; a pooling layer
// of its own), global pooling and a linear layer.
Graph paddedPoolingGraph(int countIncludePad)
{
    GraphBuilder builder("stem_net", 13);
    std::mt19937 random(11);
    TensorId x = builder.input("input", DType::Float32, {1, 3, 23, 21});
    const TensorId w = builder.constant("conv1.weight", uniformTensor({8, 3, 3, 3}, random, -0.4f, 0.4f));
    const TensorId bias = builder.constant("conv1.bias", uniformTensor({8}, random, -0.1f, 0.1f));
    x = builder.op("Conv", {x, w, bias}, {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                   "conv1");
    x = builder.op("Relu", {x}, {}, "relu1");
    x = builder.op("MaxPool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})}, {"strides", Attribute::ofInts({2, 2})},
                    {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                   "maxpool");
    x = builder.op("AveragePool", {x},
                   {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})},
                    {"count_include_pad", Attribute::ofInt(countIncludePad)}},
                   "avgpool");
    x = builder.op("GlobalAveragePool", {x}, {}, "gap");
    x = builder.op("Flatten", {x}, {{"axis", Attribute::ofInt(1)}}, "flatten");
    const TensorId fcW = builder.constant("fc.weight", uniformTensor({4, 8}, random, -0.6f, 0.6f));
    const TensorId fcB = builder.constant("fc.bias", uniformTensor({4}, random, -0.1f, 0.1f));
    builder.output(builder.op("Gemm", {x, fcW, fcB}, {{"transB", Attribute::ofInt(1)}}, "fc"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// The operators real classifiers add to the plain chain: fire-module Concat of inputs in different
// formats (a branch scaled up 8 times), max and average pooling in ceil mode, fused and alone,
// GlobalMaxPool, ReduceMax and ReduceMean over H and W (keepdims 0), and a Concat of vectors.
Graph realOperatorsGraph()
{
    GraphBuilder builder("real_ops", 13);
    std::mt19937 random(23);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    auto pool = [&](const char* op, TensorId x, int64_t k, int64_t stride, int64_t pad, const std::string& name) {
        return builder.op(op, {x},
                          {{"kernel_shape", Attribute::ofInts({k, k})},
                           {"strides", Attribute::ofInts({stride, stride})},
                           {"pads", Attribute::ofInts({pad, pad, pad, pad})},
                           {"ceil_mode", Attribute::ofInt(1)}},
                          name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 19, 18});
    // Conv + ReLU + MaxPool 3x3/2 in ceil mode, fused: 19x18 -> 9x9 (floor would give 9x8).
    x = pool("MaxPool", builder.op("Relu", {conv(x, 3, 8, 3, 1.0f, "stem")}, {}, "stem_relu"), 3, 2, 0, "stem_pool");
    const TensorId squeeze = builder.op("Relu", {conv(x, 8, 4, 1, 1.0f, "squeeze")}, {}, "squeeze_relu");
    const TensorId left = builder.op("Relu", {conv(squeeze, 4, 6, 1, 1.0f, "expand1x1")}, {}, "expand1x1_relu");
    const TensorId right = builder.op("Relu", {conv(squeeze, 4, 6, 3, 8.0f, "expand3x3")}, {}, "expand3x3_relu");
    x = builder.op("Concat", {left, right, x}, {{"axis", Attribute::ofInt(1)}}, "fire_concat");
    // Pooling layers alone in ceil mode: max 2x2/2 (9x9 -> 5x5) and average 3x3/2 padded by 1.
    const TensorId maxPooled = pool("MaxPool", x, 2, 2, 0, "pool_max");
    const TensorId averaged = pool("AveragePool", maxPooled, 3, 2, 1, "pool_avg");
    const TensorId globalMax = builder.op("GlobalMaxPool", {averaged}, {}, "global_max");
    const TensorId mean = builder.op("ReduceMean", {maxPooled}, {{"axes", Attribute::ofInts({2, 3})}, {"keepdims", Attribute::ofInt(0)}},
                                     "reduce_mean");
    const TensorId reducedMax =
        builder.op("ReduceMax", {x}, {{"axes", Attribute::ofInts({-1, -2})}, {"keepdims", Attribute::ofInt(1)}}, "reduce_max");
    const TensorId flatMax = builder.op("Flatten", {globalMax}, {{"axis", Attribute::ofInt(1)}}, "flatten_max");
    const TensorId flatReduced = builder.op("Flatten", {reducedMax}, {{"axis", Attribute::ofInt(1)}}, "flatten_reduced");
    x = builder.op("Concat", {flatMax, mean, flatReduced}, {{"axis", Attribute::ofInt(1)}}, "vector_concat");
    const TensorId fcW = builder.constant("fc.weight", uniformTensor({5, 60}, random, -0.3f, 0.3f));
    const TensorId fcB = builder.constant("fc.bias", uniformTensor({5}, random, -0.1f, 0.1f));
    builder.output(builder.op("Gemm", {x, fcW, fcB}, {{"transB", Attribute::ofInt(1)}}, "fc"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Two fire-module Concats. The first one's inputs are read by it alone, one of them from a branch
// scaled up 8 times (so in a coarser format); the second one's first input is also read by a
// convolution, and its other input is coarser.
Graph concatsInPlaceGraph()
{
    GraphBuilder builder("concat_in_place", 13);
    std::mt19937 random(41);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        const TensorId y = seededConv(builder, random, x, in, out, k, scale, name);
        return builder.op("Relu", {y}, {}, name + "_relu");
    };
    const auto channels = std::map<std::string, Attribute>{{"axis", Attribute::ofInt(1)}};
    const TensorId input = builder.input("input", DType::Float32, {1, 3, 12, 10});
    const TensorId stem = conv(input, 3, 8, 3, 1.0f, "stem");
    const TensorId expand1x1 = conv(stem, 8, 6, 1, 1.0f, "expand1x1");
    const TensorId expand3x3 = conv(stem, 8, 10, 3, 8.0f, "expand3x3");
    const TensorId fire = builder.op("Concat", {expand1x1, expand3x3}, channels, "fire");
    const TensorId mixed = conv(fire, 16, 8, 3, 1.0f, "mix");
    const TensorId left = conv(mixed, 8, 4, 1, 1.0f, "left");
    const TensorId right = conv(mixed, 8, 4, 1, 8.0f, "right");
    const TensorId joined = builder.op("Concat", {left, right}, channels, "shared");
    const TensorId widened = seededConv(builder, random, left, 4, 8, 1, 1.0f, "widen");
    builder.output(builder.op("Add", {joined, widened}, {}, "sum"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// ShuffleNet's data movement on a small plane: a Split in halves (sizes as an input), a Slice of
// the channels (starts, ends and axes as inputs, the end past the last channel), a Concat, and
// the channel shuffle of 3 groups as Reshape-Transpose-Reshape.
Graph channelMovesGraph()
{
    GraphBuilder builder("channel_moves", 13);
    std::mt19937 random(31);
    auto ints = [&](const std::string& name, const std::vector<int64_t>& values) {
        return builder.constant(name, TensorData::fromInts(DType::Int64, {int64_t(values.size())}, values));
    };
    TensorId x = builder.input("input", DType::Float32, {1, 4, 7, 9});
    const TensorId w = builder.constant("conv.weight", uniformTensor({12, 4, 3, 3}, random, -0.4f, 0.4f));
    const TensorId b = builder.constant("conv.bias", uniformTensor({12}, random, -0.1f, 0.1f));
    x = builder.op("Conv", {x, w, b}, {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})}},
                   "conv");
    const std::vector<TensorId> halves =
        builder.node("Split", {x, ints("split_sizes", {6, 6})}, {{"axis", Attribute::ofInt(1)}}, 2, "split");
    const TensorId tail = builder.op("Slice", {halves[1], ints("starts", {2}), ints("ends", {1000}), ints("axes", {1})},
                                     {}, "slice");
    x = builder.op("Concat", {tail, halves[0], halves[1]}, {{"axis", Attribute::ofInt(1)}}, "concat");  // 4 + 6 + 6
    // 15 of the 16 channels would not split in 3 groups: take 15 first.
    x = builder.op("Slice", {x, ints("starts15", {0}), ints("ends15", {15}), ints("axes15", {1})}, {}, "first15");
    x = builder.op("Reshape", {x, ints("grouped", {1, 3, 5, 7, 9})}, {}, "shuffle_reshape");
    x = builder.op("Transpose", {x}, {{"perm", Attribute::ofInts({0, 2, 1, 3, 4})}}, "shuffle_transpose");
    x = builder.op("Reshape", {x, ints("back", {1, -1, 7, 9})}, {}, "shuffle_back");
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A classifier head as SqueezeNet's: a 1x1 convolution to many features over a wide plane with its
// ReLU and a max pooling, then global pooling. Its 32-bit accumulators for all 192 features of a
// line take 192 x 24 x 4 bytes, more than a small L1 holds.
Graph wideHeadGraph()
{
    GraphBuilder builder("wide_head", 13);
    std::mt19937 random(29);
    TensorId x = builder.input("input", DType::Float32, {1, 6, 10, 24});
    const TensorId w = builder.constant("head.weight", uniformTensor({192, 6, 1, 1}, random, -0.8f, 0.8f));
    const TensorId b = builder.constant("head.bias", uniformTensor({192}, random, -0.1f, 0.1f));
    x = builder.op("Conv", {x, w, b}, {{"kernel_shape", Attribute::ofInts({1, 1})}}, "head");
    x = builder.op("Relu", {x}, {}, "head_relu");
    x = builder.op("MaxPool", {x}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "head_pool");
    x = builder.op("GlobalAveragePool", {x}, {}, "gap");
    builder.output(builder.op("Flatten", {x}, {{"axis", Attribute::ofInt(1)}}, "flatten"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A wide linear layer with a ReLU6, as a classifier over 2048 features: with weights spread over
// their whole range, its largest accumulators (2048 x 128 x |w|) times an 8-bit multiplier leave
// int32, so the quantizer must trade multiplier bits for the 32-bit arithmetic of its kernels.
Graph wideLinearGraph()
{
    GraphBuilder builder("wide_linear", 13);
    std::mt19937 random(31);
    TensorId x = builder.input("input", DType::Float32, {1, 2048});
    const TensorId w = builder.constant("fc.weight", uniformTensor({12, 2048}, random, -0.05f, 0.05f));
    const TensorId b = builder.constant("fc.bias", uniformTensor({12}, random, -0.1f, 0.1f));
    x = builder.op("Gemm", {x, w, b}, {{"transB", Attribute::ofInt(1)}}, "fc");
    const TensorId zero = builder.constant("zero", TensorData::fromFloats({}, {0.0f}));
    const TensorId six = builder.constant("six", TensorData::fromFloats({}, {6.0f}));
    builder.output(builder.op("Clip", {x, zero, six}, {}, "relu6"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A convolution's 32x32 planes averaged whole (GlobalAveragePool), then a classifier: the planes
// are larger than a small L1 holds.
Graph globalPoolGraph()
{
    GraphBuilder builder("global_pool", 13);
    std::mt19937 random(53);
    TensorId x = builder.input("input", DType::Float32, {1, 3, 32, 32});
    x = builder.op("Relu", {seededConv(builder, random, x, 3, 8, 3, 1.0f, "conv")}, {}, "conv_relu");
    x = builder.op("GlobalAveragePool", {x}, {}, "gap");
    x = builder.op("Flatten", {x}, {{"axis", Attribute::ofInt(1)}}, "flatten");
    const TensorId w = builder.constant("fc.weight", uniformTensor({4, 8}, random, -0.5f, 0.5f));
    const TensorId b = builder.constant("fc.bias", uniformTensor({4}, random, -0.1f, 0.1f));
    builder.output(builder.op("Gemm", {x, w, b}, {{"transB", Attribute::ofInt(1)}}, "fc"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

}  // namespace

class GapCompileTest : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const test::ProcessResult make = test::runProcess(QStringLiteral("make"), {"--version"});
        if (make.exitCode != 0)
            QFAIL("make is needed to build the projects' emulation programs (scripts/debian-packages.txt lists it)");
    }

    // The zoo models of the acceptance list compile with the default GAP8 budgets and their
    // projects run bit-exactly on the host.
    void zooModelsRunBitExact_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<double>("minimumSqnrDb");
        QTest::newRow("mnist") << "mnist" << 1.0 << 224 << 4 << "int16" << 30.0;
        QTest::newRow("lenet5") << "lenet5" << 1.0 << 224 << 7 << "int16" << 30.0;
        QTest::newRow("mobilenet_v1 0.25/128") << "mobilenet_v1" << 0.25 << 128 << 30 << "int16" << 30.0;
        // 8.4 MB of 16-bit weights: more than half the 8 MB of L3 RAM, so they are read from flash.
        QTest::newRow("mobilenet_v1 1.0/224") << "mobilenet_v1" << 1.0 << 224 << 30 << "int16" << 30.0;
        QTest::newRow("mnist int8") << "mnist" << 1.0 << 224 << 4 << "int8" << 15.0;
        QTest::newRow("lenet5 int8") << "lenet5" << 1.0 << 224 << 7 << "int8" << 15.0;
        QTest::newRow("mobilenet_v1 0.25/128 int8") << "mobilenet_v1" << 0.25 << 128 << 30 << "int8" << 15.0;
        // 4.2 MB of 8-bit weights, just over half the L3 RAM: they are read from flash too.
        QTest::newRow("mobilenet_v1 1.0/224 int8") << "mobilenet_v1" << 1.0 << 224 << 30 << "int8" << 15.0;
        // Fire modules (Concat) and ceil-mode pooling; at 64x64 to keep the run short.
        QTest::newRow("squeezenet1_1 64") << "squeezenet1_1" << 1.0 << 64 << 37 << "int16" << 30.0;
        QTest::newRow("squeezenet1_1 64 int8") << "squeezenet1_1" << 1.0 << 64 << 37 << "int8" << 15.0;
        // Inverted residuals with ReLU6; and with the global pooling as ReduceMean.
        QTest::newRow("mobilenet_v2 64") << "mobilenet_v2" << 1.0 << 64 << 64 << "int16" << 30.0;
        QTest::newRow("mnasnet1_0 64") << "mnasnet1_0" << 1.0 << 64 << 64 << "int16" << 30.0;
        // 11.7 M weights: 23 MB in 16 bits would exceed GAP8's 16 MB of flash; 8 bits fit.
        QTest::newRow("resnet18 64 int8") << "resnet18" << 1.0 << 64 << 30 << "int8" << 15.0;
        // Split, Concat and the channel shuffle in every unit.
        QTest::newRow("shufflenet_v2_x1_0 64") << "shufflenet_v2_x1_0" << 1.0 << 64 << 116 << "int16" << 30.0;
        // Hardswish, SiLU and squeeze-and-excitation gates.
        QTest::newRow("mobilenet_v3_small 64") << "mobilenet_v3_small" << 1.0 << 64 << 107 << "int16" << 30.0;
        QTest::newRow("mobilenet_v3_large 64 int8") << "mobilenet_v3_large" << 1.0 << 64 << 120 << "int8" << 15.0;
        QTest::newRow("efficientnet_b0 64") << "efficientnet_b0" << 1.0 << 64 << 189 << "int16" << 30.0;
    }

    void zooModelsRunBitExact()
    {
        QFETCH(QString, model);
        QFETCH(double, width);
        QFETCH(int, resolution);
        QFETCH(int, layers);
        QFETCH(QString, quantization);
        QFETCH(double, minimumSqnrDb);
        if (test::kSanitizedBuild && width == 1.0 && resolution == 224)
            QSKIP("224x224 networks run in the release build only");
        ZooOptions zoo;
        zoo.width = width;
        zoo.resolution = resolution;
        Graph graph = buildZooModel(model.toStdString(), zoo);
        prepareGraph(graph);
        QTemporaryDir dir;
        gap::GapCompileOptions options;
        options.randomCalibrationSets = width == 1.0 && resolution == 224 ? 1 : 4;  // the big one calibrates once
        options.quantization = quantization.toStdString();
        const gap::GapCompileResult result = compileAndCheck(graph, options, dir.path() + "/project", minimumSqnrDb);
        QCOMPARE(int(result.network.layers.size()), layers);
        QCOMPARE(result.budgets.l2, uint64_t(512 * 1024 - 64 * 1024));
        for (const char* file : {"Makefile", "report.json", "report.txt", "test_data/input_0.pb", "test_data/output_0.pb"})
            QVERIFY2(QFile::exists(dir.path() + "/project/" + file), file);
        // The sample output written with the project is the reference's for the sample input.
        const TensorData sample = readTensorFile((dir.path() + "/project/test_data/input_0.pb").toStdString());
        QCOMPARE(readTensorFile((dir.path() + "/project/test_data/output_0.pb").toStdString()).toFloats(),
                 referenceOutput(result.network, sample));
        QVERIFY(!result.warnings.empty());  // random calibration is announced
    }

    // The project's emul_run takes only an input of the model's shape, and writes its result
    // through a temporary file: a mis-shaped or absurd input is refused, and the earlier result
    // stays as it was.
    void emulRunChecksItsInputAndKeepsEarlierResults()
    {
        Graph graph = buildZooModel("mnist");
        prepareGraph(graph);
        QTemporaryDir dir;
        const QString project = dir.path() + "/project";
        compileProject(graph, gap::GapCompileOptions{}, project);
        const TensorData input = randomInput(graph, 5);
        const ProjectRun good = buildAndRun(project, input, "input");
        QVERIFY2(good.error.isEmpty(), qPrintable(good.error));
        const QString result = project + "/check_result/output_0.pb";
        QFile resultFile(result);
        QVERIFY(resultFile.open(QIODevice::ReadOnly));
        const QByteArray earlier = resultFile.readAll();
        resultFile.close();

        auto run = [&](const QString& file) { return runProcess(project + "/emul_run", {file, project + "/check_result"}); };
        // The same 784 values as [784] and as [28, 28]: not the model's [1, 1, 28, 28].
        for (const Shape& shape : {Shape{784}, Shape{28, 28}}) {
            const QString file = dir.path() + "/flat.pb";
            writeTensorFile(file.toStdString(), TensorData::fromFloats(shape, input.toFloats()), "input");
            const ProcessResult refused = run(file);
            QCOMPARE(refused.exitCode, 1);
            QVERIFY2(refused.err.contains("has shape " + QString::fromStdString(shapeToString(shape))) &&
                         refused.err.contains("the model's input is [1, 1, 28, 28]"),
                     qPrintable(refused.err));
        }
        // Dims whose product overflows 64 bits ([2^62, 4]) with 16 bytes of data.
        QByteArray absurd;
        auto varint = [&](unsigned long long value) {
            do {
                unsigned char byte = value & 0x7f;
                value >>= 7;
                absurd.append(char(value ? byte | 0x80 : byte));
            } while (value);
        };
        varint(1 << 3);
        varint(1ULL << 62);
        varint(1 << 3);
        varint(4);
        varint(2 << 3);
        varint(1);
        varint(9 << 3 | 2);
        varint(16);
        absurd.append(QByteArray(16, '\0'));
        QFile absurdFile(dir.path() + "/absurd.pb");
        QVERIFY(absurdFile.open(QIODevice::WriteOnly));
        absurdFile.write(absurd);
        absurdFile.close();
        const ProcessResult overflow = run(absurdFile.fileName());
        QCOMPARE(overflow.exitCode, 1);
        QVERIFY2(overflow.err.contains("holds 4 values, the model's input has 784"), qPrintable(overflow.err));
        // A result that cannot be written (its name taken by a folder) leaves no partial file behind.
        QVERIFY(QFile::remove(result));
        QVERIFY(QDir().mkpath(result));
        writeTensorFile((dir.path() + "/good.pb").toStdString(), input, "input");
        const ProcessResult blocked = run(dir.path() + "/good.pb");
        QCOMPARE(blocked.exitCode, 1);
        QVERIFY2(blocked.err.contains("cannot write " + result), qPrintable(blocked.err));
        QVERIFY(!QFile::exists(result + ".partial"));
        // Written again when it can be: the same bytes as the first run.
        QVERIFY(QDir(result).removeRecursively());
        QCOMPARE(run(dir.path() + "/good.pb").exitCode, 0);
        QVERIFY(resultFile.open(QIODevice::ReadOnly));
        QCOMPARE(resultFile.readAll(), earlier);
    }

    // A budget below the smallest is refused with the smallest named; from generous down to that
    // smallest, every project runs bit-exactly and the L3 traffic and the estimated cycles grow.
    void budgetSweep()
    {
        Graph graph = buildZooModel("mnist");
        prepareGraph(graph);
        QTemporaryDir dir;
        gap::GapCompileOptions tooSmall;
        tooSmall.l2 = 1000;
        // The plan says why, with the smallest budget as a field; the compilation refuses alike.
        const gap::GapDeployment deployment = gap::prepareGapDeployment(graph, tooSmall);
        const gap::GapPlan refused = gap::planGapDeployment(deployment, tooSmall.budgetsOn(deployment.target));
        QVERIFY(!refused.ok());
        QVERIFY2(refused.shortfall() && refused.shortfall()->memory == "L2", refused.error().c_str());
        const uint64_t smallest = refused.shortfall()->smallest;
        QVERIFY2(smallest > 1000, refused.error().c_str());
        QVERIFY(QString::fromStdString(refused.error()).contains(QString("at least %1 bytes").arg(smallest)));
        try {
            compileProject(graph, tooSmall, dir.path() + "/too_small");
            QFAIL("an L2 budget of 1000 bytes was accepted");
        } catch (const BudgetError& error) {
            QCOMPARE(QString::fromUtf8(error.what()), QString::fromStdString(refused.error()));
            QCOMPARE(error.facts().smallest, smallest);
        }
        int64_t previousTraffic = -1;
        double previousCycles = -1;
        for (uint64_t l2 : {uint64_t(300 * 1024), uint64_t(100000), uint64_t(40000), uint64_t(12000), smallest}) {
            gap::GapCompileOptions options;
            options.l2 = l2;
            const gap::GapCompileResult result =
                compileAndCheck(graph, options, dir.path() + "/l2_" + QString::number(l2), 30.0);
            const int64_t traffic = result.generation.graph.value("l3_traffic", int64_t(-1));
            const double cycles = result.generation.graph.value("estimated_cycles", -1.0);
            qInfo("L2 %llu: L3 traffic %lld, estimated cycles %.0f", static_cast<unsigned long long>(l2),
                  static_cast<long long>(traffic), cycles);
            QVERIFY(traffic >= previousTraffic);
            QVERIFY(cycles >= previousCycles);
            previousTraffic = traffic;
            previousCycles = cycles;
        }
        QVERIFY(previousTraffic > 0);
    }

    // Under a small L2 budget MobileNet's activations live in L3: padded depthwise inputs stream
    // from L3 with their padding added in L1, and pointwise outputs (all output planes of a tile
    // per chunk) go back to L3 plane by plane. Still bit-exact, with the predicted L3 traffic.
    void mobilenetActivationsInL3()
    {
        ZooOptions zoo;
        zoo.width = 0.25;
        zoo.resolution = 128;
        Graph graph = buildZooModel("mobilenet_v1", zoo);
        prepareGraph(graph);
        QTemporaryDir dir;
        gap::GapCompileOptions options;
        options.l2 = 80000;
        const gap::GapCompileResult result = compileAndCheck(graph, options, dir.path() + "/project", 30.0);
        QStringList inL3;
        for (const nlohmann::json& tensor : result.generation.graph["tensors"])
            if (tensor["placement"] == "l3_dynamic")
                inL3 << QString::fromStdString(tensor["name"].get<std::string>());
        QVERIFY2(inL3.contains("conv0_Out") && inL3.contains("block1_pw_Out"), qPrintable(inL3.join(' ')));
    }

    // With little L3 RAM the constants are read from the flash image by the nodes (none is copied to
    // L3 RAM); the project is bit-exact, and the generated code also builds for GAP (PMSIS).
    void constantsReadFromFlash()
    {
        Graph graph = buildZooModel("mnist");
        prepareGraph(graph);
        QTemporaryDir dir;
        gap::GapCompileOptions options;
        options.l2 = 40000;
        options.l3 = 100000;
        const QString project = dir.path() + "/project";
        const gap::GapCompileResult result = compileAndCheck(graph, options, project, 30.0);
        QCOMPARE(result.generation.graph.value("l3_static", -1), 0);
        QStringList inFlash;
        for (const nlohmann::json& tensor : result.generation.graph["tensors"])
            if (tensor["placement"] == "flash")
                inFlash << QString::fromStdString(tensor["name"].get<std::string>());
        QVERIFY2(inFlash.contains("conv5x5_1_W"), qPrintable(inFlash.join(' ')));
        const QString gapBuildError = gapBuildProblem(project, result);
        QVERIFY2(gapBuildError.isEmpty(), qPrintable(gapBuildError));
    }

    // GAP9's MRAM as the privileged flash: the constants that leave L2 fill it first, largest first,
    // the ordinary flash image keeps the rest; copied to L3 RAM at construction or read by the
    // nodes from flash, the projects are bit-exact and their GAP build compiles.
    void privilegedFlashFilledFirst_data()
    {
        QTest::addColumn<bool>("executeFromFlash");
        QTest::newRow("copied to L3 RAM") << false;
        QTest::newRow("read from flash") << true;
    }
    void privilegedFlashFilledFirst()
    {
        QFETCH(bool, executeFromFlash);
        ZooOptions zoo;
        zoo.width = 0.25;
        zoo.resolution = 128;
        Graph graph = buildZooModel("mobilenet_v1", zoo);
        prepareGraph(graph);
        QTemporaryDir dir;
        gap::GapCompileOptions options;
        options.target = "gap9";
        options.l2 = 200 * 1024;
        if (executeFromFlash)
            options.l3 = 600 * 1024;  // less than twice the constants: they are read from flash
        options.privilegedFlash = 0;
        const gap::GapCompileResult ordinary = compileProject(graph, options, dir.path() + "/ordinary");
        options.privilegedFlash = 128 * 1024;
        const QString project = dir.path() + "/project";
        const gap::GapCompileResult result = compileAndCheck(graph, options, project, 30.0);
        const nlohmann::json& memory = result.generation.graph;
        const int64_t privileged = memory.value("privileged_flash_bytes", int64_t(0));
        QVERIFY2(privileged > 100 * 1024 && privileged <= 128 * 1024, qPrintable(QString::number(privileged)));
        QVERIFY(QFile::exists(project + "/" + QString::fromStdString(result.generation.privilegedImage)));
        QCOMPARE(QFileInfo(project + "/" + QString::fromStdString(result.generation.privilegedImage)).size(), privileged);
        // What the privileged flash holds leaves the ordinary image.
        const int64_t before = ordinary.generation.graph.value("flash_bytes", int64_t(0));
        QVERIFY2(memory.value("flash_bytes", int64_t(0)) <= before - privileged + 64 &&
                     memory.value("flash_bytes", int64_t(0)) < before,
                 qPrintable(QStringLiteral("%1 of %2").arg(memory.value("flash_bytes", int64_t(0))).arg(before)));
        QCOMPARE(memory.value("l3_traffic", int64_t(-1)), ordinary.generation.graph.value("l3_traffic", int64_t(-2)));
        // Largest first: no constant outside it is larger than the smallest one inside that would
        // still have fitted in the room left.
        std::vector<int64_t> inside, outside;
        for (const nlohmann::json& tensor : memory["tensors"]) {
            QVERIFY(tensor["privileged_flash"] ==
                    (tensor.value("reason", std::string()).find("privileged flash") != std::string::npos));
            if (tensor.value("privileged_flash", false))
                inside.push_back(tensor.value("bytes", int64_t(0)));
            else if (tensor.value("placement", std::string()) == (executeFromFlash ? "flash" : "l3_static"))
                outside.push_back(tensor.value("bytes", int64_t(0)));
        }
        QVERIFY(!inside.empty() && !outside.empty());
        const int64_t room = 128 * 1024 - privileged;
        for (int64_t bytes : outside)
            QVERIFY2(bytes > room, qPrintable(QStringLiteral("a constant of %1 B fits the %2 B left").arg(bytes).arg(room)));
        const QString gapBuildError = gapBuildProblem(project, result);
        QVERIFY2(gapBuildError.isEmpty(), qPrintable(gapBuildError));
    }

    // Batch normalization folds into the convolution before it, ReLU and pooling fuse, the residual
    // Add and Gemm map onto their generators; the project is bit-exact.
    void pytorchPatterns()
    {
        const Graph graph = pytorchStyleGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QStringList layers;
        for (const gap::GapLayer& layer : network.layers)
            layers << QString::fromStdString(layer.name + "(" + std::to_string(layer.nodes.size()) + ")");
        QCOMPARE(layers.join(' '), QStringLiteral("conv1(4) dw2(3) conv3(2) add(2) gap(1) fc(1)"));
        QVERIFY(network.layers[1].conv.depthwise);
        QCOMPARE(network.layers[0].conv.pool, fixed_point::ConvPoolReluParams::Pool::Max);
        QTemporaryDir dir;
        compileAndCheck(graph, {}, dir.path() + "/project", 30.0);
        // The same in 8 bits: the residual addition (the SDK's kernels) brings its first input to the
        // second's scale, the finer one, and the sum to the output's.
        gap::GapCompileOptions int8;
        int8.quantization = "int8";
        const gap::GapCompileResult result8 = compileAndCheck(graph, int8, dir.path() + "/project8", 15.0);
        const gap::GapLayer& add = result8.network.layers[3];
        QVERIFY(add.infos.in1Scale >= 128 && add.infos.outScale >= 128);  // 8-bit multipliers, normalized
        const double first = result8.network.tensors[size_t(add.inputs[0])].scale;
        const double second = result8.network.tensors[size_t(add.inputs[1])].scale;
        QVERIFY2(first >= second, qPrintable(QStringLiteral("%1 < %2").arg(first).arg(second)));
        // 8 significant bits: within half a unit of the last.
        QVERIFY(std::abs(std::ldexp(double(add.infos.in1Scale), -add.infos.in1ScaleN) - first / second) <=
                first / second / 256.0);
        // Each layer's own noise: the first layer reads the network input, so alone it is the
        // same computation as in the network; the later ones read exact float inputs.
        QCOMPARE(result8.layerAloneSqnrDb.size(), result8.network.layers.size());
        QCOMPARE(result8.layerAloneSqnrDb[0], result8.layerSqnrDb[0]);
        for (size_t k = 1; k < result8.layerAloneSqnrDb.size(); ++k)
            QVERIFY2(std::isfinite(result8.layerAloneSqnrDb[k]) && result8.layerAloneSqnrDb[k] > 10.0,
                     qPrintable(QString::number(result8.layerAloneSqnrDb[k])));
        const nlohmann::json report = result8.report();
        QVERIFY(report["layers"][1].contains("alone_sqnr_db"));
        QVERIFY(QString::fromStdString(result8.reportText()).contains("alone"));
    }

    // The 8-bit linear layer runs on the SDK's kernels' 32-bit arithmetic: no output's multiplier
    // can wrap its product for any int8 input, the layer's Infos carry its ReLU6 bound, and the
    // project is bit-exact with the reference and close to float.
    void wideLinearKeepsItsProductsIn32Bits()
    {
        const Graph graph = wideLinearGraph();
        gap::GapCompileOptions int8;
        int8.quantization = "int8";
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileAndCheck(graph, int8, dir.path() + "/project", 15.0);
        QCOMPARE(result.network.layers.size(), size_t(1));
        const gap::GapLayer& fc = result.network.layers[0];
        QCOMPARE(fc.kind, gap::GapLayerKind::Linear);
        QVERIFY(fc.relu6 && fc.actCap >= 2);
        QCOMPARE(fc.infos.a0, fc.actCap);
        int lowered = 0;
        for (size_t f = 0; f < fc.bias32.size(); ++f) {
            int64_t largest = std::abs(int64_t(fc.bias32[f]));
            for (size_t i = 0; i < 2048; ++i)
                largest += 128 * std::abs(int64_t(fc.weights8[f * 2048 + i]));
            const int64_t scale = fc.channelScales.scale[f], shift = fc.channelScales.shift[f];
            QVERIFY(shift <= 31);
            QVERIFY2(largest * scale + (shift > 0 ? int64_t(1) << (shift - 1) : 0) <= INT32_MAX,
                     qPrintable(QStringLiteral("output %1: %2 x %3").arg(f).arg(largest).arg(scale)));
            lowered += scale < 128 ? 1 : 0;  // an 8-bit multiplier that gave up bits
        }
        QVERIFY2(lowered > 0, "no multiplier needed fewer bits: the case does not exercise the bound");
        QFile kernels(dir.path() + "/project/wide_linearKernels.c");
        QVERIFY(kernels.open(QIODevice::ReadOnly));
        QVERIFY(kernels.readAll().contains("KerParLinearLayerFullFeatB32_ReLUN_SQ8"));
    }

    // The 8-bit global average pooling runs on the SDK's kernels: whole planes where one fits in L1,
    // tiles of lines whose sums are reduced at the end where none does; bit-exact with the
    // reference on 1 and 8 cores either way, its output scale following its 8-bit multiplier.
    void globalPoolingOnTheSdkContract()
    {
        const Graph graph = globalPoolGraph();
        QTemporaryDir dir;
        for (const auto& [l1, kernel] : {std::pair<int, const char*>{65536, "KerParGlobalAvgPoolFullFeat_SQ8"},
                                         std::pair<int, const char*>{900, "KerParGlobalAvgPool_Reduct_SQ8"}}) {
            gap::GapCompileOptions int8;
            int8.quantization = "int8";
            int8.l1 = uint64_t(l1);
            for (int cores : {1, 8}) {
                const QString project = dir.path() + QStringLiteral("/project_%1_%2").arg(l1).arg(cores);
                const gap::GapCompileResult result = compileAndCheck(graph, int8, project, 25.0, cores);
                const auto found = std::find_if(result.network.layers.begin(), result.network.layers.end(),
                                                [](const gap::GapLayer& layer) {
                                                    return layer.kind == gap::GapLayerKind::GlobalAveragePool;
                                                });
                QVERIFY(found != result.network.layers.end());
                const gap::GapLayer& pooling = *found;
                QVERIFY(pooling.infos.sumScale >= 128 && pooling.infos.actScale == 0);
                const double in = result.network.tensors[size_t(pooling.inputs[0])].scale;
                const double out = result.network.tensors[size_t(pooling.output)].scale;
                QCOMPARE(in / out, 128.0 * std::ldexp(double(pooling.infos.sumScale), -pooling.infos.sumScaleN));
                QFile kernels(project + "/global_poolKernels.c");
                QVERIFY(kernels.open(QIODevice::ReadOnly));
                QVERIFY2(kernels.readAll().contains(kernel), kernel);
            }
        }
    }

    // Padded pooling (PoolPad) fused into a convolution and as a layer of its own, in 16 and 8 bits,
    // bit-exact with the reference; an average that would count the padding is refused with what
    // would work.
    void paddedPooling()
    {
        const Graph graph = paddedPoolingGraph(0);
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QStringList layers;
        for (const gap::GapLayer& layer : network.layers)
            layers << QString::fromStdString(layer.name + "(" + std::to_string(layer.nodes.size()) + ")");
        QCOMPARE(layers.join(' '), QStringLiteral("conv1(3) avgpool(1) gap(1) fc(1)"));
        QCOMPARE(network.layers[0].conv.pool, fixed_point::ConvPoolReluParams::Pool::Max);
        QCOMPARE(network.layers[0].conv.poolPad, 1);
        QCOMPARE(network.layers[1].pool.pad, 1);
        QTemporaryDir dir;
        compileAndCheck(graph, {}, dir.path() + "/project", 30.0);
        gap::GapCompileOptions int8;
        int8.quantization = "int8";
        compileAndCheck(graph, int8, dir.path() + "/project8", 15.0);
        try {
            gap::lowerForGap(paddedPoolingGraph(1));
            QFAIL("an average counting its padding was lowered");
        } catch (const UnsupportedError& error) {
            QVERIFY2(QString(error.what()).contains("node 'avgpool' (AveragePool)") &&
                         QString(error.what()).contains("count_include_pad = 0"),
                     error.what());
        }
    }

    // The operators of real classifiers (Concat, ceil-mode pooling, global max pooling, ReduceMean
    // and ReduceMax) lowered as the generators take them, bit-exact in 16 and 8 bits on 1 and 8
    // emulated cores, at 64 KB of L1 and at a small L1 that tiles every layer finely.
    void realOperators_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("l1");
        QTest::newRow("int16, 1 core") << "int16" << 1 << 65536;
        QTest::newRow("int16, 8 cores") << "int16" << 8 << 65536;
        QTest::newRow("int16, 8 cores, small L1") << "int16" << 8 << 3000;
        QTest::newRow("int8, 1 core") << "int8" << 1 << 65536;
        QTest::newRow("int8, 8 cores, small L1") << "int8" << 8 << 3000;
    }

    void realOperators()
    {
        QFETCH(QString, quantization);
        QFETCH(int, cores);
        QFETCH(int, l1);
        const Graph graph = realOperatorsGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        const QString layers = layerKinds(network);
        QCOMPARE(layers,
                 QStringLiteral("stem:convolution squeeze:convolution expand1x1:convolution expand3x3:convolution "
                                "fire_concat:concatenation pool_max:pooling pool_avg:pooling global_max:pooling "
                                "reduce_mean:global average pooling reduce_max:pooling vector_concat:concatenation "
                                "fc:linear"));
        QVERIFY(network.layers[0].conv.poolCeilMode);
        QCOMPARE(network.layers[4].channels, (std::vector<int>{6, 6, 8}));
        QCOMPARE(network.layers[10].plane, 1);
        gap::GapCompileOptions options;
        options.quantization = quantization.toStdString();
        options.l1 = uint64_t(l1);
        QTemporaryDir dir;
        const gap::GapCompileResult result =
            compileAndCheck(graph, options, dir.path() + "/project", quantization == "int8" ? 15.0 : 30.0, cores);
        // The branch scaled up 8 times has a coarser format than the other inputs of the fire Concat,
        // which brings them to it. The stem's output, read by the squeeze too, would lose precision
        // in that format: the Concat stays a copy.
        const gap::GapLayer& concat = result.network.layers[4];
        QVERIFY(!concat.stacked);
        if (quantization == "int16") {
            const int outQ = result.network.tensors[size_t(concat.output)].q;
            QCOMPARE(outQ, result.network.tensors[size_t(concat.inputs[1])].q);
            QVERIFY(result.network.tensors[size_t(concat.inputs[0])].q > outQ);
        } else {
            QCOMPARE(concat.inputScales.size(), size_t(3));
            QVERIFY(concat.inputScales[0].shift > 0);
            // The whole-plane max poolings go through the SDK's contract (their windows never leave
            // the plane), the ceil-mode ones through Tessera's own kernel (the SDK pools no ceil mode).
            QFile kernels(dir.path() + "/project/real_opsKernels.c");
            QVERIFY(kernels.open(QIODevice::ReadOnly));
            const QByteArray code = kernels.readAll();
            QVERIFY(result.network.layers[7].poolsOnSdkContract() && result.network.layers[9].poolsOnSdkContract());
            QVERIFY(!result.network.layers[5].poolsOnSdkContract() && !result.network.layers[6].poolsOnSdkContract());
            QVERIFY(code.contains("KerParPoolNxNStrideS_SQ8") && code.contains("KerPoolAct_SQ8"));
        }
    }

    // A Concat along channels whose inputs only it reads is done in place: its producers write their
    // outputs into their parts of its output (AddStackedTensors), in its format, and there is no copy
    // node; the project is bit-exact with the reference and needs less L2 than with the copy. A
    // Concat whose input another layer reads and would lose precision in its format stays a copy.
    void concatenationsInPlace_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("l1");
        QTest::addColumn<int>("l2");  // 0: the target's default
        QTest::newRow("int16, 1 core") << "int16" << 1 << 65536 << 0;
        QTest::newRow("int16, 8 cores, small L1") << "int16" << 8 << 3000 << 0;
        QTest::newRow("int16, 8 cores, tensors in L3") << "int16" << 8 << 3000 << 4096;
        QTest::newRow("int8, 8 cores") << "int8" << 8 << 65536 << 0;
        QTest::newRow("int8, 1 core, small L1") << "int8" << 1 << 3000 << 0;
    }

    void concatenationsInPlace()
    {
        QFETCH(QString, quantization);
        QFETCH(int, cores);
        QFETCH(int, l1);
        QFETCH(int, l2);
        const Graph graph = concatsInPlaceGraph();
        gap::GapCompileOptions options;
        options.quantization = quantization.toStdString();
        options.l1 = uint64_t(l1);
        if (l2 > 0)
            options.l2 = uint64_t(l2);
        const double minimumSqnr = quantization == "int8" ? 15.0 : 30.0;
        QTemporaryDir dir;
        const gap::GapCompileResult inPlace = compileAndCheck(graph, options, dir.path() + "/in_place", minimumSqnr, cores);
        options.concatSplitInPlace = false;
        const gap::GapCompileResult copied = compileAndCheck(graph, options, dir.path() + "/copied", minimumSqnr, cores);

        const gap::GapNetwork& network = inPlace.network;
        const auto layerNamed = [&](const std::string& name) {
            return *std::find_if(network.layers.begin(), network.layers.end(),
                                 [&](const gap::GapLayer& layer) { return layer.name == name; });
        };
        const gap::GapLayer& fire = layerNamed("fire");
        const gap::GapLayer& shared = layerNamed("shared");
        QVERIFY(fire.stacked);
        QVERIFY(!shared.stacked);
        const gap::GapTensor& fireOut = network.tensors[size_t(fire.output)];
        for (int input : fire.inputs) {
            QCOMPARE(network.tensors[size_t(input)].q, fireOut.q);
            QCOMPARE(network.tensors[size_t(input)].scale, fireOut.scale);
        }
        const nlohmann::json report = inPlace.report();
        int inPlaceLayers = 0;
        for (const nlohmann::json& layer : report["layers"])
            inPlaceLayers += layer.value("in_place", false) ? 1 : 0;
        QCOMPARE(inPlaceLayers, 1);
        QVERIFY(QString::fromStdString(inPlace.reportText()).contains(QStringLiteral("concatenation, in place")));
        const auto kernelsSource = [](const QString& project) {
            QFile file(project + "/concat_in_placeKernels.c");
            return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
        };
        const QString inPlaceCode = kernelsSource(dir.path() + "/in_place");
        const QString copiedCode = kernelsSource(dir.path() + "/copied");
        QVERIFY(!inPlaceCode.contains(QStringLiteral("void fire(")) && inPlaceCode.contains(QStringLiteral("void shared(")));
        QVERIFY(copiedCode.contains(QStringLiteral("void fire(")));
        QVERIFY(!copied.network.layers.empty() &&
                std::none_of(copied.network.layers.begin(), copied.network.layers.end(),
                             [](const gap::GapLayer& layer) { return layer.stacked; }));
        // At the fire Concat the copy holds both branches and the output; in place, the output only.
        const uint64_t inPlaceL2 = inPlace.generation.graph.value("l2_dynamic", uint64_t(0));
        const uint64_t copiedL2 = copied.generation.graph.value("l2_dynamic", uint64_t(0));
        qInfo("dynamic L2: %llu bytes in place, %llu bytes with copies", (unsigned long long)inPlaceL2,
              (unsigned long long)copiedL2);
        if (l2 == 0) {
            QVERIFY(inPlaceL2 > 0 && inPlaceL2 < copiedL2);
            return;
        }
        // Under a small L2 budget the stacked output lives in L3: its producers write their parts
        // there through L2, and the result is the same.
        const nlohmann::json* fireTensor = nullptr;
        for (const nlohmann::json& tensor : inPlace.generation.graph["tensors"])
            if (tensor.value("name", std::string()) == fireOut.name)
                fireTensor = &tensor;
        QVERIFY(fireTensor != nullptr);
        QCOMPARE(fireTensor->value("placement", std::string()), std::string("l3_dynamic"));
        QVERIFY(inPlace.generation.graph.value("l3_traffic", uint64_t(0)) < copied.generation.graph.value("l3_traffic", uint64_t(0)));
    }

    // A convolution whose fused pooling does not tile in L1 runs as two layers when the two apart
    // do: found by lowering the L1 budget until the fused stem no longer fits, the project stays
    // bit-exact, and with room enough the pooling stays fused.
    void poolingSplitWhereFusedDoesNotFit()
    {
        const Graph graph = realOperatorsGraph();
        gap::GapCompileOptions options;
        const gap::GapDeployment deployment = gap::prepareGapDeployment(graph, options);
        QCOMPARE(deployment.network.layers[0].name, std::string("stem"));
        const gap::GapBudgets generous = options.budgetsOn(deployment.target);
        const gap::GapPlan fused = gap::planGapDeployment(deployment, generous);
        QVERIFY(fused.ok());
        QVERIFY(!fused.network);  // nothing split: the deployment's network
        std::optional<uint64_t> splitBudget;
        for (uint64_t l1 = 4096; l1 >= 256 && !splitBudget; l1 -= 64) {
            gap::GapBudgets budgets = generous;
            budgets.l1 = l1;
            const gap::GapPlan plan = gap::planGapDeployment(deployment, budgets);
            if (gap::plannedNetwork(deployment, plan).layers.size() > deployment.network.layers.size()) {
                QVERIFY2(plan.ok(), plan.ok() ? "" : plan.error().c_str());
                splitBudget = l1;
            }
        }
        QVERIFY(splitBudget.has_value());
        options.l1 = *splitBudget;
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileAndCheck(graph, options, dir.path() + "/project", 30.0, 8);
        const gap::GapLayer& convolution = result.network.layers[0];
        const gap::GapLayer& pooling = result.network.layers[1];
        QCOMPARE(convolution.conv.pool, fixed_point::ConvPoolReluParams::Pool::None);
        QVERIFY(convolution.conv.relu);
        QCOMPARE(pooling.name, std::string("stem_pool"));
        QCOMPARE(pooling.kind, gap::GapLayerKind::Pooling);
        QVERIFY(pooling.pool.ceilMode);
        QCOMPARE(pooling.nodes, std::vector<std::string>{"stem_pool"});
        QCOMPARE(result.network.tensors[size_t(pooling.inputs[0])].shape, (Shape{8, 19, 18}));
        qInfo("the fused stem no longer tiles at %llu bytes of L1; split, it does", (unsigned long long)*splitBudget);
    }

    // Split, Slice and the channel shuffle, bit-exact in 16 and 8 bits on 1 and 8 cores, and with
    // small tiles: a Split that covers its input done in place (and copied when asked), the rest
    // copy layers.
    void channelMoves_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("l1");
        QTest::addColumn<bool>("inPlace");
        QTest::newRow("int16, 1 core") << "int16" << 1 << 65536 << true;
        QTest::newRow("int16, 8 cores, small L1") << "int16" << 8 << 2500 << true;
        QTest::newRow("int16, 8 cores, small L1, copied") << "int16" << 8 << 2500 << false;
        QTest::newRow("int8, 8 cores") << "int8" << 8 << 65536 << true;
    }

    void channelMoves()
    {
        QFETCH(QString, quantization);
        QFETCH(int, cores);
        QFETCH(int, l1);
        QFETCH(bool, inPlace);
        const Graph graph = channelMovesGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        const QString layers = layerKinds(network);
        QCOMPARE(layers, QStringLiteral("conv:convolution split:channel slice split_1:channel slice "
                                                  "slice:channel slice concat:concatenation first15:channel slice "
                                                  "shuffle_reshape:channel shuffle"));
        QCOMPARE(network.layers[3].sliceBegin, 2);
        QCOMPARE(network.layers[3].sliceCount, 4);
        QCOMPARE(network.layers[6].groups, 3);
        gap::GapCompileOptions options;
        options.quantization = quantization.toStdString();
        options.l1 = uint64_t(l1);
        options.concatSplitInPlace = inPlace;
        QTemporaryDir dir;
        const gap::GapCompileResult result =
            compileAndCheck(graph, options, dir.path() + "/project", quantization == "int8" ? 15.0 : 30.0, cores);
        // The Split's halves cover the convolution's output: done in place, their readers read them
        // there. The Slice of channels 2 to 5 and the first 15 channels cover nothing whole, and the
        // Concat takes a Slice's output (a Slice keeps its input's format): copies.
        std::vector<bool> stacked;
        for (const gap::GapLayer& layer : result.network.layers)
            stacked.push_back(layer.stacked);
        QCOMPARE(stacked, (std::vector<bool>{false, inPlace, inPlace, false, false, false, false}));
    }

    // A convolution with no tiling in L1 runs as convolutions over runs of its output features,
    // each writing its part of the output in place, bit-exact in 16 and 8 bits on 8 cores; with room enough it stays whole.
    void convolutionSplitOverOutputFeatures_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::newRow("int16") << "int16";
        QTest::newRow("int8") << "int8";
    }

    void convolutionSplitOverOutputFeatures()
    {
        QFETCH(QString, quantization);
        const Graph graph = wideHeadGraph();
        gap::GapCompileOptions options;
        options.quantization = quantization.toStdString();
        options.l1 = 12000;
        QTemporaryDir dir;
        const gap::GapCompileResult result =
            compileAndCheck(graph, options, dir.path() + "/project", quantization == "int8" ? 15.0 : 30.0, 8);
        const QString layers = layerKinds(result.network);
        qInfo("%s", qPrintable(layers));
        QVERIFY(result.network.layers.size() >= 4);
        QCOMPARE(result.network.layers[0].name, std::string("head_part0"));
        const auto concat = std::find_if(result.network.layers.begin(), result.network.layers.end(),
                                         [](const gap::GapLayer& layer) { return layer.kind == gap::GapLayerKind::Concat; });
        QVERIFY(concat != result.network.layers.end());
        QCOMPARE(concat->name, std::string("head"));
        QVERIFY(concat->stacked);  // the parts write their features into the output in place
        int features = 0;
        for (int channels : concat->channels)
            features += channels;
        QCOMPARE(features, 192);
        QCOMPARE(int(concat->channels.size()), int(concat - result.network.layers.begin()));
        // At 64 KB the convolution is one layer.
        const gap::GapDeployment deployment = gap::prepareGapDeployment(graph, options);
        const gap::GapPlan whole = gap::planGapDeployment(deployment, gap::GapCompileOptions{}.budgetsOn(deployment.target));
        QVERIFY(whole.ok());
        QCOMPARE(gap::plannedNetwork(deployment, whole).layers.size(), size_t(2));
    }

    // With both L1 and L2 too small, the budget named is L1 when a kernel has no tiling in it
    // whatever the placement: more L2 would not help.
    void kernelOverL1NamedBeforeL2()
    {
        const gap::GapDeployment deployment = gap::prepareGapDeployment(realOperatorsGraph(), {});
        gap::GapBudgets budgets = gap::GapCompileOptions{}.budgetsOn(deployment.target);
        budgets.l1 = 200;
        budgets.l2 = 1500;
        const gap::GapPlan plan = gap::planGapDeployment(deployment, budgets);
        QVERIFY(!plan.ok());
        QVERIFY2(plan.shortfall().has_value(), plan.error().c_str());
        QCOMPARE(plan.shortfall()->memory, std::string("L1"));
        QVERIFY(plan.shortfall()->smallest > 200);
        QVERIFY2(QString::fromStdString(plan.error()).contains("bytes of L1 for all its kernels"), plan.error().c_str());
    }

    // Every node the generators cannot take is listed with what it would need; nothing is written.
    void unsupportedOperatorsListed()
    {
        GraphBuilder builder("odd_net", 13);
        TensorId x = builder.input("input", DType::Float32, {1, 4, 8, 8});
        x = builder.op("Erf", {x}, {}, "gate");
        x = builder.op("Softplus", {x}, {}, "squash");
        builder.output(x);
        Graph graph = builder.finish();
        QTemporaryDir dir;
        try {
            compileProject(graph, {}, dir.path() + "/project");
            QFAIL("a model of unsupported operators compiled");
        } catch (const UnsupportedError& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("node 'gate' (Erf)") && message.contains("node 'squash' (Softplus)"),
                     error.what());
            QVERIFY2(message.contains("supported: Conv"), error.what());
        }
        QVERIFY(!QFile::exists(dir.path() + "/project/Makefile"));

        // A long model refused by one early node: that node first, the rest cut after 20 lines.
        GraphBuilder chain("long_net", 13);
        TensorId y = chain.input("input", DType::Float32, {1, 4, 8, 8});
        y = chain.op("Erf", {y}, {}, "cause");
        for (int k = 0; k < 40; ++k) {
            const std::vector<float> w(16, 0.1f);
            y = chain.op("Conv", {y, chain.constant("w" + std::to_string(k), TensorData::fromFloats({4, 4, 1, 1}, w))}, {},
                         "conv" + std::to_string(k));
        }
        chain.output(y);
        try {
            gap::lowerForGap(chain.finish());
            QFAIL("a model after an unsupported operator was lowered");
        } catch (const UnsupportedError& error) {
            const QStringList lines = QString(error.what()).split('\n');
            QVERIFY2(lines.value(1).contains("node 'cause' (Erf)"), error.what());
            QCOMPARE(lines.size(), 1 + 20 + 1);
            QVERIFY2(lines.last().contains("... and 21 more"), error.what());
        }
    }

    // Calibration from a folder of .pb files replaces the random inputs (and their warning).
    void calibrationFolder()
    {
        Graph graph = buildZooModel("lenet5");
        prepareGraph(graph);
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.path() + "/calibration"));
        for (unsigned k = 0; k < 3; ++k)
            writeTensorFile((dir.path() + QStringLiteral("/calibration/sample_%1.pb").arg(k)).toStdString(),
                            randomInput(graph, 100 + k), "image");
        gap::GapCompileOptions options;
        options.calibrationDir = (dir.path() + "/calibration").toStdString();
        const gap::GapCompileResult result = compileAndCheck(graph, options, dir.path() + "/project", 30.0);
        QCOMPARE(result.calibrationSets, size_t(3));
        QVERIFY(result.warnings.empty());
    }

    // --calibration-method: a calibration set with one outlier (50 among values in [-1, 1]) sets
    // the input's int8 scale under minmax; percentile and mse clip it, and the network is then
    // far more accurate on ordinary inputs. Every project stays bit-exact with its reference.
    void calibrationMethods()
    {
        // The ranges themselves on Laplace-distributed values (scale 1): the 99th percentile of
        // |x| is ln 100 = 4.61; the clipping with the least squared error at 4 bits is about 5.03
        // (Banner et al., "ACIQ", 2018); minmax keeps the largest.
        {
            GraphBuilder builder("laplace", 13);
            builder.output(builder.op("Identity", {builder.input("x", DType::Float32, {1, 40000})}, {}, "copy"));
            const Graph identity = builder.finish();
            std::mt19937 random(3);
            std::exponential_distribution<float> magnitude(1.0f);
            std::vector<float> values(40000);
            for (size_t k = 0; k < values.size(); ++k)
                values[k] = (k % 2 ? 1.0f : -1.0f) * magnitude(random);
            const std::vector<std::vector<TensorData>> sets{{TensorData::fromFloats({1, 40000}, values)}};
            float largest = 0.0f;
            for (float v : values)
                largest = std::max(largest, std::fabs(v));
            const TensorId x = identity.inputs[0];
            QCOMPARE(calibrate(identity, sets).maxAbs[size_t(x)], largest);
            const float percentile = calibrate(identity, sets, {CalibrationMethod::Percentile, 99.0, 8}).maxAbs[size_t(x)];
            const float mse = calibrate(identity, sets, {CalibrationMethod::MinimumError, 99.99, 4}).maxAbs[size_t(x)];
            qInfo("Laplace: largest %.2f, 99th percentile %.2f, least error at 4 bits %.2f", largest, percentile, mse);
            QVERIFY(percentile > 4.3f && percentile < 4.9f);
            QVERIFY(mse > 4.4f && mse < 5.7f);
        }
        const Graph graph = pytorchStyleGraph();
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.path() + "/calibration"));
        for (unsigned k = 0; k < 16; ++k) {
            TensorData input = randomInput(graph, 200 + k);
            if (k == 0)
                input.data<float>()[17] = 50.0f;
            writeTensorFile((dir.path() + QStringLiteral("/calibration/sample_%1.pb").arg(k)).toStdString(), input,
                            "input");
        }
        const TensorData ordinary = randomInput(graph, 777);
        const std::vector<float> floatOutput = Interpreter(graph).run({ordinary}).at(0).toFloats();
        std::map<std::string, double> inputScale, sqnr;
        for (const char* method : {"minmax", "percentile", "mse"}) {
            gap::GapCompileOptions options;
            options.quantization = "int8";
            options.calibrationDir = (dir.path() + "/calibration").toStdString();
            options.calibrationMethod = method;
            const gap::GapCompileResult result =
                compileAndCheck(graph, options, dir.path() + "/project_" + method, 0.0);
            inputScale[method] = result.network.tensors[size_t(result.network.inputs[0])].scale;
            sqnr[method] = gap::sqnrDb(floatOutput, referenceOutput(result.network, ordinary));
            qInfo("%s: input scale %.4f, SQNR %.1f dB on an ordinary input", method, inputScale[method], sqnr[method]);
        }
        QCOMPARE(inputScale["minmax"], 50.0 / 127.0);
        // 16 sets of 768 values: the outlier is beyond the 99.99th percentile. A single value far
        // out weighs more in the squared error than the rounding of all the others: mse keeps it.
        QVERIFY(inputScale["percentile"] < inputScale["minmax"] / 10);
        // (30.4 dB against 35.0 dB: the global pooling's own scale recovers part of what the
        // outlier's coarse input scale loses. The residual addition on the SDK's kernels rounds twice
        // with 8-bit multipliers, where Tessera's own rounded once with 15-bit ones: 30.6 / 36.3 dB
        // then; the global pooling on the SDK's kernels, its output scale following its multiplier,
        // took 29.6 / 33.2 dB to 30.4 / 35.0 dB.)
        QVERIFY(sqnr["percentile"] > sqnr["minmax"] + 3.0);
        QVERIFY(inputScale["mse"] <= inputScale["minmax"]);
        gap::GapCompileOptions unknown;
        unknown.calibrationMethod = "kl";
        try {
            gap::prepareGapDeployment(graph, unknown);
            QFAIL("an unknown calibration method was taken");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains("minmax") && QString(error.what()).contains("mse"), error.what());
        }
    }

    // The command line: a compiled project and its report, in 16 and 8 bits; an unknown
    // quantization is refused with the choices.
    void commandLine()
    {
        QTemporaryDir dir;
        const QString cli = QStringLiteral(TESSERA_CLI_PATH);
        const QString model = dir.path() + "/lenet5.onnx";
        QCOMPARE(test::runProcess(cli, {"zoo", "lenet5", "-o", model}).exitCode, 0);
        const QStringList compile{"compile", model, "--target", "gap9", "--l2", "256K", "-o", dir.path() + "/out"};
        const test::ProcessResult result = test::runProcess(cli, compile);
        QVERIFY2(result.exitCode == 0, qPrintable(test::describe("tessera compile", compile, result)));
        QVERIFY2(result.out.contains("budgets: L1 131072 B, L2 262144 B"), qPrintable(result.out));
        QVERIFY2(result.err.contains("tessera compile: tiling and allocating 7 layers for gap9"), qPrintable(result.err));
        QString error;
        const QJsonObject report = test::readJson(dir.path() + "/out/report.json", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(report["target"].toString(), QStringLiteral("gap9"));
        QCOMPARE(report["layers"].toArray().size(), 7);
        QVERIFY(report["layers"].toArray()[0].toObject()["estimated_cycles"].toDouble() > 0);
        QVERIFY(report["layers"].toArray()[0].toObject()["macs"].toDouble() > 0);
        QVERIFY(report["estimate"].toObject()["cycles"].toDouble() > 0);

        const QStringList int8{"compile", model, "--quant", "int8", "-o", dir.path() + "/out8"};
        const test::ProcessResult compiled8 = test::runProcess(cli, int8);
        QVERIFY2(compiled8.exitCode == 0, qPrintable(test::describe("tessera compile --quant int8", int8, compiled8)));
        QVERIFY2(compiled8.out.contains("quantization: int8 symmetric"), qPrintable(compiled8.out));
        const QJsonObject report8 = test::readJson(dir.path() + "/out8/report.json", &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(report8["layers"].toArray()[0].toObject()["output_scale"].toDouble() > 0);
        // The same network in 8 bits takes about half the constant bytes of the 16-bit one.
        const double flash16 = report["memory"].toObject()["flash_bytes"].toDouble();
        const double flash8 = report8["memory"].toObject()["flash_bytes"].toDouble();
        QVERIFY2(flash8 > 0 && flash8 < 0.7 * flash16, qPrintable(QStringLiteral("%1 vs %2").arg(flash8).arg(flash16)));

        const QStringList int4{"compile", model, "--quant", "int4", "-o", dir.path() + "/out4"};
        const test::ProcessResult refused = test::runProcess(cli, int4);
        QCOMPARE(refused.exitCode, 2);  // an option value out of range: bad input
        QVERIFY2(refused.err.contains("--quant") && refused.err.contains("int8"), qPrintable(refused.err));
    }
};

QTEST_GUILESS_MAIN(GapCompileTest)
#include "tst_gap_compile.moc"
