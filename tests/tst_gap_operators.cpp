// The GAP layers beyond convolutions and pooling: activations (Sigmoid, Tanh, HardSigmoid,
// HardSwish, LeakyRelu, PRelu with one slope, Swish), squeeze-and-excitation gates, per-channel
// PRelu, subtractions, nearest upsampling and concatenation along H and W: the fixed-point
// definition
// against the real functions, the C kernels' table against the reference's, and whole projects
// bit-exact with the reference in 16 and 8 bits.
#include "base/error.h"
#include "gap/compile/gap_lowering.h"
#include "gap_compile_check.h"
#include "interp/fixed_point/activations.h"
#include "ir/builder.h"
#include "session/model_loader.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <optional>
#include <random>

using namespace tessera;
using namespace tessera::test;
namespace fp = tessera::fixed_point;

namespace {

// Every activation after a convolution, as PyTorch's exporter writes them: HardSwish as the
// operator (opset 14) and as x * HardSigmoid(x) (earlier opsets), Sigmoid, Tanh, LeakyRelu, PRelu
// with one slope, and HardSigmoid with ONNX's default alpha 0.2.
Graph activationsGraph()
{
    GraphBuilder builder("activations", 14);
    std::mt19937 random(41);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 12, 10});
    x = builder.op("HardSwish", {conv(x, 3, 8, 3, 3.0f, "conv1")}, {}, "hswish");
    const TensorId b = conv(x, 8, 8, 3, 2.0f, "conv2");
    const TensorId gate =
        builder.op("HardSigmoid", {b}, {{"alpha", Attribute::ofFloat(1.0f / 6.0f)}, {"beta", Attribute::ofFloat(0.5f)}},
                   "hsig");
    x = builder.op("Mul", {b, gate}, {}, "hsig_mul");
    x = builder.op("Sigmoid", {conv(x, 8, 8, 1, 2.0f, "conv3")}, {}, "sigmoid");
    x = builder.op("Tanh", {conv(x, 8, 8, 3, 4.0f, "conv4")}, {}, "tanh");
    x = builder.op("LeakyRelu", {conv(x, 8, 6, 3, 2.0f, "conv5")}, {{"alpha", Attribute::ofFloat(0.1f)}}, "leaky");
    const TensorId slope = builder.constant("prelu.slope", TensorData::fromFloats({1}, {0.25f}));
    x = builder.op("PRelu", {conv(x, 6, 6, 1, 2.0f, "conv6"), slope}, {}, "prelu");
    x = builder.op("HardSigmoid", {x}, {}, "hardsigmoid");
    builder.output(conv(x, 6, 4, 1, 1.0f, "conv7"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Squeeze-and-excitation blocks as MobileNet v3 and EfficientNet have them, in PyTorch's export
// patterns: a convolution with Swish (SiLU as x * Sigmoid(x)), then a gate of ReduceMean over H and
// W (keepdims 1), 1x1 convolutions with ReLU and a HardSigmoid, multiplied into the channels; then a
// second block gated by Swish and Sigmoid.
Graph squeezeExcitationGraph()
{
    GraphBuilder builder("squeeze_excitation", 13);
    std::mt19937 random(43);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    auto swish = [&](TensorId x, const std::string& name) {
        return builder.op("Mul", {x, builder.op("Sigmoid", {x}, {}, name)}, {}, name + "_mul");
    };
    auto squeeze = [&](TensorId x, const std::string& name) {
        return builder.op("ReduceMean", {x}, {{"axes", Attribute::ofInts({2, 3})}, {"keepdims", Attribute::ofInt(1)}},
                          name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 4, 9, 11});
    x = swish(conv(x, 4, 8, 3, 2.0f, "conv1"), "swish1");
    TensorId gate = builder.op("Relu", {conv(squeeze(x, "se1_pool"), 8, 4, 1, 2.0f, "se1_fc1")}, {}, "se1_relu");
    gate = builder.op("HardSigmoid", {conv(gate, 4, 8, 1, 2.0f, "se1_fc2")},
                      {{"alpha", Attribute::ofFloat(1.0f / 6.0f)}, {"beta", Attribute::ofFloat(0.5f)}}, "se1_gate");
    x = builder.op("Mul", {x, gate}, {}, "se1_scale");
    x = conv(x, 8, 6, 3, 1.5f, "conv2");
    gate = swish(conv(squeeze(x, "se2_pool"), 6, 3, 1, 2.0f, "se2_fc1"), "se2_swish");
    gate = builder.op("Sigmoid", {conv(gate, 3, 6, 1, 2.0f, "se2_fc2")}, {}, "se2_gate");
    x = builder.op("Mul", {gate, x}, {}, "se2_scale");  // the gate first: either order is taken
    builder.output(conv(x, 6, 5, 1, 1.0f, "conv3"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Differences of two branches, one with a ReLU fused, one of the block input less a branch (in
// another format), and one of a tensor less itself.
Graph subtractionGraph()
{
    GraphBuilder builder("subtraction", 13);
    std::mt19937 random(47);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 10, 9});
    x = conv(x, 3, 6, 3, 2.0f, "conv1");
    const TensorId a = conv(x, 6, 6, 3, 3.0f, "branch_a");
    const TensorId b = conv(x, 6, 6, 1, 1.0f, "branch_b");
    TensorId d = builder.op("Relu", {builder.op("Sub", {a, b}, {}, "difference")}, {}, "difference_relu");
    d = builder.op("Sub", {x, d}, {}, "residual");
    d = builder.op("Sub", {d, d}, {}, "zero");
    const TensorId y = builder.op("Sub", {conv(x, 6, 6, 1, 0.5f, "conv2"), d}, {}, "less_zero");
    builder.output(conv(y, 6, 4, 3, 1.0f, "conv3"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Upsampling as PyTorch writes nn.Upsample(scale_factor=2) (Resize, asymmetric, floor, with an
// empty roi) and with ONNX's defaults (half_pixel) by 3 along H and 2 along W, from sizes.
TensorId upsample(GraphBuilder& builder, TensorId x, std::vector<float> scales, const std::string& name,
                  bool pytorch = true, std::vector<int64_t> sizes = {})
{
    const TensorId roi = builder.constant(name + ".roi", TensorData(DType::Float32, {0}));
    const TensorId scaleInput = builder.constant(
        name + ".scales", TensorData::fromFloats({int64_t(scales.size())}, std::move(scales)));
    std::vector<TensorId> inputs{x, roi, scaleInput};
    if (!sizes.empty())
        inputs.push_back(builder.constant(name + ".sizes", TensorData::fromInts(DType::Int64, {4}, sizes)));
    AttributeMap attributes = {{"mode", Attribute::ofString("nearest")}};
    if (pytorch) {
        attributes["coordinate_transformation_mode"] = Attribute::ofString("asymmetric");
        attributes["nearest_mode"] = Attribute::ofString("floor");
    }
    return builder.op("Resize", inputs, std::move(attributes), name);
}

Graph upsamplingGraph()
{
    GraphBuilder builder("upsampling", 13);
    std::mt19937 random(53);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 6, 5});
    x = upsample(builder, conv(x, 3, 6, 3, 2.0f, "conv1"), {1, 1, 2, 2}, "up1");
    x = upsample(builder, conv(x, 6, 4, 3, 1.5f, "conv2"), {}, "up2", false, {1, 4, 36, 20});
    builder.output(conv(x, 4, 4, 1, 1.0f, "conv3"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// PRelu with one slope per channel as PyTorch's nn.PReLU(num_parameters=C) exports it (slope
// [C, 1, 1]), with slopes of both signs and beyond 1, after a convolution and before another.
Graph channelPReluGraph()
{
    GraphBuilder builder("channel_prelu", 13);
    std::mt19937 random(59);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 7, 6});
    const TensorId slopes =
        builder.constant("prelu.weight", TensorData::fromFloats({5, 1, 1}, {0.25f, 0.01f, -0.5f, 1.5f, 0.0f}));
    x = builder.op("PRelu", {conv(x, 3, 5, 3, 2.0f, "conv1"), slopes}, {}, "prelu");
    builder.output(conv(x, 5, 4, 3, 1.0f, "conv2"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Concatenations along W (widths 5 and 10, the second input upsampled along W only) and along H
// (heights 6 and 12, with a negative axis), each joining inputs of different formats.
Graph lineConcatGraph()
{
    GraphBuilder builder("line_concat", 13);
    std::mt19937 random(61);
    auto conv = [&](TensorId x, int64_t in, int64_t out, int64_t k, float scale, const std::string& name) {
        return seededConv(builder, random, x, in, out, k, scale, name);
    };
    TensorId x = builder.input("input", DType::Float32, {1, 3, 6, 5});
    const TensorId p = conv(x, 3, 4, 3, 2.0f, "conv1");
    const TensorId q = upsample(builder, conv(x, 3, 4, 1, 0.5f, "conv2"), {1, 1, 1, 2}, "wide");
    const TensorId r = builder.op("Concat", {p, q}, {{"axis", Attribute::ofInt(3)}}, "join_w");
    const TensorId s = upsample(builder, conv(r, 4, 4, 3, 3.0f, "conv3"), {1, 1, 2, 1}, "tall");
    const TensorId t = builder.op("Concat", {r, s}, {{"axis", Attribute::ofInt(-2)}}, "join_h");
    builder.output(conv(t, 4, 3, 3, 1.0f, "conv4"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A one-activation network on a [1, 2, 3, 3] input, with PRelu's slope as a second input when given.
Graph singleActivation(const std::string& op, AttributeMap attributes, std::optional<TensorData> slope = std::nullopt)
{
    GraphBuilder builder("single", 14);
    const TensorId x = builder.input("input", DType::Float32, {1, 2, 3, 3});
    std::vector<TensorId> inputs{x};
    if (slope)
        inputs.push_back(builder.constant("slope", *slope));
    builder.output(builder.op(op, inputs, std::move(attributes), "act"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

QString loweringProblem(const Graph& graph)
{
    try {
        gap::lowerForGap(graph);
    } catch (const UnsupportedError& error) {
        return QString::fromUtf8(error.what());
    }
    return {};
}

// Compiles `graph` for the current row of a projectsRunBitExact-style table (quantization, cores,
// L1) and checks the project bit-exact with the reference and near float (30 dB in 16 bits, 15 in 8).
gap::GapCompileResult compileRowAndCheck(const Graph& graph, const QString& folder)
{
    QFETCH(QString, quantization);
    QFETCH(int, cores);
    QFETCH(int, l1);
    gap::GapCompileOptions options;
    options.quantization = quantization.toStdString();
    options.l1 = uint64_t(l1);
    return compileAndCheck(graph, options, folder, quantization == "int8" ? 15.0 : 30.0, cores);
}

}  // namespace

class GapOperatorsTest : public QObject {
    Q_OBJECT

private slots:
    // The table holds round(32768 sigmoid(i / 32)); over [-20, 20] the interpolated values stay
    // within 1.5 units of Q15 (4.6e-5) of the sigmoid, and tanh = 2 sigmoid(2x) - 1 within 3 units.
    void sigmoidTableAndInterpolation()
    {
        const std::vector<uint16_t>& table = fp::sigmoidTable();
        QCOMPARE(table.size(), size_t(513));
        for (size_t i = 0; i < table.size(); ++i)
            QCOMPARE(int(table[i]), int(std::lround(32768.0 / (1.0 + std::exp(-double(i) / 32.0)))));
        double worstSigmoid = 0.0, worstTanh = 0.0;
        for (int64_t x12 = -20 * 4096; x12 <= 20 * 4096; x12 += 7) {
            const double x = double(x12) / 4096.0;
            worstSigmoid = std::max(worstSigmoid, std::fabs(fp::sigmoidQ15(x12) / 32768.0 - 1.0 / (1.0 + std::exp(-x))));
            fp::ActivationParams tanh;
            tanh.kind = fp::ActivationKind::Tanh;
            worstTanh = std::max(worstTanh, std::fabs(double(fp::activationValue(tanh, x12)) / 32768.0 - std::tanh(x)));
        }
        qInfo("largest error: sigmoid %.2g, tanh %.2g", worstSigmoid, worstTanh);
        QVERIFY(worstSigmoid < 1.5 / 32768);
        QVERIFY(worstTanh < 3.0 / 32768);
        QCOMPARE(fp::sigmoidQ15(0), 16384);
        QCOMPARE(fp::sigmoidQ15(int64_t(1) << 40), 32768);
        QCOMPARE(fp::sigmoidQ15(-(int64_t(1) << 40)), 0);
    }

    // The C kernels read the same table (CNN_KernelHelpers.h), value for value.
    void kernelTableIsTheReferences()
    {
        QFile header(QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels/CNN_KernelHelpers.h"));
        QVERIFY(header.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(header.readAll());
        const QRegularExpressionMatch initializer =
            QRegularExpression(QStringLiteral("AT_SIGMOID_Q15\\[513\\] = \\{([^}]*)\\}")).match(text);
        QVERIFY(initializer.hasMatch());
        const QStringList values = initializer.captured(1).split(',', Qt::SkipEmptyParts);
        QCOMPARE(values.size(), 513);
        for (int i = 0; i < values.size(); ++i)
            QCOMPARE(values[i].trimmed().toInt(), int(fp::sigmoidTable()[size_t(i)]));
    }

    // The hard functions and the leaky ReLU in integers against their real values, at Q12 input
    // and a Q12 output.
    void integerFunctionsFollowTheRealOnes()
    {
        auto run = [](fp::ActivationKind kind, int offset, int cap, int alpha, int outScale, int outShift, double x) {
            fp::ActivationParams p;
            p.kind = kind;
            p.offset = offset;
            p.cap = cap;
            p.alpha = alpha;
            p.outScale = outScale;
            p.outShift = outShift;
            return fp::activate(p, std::vector<int16_t>{int16_t(std::lround(x * 4096))}).at(0) / 4096.0;
        };
        // HardSwish: v in Q24 over alpha = 1/6; 2^-24 / 6 / 2^-12 as 15 bits: 21845 / 2^29.
        for (double x : {-4.0, -3.0, -1.5, 0.0, 0.75, 2.0, 3.0, 5.5}) {
            const double expected = x * std::clamp(x / 6.0 + 0.5, 0.0, 1.0);
            QVERIFY2(std::fabs(run(fp::ActivationKind::HardSwish, 12288, 24576, 0, 21845, 29, x) - expected) < 3e-4,
                     qPrintable(QString::number(x)));
            const double sigmoid = std::clamp(x / 6.0 + 0.5, 0.0, 1.0);
            QVERIFY(std::fabs(run(fp::ActivationKind::HardSigmoid, 12288, 24576, 0, 21845, 17, x) - sigmoid) < 3e-4);
            const double leaky = x >= 0 ? x : 0.1 * x;
            QVERIFY(std::fabs(run(fp::ActivationKind::LeakyRelu, 0, 0, 3277, 1, 0, x) - leaky) < 3e-4);
        }
        // Parameters outside the document's ranges are refused.
        fp::ActivationParams bad;
        bad.outShift = 70;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, fp::activate(bad, std::vector<int8_t>{1}));
    }

    // Every activation lowered to one layer (x * HardSigmoid(x) to a HardSwish), bit-exact with the
    // reference on the emulated project in 16 and 8 bits, on 1 and 8 cores, at 64 KB of L1 and at
    // a small L1. The node named "tanh" gives the kernel tanh_, clear of the C library's tanh().
    void projectsRunBitExact_data()
    {
        QTest::addColumn<QString>("quantization");
        QTest::addColumn<int>("cores");
        QTest::addColumn<int>("l1");
        QTest::newRow("int16, 1 core") << "int16" << 1 << 65536;
        QTest::newRow("int16, 8 cores, small L1") << "int16" << 8 << 3000;
        QTest::newRow("int8, 1 core") << "int8" << 1 << 65536;
        QTest::newRow("int8, 8 cores, small L1") << "int8" << 8 << 3000;
    }

    void projectsRunBitExact()
    {
        const Graph graph = activationsGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network),
                 QStringLiteral("conv1:convolution hswish:activation conv2:convolution hsig:activation "
                                "conv3:convolution sigmoid:activation conv4:convolution tanh_:activation "
                                "conv5:convolution leaky:activation conv6:convolution prelu:activation "
                                "hardsigmoid:activation conv7:convolution"));
        QCOMPARE(network.layers[3].activation.kind, fp::ActivationKind::HardSwish);
        QCOMPARE(network.layers[3].nodes, (std::vector<std::string>{"hsig", "hsig_mul"}));
        QCOMPARE(network.layers[11].activation.kind, fp::ActivationKind::LeakyRelu);
        QCOMPARE(network.layers[11].activationAlpha, 0.25);
        QCOMPARE(network.layers[12].activationAlpha, double(0.2f));
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileRowAndCheck(graph, dir.path() + "/project");
        // The HardSwish's constants: beta / alpha = 3 and 1 / alpha = 6, in Q12.
        QCOMPARE(result.network.layers[1].activation.offset, 3 * 4096);
        QCOMPARE(result.network.layers[1].activation.cap, 6 * 4096);
        QCOMPARE(result.network.layers[9].activation.alpha, 3277);  // 0.1 in Q15
    }

    // Swish and the squeeze-and-excitation gates (channel scaling by a HardSigmoid or Sigmoid gate),
    // bit-exact in 16 and 8 bits, on 1 and 8 cores, at 64 KB and at a small L1.
    void squeezeExcitationRunsBitExact_data() { projectsRunBitExact_data(); }

    void squeezeExcitationRunsBitExact()
    {
        const Graph graph = squeezeExcitationGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network),
                 QStringLiteral("conv1:convolution swish1:activation se1_pool:global average pooling "
                                "se1_fc1:convolution se1_fc2:convolution se1_gate:activation se1_scale:channel scaling "
                                "conv2:convolution se2_pool:global average pooling se2_fc1:convolution "
                                "se2_swish:activation se2_fc2:convolution se2_gate:activation se2_scale:channel scaling "
                                "conv3:convolution"));
        QCOMPARE(network.layers[1].activation.kind, fp::ActivationKind::Swish);
        QCOMPARE(network.layers[5].activation.kind, fp::ActivationKind::HardSigmoid);
        QCOMPARE(network.layers[12].activation.kind, fp::ActivationKind::Sigmoid);
        QCOMPARE(network.layers[13].channels, std::vector<int>{6});
        QCOMPARE(network.layers[13].plane, 99);
        QTemporaryDir dir;
        compileRowAndCheck(graph, dir.path() + "/project");
    }

    // Sub of two tensors is a subtraction layer (KOP_MATSUB), a ReLU after it fused; bit-exact in 16
    // and 8 bits, on 1 and 8 cores, at 64 KB and at a small L1.
    void subtractionRunsBitExact_data() { projectsRunBitExact_data(); }

    void subtractionRunsBitExact()
    {
        const Graph graph = subtractionGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network),
                 QStringLiteral("conv1:convolution branch_a:convolution branch_b:convolution difference:subtraction "
                                "residual:subtraction zero:subtraction conv2:convolution less_zero:subtraction "
                                "conv3:convolution"));
        QVERIFY(network.layers[3].relu);
        QVERIFY(!network.layers[4].relu);
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileRowAndCheck(graph, dir.path() + "/project");
        QFile kernels(dir.path() + "/project/subtractionKernels.c");
        QVERIFY(kernels.open(QIODevice::ReadOnly));
        const QString code = QString::fromUtf8(kernels.readAll());
        // 16 bits: the difference kernel; 8 bits: the addition kernel with the second scale negated.
        if (result.network.quantization == gap::GapQuantization::Pow2Int16)
            QVERIFY(code.contains("KerMatSub") && !code.contains(QRegularExpression("\\bKerMatAdd\\b")));
        else
            QVERIFY(code.contains(QRegularExpression("KerArg\\d+->Scale2 = \\(int\\) \\(-\\d+\\)")));
    }

    // Resize and Upsample in nearest mode by whole factors are an upsampling layer that copies
    // values; bit-exact in 16 and 8 bits, on 1 and 8 cores, at 64 KB and at a small L1.
    void upsamplingRunsBitExact_data() { projectsRunBitExact_data(); }

    void upsamplingRunsBitExact()
    {
        const Graph graph = upsamplingGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network), QStringLiteral("conv1:convolution up1:nearest upsampling conv2:convolution "
                                                     "up2:nearest upsampling conv3:convolution"));
        QCOMPARE(network.layers[1].factorX, 2);
        QCOMPARE(network.layers[1].factorY, 2);
        QCOMPARE(network.layers[3].factorX, 2);
        QCOMPARE(network.layers[3].factorY, 3);
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileRowAndCheck(graph, dir.path() + "/project");
        // The copies keep the format.
        const gap::GapTensor& in = result.network.tensors[size_t(result.network.layers[3].inputs[0])];
        const gap::GapTensor& out = result.network.tensors[size_t(result.network.layers[3].output)];
        QCOMPARE(in.q, out.q);
        QCOMPARE(in.scale, out.scale);
    }

    // PRelu with one slope per channel is a layer with the slopes as its constant; bit-exact in 16
    // and 8 bits, on 1 and 8 cores, at 64 KB and at a small L1.
    void channelPReluRunsBitExact_data() { projectsRunBitExact_data(); }

    void channelPReluRunsBitExact()
    {
        const Graph graph = channelPReluGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network),
                 QStringLiteral("conv1:convolution prelu:per-channel PRelu conv2:convolution"));
        QTemporaryDir dir;
        const gap::GapCompileResult result = compileRowAndCheck(graph, dir.path() + "/project");
        // The largest slope, 1.5, leaves room for Q14: 0.25 is 4096.
        const gap::GapLayer& prelu = result.network.layers[1];
        QCOMPARE(prelu.weightsQ, 14);
        QCOMPARE(prelu.quantizedWeights, (std::vector<int16_t>{4096, 164, -8192, 24576, 0}));
    }

    // Concat along H or W is a copy layer joining lines; bit-exact in 16 and 8 bits, on 1 and 8
    // cores, at 64 KB and at a small L1.
    void lineConcatRunsBitExact_data() { projectsRunBitExact_data(); }

    void lineConcatRunsBitExact()
    {
        const Graph graph = lineConcatGraph();
        const gap::GapNetwork network = gap::lowerForGap(graph);
        QCOMPARE(layerKinds(network), QStringLiteral("conv1:convolution conv2:convolution wide:nearest upsampling "
                                                     "join_w:concatenation conv3:convolution tall:nearest upsampling "
                                                     "join_h:concatenation conv4:convolution"));
        // Along W: 4 x 6 lines of widths 5 and 10; along H: 4 lines of 6 x 15 and 12 x 15 values.
        QCOMPARE(network.layers[3].concatLines, 24);
        QCOMPARE(network.layers[3].channels, (std::vector<int>{5, 10}));
        QCOMPARE(network.layers[6].concatLines, 4);
        QCOMPARE(network.layers[6].channels, (std::vector<int>{90, 180}));
        QTemporaryDir dir;
        compileRowAndCheck(graph, dir.path() + "/project");
    }

    // What the activation layer cannot take is named with the node and the reason.
    void unsupportedFormsAreNamed()
    {
        // Slopes along W, not along the channels.
        const QString alongW =
            loweringProblem(singleActivation("PRelu", {}, TensorData::fromFloats({3}, {0.1f, 0.2f, 0.3f})));
        QVERIFY2(alongW.contains("node 'act' (PRelu)") && alongW.contains("slopes of shape [3]"), qPrintable(alongW));
        QVERIFY(loweringProblem(singleActivation("PRelu", {}, TensorData::fromFloats({2, 1, 1}, {0.1f, 0.2f}))).isEmpty());
        const QString steep = loweringProblem(singleActivation("LeakyRelu", {{"alpha", Attribute::ofFloat(1.5f)}}));
        QVERIFY2(steep.contains("node 'act' (LeakyRelu)") && steep.contains("(-1, 1)"), qPrintable(steep));
        const QString flat = loweringProblem(singleActivation("HardSigmoid", {{"alpha", Attribute::ofFloat(0.001f)}}));
        QVERIFY2(flat.contains("node 'act' (HardSigmoid)") && flat.contains("1/256"), qPrintable(flat));
        QVERIFY(loweringProblem(singleActivation("Sigmoid", {})).isEmpty());
        // A transposed convolution has no generator, and says so.
        {
            GraphBuilder builder("deconv", 13);
            const TensorId x = builder.input("x", DType::Float32, {1, 2, 3, 3});
            const TensorId w = builder.constant("w", TensorData::fromFloats({2, 2, 2, 2}, std::vector<float>(16, 0.1f)));
            builder.output(builder.op("ConvTranspose", {x, w}, {{"strides", Attribute::ofInts({2, 2})}}, "up"));
            Graph graph = builder.finish();
            prepareGraph(graph);
            const QString deconv = loweringProblem(graph);
            QVERIFY2(deconv.contains("node 'up' (ConvTranspose)") && deconv.contains("transposed convolution"),
                     qPrintable(deconv));
        }
        // Interpolating or non-whole resizing has no layer.
        for (const auto& [attributes, scales, fragment] :
             {std::tuple{AttributeMap{{"mode", Attribute::ofString("linear")}}, std::vector<float>{1, 1, 2, 2},
                         QString("mode 'linear'")},
              // Rounding x / 3 to the nearest picks input 1 for output 2, not 2 / 3 = 0.
              std::tuple{AttributeMap{{"coordinate_transformation_mode", Attribute::ofString("asymmetric")}},
                         std::vector<float>{1, 1, 3, 3}, QString("nearest_mode 'round_prefer_floor'")},
              std::tuple{AttributeMap{}, std::vector<float>{1, 1, 1.5f, 1.5f}, QString("H from 4 to 6")},
              std::tuple{AttributeMap{}, std::vector<float>{1, 2, 1, 1}, QString("channel scales must be 1")}}) {
            GraphBuilder builder("resize", 13);
            const TensorId x = builder.input("x", DType::Float32, {1, 2, 4, 4});
            const TensorId roi = builder.constant("roi", TensorData(DType::Float32, {0}));
            const TensorId s = builder.constant("scales", TensorData::fromFloats({4}, scales));
            builder.output(builder.op("Resize", {x, roi, s}, attributes, "up"));
            Graph graph = builder.finish();
            prepareGraph(graph);
            const QString problem = loweringProblem(graph);
            QVERIFY2(problem.contains("node 'up' (Resize)") && problem.contains(fragment),
                     qPrintable(problem + " / expected: " + fragment));
        }
        // A Sub of a constant has no layer.
        {
            GraphBuilder builder("offset", 13);
            const TensorId x = builder.input("x", DType::Float32, {1, 2, 3, 3});
            const TensorId mean = builder.constant("mean", TensorData::fromFloats({1, 2, 1, 1}, {0.5f, 0.25f}));
            builder.output(builder.op("Sub", {x, mean}, {}, "centre"));
            Graph graph = builder.finish();
            prepareGraph(graph);
            const QString offset = loweringProblem(graph);
            QVERIFY2(offset.contains("node 'centre' (Sub)") && offset.contains("subtraction of a constant"),
                     qPrintable(offset));
        }
        // A Mul of two full tensors is not a gate.
        GraphBuilder builder("product", 13);
        const TensorId a = builder.input("a", DType::Float32, {1, 2, 3, 3});
        const TensorId b = builder.input("b", DType::Float32, {1, 2, 3, 3});
        builder.output(builder.op("Mul", {a, b}, {}, "product"));
        Graph graph = builder.finish();
        prepareGraph(graph);
        const QString product = loweringProblem(graph);
        QVERIFY2(product.contains("node 'product' (Mul)") && product.contains("[1, 2, 3, 3]"), qPrintable(product));
    }
};

QTEST_GUILESS_MAIN(GapOperatorsTest)
#include "tst_gap_operators.moc"
