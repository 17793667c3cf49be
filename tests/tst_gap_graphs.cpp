// GAP graphs end to end: the guide's MnistModel.c, verbatim, constructed from its flash image, run
// and destructed on the host; the same graph across L2 budgets (tensors in L3), with warm
// constructors, node counters and the re-entrant runner; a MobileNet-style graph with a residual
// connection; constant prefetch. Every program is built with AddressSanitizer and compared bit for
// bit with the reference interpreter's fixed-point kernels.
#include "gap_cnn_data.h"
#include "gap_toolchain.h"

#include "interp/fixed_point/pow2_kernels.h"
#include "interp/fixed_point/sq8_kernels.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <random>
#include <set>
#include <tuple>
#include <algorithm>
#include <vector>

using namespace tessera::test;
namespace fp = tessera::fixed_point;
namespace sq8 = tessera::fixed_point::sq8;

namespace {

// The constants of an SQ8 model program: random values, written as model/<name>.tensor files of
// little-endian integers (ConstInfo format 1), and the reference's views of them.
struct Sq8ModelData {
    const QTemporaryDir& work;
    std::mt19937 random;
    bool written = true;

    std::vector<int> draw(int low, int high, std::size_t count)
    {
        std::uniform_int_distribution<int> value(low, high);
        std::vector<int> values(count);
        for (int& v : values)
            v = value(random);
        return values;
    }
    void constant(const char* name, const std::vector<int>& values, int bytes)
    {
        QByteArray data;
        for (int v : values)
            for (int b = 0; b < bytes; ++b)
                data.append(char((unsigned(v) >> (8 * b)) & 0xFF));
        QFile file(work.filePath(QStringLiteral("model/%1.tensor").arg(QLatin1String(name))));
        written = written && file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
    }
    void infos(const char* name, const sq8::LayerInfos& layer)
    {
        const std::vector<int8_t> bytes = sq8::infosBytes(layer);
        constant(name, std::vector<int>(bytes.begin(), bytes.end()), 1);
    }
    // The input file of the graph harness, one byte per value.
    bool input(const QString& path, const std::vector<int>& values)
    {
        QByteArray data;
        for (int v : values)
            data.append(char(v));
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(data) == data.size();
    }
    static std::vector<int8_t> int8s(const std::vector<int>& values) { return {values.begin(), values.end()}; }
    static std::vector<int32_t> int32s(const std::vector<int>& values) { return {values.begin(), values.end()}; }
    static sq8::ChannelScales scales(const std::vector<int>& scale, const std::vector<int>& shift)
    {
        return {std::vector<uint8_t>(scale.begin(), scale.end()), std::vector<uint8_t>(shift.begin(), shift.end())};
    }
};

}  // namespace

class TestGapGraphs : public QObject {
    Q_OBJECT

    GapToolchain m_toolchain;

private slots:
    void initTestCase()
    {
        QString error;
        if (!m_toolchain.init(&error) && m_toolchain.cc.isEmpty())
            QSKIP("no C compiler (cc or gcc) on PATH");
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    // A MobileNet-style graph with a residual connection (tests/gap/TinyNetGraph: strided padded
    // convolution, depthwise, pointwise, addition, pooling, global average pooling, linear,
    // softmax), generated from 300 KiB of L2 down to the smallest that works: every program is
    // bit-exact with the reference chain and moves the L3 bytes predicted, more as L2 shrinks.
    void tinyNetGraphAcrossL2Budgets()
    {
        QTemporaryDir work;
        QDir().mkpath(work.filePath(QStringLiteral("model")));
        std::mt19937 random(77u);
        const auto constant = [&](const char* name, std::size_t count, int limit) {
            const std::vector<int16_t> values = randomValues(random, count, limit);
            if (!writeQ14FloatTensor(work.filePath(QStringLiteral("model/%1.tensor").arg(QLatin1String(name))), values))
                qFatal("cannot write %s", name);
            return values;
        };
        const std::vector<int16_t> w0 = constant("W0", 16 * 3 * 9, 255), b0 = constant("B0", 16, 1023);
        const std::vector<int16_t> w1 = constant("W1", 16 * 9, 255), b1 = constant("B1", 16, 1023);
        const std::vector<int16_t> w2 = constant("W2", 16 * 16, 255), b2 = constant("B2", 16, 1023);
        const std::vector<int16_t> w4 = constant("W4", 10 * 16, 2047), b4 = constant("B4", 10, 1023);
        const std::vector<int16_t> input = randomValues(random, 3 * 32 * 32, 2047);
        QVERIFY(writeValues(work.filePath(QStringLiteral("input.bin")), input));

        const auto conv = [](int cin, int cout, int size, int filter, int stride, int pad, bool relu, bool depthwise) {
            fp::ConvPoolReluParams p;
            p.inFeatures = cin;
            p.outFeatures = cout;
            p.width = p.height = size;
            p.filterWidth = p.filterHeight = filter;
            p.strideX = p.strideY = stride;
            p.pad = pad;
            p.relu = relu;
            p.depthwise = depthwise;
            p.inQ = p.outQ = 12;
            p.filterQ = p.biasQ = 14;
            return p;
        };
        const std::vector<int16_t> x0 = fp::convPoolRelu(conv(3, 16, 32, 3, 2, 1, true, false), input, w0, b0);
        const std::vector<int16_t> x1 = fp::convPoolRelu(conv(16, 16, 16, 3, 1, 1, true, true), x0, w1, b1);
        const std::vector<int16_t> x2 = fp::convPoolRelu(conv(16, 16, 16, 1, 1, 0, false, false), x1, w2, b2);
        const std::vector<int16_t> x3 = fp::matAdd(x0, 12, x2, 12, 12, true);
        fp::PoolReluParams pool;
        pool.features = 16;
        pool.width = pool.height = 16;
        pool.poolWidth = pool.poolHeight = pool.strideX = pool.strideY = 2;
        const std::vector<int16_t> x4 = fp::poolRelu(pool, x3);
        const std::vector<int16_t> x5 = fp::globalAveragePool(16, 8, 8, x4);
        const std::vector<int16_t> x6 = fp::linearRelu(16, 10, false, 12, 14, 14, 11, x5, w4, b4);
        const std::vector<int16_t> expected = fp::softmaxQ15(x6, 11);

        const QString generator = work.filePath(QStringLiteral("gen_tinynet"));
        QStringList command;
        const ProcessResult compiled = m_toolchain.compileModel(kGapTests + QStringLiteral("/TinyNetGraph/Model.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
        const auto generate = [&](const QString& out, qint64 l2) {
            return runProcess(generator, {QStringLiteral("-o"), out, QStringLiteral("--l2"), QString::number(l2)},
                              QProcessEnvironment::systemEnvironment(), work.path());
        };
        const ProcessResult refused = generate(work.filePath(QStringLiteral("refused")), 256);
        const QRegularExpressionMatch smallest =
            QRegularExpression(QStringLiteral("raise the L2 budget to at least (\\d+) bytes")).match(refused.err);
        QVERIFY2(refused.exitCode != 0 && smallest.hasMatch(), qPrintable(refused.err + refused.out));
        const qint64 smallestL2 = smallest.captured(1).toLongLong();

        qint64 previousTraffic = -1;
        for (const qint64 budget : {qint64(300 * 1024), qint64(40000), smallestL2}) {
            const QString out = work.filePath(QStringLiteral("l2_%1").arg(budget));
            const ProcessResult generated = generate(out, budget);
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation at L2 %1").arg(budget), {generator}, generated)));
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/TinyNetKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject graph = report[QStringLiteral("graphs")].toArray().first().toObject();
            QVERIFY(graph[QStringLiteral("l2_static")].toInteger() + graph[QStringLiteral("l2_dynamic")].toInteger() <= budget);
            const qint64 predicted = graph[QStringLiteral("l3_traffic")].toInteger(-1);
            QVERIFY2(predicted >= previousTraffic, qPrintable(QStringLiteral("L3 traffic %1 at %2").arg(predicted).arg(budget)));
            previousTraffic = predicted;

            const ProcessResult ran = runGraph(out, QStringLiteral("TinyNet"), 3 * 32 * 32, 10, budget == smallestL2 ? 8 : 1,
                                               work.filePath(QStringLiteral("input.bin")), work.filePath(QStringLiteral("output.bin")));
            QVERIFY2(ran.exitCode == 0, qPrintable(QStringLiteral("TinyNet at L2 %1: %2 %3").arg(budget).arg(ran.out, ran.err)));
            QVERIFY2(ran.out.contains(QStringLiteral("L3 %1\n").arg(predicted)), qPrintable(ran.out));
            QCOMPARE(readValues(work.filePath(QStringLiteral("output.bin")), 10), expected);
        }
        QVERIFY2(previousTraffic > 0, "the smallest L2 keeps tensors in L3");
        qInfo("TinyNet: smallest L2 %lld bytes, L3 traffic there %lld bytes per run", smallestL2, previousTraffic);
    }

    // An 8-bit head written as NNTool writes SQ8 graphs (tests/gap/Sq8HeadGraph: a padded average and
    // a max pooling, a hard swish, two linear layers, a residual addition, a leaky ReLU and a softmax
    // on the SDK's contract, each layer's Infos a constant of the graph), at the model's L1 and at
    // the smallest, on 1 and 8 cores: bit-exact with the reference's kernels.
    void sq8GraphOnTheSdkContractRunsBitExact()
    {
        QTemporaryDir work;
        QDir().mkpath(work.filePath(QStringLiteral("model")));
        Sq8ModelData data{work, std::mt19937(101u)};
        const std::vector<int> input = data.draw(-128, 127, 4 * 9 * 9);
        const std::vector<int> w1 = data.draw(-127, 127, 64 * 64), b1 = data.draw(-20000, 20000, 64);
        const std::vector<int> s1 = data.draw(128, 255, 64), n1 = data.draw(15, 17, 64);
        const std::vector<int> w3 = data.draw(-127, 127, 10 * 64), b3 = data.draw(-20000, 20000, 10);
        const std::vector<int> s3 = data.draw(128, 255, 10), n3 = data.draw(15, 17, 10);
        sq8::LayerInfos pool0, pool1, swish1, fc1, res2, fc3, leaky3, soft4;
        pool0.actScale = 0;  // no scaling after the ReLU
        pool1.actScale = 200;
        pool1.actScaleN = 8;
        fc1.a0 = 100;
        res2.in1Scale = 200;
        res2.in1ScaleN = 8;
        res2.outScale = 150;
        res2.outScaleN = 8;
        swish1.a0 = 96;  // x * clip(x + 3, 0, 6) with x in sixteenths, scaled by 200 / 2^12
        swish1.b0 = 48;
        swish1.actScale = 200;
        swish1.actScaleN = 12;
        leaky3.a0 = 13;  // a slope of 13 / 128 below 0
        soft4.softmaxNorm = 11;  // Leaky3's output in sixteenths
        for (const auto& [name, values, bytes] :
             {std::tuple{"Fc1_W", &w1, 1}, {"Fc1_B", &b1, 4}, {"Fc1_S", &s1, 1}, {"Fc1_N", &n1, 1},
              {"Fc3_W", &w3, 1}, {"Fc3_B", &b3, 4}, {"Fc3_S", &s3, 1}, {"Fc3_N", &n3, 1}})
            data.constant(name, *values, bytes);
        for (const auto& [name, layer] :
             {std::pair{"Pool0_I", &pool0}, {"Pool1_I", &pool1}, {"Fc1_I", &fc1}, {"Res2_I", &res2}, {"Fc3_I", &fc3},
              {"Swish1_I", &swish1}, {"Leaky3_I", &leaky3}, {"Soft4_I", &soft4}})
            data.infos(name, *layer);
        QVERIFY(data.written && data.input(work.filePath(QStringLiteral("input.bin")), input));

        fp::PoolReluParams average;
        average.features = 4, average.width = average.height = 9, average.pool = fp::PoolReluParams::Pool::Average;
        average.poolWidth = average.poolHeight = 3, average.strideX = average.strideY = 2, average.pad = 1;
        fp::PoolReluParams maximum;
        maximum.features = 4, maximum.width = maximum.height = 5, maximum.pool = fp::PoolReluParams::Pool::Max;
        maximum.poolWidth = maximum.poolHeight = 2;
        const std::vector<int8_t> p0 = sq8::sdkPoolAct(average, sq8::Activation::ReLU, pool0, Sq8ModelData::int8s(input));
        const std::vector<int8_t> x = sq8::sdkStandaloneAct(
            sq8::StandaloneActivation::HSwish, swish1, sq8::sdkPoolAct(maximum, sq8::Activation::None, pool1, p0));
        QCOMPARE(x.size(), std::size_t(64));
        const std::vector<int8_t> a1 = sq8::linearAct(64, 64, sq8::Activation::ReLUN, fc1, x, Sq8ModelData::int8s(w1),
                                                      Sq8ModelData::int32s(b1), Sq8ModelData::scales(s1, n1));
        const std::vector<int8_t> a2 = sq8::matAddAct(x, a1, sq8::Activation::ReLU, res2);
        const std::vector<int8_t> a3 = sq8::linearAct(64, 10, sq8::Activation::None, fc3, a2, Sq8ModelData::int8s(w3),
                                                      Sq8ModelData::int32s(b3), Sq8ModelData::scales(s3, n3));
        const std::vector<int8_t> leaked = sq8::sdkStandaloneAct(sq8::StandaloneActivation::LeakyReLU, leaky3, a3);
        const std::vector<int16_t> expected = sq8::sdkSoftmax(leaked, 1, soft4.softmaxNorm, 15);
        // Values that say something: the bound, the ReLU, a spread of scores and of probabilities.
        QVERIFY(std::count(a1.begin(), a1.end(), int8_t(100)) > 0 && std::count(a2.begin(), a2.end(), int8_t(0)) > 0);
        QVERIFY(std::set<int8_t>(a3.begin(), a3.end()).size() > 5 && *std::min_element(leaked.begin(), leaked.end()) < 0);
        QVERIFY(std::set<int8_t>(x.begin(), x.end()).size() > 5 && x != sq8::sdkPoolAct(maximum, sq8::Activation::None, pool1, p0));
        QVERIFY(std::count_if(expected.begin(), expected.end(), [](int16_t p) { return p > 300; }) >= 3);

        QByteArray expectedBytes;
        for (int16_t v : expected)
            expectedBytes.append(char(v & 0xFF)).append(char((v >> 8) & 0xFF));
        runSq8GraphAtItsBudgets(work, QStringLiteral("Sq8Head"), int(input.size()), expected.size(), QStringLiteral("short int"),
                                expectedBytes);
    }

    // 8-bit convolutions written as NNTool writes them (tests/gap/Sq8ConvGraph: CNN_ConvolutionPoolAct_SQ8
    // on the SDK's contract, full and depthwise, strided, with max and average pooling, ReLU-N, hard
    // swish, ReLU and leaky ReLU), at the model's L1 and at the smallest, on 1 and 8 cores: bit-exact
    // with the reference's convolution, and every layer's kernels the SDK's by name.
    void sq8ConvolutionsOnTheSdkContractRunBitExact()
    {
        QTemporaryDir work;
        QDir().mkpath(work.filePath(QStringLiteral("model")));
        Sq8ModelData data{work, std::mt19937(202u)};
        struct Layer {
            const char* name;
            sq8::SdkConvParams params;
            sq8::StandaloneActivation activation;
            sq8::LayerInfos infos;
        };
        using Act = sq8::StandaloneActivation;
        using Pool = fp::PoolReluParams::Pool;
        std::vector<Layer> layers(4);
        layers[0] = {"Conv0", {3, 8, 12, 10, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, Act::ReLUN, {}};
        layers[0].infos.a0 = 90, layers[0].infos.biasNorm = 2, layers[0].infos.prenorm = 1;
        layers[1] = {"Dw1", {8, 8, 12, 10, 3, 3, 2, 2, 1, 1, 1, 0, 1, 0, true}, Act::HSwish, {}};
        layers[1].infos.a0 = 96, layers[1].infos.b0 = 48, layers[1].infos.actScale = 200, layers[1].infos.actScaleN = 12;
        layers[1].infos.biasNorm = 1;
        layers[2] = {"Conv2", {8, 6, 6, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, false, Pool::Max, 2, 2, 2, 2, 0}, Act::ReLU, {}};
        layers[2].infos.actScale = 150, layers[2].infos.actScaleN = 8;
        layers[3] = {"Dw3", {6, 6, 3, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, true, Pool::Average, 2, 2, 1, 1, 0}, Act::LeakyReLU, {}};
        layers[3].infos.a0 = 26;
        const std::vector<int> input = data.draw(-128, 127, 3 * 10 * 12);
        std::vector<int8_t> x = Sq8ModelData::int8s(input);
        std::vector<std::vector<int8_t>> outputs;
        for (const Layer& layer : layers) {
            const sq8::SdkConvParams& p = layer.params;
            const std::size_t taps = std::size_t(p.filterWidth) * p.filterHeight * (p.depthwise ? 1 : p.inFeatures);
            const std::vector<int> w = data.draw(-127, 127, p.outFeatures * taps), b = data.draw(-3000, 3000, p.outFeatures);
            const int shiftLow = p.depthwise ? 12 : p.inFeatures > 4 ? 15 : 13;  // more taps, larger sums
            const std::vector<int> scale = data.draw(128, 255, p.outFeatures), shift = data.draw(shiftLow, shiftLow + 1, p.outFeatures);
            const std::string n = layer.name;
            data.constant((n + "_W").c_str(), w, 1), data.constant((n + "_B").c_str(), b, 4);
            data.constant((n + "_S").c_str(), scale, 1), data.constant((n + "_N").c_str(), shift, 1);
            data.infos((n + "_I").c_str(), layer.infos);
            x = sq8::sdkConvPoolAct(p, layer.activation, layer.infos, x, Sq8ModelData::int8s(w), Sq8ModelData::int32s(b),
                                    Sq8ModelData::scales(scale, shift));
            outputs.push_back(x);
        }
        QVERIFY(data.written && data.input(work.filePath(QStringLiteral("input.bin")), input));
        // Values that say something: each layer's output spread, the bound and the ReLU reached.
        for (std::size_t i = 0; i < outputs.size(); ++i)
            QVERIFY2(std::set<int8_t>(outputs[i].begin(), outputs[i].end()).size() > (i >= 2 ? 4u : 12u), layers[i].name);
        QVERIFY(std::count(outputs[0].begin(), outputs[0].end(), int8_t(90)) > 0);
        QVERIFY(std::count(outputs[2].begin(), outputs[2].end(), int8_t(0)) > 0);
        QCOMPARE(x.size(), std::size_t(12));
        const QByteArray expected(reinterpret_cast<const char*>(x.data()), qsizetype(x.size()));
        const QString generated = runSq8GraphAtItsBudgets(work, QStringLiteral("Sq8Conv"), int(input.size()), x.size(),
                                                          QStringLiteral("signed char"), expected);
        if (QTest::currentTestFailed())
            return;
        // The kernels are the SDK's, as its generator picks them.
        QFile kernels(generated + QStringLiteral("/Sq8ConvKernels.c"));
        QVERIFY(kernels.open(QIODevice::ReadOnly));
        const QByteArray code = kernels.readAll();
        for (const char* name : {"KerParSetBiasB32_SQ8", "KerParConv3x3Stride1_SQ8", "KerParReduct_CC_ReLUN_SQ8",
                                 "KerParConvDWRedAct3x3Stride2B32_SQ8", "Ker_HSwish_SQ8", "KerParReductIO_CC_SQ8",
                                 "KerParPool2x2Stride2_ReLU_SQ8", "KerParConvDWRedAct3x3Stride1B32_SQ8",
                                 "KerParPoolNxNStrideS_SQ8", "Ker_LeakyReLU_SQ8"})
            QVERIFY2(code.contains(name), name);
    }

    // Constant prefetch (tests/gap/PrefetchGraph): with L2 for everything the last layer's weights
    // are promoted; with less, but room once the convolutions are done, they stay in L3 RAM and are
    // copied into L2 from the pooling node on; with less still they stream through staging
    // buffers. Every program is bit-exact and moves the L3 bytes predicted.
    void constantPrefetchRunsBitExact()
    {
        QTemporaryDir work;
        QDir().mkpath(work.filePath(QStringLiteral("model")));
        std::mt19937 random(91u);
        const auto constant = [&](const char* name, std::size_t count, int limit) {
            const std::vector<int16_t> values = randomValues(random, count, limit);
            if (!writeQ14FloatTensor(work.filePath(QStringLiteral("model/%1.tensor").arg(QLatin1String(name))), values))
                qFatal("cannot write %s", name);
            return values;
        };
        const std::vector<int16_t> w0 = constant("W0", 16 * 4 * 9, 255), b0 = constant("B0", 16, 1023);
        const std::vector<int16_t> w1 = constant("W1", 4 * 16, 255), b1 = constant("B1", 4, 1023);
        const std::vector<int16_t> w3 = constant("W3", 48 * 1024, 255), b3 = constant("B3", 48, 1023);
        const std::vector<int16_t> w4 = constant("W4", 10 * 48, 2047), b4 = constant("B4", 10, 1023);
        const std::vector<int16_t> input = randomValues(random, 4 * 32 * 32, 2047);
        QVERIFY(writeValues(work.filePath(QStringLiteral("input.bin")), input));
        fp::ConvPoolReluParams conv;
        conv.inFeatures = 4;
        conv.outFeatures = 16;
        conv.width = conv.height = 32;
        conv.filterWidth = conv.filterHeight = 3;
        conv.pad = 1;
        conv.relu = true;
        conv.inQ = conv.outQ = 12;
        conv.filterQ = conv.biasQ = 14;
        const std::vector<int16_t> x0 = fp::convPoolRelu(conv, input, w0, b0);
        conv.inFeatures = 16;
        conv.outFeatures = 4;
        conv.filterWidth = conv.filterHeight = 1;
        conv.pad = 0;
        conv.relu = false;
        const std::vector<int16_t> x1 = fp::convPoolRelu(conv, x0, w1, b1);
        fp::PoolReluParams pool;
        pool.features = 4;
        pool.width = pool.height = 32;
        pool.poolWidth = pool.poolHeight = pool.strideX = pool.strideY = 2;
        const std::vector<int16_t> x2 = fp::poolRelu(pool, x1);
        const std::vector<int16_t> x3 = fp::linearRelu(1024, 48, true, 12, 14, 14, 12, x2, w3, b3);
        const std::vector<int16_t> x4 = fp::linearRelu(48, 10, false, 12, 14, 14, 11, x3, w4, b4);
        const std::vector<int16_t> expected = fp::softmaxQ15(x4, 11);

        const QString generator = work.filePath(QStringLiteral("gen_prefetch"));
        QStringList command;
        const ProcessResult compiled = m_toolchain.compileModel(kGapTests + QStringLiteral("/PrefetchGraph/Model.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
        for (const auto& [budget, placement] : {std::pair{150000, "promoted"}, {120000, "prefetched"}, {100000, "streamed"}}) {
            const QString out = work.filePath(QStringLiteral("l2_%1").arg(budget));
            const ProcessResult generated =
                runProcess(generator, {QStringLiteral("-o"), out, QStringLiteral("--l2"), QString::number(budget)},
                           QProcessEnvironment::systemEnvironment(), work.path());
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {generator}, generated)));
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/PrefetchKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject graph = report[QStringLiteral("graphs")].toArray().first().toObject();
            const QJsonObject weights = findByName(graph[QStringLiteral("tensors")].toArray(), QStringLiteral("W3"));
            const QString where = weights[QStringLiteral("placement")].toString();
            const int prefetchNode = weights[QStringLiteral("prefetch_node")].toInt(-2);
            const QString observed = where == QStringLiteral("l2_static") ? QStringLiteral("promoted")
                                     : prefetchNode >= 0                   ? QStringLiteral("prefetched")
                                                                           : QStringLiteral("streamed");
            QCOMPARE(observed, QLatin1String(placement));
            if (prefetchNode >= 0)
                QVERIFY2(prefetchNode < 3 && weights[QStringLiteral("reason")].toString().contains(QStringLiteral("prefetched")),
                         qPrintable(weights[QStringLiteral("reason")].toString()));
            QVERIFY(graph[QStringLiteral("l2_static")].toInteger() + graph[QStringLiteral("l2_dynamic")].toInteger() <= budget);
            const ProcessResult ran = runGraph(out, QStringLiteral("PrefetchNet"), 4 * 32 * 32, 10, 1,
                                               work.filePath(QStringLiteral("input.bin")),
                                               work.filePath(QStringLiteral("output.bin")), QStringLiteral("Prefetch"));
            QVERIFY2(ran.exitCode == 0, qPrintable(QStringLiteral("L2 %1: %2 %3").arg(budget).arg(ran.out, ran.err)));
            QVERIFY2(ran.out.contains(QStringLiteral("L3 %1\n").arg(graph[QStringLiteral("l3_traffic")].toInteger())), qPrintable(ran.out));
            QCOMPARE(readValues(work.filePath(QStringLiteral("output.bin")), 10), expected);
            if (prefetchNode >= 0)
                QVERIFY(compilesForGap(out, QStringLiteral("Prefetch")));
        }
    }

    // The guide's MnistModel.c verbatim: its generator reads model/*.tensor, writes MnistKernels.c/.h
    // and the constants image; the host program constructs, runs and destructs the graph. The
    // memory figures are the guide's (L1 41632, L2 124692 static and 11264 dynamic) and the output
    // equals the reference chain on the same constants, on 1 and 8 cores.
    void guideGraphRunsBitExact_data()
    {
        QTest::addColumn<int>("cores");
        QTest::newRow("1 core") << 1;
        QTest::newRow("8 cores") << 8;
    }
    void guideGraphRunsBitExact()
    {
        QFETCH(int, cores);
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 7u + unsigned(cores)));
        const QString out = graph.work.filePath(QStringLiteral("out"));
        const ProcessResult generated = generateGraph(graph, out, {});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
        QVERIFY(QFile::exists(out + QStringLiteral("/Mnist_L3_Flash_Const.dat")));
        // The generation report (printed too: the model sets AT_GRAPH_TRACE_EXEC): every node with
        // its MACs, the memory totals.
        QFile reportFile(out + QStringLiteral("/MnistKernels.report.txt"));
        QVERIFY(reportFile.open(QIODevice::ReadOnly));
        const QString report = QString::fromUtf8(reportFile.readAll());
        QVERIFY2(generated.out.contains(report.left(200)), qPrintable(generated.out));
        QVERIFY2(report.contains(QStringLiteral("Memory: L1 41632 B; L2 124692 B static + 11264 B dynamic")), qPrintable(report));
        const QStringList conv1 = report.split(QLatin1Char('\n')).filter(QStringLiteral("Conv5x5ReLUMaxPool2x2_0 "));
        QVERIFY2(!conv1.isEmpty() && conv1.first().contains(QStringLiteral(" 460800 ")), qPrintable(report));  // 32x24x24 x 25
        for (const char* tensor : {"Step2Weights", "OutputStep2", "Input0"})
            QVERIFY2(report.contains(QLatin1String(tensor)), tensor);
        const QString harness = graph.work.filePath(QStringLiteral("harness"));
        QVERIFY(buildHarness(out, cores, harness));

        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
        QVERIFY2(ran.out.contains(QStringLiteral("MEMORY 41632 124692 11264 0 0")), qPrintable(ran.out));
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);

        QVERIFY(compilesForGap(out));

        // Without its constants image the graph cannot be constructed: error 1, and the emulation
        // says where it looked. The image is a file of the read-only filesystem: found again in a
        // folder TESSERA_READFS_PATH lists.
        QVERIFY(QDir(out).mkdir(QStringLiteral("readfs")));
        QVERIFY(QFile::rename(out + QStringLiteral("/Mnist_L3_Flash_Const.dat"), out + QStringLiteral("/readfs/Mnist_L3_Flash_Const.dat")));
        const ProcessResult missing = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(missing.exitCode == 1 && missing.out.contains(QStringLiteral("CONSTRUCT 1")) &&
                     missing.err.contains(QStringLiteral("no file 'Mnist_L3_Flash_Const.dat'")) &&
                     missing.err.contains(QStringLiteral("TESSERA_READFS_PATH")),
                 qPrintable(missing.out + missing.err));
        QProcessEnvironment readfs = sanitizerEnvironment();
        readfs.insert(QStringLiteral("TESSERA_READFS_PATH"), out + QStringLiteral("/readfs"));
        const ProcessResult found = runProcess(harness, arguments, readfs, out);
        QVERIFY2(found.exitCode == 0, qPrintable(describe(QStringLiteral("the graph, image in readfs/"), QStringList{harness} + arguments, found)));
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);

        // As NNTool's build rules run a generator (-o DIR -c DIR --L1 --L2 --L3): the code in the -o
        // folder, the constants image in the -c folder, the same program as above.
        if (cores == 1) {
            const QString sdkOut = graph.work.filePath(QStringLiteral("sdk_out"));
            const QString constants = graph.work.filePath(QStringLiteral("sdk_constants"));
            const ProcessResult sdkStyle = generateGraph(
                graph, sdkOut,
                {QStringLiteral("-c"), constants, QStringLiteral("--L1"), QStringLiteral("52000"), QStringLiteral("--L2"),
                 QStringLiteral("300000"), QStringLiteral("--L3"), QStringLiteral("8388608")});
            QVERIFY2(sdkStyle.exitCode == 0, qPrintable(describe(QStringLiteral("generation with -c"), {graph.generator}, sdkStyle)));
            QVERIFY(QFile::exists(constants + QStringLiteral("/Mnist_L3_Flash_Const.dat")));
            QVERIFY(!QFile::exists(sdkOut + QStringLiteral("/Mnist_L3_Flash_Const.dat")));
            QVERIFY(QFile::exists(sdkOut + QStringLiteral("/MnistKernels.c")));
            QFile image(constants + QStringLiteral("/Mnist_L3_Flash_Const.dat")), first(out + QStringLiteral("/readfs/Mnist_L3_Flash_Const.dat"));
            QVERIFY(image.open(QIODevice::ReadOnly) && first.open(QIODevice::ReadOnly));
            QVERIFY(image.readAll() == first.readAll());
        }
    }

    // The same graph with the L2 budget swept from the guide's down to the smallest that works:
    // tensors move to L3 RAM and stream through L2 staging buffers; every program runs bit-exactly,
    // the L3 bytes it moves equal the prediction and grow as L2 shrinks, and a budget below the
    // smallest is refused with the smallest named.
    void l2BudgetSweepRunsBitExact()
    {
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 11u));
        const QString tooSmallOut = graph.work.filePath(QStringLiteral("too_small"));
        const ProcessResult refused = generateGraph(graph, tooSmallOut, {QStringLiteral("--l2"), QStringLiteral("4096")});
        QVERIFY2(refused.exitCode != 0, qPrintable(refused.out));
        const QRegularExpressionMatch smallest =
            QRegularExpression(QStringLiteral("raise the L2 budget to at least (\\d+) bytes")).match(refused.err + refused.out);
        QVERIFY2(smallest.hasMatch(), qPrintable(refused.err + refused.out));
        const qint64 smallestL2 = smallest.captured(1).toLongLong();
        QVERIFY2(smallestL2 > 4096 && smallestL2 < 124692, qPrintable(smallest.captured(0)));

        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        qint64 previousTraffic = -1;
        QList<qint64> traffics;
        for (const qint64 budget : {qint64(300 * 1024), qint64(120000), qint64(40000), smallestL2}) {
            const QString out = graph.work.filePath(QStringLiteral("l2_%1").arg(budget));
            const ProcessResult generated = generateGraph(graph, out, {QStringLiteral("--l2"), QString::number(budget)});
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation at L2 %1").arg(budget),
                                                                  {graph.generator}, generated)));
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/MnistKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject placement = report[QStringLiteral("graphs")].toArray().first().toObject();
            const qint64 l2 = placement[QStringLiteral("l2_static")].toInteger() + placement[QStringLiteral("l2_dynamic")].toInteger();
            const qint64 predicted = placement[QStringLiteral("l3_traffic")].toInteger(-1);
            QVERIFY2(l2 <= budget, qPrintable(QStringLiteral("L2 %1 over the budget %2").arg(l2).arg(budget)));
            QVERIFY2(predicted >= previousTraffic,
                     qPrintable(QStringLiteral("L3 traffic %1 at L2 %2, %3 at a larger budget").arg(predicted).arg(budget).arg(previousTraffic)));
            previousTraffic = predicted;
            traffics.append(predicted);

            const QString harness = out + QStringLiteral("/harness");
            QVERIFY(buildHarness(out, 1, harness));
            const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
            QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph at L2 %1").arg(budget),
                                                            QStringList{harness} + arguments, ran)));
            QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);
            // The L3 bytes the run moved are the ones predicted; the memory figures are the report's.
            const QRegularExpressionMatch dma =
                QRegularExpression(QStringLiteral("DMA (\\d+) (\\d+) (\\d+) (\\d+)")).match(ran.out);
            QVERIFY2(dma.hasMatch(), qPrintable(ran.out));
            QCOMPARE(dma.captured(3).toLongLong() + dma.captured(4).toLongLong(), predicted);
            QVERIFY2(ran.out.contains(QStringLiteral("MEMORY %1 %2 %3 %4 %5")
                                          .arg(report[QStringLiteral("l1_used")].toInteger())
                                          .arg(placement[QStringLiteral("l2_static")].toInteger())
                                          .arg(placement[QStringLiteral("l2_dynamic")].toInteger())
                                          .arg(placement[QStringLiteral("l3_static")].toInteger())
                                          .arg(placement[QStringLiteral("l3_dynamic")].toInteger())),
                     qPrintable(ran.out));
            if (budget == smallestL2)
                QVERIFY(compilesForGap(out));
        }
        QVERIFY2(traffics.first() == 0 && traffics.last() > traffics[1], qPrintable(QStringLiteral("L3 traffic per budget: %1, %2, %3, %4").arg(traffics[0]).arg(traffics[1]).arg(traffics[2]).arg(traffics[3])));
        qInfo("MNIST L3 traffic per run at L2 300 KiB, 120000, 40000 and %lld (the smallest): %lld, %lld, %lld, %lld bytes",
              smallestL2, traffics[0], traffics[1], traffics[2], traffics[3]);
    }

    // The warm constructors with the guide's signatures (WARM_L1, WARM_L2_DYN_L1, WARM_ALL): the
    // memories they leave to the caller are given back and taken again between two runs, which agree
    // with each other and with the reference; with a small L2 the constants in L3 are kept too.
    void warmConstructorsRunBitExact_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<int>("l2Budget");
        QTest::newRow("WARM_L1, guide's L2") << 1 << 300 * 1024;
        QTest::newRow("WARM_L2_DYN_L1, 40000 bytes of L2") << 2 << 40000;
        QTest::newRow("WARM_ALL, 40000 bytes of L2") << 3 << 40000;
    }
    void warmConstructorsRunBitExact()
    {
        QFETCH(int, mode);
        QFETCH(int, l2Budget);
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 23u + unsigned(mode), {QStringLiteral("-DWARM_MODE=%1").arg(mode)}));
        const QString out = graph.work.filePath(QStringLiteral("out"));
        const ProcessResult generated = generateGraph(graph, out, {QStringLiteral("--l2"), QString::number(l2Budget)});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
        const QString harness = out + QStringLiteral("/harness_warm");
        QVERIFY(buildHarness(out, 1, harness, mode));
        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the warm graph"), QStringList{harness} + arguments, ran)));
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);
        QVERIFY(compilesForGap(out));
    }

    // ARG_SCOPE_ARG_ALLOC input and output (NNTool's ALLOCATE node option): the runner takes no
    // arguments, the header declares the globals Input0 and Output0, the constructor points them at
    // L2 blocks of their own (counted in the L2 memory) and the destructor frees them; the output
    // equals the reference, also at a tight L2 budget, where what they take is not given to the rest.
    void allocatedArgumentsRunBitExact()
    {
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 61u, {QStringLiteral("-DALLOCATED_IO")}));
        const QString out = graph.work.filePath(QStringLiteral("out"));
        for (const int l2Budget : {300 * 1024, 40000}) {
            const ProcessResult generated = generateGraph(graph, out, {QStringLiteral("--l2"), QString::number(l2Budget)});
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
            QFile headerFile(out + QStringLiteral("/MnistKernels.h"));
            QVERIFY(headerFile.open(QIODevice::ReadOnly));
            const QString header = QString::fromUtf8(headerFile.readAll());
            QVERIFY2(header.contains(QStringLiteral("extern short int *__restrict__ Input0;")) &&
                         header.contains(QStringLiteral("extern short int *__restrict__ Output0;")) &&
                         header.contains(QStringLiteral("int MnistCNN(void);")),
                     qPrintable(header));
            const QString harness = out + QStringLiteral("/harness");
            QVERIFY(buildHarness(out, 1, harness, 0, {}, {QStringLiteral("-DALLOCATED_IO")}));
            const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                        graph.work.filePath(QStringLiteral("output.bin"))};
            const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
            QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("ALLOCATED 1")) &&
                         ran.out.contains(QStringLiteral("RELEASED 1")),
                     qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
            QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);
            // The L2 memory the graph reports holds the two blocks (28 x 28 and 10 int16, aligned to 4).
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/MnistKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject placed = report[QStringLiteral("graphs")].toArray().first().toObject();
            QCOMPARE(placed[QStringLiteral("l2_arguments")].toInteger(), 28 * 28 * 2 + 20);
            QVERIFY(placed[QStringLiteral("l2_static")].toInteger() + placed[QStringLiteral("l2_dynamic")].toInteger() +
                        placed[QStringLiteral("l2_arguments")].toInteger() <= l2Budget);
            const QStringList fields = ran.out.split(QLatin1Char('\n')).filter(QStringLiteral("MEMORY ")).value(0).split(QLatin1Char(' '));
            QCOMPARE(fields.value(2).toLongLong(), placed[QStringLiteral("l2_static")].toInteger(-1) + 28 * 28 * 2 + 20);
            QVERIFY(compilesForGap(out));
        }
    }

    // AT_GRAPH_MONITOR_CYCLES (into MnistPerf), _PRODUCE_NODE_NAMES and _PRODUCE_OPERINFOS: the runner
    // fills one cycle count per node, and the names and operation counts equal the report's.
    void nodeCountersAndNames()
    {
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 41u, {QStringLiteral("-DINSTRUMENTED")}));
        const QString out = graph.work.filePath(QStringLiteral("out"));
        const ProcessResult generated = generateGraph(graph, out, {});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
        const QString harness = out + QStringLiteral("/harness");
        QVERIFY(buildHarness(out, 1, harness, 0, {}, {QStringLiteral("-DINSTRUMENTED")}));
        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);
        QString error;
        const QJsonObject report = readJson(out + QStringLiteral("/MnistKernels.tiling.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray nodes = report[QStringLiteral("graphs")].toArray().first().toObject()[QStringLiteral("nodes")].toArray();
        QCOMPARE(nodes.size(), 4);
        const QStringList lines = ran.out.split(QLatin1Char('\n')).filter(QRegularExpression(QStringLiteral("^NODE ")));
        QCOMPARE(lines.size(), 4);
        for (int n = 0; n < 4; ++n) {
            const QStringList fields = lines[n].split(QLatin1Char(' '));
            const QJsonObject node = nodes[n].toObject();
            QCOMPARE(fields.value(1), node[QStringLiteral("source_kernel")].toString());
            QCOMPARE(fields.value(2).toLongLong(), node[QStringLiteral("operations")].toInteger(-1));
            QVERIFY2(fields.value(3).toLongLong() > 0, qPrintable(lines[n]));
            QVERIFY(node[QStringLiteral("estimated_cycles")].toDouble() > 0);
        }
        QVERIFY(compilesForGap(out));
    }

    // AT_GRAPH_CHECKSUM, AT_GRAPH_DUMP_TENSOR (inputs and outputs) of AT_GRAPH_DUMP_ONE_NODE,
    // AT_GRAPH_DUMP_GRAPH_OUTPUTS, AT_GRAPH_NOINLINE_NODE and AT_GRAPH_SIZE_OPT on the guide's model: the run prints the
    // checksum of every node's output and the values of the second convolution's input and output
    // and of the graph output, all equal to the reference chain's - also at the smallest L2, where
    // the tensors between nodes live in L3 RAM and are read without adding to the kernels' L3 traffic.
    void tensorTracesMatchTheReference()
    {
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 53u, {QStringLiteral("-DTRACED")}));
        const std::vector<int16_t> input = readValues(graph.work.filePath(QStringLiteral("input.bin")), 28 * 28);
        const std::vector<std::vector<int16_t>> stages = graph.stages(input);
        const QStringList nodes{QStringLiteral("Conv5x5ReLUMaxPool2x2_0"), QStringLiteral("Conv5x5ReLUMaxPool2x2_1"),
                                QStringLiteral("LinearLayerReLU_0"), QStringLiteral("SoftMax_0")};
        const QStringList outputs{QStringLiteral("OutputStep2"), QStringLiteral("OutputStep3"),
                                  QStringLiteral("OutputStep4"), QStringLiteral("Output0")};
        const ProcessResult refused = generateGraph(graph, graph.work.filePath(QStringLiteral("refused")),
                                                    {QStringLiteral("--l2"), QStringLiteral("4096")});
        const QRegularExpressionMatch smallest =
            QRegularExpression(QStringLiteral("raise the L2 budget to at least (\\d+) bytes")).match(refused.err + refused.out);
        QVERIFY2(smallest.hasMatch(), qPrintable(refused.err + refused.out));
        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        for (const qint64 budget : {qint64(300 * 1024), smallest.captured(1).toLongLong()}) {
            const QString out = graph.work.filePath(QStringLiteral("l2_%1").arg(budget));
            const ProcessResult generated = generateGraph(graph, out, {QStringLiteral("--l2"), QString::number(budget)});
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
            QFile kernels(out + QStringLiteral("/MnistKernels.c"));
            QVERIFY(kernels.open(QIODevice::ReadOnly));
            const QString code = QString::fromUtf8(kernels.readAll());
            for (const QString& node : nodes)
                QVERIFY2(code.contains(QStringLiteral("__attribute__((noinline))\nvoid %1(").arg(node)), qPrintable(node));
            for (const char* function : {"int MnistCNN_Construct(", "int MnistCNN_Destruct(", "int MnistCNN("})
                QVERIFY2(code.contains(QStringLiteral("AT_SIZE_OPT\n") + QLatin1String(function)), function);
            const QString harness = out + QStringLiteral("/harness");
            QVERIFY(buildHarness(out, 1, harness));
            const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
            QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
            QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);

            // One checksum per node output, the sum of the reference's values.
            const QStringList lines = ran.out.split(QLatin1Char('\n'));
            const QStringList checksums = lines.filter(QRegularExpression(QStringLiteral("^Node \\S+: checksum ")));
            QCOMPARE(checksums.size(), 4);
            for (int n = 0; n < 4; ++n) {
                long long sum = 0;
                for (int16_t value : stages[size_t(n)])
                    sum += value;
                QCOMPARE(checksums[n], QStringLiteral("Node %1: checksum %2 %3 x 2 B = %4")
                                           .arg(nodes[n], outputs[n]).arg(stages[size_t(n)].size()).arg(sum));
            }
            // The dumps: the second convolution's input and output, then the graph's output.
            const QMap<QString, std::vector<long long>> dumps = parseDumps(lines);
            QCOMPARE(dumps.size(), 3);
            const auto asLongs = [](const std::vector<int16_t>& values) { return std::vector<long long>(values.begin(), values.end()); };
            QCOMPARE(dumps.value(nodes[1] + QStringLiteral("/OutputStep2")), asLongs(stages[0]));
            QCOMPARE(dumps.value(nodes[1] + QStringLiteral("/OutputStep3")), asLongs(stages[1]));
            QCOMPARE(dumps.value(QStringLiteral("MnistCNN/Output0")), asLongs(graph.expected));

            // Where tensors live in L3, the traces read them there without touching the counters.
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/MnistKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject placement = report[QStringLiteral("graphs")].toArray().first().toObject();
            int inL3 = 0;
            for (const QJsonValue tensor : placement[QStringLiteral("tensors")].toArray())
                inL3 += outputs.contains(tensor[QStringLiteral("name")].toString()) &&
                        tensor[QStringLiteral("placement")].toString().startsWith(QStringLiteral("l3"));
            QCOMPARE(inL3 > 0, budget < 300 * 1024);
            const QRegularExpressionMatch dma = QRegularExpression(QStringLiteral("DMA (\\d+) (\\d+) (\\d+) (\\d+)")).match(ran.out);
            QVERIFY2(dma.hasMatch(), qPrintable(ran.out));
            QCOMPARE(dma.captured(3).toLongLong() + dma.captured(4).toLongLong(), placement[QStringLiteral("l3_traffic")].toInteger(-1));
            if (budget < 300 * 1024)
                QVERIFY(compilesForGap(out));
        }
    }

    // AT_GRAPH_DUMP_TENSOR_TO_FILE at the smallest L2 (tensors between nodes in L3 RAM): the same
    // dumps land in <node>.<tensor>.bin files, element for element the reference's, and the output
    // only says where; the checksums are still printed.
    void tensorDumpsGoToFiles()
    {
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 59u, {QStringLiteral("-DTRACED"), QStringLiteral("-DTRACED_TO_FILE")}));
        const std::vector<int16_t> input = readValues(graph.work.filePath(QStringLiteral("input.bin")), 28 * 28);
        const std::vector<std::vector<int16_t>> stages = graph.stages(input);
        const ProcessResult refused = generateGraph(graph, graph.work.filePath(QStringLiteral("refused")),
                                                    {QStringLiteral("--l2"), QStringLiteral("4096")});
        const QRegularExpressionMatch smallest =
            QRegularExpression(QStringLiteral("raise the L2 budget to at least (\\d+) bytes")).match(refused.err + refused.out);
        QVERIFY2(smallest.hasMatch(), qPrintable(refused.err + refused.out));
        const QString out = graph.work.filePath(QStringLiteral("smallest"));
        const ProcessResult generated = generateGraph(graph, out, {QStringLiteral("--l2"), smallest.captured(1)});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
        const QString harness = out + QStringLiteral("/harness");
        QVERIFY(buildHarness(out, 1, harness));
        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);

        const QStringList lines = ran.out.split(QLatin1Char('\n'));
        QVERIFY(parseDumps(lines).isEmpty());
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^Node \\S+: checksum "))).size(), 4);
        const struct {
            QString node, tensor;
            std::vector<int16_t> expected;
        } dumps[] = {{QStringLiteral("Conv5x5ReLUMaxPool2x2_1"), QStringLiteral("OutputStep2"), stages[0]},
                     {QStringLiteral("Conv5x5ReLUMaxPool2x2_1"), QStringLiteral("OutputStep3"), stages[1]},
                     {QStringLiteral("MnistCNN"), QStringLiteral("Output0"), graph.expected}};
        for (const auto& dump : dumps) {
            const QString file = dump.node + QLatin1Char('.') + dump.tensor + QStringLiteral(".bin");
            QVERIFY2(lines.contains(QStringLiteral("Node %1: dump %2 %3 x 2 B to %4")
                                        .arg(dump.node, dump.tensor).arg(dump.expected.size()).arg(file)),
                     qPrintable(ran.out));
            QCOMPARE(QFileInfo(out + QLatin1Char('/') + file).size(), qint64(dump.expected.size() * 2));
            QCOMPARE(readValues(out + QLatin1Char('/') + file, dump.expected.size()), dump.expected);
        }
        QVERIFY(compilesForGap(out));
    }

    // The guide's model generated re-entrant (-R): execution A is suspended after every layer and,
    // while it waits, execution B of the same graph runs to the end in its own context; A resumes
    // until done. Both equal the reference. Then A is suspended, started again from the first layer
    // with ControlCtxt, and gives the reference output again. Under AddressSanitizer.
    // With constants executed from flash and a privileged flash, the layers read them through the
    // flash images the application gave the descriptor.
    void reentrantRunnerResumesBitExact_data()
    {
        QTest::addColumn<int>("l2Budget");
        QTest::addColumn<QStringList>("options");
        QTest::newRow("guide's L2") << 300 * 1024 << QStringList{};
        QTest::newRow("40000 bytes of L2 (constants in L3)") << 40000 << QStringList{};
        QTest::newRow("40000 bytes of L2, constants read from flash")
            << 40000 << QStringList{QStringLiteral("-DFLASH_EXEC")};
        QTest::newRow("40000 bytes of L2, constants read from the privileged flash")
            << 40000 << QStringList{QStringLiteral("-DFLASH_EXEC"), QStringLiteral("-DPRIVILEGED_FLASH")};
    }
    void reentrantRunnerResumesBitExact()
    {
        QFETCH(int, l2Budget);
        QFETCH(QStringList, options);
        MnistGraph graph;
        QVERIFY(prepareMnistGraph(graph, 31u, options));
        std::mt19937 random(97u);
        const std::vector<int16_t> second = randomValues(random, 28 * 28, 2047);
        QVERIFY(writeValues(graph.work.filePath(QStringLiteral("input_b.bin")), second));
        const QString out = graph.work.filePath(QStringLiteral("out"));
        const ProcessResult generated =
            generateGraph(graph, out, {QStringLiteral("-R"), QStringLiteral("--l2"), QString::number(l2Budget)});
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {graph.generator}, generated)));
        if (!options.isEmpty()) {  // the layers read a constant from the flash image that holds it
            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/MnistKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject placement = report[QStringLiteral("graphs")].toArray().first().toObject();
            const bool privileged = options.contains(QStringLiteral("-DPRIVILEGED_FLASH"));
            int fromFlash = 0, fromPrivileged = 0;
            for (const QJsonValue tensor : placement[QStringLiteral("tensors")].toArray())
                if (tensor[QStringLiteral("placement")].toString() == QStringLiteral("flash"))
                    ++(tensor[QStringLiteral("privileged_flash")].toBool() ? fromPrivileged : fromFlash);
            QVERIFY2(privileged ? fromPrivileged > 0 && fromFlash == 0 : fromFlash > 0 && fromPrivileged == 0,
                     qPrintable(generated.out));
            QCOMPARE(placement[QStringLiteral("privileged_flash_bytes")].toInteger() > 0, privileged);
            QCOMPARE(QFile::exists(out + QStringLiteral("/Mnist_L3_PrivilegedFlash_Const.dat")), privileged);
        }
        const QString harness = out + QStringLiteral("/harness_reentrant");
        QVERIFY(buildHarness(out, 1, harness, 0, QStringLiteral("/MnistGraph/harness_reentrant.c"),
                             options.contains(QStringLiteral("-DPRIVILEGED_FLASH")) ? QStringList{QStringLiteral("-DPRIVILEGED_FLASH")}
                                                                                   : QStringList{}));
        const QStringList arguments{graph.work.filePath(QStringLiteral("input.bin")),
                                    graph.work.filePath(QStringLiteral("input_b.bin")),
                                    graph.work.filePath(QStringLiteral("output.bin")),
                                    graph.work.filePath(QStringLiteral("output_b.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the re-entrant graph"), QStringList{harness} + arguments, ran)));
        QVERIFY2(ran.out.contains(QStringLiteral("CALLS 5")), qPrintable(ran.out));  // 4 layers, suspended after each
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output.bin")), 10), graph.expected);
        QCOMPARE(readValues(graph.work.filePath(QStringLiteral("output_b.bin")), 10), graph.reference(second));
        QVERIFY(compilesForGap(out));
    }

    // Nodes given values besides tensors (tests/gap/ValueArgGraph), as NNTool's recurrent layers are
    // given their Reset: runner arguments passed on with GNodeCArg (a bool and two shorts) and
    // constants with Imm. The graph neither sizes nor places the values; both nodes run bit-exact
    // for several argument values, in several tiles, plain and re-entrant.
    void valueArgumentsReachTheNodes()
    {
        QTemporaryDir work;
        std::mt19937 random(41u);
        const std::vector<int16_t> input = randomValues(random, 40 * 30, 2047);
        const QString inputFile = work.filePath(QStringLiteral("input.bin"));
        QVERIFY(writeValues(inputFile, input));
        const QString example = kGapTests + QStringLiteral("/ValueArgGraph");
        const QString generator = work.filePath(QStringLiteral("gen_valuenet"));
        QStringList command;
        const ProcessResult compiled = m_toolchain.compileModel(example + QStringLiteral("/Model.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
        const auto saturated = [](int value) { return int16_t(std::clamp(value, -32768, 32767)); };

        for (const bool reentrant : {false, true}) {
            const QString out = work.filePath(reentrant ? QStringLiteral("reentrant") : QStringLiteral("plain"));
            QStringList options{QStringLiteral("-o"), out};
            if (reentrant)
                options << QStringLiteral("-R");
            const ProcessResult generated = runProcess(generator, options, QProcessEnvironment::systemEnvironment(), work.path());
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), QStringList{generator} + options, generated)));

            QFile source(out + QStringLiteral("/ValueNetKernels.c"));
            QVERIFY(source.open(QIODevice::ReadOnly));
            const QString code = QString::fromUtf8(source.readAll());
            const QString prefix = reentrant ? QStringLiteral("Ctxt->") : QString();
            for (const QString& passed : {QStringLiteral("(short int) (%1Scale)").arg(prefix), QStringLiteral("(short int) (-3)"),
                                          QStringLiteral("(signed char) (%1Reset)").arg(prefix), QStringLiteral("(short int) (2)"),
                                          QStringLiteral("(short int) (%1Bias)").arg(prefix), QStringLiteral("(signed char) (0)")})
                QVERIFY2(code.contains(passed), qPrintable(passed + QStringLiteral(" not in\n") + code));

            QString error;
            const QJsonObject report = readJson(out + QStringLiteral("/ValueNetKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonObject graph = report[QStringLiteral("graphs")].toArray().first().toObject();
            int values = 0;
            for (const QJsonValue tensor : graph[QStringLiteral("tensors")].toArray()) {
                const QString name = tensor[QStringLiteral("name")].toString();
                if (name != QStringLiteral("Reset") && name != QStringLiteral("Scale") && name != QStringLiteral("Bias"))
                    continue;
                ++values;
                QCOMPARE(tensor[QStringLiteral("bytes")].toInteger(-1), 0);
                QCOMPARE(tensor[QStringLiteral("placement")].toString(), QStringLiteral("caller"));
                QVERIFY2(tensor[QStringLiteral("reason")].toString().contains(QStringLiteral("GNodeCArg")),
                         qPrintable(tensor[QStringLiteral("reason")].toString()));
            }
            QCOMPARE(values, 3);
            int tiles = 0;
            for (const QJsonValue kernel : report[QStringLiteral("kernels")].toArray())
                if (kernel[QStringLiteral("name")].toString() == QStringLiteral("Affine"))
                    tiles = kernel[QStringLiteral("tiles")].toInt();
            QVERIFY2(tiles > 1, qPrintable(QStringLiteral("Affine in %1 tiles").arg(tiles)));

            const QString harness = out + QStringLiteral("/harness");
            QStringList build = sanitizerFlags(2) + m_toolchain.emulCflags +
                                QStringList{QStringLiteral("-I"), out, QStringLiteral("-I"), example,
                                            out + QStringLiteral("/ValueNetKernels.c"),
                                            example + QStringLiteral("/ValueArgBasicKernels.c"),
                                            example + QStringLiteral("/harness.c"), QStringLiteral("-o"), harness};
            if (reentrant)
                build.prepend(QStringLiteral("-DREENTRANT"));
            const ProcessResult built = runProcess(m_toolchain.cc, build);
            QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)));
            for (const auto& [reset, scale, bias] : {std::tuple{0, 3, 5}, std::tuple{1, 3, 5}, std::tuple{0, -7, 1000}}) {
                const QString outputFile = work.filePath(QStringLiteral("output.bin"));
                const QStringList arguments{inputFile, outputFile, QString::number(reset), QString::number(scale),
                                            QString::number(bias)};
                const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
                QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("ValueNet"), QStringList{harness} + arguments, ran)));
                if (reentrant)  // suspended after each of the 2 layers, then the call that finds it done
                    QVERIFY2(ran.out.contains(QStringLiteral("CALLS 3")), qPrintable(ran.out));
                std::vector<int16_t> expected;
                for (const int16_t value : input) {
                    const int16_t temp = reset ? 0 : saturated(value * scale - 3);
                    expected.push_back(saturated(temp * 2 + bias));
                }
                QCOMPARE(readValues(outputFile, 40 * 30), expected);
            }
            QVERIFY(compilesForGap(out, QStringLiteral("ValueNet"), {example}));
        }
    }

    // NNTool's recurrent layers keep their state in place across the sequences they are split into:
    // GNodeArg(GNA_INOUT, "Cell01", "Cell") writes Cell01 in place of Cell, so both are one buffer.
    void inPlaceStateSharesOneBuffer()
    {
        QTemporaryDir work;
        std::mt19937 random(43u);
        const std::vector<int16_t> input = randomValues(random, 40 * 30, 16000);
        const QString inputFile = work.filePath(QStringLiteral("input.bin"));
        QVERIFY(writeValues(inputFile, input));
        const QString example = kGapTests + QStringLiteral("/InPlaceStateGraph");
        const QString valueArgs = kGapTests + QStringLiteral("/ValueArgGraph");  // KerAffine
        const QString generator = work.filePath(QStringLiteral("gen_statenet"));
        QStringList command;
        const ProcessResult compiled = m_toolchain.compileModel(example + QStringLiteral("/Model.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
        const QString out = work.filePath(QStringLiteral("out"));
        const QStringList options{QStringLiteral("-o"), out};
        const ProcessResult generated = runProcess(generator, options, QProcessEnvironment::systemEnvironment(), work.path());
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), QStringList{generator} + options, generated)));

        QFile source(out + QStringLiteral("/StateNetKernels.c"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QString code = QString::fromUtf8(source.readAll());
        // The locals written in place have no buffer, variable or pointer: only the allocation comment names them.
        QVERIFY2(code.count(QStringLiteral("Cell01")) == code.count(QStringLiteral("also Cell01, which node")) + 1 &&
                     code.count(QStringLiteral("Cell02")) == code.count(QStringLiteral("also Cell02, which node")),
                 qPrintable(code));
        QCOMPARE(code.count(QStringLiteral("also Cell01, which node Accumulate writes in place of Cell (GNA_INOUT)")), 1);

        QString error;
        const QJsonObject report = readJson(out + QStringLiteral("/StateNetKernels.tiling.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject graph = report[QStringLiteral("graphs")].toArray().first().toObject();
        QJsonObject cell;
        for (const QJsonValue tensor : graph[QStringLiteral("tensors")].toArray()) {
            const QString name = tensor[QStringLiteral("name")].toString();
            QVERIFY2(name != QStringLiteral("Cell01") && name != QStringLiteral("Cell02"), qPrintable(name));
            if (name == QStringLiteral("Cell"))
                cell = tensor.toObject();
        }
        QCOMPARE(cell[QStringLiteral("bytes")].toInteger(-1), 40 * 30 * 2);
        QCOMPARE(cell[QStringLiteral("first_node")].toInt(-2), 0);
        QCOMPARE(cell[QStringLiteral("last_node")].toInt(-2), 3);  // read by the last node as Cell02
        const QString reason = cell[QStringLiteral("reason")].toString();
        QVERIFY2(reason.contains(QStringLiteral("Cell01, which node Accumulate writes in place of Cell")) &&
                     reason.contains(QStringLiteral("Cell02, which node Accumulate writes in place of Cell01")),
                 qPrintable(reason));

        const QString harness = out + QStringLiteral("/harness");
        const QStringList build = sanitizerFlags(2) + m_toolchain.emulCflags +
                                  QStringList{QStringLiteral("-I"), out, QStringLiteral("-I"), example, QStringLiteral("-I"),
                                              valueArgs, out + QStringLiteral("/StateNetKernels.c"),
                                              valueArgs + QStringLiteral("/ValueArgBasicKernels.c"),
                                              example + QStringLiteral("/InPlaceBasicKernels.c"),
                                              example + QStringLiteral("/harness.c"), QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, build);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)));
        const auto saturated = [](int value) { return int16_t(std::clamp(value, -32768, 32767)); };
        for (const auto& [scale, bias] : {std::pair{1, 0}, std::pair{-3, 250}}) {
            const QString outputFile = work.filePath(QStringLiteral("output.bin"));
            const QStringList arguments{inputFile, outputFile, QString::number(scale), QString::number(bias)};
            const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
            QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("StateNet"), QStringList{harness} + arguments, ran)));
            std::vector<int16_t> expected;
            for (const int16_t value : input) {
                const int16_t state = saturated(saturated(value + value) + value);
                expected.push_back(saturated(state * scale + bias));
            }
            QCOMPARE(readValues(outputFile, 40 * 30), expected);
        }
        QVERIFY(compilesForGap(out, QStringLiteral("StateNet"), {example, valueArgs}));
    }

private:
    // Compiles tests/gap/<name>Graph/Model.c (its constants in work/model), generates the graph at
    // the model's L1 budget and at the smallest it accepts, and runs each on 1 and 8 emulated cores
    // on work/input.bin: every output must be `expected` (outputCount values of outputItem). The
    // folder of the last generation.
    QString runSq8GraphAtItsBudgets(const QTemporaryDir& work, const QString& name, int inputCount,
                                    std::size_t outputCount, const QString& outputItem, const QByteArray& expected)
    {
        const QString generator = work.filePath(QStringLiteral("gen_") + name);
        QStringList command;
        const ProcessResult compiled =
            m_toolchain.compileModel(kGapTests + '/' + name + QStringLiteral("Graph/Model.c"), generator, &command);
        if (compiled.exitCode != 0) {
            QTest::qFail(qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)),
                         __FILE__, __LINE__);
            return {};
        }
        const auto generate = [&](const QString& out, const QStringList& options) {
            return runProcess(generator, QStringList{QStringLiteral("-o"), out} + options,
                              QProcessEnvironment::systemEnvironment(), work.path());
        };
        const ProcessResult refused = generate(work.filePath(QStringLiteral("refused")), {QStringLiteral("--l1"), QStringLiteral("64")});
        const QRegularExpressionMatch smallest =
            QRegularExpression(QStringLiteral("needs at least (\\d+) bytes of L1")).match(refused.err + refused.out);
        if (refused.exitCode == 0 || !smallest.hasMatch()) {
            QTest::qFail(qPrintable(refused.err + refused.out), __FILE__, __LINE__);
            return {};
        }
        qInfo("%s: smallest L1 %s bytes", qPrintable(name), qPrintable(smallest.captured(1)));
        QString out;
        for (const QString& l1 : {QString(), smallest.captured(1)}) {
            out = work.filePath(QStringLiteral("l1_%1").arg(l1.isEmpty() ? QStringLiteral("model") : l1));
            const ProcessResult generated = generate(out, l1.isEmpty() ? QStringList{} : QStringList{QStringLiteral("--l1"), l1});
            if (generated.exitCode != 0) {
                QTest::qFail(qPrintable(describe(QStringLiteral("generation"), {generator}, generated)), __FILE__, __LINE__);
                return {};
            }
            for (int cores : {1, 8}) {
                const ProcessResult ran =
                    runGraph(out, name, inputCount, int(outputCount), cores, work.filePath(QStringLiteral("input.bin")),
                             work.filePath(QStringLiteral("output.bin")), {},
                             {QStringLiteral("-DGRAPH_ITEM=signed char"), QStringLiteral("-DGRAPH_OUT_ITEM=") + outputItem});
                QFile output(work.filePath(QStringLiteral("output.bin")));
                const QByteArray got = ran.exitCode == 0 && output.open(QIODevice::ReadOnly) ? output.readAll() : QByteArray();
                if (got != expected) {
                    QTest::qFail(qPrintable(QStringLiteral("%1 at L1 %2, %3 core(s): %4\n%5 bytes, expected %6")
                                                .arg(name, l1.isEmpty() ? QStringLiteral("of the model") : l1)
                                                .arg(cores)
                                                .arg(ran.out + ran.err)
                                                .arg(QString::fromLatin1(got.toHex(' ')), QString::fromLatin1(expected.toHex(' ')))),
                                 __FILE__, __LINE__);
                    return {};
                }
            }
        }
        return out;
    }

    // Builds tests/gap/graph_harness.c for the graph `name` generated into `out` (files
    // <name-without-Net>Kernels.*) and runs it on `input`; the harness's result.
    ProcessResult runGraph(const QString& out, const QString& name, int inputCount, int outputCount, int cores,
                           const QString& input, const QString& output, const QString& filesStem = {},
                           const QStringList& defines = {})
    {
        const QString stem = filesStem.isEmpty() ? name : filesStem;
        const QString harness = out + QStringLiteral("/graph_harness");
        const QStringList build =
            sanitizerFlags(cores) + m_toolchain.emulCflags + defines +
            QStringList{QStringLiteral("-DGRAPH_HEADER=\"%1Kernels.h\"").arg(stem), QStringLiteral("-DGRAPH=%1").arg(name),
                        QStringLiteral("-DINPUT_COUNT=%1").arg(inputCount), QStringLiteral("-DOUTPUT_COUNT=%1").arg(outputCount),
                        QStringLiteral("-I"), out, out + QStringLiteral("/%1Kernels.c").arg(stem)} +
            m_toolchain.cnnSources + QStringList{kGapTests + QStringLiteral("/graph_harness.c"), QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, build);
        if (built.exitCode != 0)
            return {built.exitCode, built.out, describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)};
        return runProcess(harness, {input, output}, sanitizerEnvironment(), out);
    }

    // The guide's graph model compiled, its constants written, an input and the reference output.
    struct MnistGraph {
        QTemporaryDir work;
        QString generator;
        std::vector<int16_t> w1, b1, w2, b2, w3, b3;
        std::vector<int16_t> expected;  // the reference output for input.bin

        // The reference chain: the guide's layers with its Q formats, the constants as converted;
        // the output of each of the four nodes.
        std::vector<std::vector<int16_t>> stages(const std::vector<int16_t>& input) const
        {
            std::vector<std::vector<int16_t>> outputs;
            outputs.push_back(fp::convPoolRelu(mnistConv(1, 32, 28), input, w1, b1));
            outputs.push_back(fp::convPoolRelu(mnistConv(32, 64, 12), outputs.back(), w2, b2));
            outputs.push_back(fp::linearRelu(1024, 10, false, 12, 12, 8, 11, outputs.back(), w3, b3));
            outputs.push_back(fp::softmaxQ15(outputs.back(), 15));
            return outputs;
        }
        std::vector<int16_t> reference(const std::vector<int16_t>& input) const { return stages(input).back(); }
    };

    // "Node <node>: dump <tensor> N x B B =" blocks of a run's output by "<node>/<tensor>".
    static QMap<QString, std::vector<long long>> parseDumps(const QStringList& lines)
    {
        static const QRegularExpression header(QStringLiteral("^Node (\\S+): dump (\\S+) (\\d+) x \\d+ B =$"));
        QMap<QString, std::vector<long long>> dumps;
        for (int k = 0; k < lines.size(); ++k) {
            const QRegularExpressionMatch match = header.match(lines[k]);
            if (!match.hasMatch())
                continue;
            std::vector<long long>& values = dumps[match.captured(1) + QLatin1Char('/') + match.captured(2)];
            const size_t count = match.captured(3).toULongLong();
            while (values.size() < count && ++k < lines.size())
                for (const QString& value : lines[k].split(QLatin1Char(' '), Qt::SkipEmptyParts))
                    values.push_back(value.toLongLong());
        }
        return dumps;
    }

    // With `options` (-DWARM_MODE=N, -DINSTRUMENTED, -DTRACED) the generator is built from MnistModelOptions.c.
    bool prepareMnistGraph(MnistGraph& graph, unsigned seed, const QStringList& options = {})
    {
        QDir().mkpath(graph.work.filePath(QStringLiteral("model")));
        std::mt19937 random(seed);
        graph.w1 = randomValues(random, 32 * 25, 255);
        graph.b1 = randomValues(random, 32, 1023);
        graph.w2 = randomValues(random, 64 * 32 * 25, 255);
        graph.b2 = randomValues(random, 64, 1023);
        graph.w3 = randomValues(random, 10 * 1024, 255);
        graph.b3 = randomValues(random, 10, 1023);
        const std::pair<const char*, const std::vector<int16_t>*> tensors[] = {
            {"Step1Weights", &graph.w1}, {"Step1Biases", &graph.b1}, {"Step2Weights", &graph.w2},
            {"Step2Biases", &graph.b2},  {"Step3Weights", &graph.w3}, {"Step3Biases", &graph.b3}};
        for (const auto& [name, values] : tensors)
            // ConstInfo(file, 1, 1, 16, 0): fixed-point int16 files, as the SDK's Mnist example ships them.
            if (!writeValues(graph.work.filePath(QStringLiteral("model/%1.tensor").arg(name)), *values))
                return false;
        const std::vector<int16_t> input = randomValues(random, 28 * 28, 2047);
        if (!writeValues(graph.work.filePath(QStringLiteral("input.bin")), input))
            return false;
        graph.expected = graph.reference(input);

        graph.generator = graph.work.filePath(QStringLiteral("GenMnist"));
        QStringList command;
        const QString model = kGapTests + (options.isEmpty() ? QStringLiteral("/MnistGraph/MnistModel.c")
                                                             : QStringLiteral("/MnistGraph/MnistModelOptions.c"));
        const QStringList flags =
            options.isEmpty() ? QStringList{}
                              : options + QStringList{QStringLiteral("-I"), kGapTests + QStringLiteral("/MnistGraph")};
        const ProcessResult compiled = m_toolchain.compileModel(model, graph.generator, &command, flags);
        if (compiled.exitCode != 0)
            qWarning("%s", qPrintable(describe(QStringLiteral("compiling MnistModel.c"), QStringList{m_toolchain.cc} + command, compiled)));
        return compiled.exitCode == 0;
    }

    // Runs the generator in the model's folder (it reads model/*.tensor from there).
    ProcessResult generateGraph(const MnistGraph& graph, const QString& out, const QStringList& options)
    {
        return runProcess(graph.generator, QStringList{QStringLiteral("-o"), out} + options,
                          QProcessEnvironment::systemEnvironment(), graph.work.path());
    }

    // The host program: harness.c, harness_warm.c (warmMode > 0) or another one named by `program`.
    bool buildHarness(const QString& out, int cores, const QString& harness, int warmMode = 0, QString program = {},
                      const QStringList& defines = {})
    {
        if (program.isEmpty())
            program = warmMode ? QStringLiteral("/MnistGraph/harness_warm.c") : QStringLiteral("/MnistGraph/harness.c");
        const QStringList build =
            sanitizerFlags(cores) + QStringList{QStringLiteral("-DWARM_MODE=%1").arg(warmMode)} + defines +
            m_toolchain.emulCflags +
            QStringList{QStringLiteral("-I"), out, out + QStringLiteral("/MnistKernels.c")} +
            m_toolchain.cnnSources +
            QStringList{kGapTests + program, QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, build);
        if (built.exitCode != 0)
            qWarning("%s", qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)));
        return built.exitCode == 0;
    }

    // The generated graph also builds warning-free for GAP (PMSIS branch, declarations only).
    bool compilesForGap(const QString& out, const QString& stem = QStringLiteral("Mnist"), const QStringList& includes = {})
    {
        const QStringList target{QStringLiteral("-fsyntax-only"), QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                 QStringLiteral("-Werror"), QStringLiteral("-Wno-pointer-to-int-cast"),
                                 QStringLiteral("-Wno-int-to-pointer-cast"), QStringLiteral("-DAT_FORCE_PMSIS"),
                                 QStringLiteral("-I"), kGapTests + QStringLiteral("/pmsis_stub"),
                                 QStringLiteral("-I"), QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/runtime"),
                                 QStringLiteral("-I"), QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels"),
                                 QStringLiteral("-I"), out, out + QStringLiteral("/%1Kernels.c").arg(stem)};
        QStringList command = target;
        for (const QString& include : includes)
            command << QStringLiteral("-I") << include;
        const ProcessResult targetBuild = runProcess(m_toolchain.cc, command);
        if (targetBuild.exitCode != 0)
            qWarning("%s", qPrintable(describe(QStringLiteral("GAP build"), QStringList{m_toolchain.cc} + command, targetBuild)));
        return targetBuild.exitCode == 0;
    }
};


QTEST_GUILESS_MAIN(TestGapGraphs)
#include "tst_gap_graphs.moc"
