// NVDLA INT8: the integer arithmetic of the units (rounding halves away from zero, saturation, the
// SDP stages, PDP's reciprocals), the quantizer's integers in the descriptors, and the descriptor
// simulator of every INT8 loadable equal to the INT8 reference bit for bit, on nv_full and nv_small;
// the reference itself close to the float model.
#include "base/error.h"
#include "interp/fixed_point/dla_arithmetic.h"
#include "interp/interpreter.h"
#include "ir/builder.h"
#include "nvdla/compile/int8_reference.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/loadable_contents.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "onnx/onnx_export.h"
#include "onnx/tensor_proto.h"
#include "session/model_loader.h"
#include "target/nvdla_configs.h"
#include "nvdla_networks.h"
#include "test_support.h"
#include "zoo/zoo.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace tessera;
using namespace tessera::nvdla;

namespace {

NvdlaCompileOptions int8On(const std::string& config, const std::vector<std::vector<TensorData>>& calibration)
{
    NvdlaCompileOptions options;
    options.config = config;
    options.precision = target::NvdlaPrecision::Int8;
    options.calibrationSets = calibration;
    return options;
}

std::vector<std::vector<TensorData>> calibrationSets(const Graph& graph, std::uint32_t seed, int count = 4)
{
    std::vector<std::vector<TensorData>> sets;
    for (int k = 0; k < count; ++k)
        sets.push_back({test::randomFloats(graph.tensor(graph.inputs[0]).shape, seed + std::uint32_t(k), 0.0f, 1.0f)});
    return sets;
}

// Signal to quantization noise of `actual` against `expected`, in dB.
double sqnr(const TensorData& actual, const TensorData& expected)
{
    double signal = 0, noise = 0;
    for (std::int64_t i = 0; i < expected.elements(); ++i) {
        const double e = expected.getDouble(i), a = actual.getDouble(i);
        signal += e * e;
        noise += (a - e) * (a - e);
    }
    return noise == 0 ? 200.0 : 10.0 * std::log10(signal / noise);
}

struct Int8Check {
    std::int64_t differences = 0;  // simulated vs INT8 reference, elements that differ
    std::int64_t elements = 0;
    double sqnrDb = 0;             // INT8 reference (dequantized) vs the float interpreter
};

// The loadable simulated on a quantized input against the INT8 reference of the same compilation.
Int8Check checkInt8(const Graph& model, const NvdlaCompilation& compiled, std::uint32_t seed)
{
    const TensorData input = test::randomFloats(model.tensor(model.inputs[0]).shape, seed, 0.0f, 1.0f);
    const std::vector<TensorData> quantized = quantizeInputs(compiled.legalized, *compiled.int8, {input});
    const std::vector<TensorData> reference = runInt8Reference(compiled.legalized, *compiled.int8, quantized);
    const SimulationResult simulated =
        simulateLoadable(readLoadable(compiled.bytes, "int8"), quantized, target::nvdlaConfig(compiled.config));
    Int8Check check;
    if (simulated.outputs.size() != reference.size())
        return {1, 1, 0};
    for (std::size_t k = 0; k < reference.size(); ++k) {
        check.elements += reference[k].elements();
        if (simulated.outputs[k].elements() != reference[k].elements()) {
            check.differences += reference[k].elements();
            continue;
        }
        for (std::int64_t i = 0; i < reference[k].elements(); ++i)
            check.differences += simulated.outputs[k].getDouble(i) != reference[k].getDouble(i);
    }
    const std::vector<TensorData> real = dequantizeOutputs(compiled.legalized, *compiled.int8, reference);
    const std::vector<TensorData> expected = Interpreter(model).run({input});
    check.sqnrDb = sqnr(real.at(0), expected.at(0));
    return check;
}

// conv 3x3 + ReLU6, conv 3x3, the skip connection added with a ReLU, the input multiplied in with a
// Clip 0..2 fused, max pooling, a conv, average pooling.
Graph residualNetwork()
{
    GraphBuilder builder("residual_int8", 13);
    const TensorId x = builder.input("x", DType::Float32, {1, 32, 12, 12});
    auto conv = [&](TensorId in, std::int64_t k, std::int64_t c, const std::string& name, std::uint32_t seed) {
        const TensorId w = builder.constant(name + "_w", test::randomFloats({k, c, 3, 3}, seed, -0.1f, 0.1f));
        const TensorId b = builder.constant(name + "_b", test::randomFloats({k}, seed + 1, -0.1f, 0.1f));
        return builder.op("Conv", {in, w, b}, {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, name);
    };
    const TensorId zero = builder.constant("zero", TensorData::fromFloats({}, {0.0f}));
    const TensorId six = builder.constant("six", TensorData::fromFloats({}, {6.0f}));
    TensorId y = builder.op("Clip", {conv(x, 32, 32, "conv1", 21), zero, six}, {}, "relu6");
    y = conv(y, 32, 32, "conv2", 23);
    y = builder.op("Relu", {builder.op("Add", {y, x}, {}, "skip")}, {}, "skip_relu");
    const TensorId two = builder.constant("two", TensorData::fromFloats({}, {2.0f}));
    y = builder.op("Clip", {builder.op("Mul", {y, x}, {}, "gate"), zero, two}, {}, "gate_clip");
    y = builder.op("MaxPool", {y}, {{"kernel_shape", Attribute::ofInts({2, 2})}, {"strides", Attribute::ofInts({2, 2})}},
                   "pool");
    y = builder.op("Relu", {conv(y, 64, 32, "conv3", 25)}, {}, "conv3_relu");
    y = builder.op("AveragePool", {y},
                   {{"kernel_shape", Attribute::ofInts({3, 3})}, {"pads", Attribute::ofInts({1, 1, 1, 1})},
                    {"count_include_pad", Attribute::ofInt(1)}},
                   "smooth");
    builder.output(y);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// A fire module: squeeze, two expand convolutions joined by Concat, global pooling, a classifier
// and softmax (on the CPU).
Graph fireNetwork()
{
    GraphBuilder builder("fire_int8", 13);
    const auto conv = [&](TensorId in, std::int64_t k, std::int64_t c, std::int64_t size, const std::string& name,
                          std::uint32_t seed) { return test::convRelu(builder, in, k, c, size, name, seed); };
    TensorId x = builder.input("x", DType::Float32, {1, 16, 8, 8});
    const TensorId squeeze = conv(x, 16, 16, 1, "squeeze", 41);
    x = builder.op("Concat", {conv(squeeze, 32, 16, 1, "e1", 43), conv(squeeze, 32, 16, 3, "e3", 45)},
                   {{"axis", Attribute::ofInt(1)}}, "concat");
    x = builder.op("GlobalAveragePool", {x}, {}, "gap");
    x = builder.op("Flatten", {x}, {}, "flatten");
    x = builder.op("Gemm", {x, builder.constant("fc_w", test::randomFloats({10, 64}, 51, -0.3f, 0.3f))},
                   {{"transB", Attribute::ofInt(1)}}, "fc");
    builder.output(builder.op("Softmax", {x}, {{"axis", Attribute::ofInt(1)}}, "prob"));
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

}  // namespace

class TestNvdlaInt8 : public QObject {
    Q_OBJECT

private slots:
    // The rounding every right shift of the units does: to nearest, halves away from zero.
    void arithmeticRoundsHalvesAwayFromZero()
    {
        QCOMPARE(dla::roundShiftRight(3, 1), std::int64_t(2));    // 1.5
        QCOMPARE(dla::roundShiftRight(-3, 1), std::int64_t(-2));  // -1.5
        QCOMPARE(dla::roundShiftRight(-1, 1), std::int64_t(-1));  // -0.5
        QCOMPARE(dla::roundShiftRight(5, 2), std::int64_t(1));    // 1.25
        QCOMPARE(dla::roundShiftRight(-5, 2), std::int64_t(-1));  // -1.25
        QCOMPARE(dla::roundShiftRight(-6, 2), std::int64_t(-2));  // -1.5
        QCOMPARE(dla::roundShiftRight(7, 0), std::int64_t(7));
        QCOMPARE(dla::roundShiftRight(std::int64_t(1) << 62, 63), std::int64_t(1));  // 0.5
        QCOMPARE(dla::saturate(200, 8), std::int64_t(127));
        QCOMPARE(dla::saturate(-200, 8), std::int64_t(-128));
        QCOMPARE(dla::accumulatorOutput(std::int64_t(1) << 40, 0), std::int32_t(INT32_MAX));
        QCOMPARE(dla::accumulatorOutput(-10, 2), std::int32_t(-3));  // -2.5
    }

    void sdpStagesFollowTheHardware()
    {
        dla::XStage bias;
        bias.alu = true;
        bias.aluShift = 4;
        QCOMPARE(dla::sdpXStage(5, bias, 3, 1), std::int32_t(5 + 48));
        // The right shift applies with the multiplier off.
        bias.mulShift = 2;
        QCOMPARE(dla::sdpXStage(5, bias, 3, 1), std::int32_t(13));  // 53 / 4 = 13.25
        dla::XStage both = bias;
        both.mul = true;
        both.mulShift = 8;
        both.relu = true;
        QCOMPARE(dla::sdpXStage(1000, both, -100, 300), std::int32_t(0));  // the ReLU of -703
        both.relu = false;
        QCOMPARE(dla::sdpXStage(1000, both, -100, 300), std::int32_t(-703));  // -600 * 300 / 256 = -703.125
        // The ALU operand saturates to int32 after its shift; the sum does not wrap.
        dla::XStage far;
        far.alu = true;
        far.aluShift = 20;
        QCOMPARE(dla::sdpXStage(INT32_MAX, far, 32767, 1), std::int32_t(INT32_MAX));
        QCOMPARE(dla::sdpYAlu(-5, dla::Alu::Max, 2), std::int32_t(2));
        QCOMPARE(dla::sdpOutput(1000, {0, 1, 0}), std::int8_t(127));
        QCOMPARE(dla::sdpOutput(-1000, {0, 1, 0}), std::int8_t(-128));
        QCOMPARE(dla::sdpOutput(100, {20, 3, 2}), std::int8_t(60));  // (100 - 20) * 3 / 4
        QCOMPARE(dla::sdpOutput(-50, {0, 5, 3}), std::int8_t(-31));  // -31.25
        QCOMPARE(dla::inputConvert(10, 4, 3, 1), std::int8_t(9));   // 18 / 2
    }

    void poolingAveragesWithTheFirmwareReciprocals()
    {
        QCOMPARE(dla::pdpReciprocal(3), std::uint32_t(0x5555));
        // 10 over 3x3: 10 * 0x5555 / 2^16 = 3.33 -> 3, then 3 * 0x5555 / 2^16 = 0.99998 -> 1.
        QCOMPARE(dla::pdpAverage(10, 3, 3), std::int8_t(1));
        QCOMPARE(dla::pdpAverage(-10, 3, 3), std::int8_t(-1));
        QCOMPARE(dla::pdpAverage(254, 2, 1), std::int8_t(127));
        QCOMPARE(dla::pdpAverage(-6, 2, 2), std::int8_t(-2));  // -3 then -1.5 -> -2
        dla::PoolingGeometry g;
        g.channels = 1;
        g.height = g.width = 2;
        g.windowHeight = g.windowWidth = 2;
        g.padTop = g.padLeft = 1;
        g.outHeight = g.outWidth = 2;
        // Max looks at the valid elements only: the corner window holds -8 and padding, and gives -8.
        const std::vector<std::int8_t> pooled = dla::pooling(g, dla::Pooling::Max, {-8, -7, -6, -5});
        QCOMPARE(int(pooled[0]), -8);
        QCOMPARE(int(pooled[1]), -7);
        QCOMPARE(int(pooled[3]), -5);
        // The average counts the padding as zeros: (-8) / 4 = -2.
        QCOMPARE(int(dla::pooling(g, dla::Pooling::Average, {-8, -7, -6, -5})[0]), -2);
        QCOMPARE(dla::rescaleShiftFor(0.75), 15u);
        QCOMPARE(dla::rescaleScaleFor(0.75, 15), std::int16_t(24576));
        QCOMPARE(dla::rescaleShiftFor(1e-30), 63u);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, dla::rescaleShiftFor(40000.0));
    }

    // The LUT: linear and exponential spacing, interpolation with a 35-bit fraction, the slopes
    // outside the range, the priorities.
    void lookupTableFollowsTheHardware()
    {
        dla::Lut lut;
        lut.leStart = INT32_MAX;  // LE: always below its range
        lut.loStart = 0;
        lut.loFracBits = 2;  // steps of 4
        for (int i = 0; i < 257; ++i)
            lut.lo[i] = std::int16_t(10 * i);
        lut.hybridLo = lut.underflowLo = lut.overflowLo = true;
        QCOMPARE(dla::sdpLut(8, lut), std::int32_t(20));   // entry 2
        QCOMPARE(dla::sdpLut(9, lut), std::int32_t(23));   // 20 + 10/4 = 22.5 -> 23
        QCOMPARE(dla::sdpLut(11, lut), std::int32_t(28));  // 27.5 -> 28
        lut.loUnderflow = {3, 1};  // (x - start) * 3 / 2
        QCOMPARE(dla::sdpLut(-5, lut), std::int32_t(0 - 8));  // -7.5 -> -8
        lut.loOverflow = {1, -2};  // (x - end) * 1 * 4
        lut.loEnd = 1024;
        QCOMPARE(dla::sdpLut(1030, lut), std::int32_t(2560 + 24));
        // Exponential LE: entry log2(x - start) - offset, the bits below the leading one the fraction.
        dla::Lut exponential;
        exponential.exponential = true;
        exponential.leStart = 0;
        exponential.leIndex = 0;
        for (int i = 0; i < 65; ++i)
            exponential.le[i] = std::int16_t(100 * i);
        exponential.loStart = INT32_MAX;
        QCOMPARE(dla::sdpLut(4, exponential), std::int32_t(200));  // 2^2
        QCOMPARE(dla::sdpLut(6, exponential), std::int32_t(250));  // halfway from 4 to 8
        // CDP's variant: a 16-bit fraction, the difference of the entries rounded.
        QCOMPARE(dla::cdpLut(6, exponential), std::int16_t(250));
        QCOMPARE(dla::cdpLut(9, lut), std::int16_t(23));  // 20 + round(10 * 0.25)
        QVERIFY(dla::lutUsesLo(true, false, false, false, lut));   // only LO hits
        QVERIFY(!dla::lutUsesLo(false, false, true, false, lut));  // only LE hits
    }

    void networksMatchTheReferenceExactly_data()
    {
        QTest::addColumn<QString>("network");
        QTest::addColumn<QString>("config");
        QTest::addColumn<double>("minimumSqnr");
        for (const char* config : {"nv_full", "nv_small"}) {
            QTest::addRow("mnist %s", config) << "mnist" << config << 25.0;
            QTest::addRow("lenet5 %s", config) << "lenet5" << config << 25.0;
            QTest::addRow("mobilenet_v1 0.25/128 %s", config) << "mobilenet_v1" << config << 15.0;
            QTest::addRow("fire %s", config) << "fire" << config << 25.0;
        }
        QTest::addRow("residual nv_full") << "residual" << "nv_full" << 25.0;
        QTest::addRow("residual nv_small") << "residual" << "nv_small" << 25.0;
        QTest::addRow("sigmoid and tanh nv_full") << "lookup" << "nv_full" << 25.0;
        QTest::addRow("PRelu and LeakyRelu nv_small") << "prelu" << "nv_small" << 25.0;
        QTest::addRow("pooling without the padding count nv_small") << "border" << "nv_small" << 25.0;
        QTest::addRow("poolings split in width nv_full") << "wide" << "nv_full" << 25.0;
        QTest::addRow("poolings split in width nv_small") << "wide" << "nv_small" << 25.0;
        QTest::addRow("LRN nv_full") << "lrn" << "nv_full" << 25.0;
        QTest::addRow("LRN nv_small") << "lrn" << "nv_small" << 25.0;
        QTest::addRow("residual nv_large") << "residual" << "nv_large" << 25.0;
        // Every SDP stage: per-channel and scalar constants, the maximum of two tensors, a Clip in
        // x2 and y.
        QTest::addRow("every SDP stage nv_full") << "sdp" << "nv_full" << 25.0;
        QTest::addRow("NVIDIA's LeNet nv_small") << "caffe_lenet" << "nv_small" << 25.0;
        QTest::addRow("DepthToSpace and channel shuffles nv_full") << "rearrange" << "nv_full" << 25.0;
        QTest::addRow("ShuffleNet v2 unit nv_full") << "shuffle_unit" << "nv_full" << 25.0;
        QTest::addRow("split over input channels nv_full") << "wide_channels" << "nv_full" << 25.0;
        QTest::addRow("split over input channels nv_small") << "wide_channels" << "nv_small" << 25.0;
    }

    void networksMatchTheReferenceExactly()
    {
        QFETCH(QString, network);
        QFETCH(QString, config);
        QFETCH(double, minimumSqnr);
        Graph graph;
        if (network == "residual") {
            graph = residualNetwork();
        } else if (network == "prelu") {
            graph = test::preluNetwork();
        } else if (network == "border") {
            graph = test::borderPoolNetwork();
        } else if (network == "wide") {
            graph = test::widePoolNetwork();
        } else if (network == "lrn") {
            graph = test::lrnNetwork();
        } else if (network == "lookup") {
            graph = test::lookupNetwork();
        } else if (network == "sdp") {
            graph = test::residualBlock();
        } else if (network == "shuffle_unit") {
            graph = test::shuffleUnitNetwork();
        } else if (network == "wide_channels") {
            graph = test::wideChannelsNetwork();
        } else if (network == "rearrange") {
            graph = test::rearrangeNetwork();
        } else if (network == "caffe_lenet") {
            graph = test::caffeLenet();
        } else if (network == "fire") {
            graph = fireNetwork();
        } else {
            graph = test::zooNetwork(network.toStdString());
        }
        const NvdlaCompilation compiled = compileForNvdla(graph, int8On(config.toStdString(), calibrationSets(graph, 100)));
        QCOMPARE(compiled.precision, target::NvdlaPrecision::Int8);
        QVERIFY(isValid(validateLoadable(readLoadable(compiled.bytes, "int8"))));
        const Int8Check check = checkInt8(graph, compiled, 7);
        qInfo("%s on %s INT8: %lld of %lld outputs differ from the INT8 reference; reference vs float %.1f dB",
              qPrintable(network), qPrintable(config), (long long)check.differences, (long long)check.elements,
              check.sqnrDb);
        QCOMPARE(check.differences, std::int64_t(0));
        QVERIFY(check.sqnrDb > minimumSqnr);
    }

    // What the descriptors carry in INT8: the per-channel rescale in x1 (bias and multiplier pairs,
    // the shifts), the identity converters, INT8 surfaces and bound tensors, the softmax's scales.
    void descriptorsCarryTheQuantizersIntegers()
    {
        const Graph graph = fireNetwork();
        for (const char* config : {"nv_full", "nv_small"}) {
            const NvdlaCompilation compiled = compileForNvdla(graph, int8On(config, calibrationSets(graph, 200)));
            const Loadable loadable = readLoadable(compiled.bytes, "fire");
            const DlaTaskView dla = decodeDlaTask(loadable, loadable.tasks.at(0));
            const Int8Convolution& squeeze = compiled.int8->convolutions.at("squeeze");
            QCOMPARE(dla.operations.at(0).type, DlaOp::Conv);
            QCOMPARE(dla.op(0).get("in_precision"), std::int64_t(kPrecisionInt8));
            QCOMPARE(dla.op(0).get("in_cvt.enable"), std::int64_t(1));
            QCOMPARE(dla.op(0).get("out_cvt.truncate"), std::int64_t(0));
            QCOMPARE(dla.op(0).get("bytes_per_kernel"), std::int64_t(16));  // 16 channels x 1 byte
            const ConstRecord sdp = dla.op(1);
            QCOMPARE(sdp.get("x1_op.type"), std::int64_t(3));  // bias and multiplier
            QCOMPARE(sdp.get("x1_op.mode"), std::int64_t(1));  // per kernel
            QCOMPARE(sdp.get("x1_op.precision"), std::int64_t(kPrecisionInt16));
            QCOMPARE(sdp.get("x1_op.shift_value"), std::int64_t(squeeze.biasShift));
            QCOMPARE(sdp.get("x1_op.truncate"), std::int64_t(squeeze.shift));
            QCOMPARE(sdp.get("x1_op.act"), std::int64_t(1));
            QCOMPARE(sdp.get("out_cvt.scale"), std::int64_t(1));
            QCOMPARE(dla.surface(1).get("x1_data.size"), std::int64_t(16 * 4));
            const unsigned atom = target::nvdlaConfig(config).memoryAtomicBytes;
            QCOMPARE(dla.surface(1).get("x1_data.line_stride"), std::int64_t(atom * 4));
            // The multipliers keep 15 significant bits for the largest channel.
            const std::int16_t largest = *std::max_element(squeeze.scale.begin(), squeeze.scale.end());
            QVERIFY2(largest >= 16384, qPrintable(QString::number(largest)));
            // The bound input: INT8 feature data, 8-byte atoms on nv_small.
            const TensorDesc input = loadableInputs(loadable).at(0);
            QCOMPARE(int(input.dataType), int(kDataTypeInt8));
            QCOMPARE(int(input.pixelFormat), atom == 8 ? kPixelFormatFeature + 1 : kPixelFormatFeature);
            QCOMPARE(std::uint64_t(input.strides[1]), std::uint64_t(8 * atom));  // 8 columns of one atom
            const EmuTaskView emu = decodeEmuTask(loadable, loadable.tasks.at(1));
            QCOMPARE(emu.opDesc(0).getFloat("common.input_scale_factor"),
                     double(float(compiled.int8->scales.at("fc_conv"))));
            QCOMPARE(emu.source(0).get("format"), std::int64_t(atom == 8 ? 1 : 0));
        }
    }

    void refusalsNameTheNodeAndTheConfiguration()
    {
        // nv_small has no Y stage: no lookup table, and no minimum after a maximum.
        const Graph lookup = test::lookupNetwork();
        try {
            compileForNvdla(lookup, int8On("nv_small", calibrationSets(lookup, 1)));
            QFAIL("a Sigmoid compiled for nv_small");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("node 'sigmoid' (Sigmoid)") != std::string::npos &&
                         std::string(error.what()).find("needs the SDP LUT, absent on nv_small") != std::string::npos,
                     error.what());
        }
        const Graph block = test::residualBlock();
        try {
            compileForNvdla(block, int8On("nv_small", calibrationSets(block, 1)));
            QFAIL("a Clip from -1 compiled for nv_small");
        } catch (const UnsupportedError& error) {
            QVERIFY2(std::string(error.what()).find("Clip from -1: its minimum needs SDP's element-wise (Y) stage, "
                                                    "absent on nv_small") != std::string::npos,
                     error.what());
        }
        // Without calibration data the scales come from random inputs, and the compilation says so.
        const NvdlaCompilation compiled = compileForNvdla(fireNetwork(), int8On("nv_full", {}));
        QCOMPARE(compiled.warnings.size(), std::size_t(1));
        QVERIFY(compiled.warnings[0].find("--calibration") != std::string::npos);
    }

    void commandLine()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("fire.onnx");
        exportOnnxFile(fireNetwork(), model.toStdString());
        QDir(dir.path()).mkdir("calibration");
        for (int k = 0; k < 3; ++k)
            writeTensorFile(dir.filePath(QString("calibration/set%1.pb").arg(k)).toStdString(),
                            test::randomFloats({1, 16, 8, 8}, 300 + std::uint32_t(k), 0.0f, 1.0f), "x");
        const QString out = dir.filePath("out");
        const test::CliResult compiled = test::runCli({"compile", model, "--target", "nvdla", "--config", "nv_small",
                                                       "--calibration", dir.filePath("calibration"), "-o", out});
        QVERIFY2(compiled.exitCode == 0, qPrintable(compiled.err));
        QVERIFY2(!compiled.err.contains("warning"), qPrintable(compiled.err));
        QVERIFY2(compiled.out.contains("int8 x "), qPrintable(compiled.out));
        QFile reportFile(out + "/report.json");
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        const nlohmann::json report = nlohmann::json::parse(reportFile.readAll().toStdString());
        QCOMPARE(report["precision"].get<std::string>(), std::string("int8"));
        QCOMPARE(report["calibration_sets"].get<int>(), 3);
        QVERIFY(report["scales"]["x"].get<double>() > 0.0);
        const test::CliResult inspected = test::runCli({"nvdla", "inspect", out + "/model.nvdla"});
        QVERIFY2(inspected.exitCode == 0, qPrintable(inspected.out + inspected.err));
        // The simulator takes the quantized input (int8 values) and writes the raw int8 output; real
        // values for an INT8 input are refused with what to give instead.
        writeTensorFile(dir.filePath("input.pb").toStdString(),
                        TensorData::fromInts(DType::Int8, {1, 16, 8, 8}, std::vector<std::int64_t>(1024, 50)), "x");
        const test::CliResult run =
            test::runCli({"nvdla", "run", out + "/model.nvdla", "-i", dir.filePath("input.pb"), "-o", dir.filePath("run")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const TensorData output = readTensorFile(dir.filePath("run/output_0.pb").toStdString());
        QCOMPARE(output.dtype(), DType::Int8);
        QCOMPARE(output.elements(), std::int64_t(10));
        writeTensorFile(dir.filePath("real.pb").toStdString(), test::randomFloats({1, 16, 8, 8}, 1), "x");
        const test::CliResult refused =
            test::runCli({"nvdla", "run", out + "/model.nvdla", "-i", dir.filePath("real.pb"), "-o", dir.filePath("run2")});
        QVERIFY(refused.exitCode != 0);
        QVERIFY2(refused.err.contains("is INT8: give its int8 values"), qPrintable(refused.err));
    }
};

QTEST_GUILESS_MAIN(TestNvdlaInt8)
#include "tst_nvdla_int8.moc"
