// The CNN generators layer by layer: the basic-kernel library against its own direct
// implementation of docs/gap-fixed-point.md, then the layers of the guide's MNIST model, padded and
// depthwise convolutions, pooling, global pooling, additions and matrix products generated through
// the tile engine, built for the host with the emulation runtime (1 and 8 cores,
// AddressSanitizer), run on random data and compared bit for bit with the reference interpreter's
// fixed-point kernels, with the DMA bytes the tile solver predicted.
#include "gap_cnn_data.h"
#include "gap_toolchain.h"
#include "test_support.h"

#include "interp/fixed_point/pow2_kernels.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

using namespace tessera::test;
namespace fp = tessera::fixed_point;

namespace {

// GreenWaves' "same" padding of one dimension as its generators define it (CNN_TotalPaddingValue,
// split PAD_BALANCED_LEFT): the total keeps ceil(dim / stride) outputs, the larger half first.
// padType as the SDK's AT_PadType: 0 all before, 1 all after, 2 the larger half before, 3 the
// larger half after.
std::pair<int, int> samePadding(int flag, int dim, int filter, int dilation, int stride, int padType = 2)
{
    if (!flag)
        return {0, 0};
    const int span = dilation * (filter - 1) + 1, rest = dim % stride == 0 ? stride : dim % stride;
    const int total = std::max(span - rest, 0);
    const int before = padType == 0 ? total : padType == 1 ? 0 : padType == 3 ? total / 2 : total - total / 2;
    return {before, total - before};
}

// Planes of w x h with zero lines above and below and zero columns left and right.
std::vector<int16_t> zeroPadded(const std::vector<int16_t>& planes, int count, int w, int h, int top, int bottom,
                                int left, int right)
{
    const int pw = w + left + right, ph = h + top + bottom;
    std::vector<int16_t> padded(std::size_t(count) * pw * ph, 0);
    for (int p = 0; p < count; ++p)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                padded[(std::size_t(p) * ph + y + top) * pw + x + left] = planes[(std::size_t(p) * h + y) * w + x];
    return padded;
}

// Max pooling whose padding is skipped, by its definition: each output is the largest input its
// window covers inside the plane (the window starts padTop lines above, padLeft columns left).
std::vector<int16_t> maxPoolSkippingPadding(const std::vector<int16_t>& in, int feat, int w, int h, int size,
                                            int stride, int padTop, int padLeft, int outW, int outH, bool relu)
{
    std::vector<int16_t> out;
    for (int f = 0; f < feat; ++f)
        for (int y = 0; y < outH; ++y)
            for (int x = 0; x < outW; ++x) {
                int best = -32768;
                for (int ky = 0; ky < size; ++ky)
                    for (int kx = 0; kx < size; ++kx) {
                        const int iy = y * stride + ky - padTop, ix = x * stride + kx - padLeft;
                        if (iy >= 0 && iy < h && ix >= 0 && ix < w)
                            best = std::max(best, int(in[(std::size_t(f) * h + iy) * w + ix]));
                    }
                out.push_back(int16_t(relu ? std::max(best, 0) : best));
            }
    return out;
}

}  // namespace

class TestGapCnnLayers : public QObject {
    Q_OBJECT

    GapToolchain m_toolchain;
    QTemporaryDir m_work;
    QString m_generator;

    // Generates the MNIST layers at `budget` into `out`; the generator's result.
    ProcessResult generate(const QString& out, qint64 budget)
    {
        return runProcess(m_generator, {QStringLiteral("-o"), out, QStringLiteral("--l1"), QString::number(budget)});
    }

    // Compiles tests/gap/<folder>/Model.c, generates its layers into <work>/out at *l1 bytes of L1
    // (0: the smallest budget the model accepts, written back) and builds <folder>/harness.c with
    // the sanitizers on `cores` emulated cores. The harness's path, or empty with the failure printed.
    QString buildLayerHarness(const QString& folder, const QTemporaryDir& work, qint64* l1, int cores,
                              const QStringList& modelFlags = {})
    {
        const QString source = kGapTests + '/' + folder;
        const QString generator = work.filePath(QStringLiteral("generator"));
        QStringList command;
        const ProcessResult compiled = m_toolchain.compileModel(source + QStringLiteral("/Model.c"), generator, &command,
                                                                QStringList{QStringLiteral("-I"), source} + modelFlags);
        if (compiled.exitCode != 0) {
            qWarning("%s", qPrintable(describe(QStringLiteral("compiling the model"), QStringList{m_toolchain.cc} + command, compiled)));
            return {};
        }
        const QString out = work.filePath(QStringLiteral("out"));
        if (*l1 == 0) {
            const ProcessResult probe = runProcess(generator, {QStringLiteral("-o"), out, QStringLiteral("--l1"), QStringLiteral("16")});
            *l1 = neededL1(probe.err);
            if (probe.exitCode == 0 || *l1 <= 16) {
                qWarning("%s", qPrintable(describe(QStringLiteral("probe"), {generator}, probe)));
                return {};
            }
        }
        const ProcessResult generated = runProcess(generator, {QStringLiteral("-o"), out, QStringLiteral("--l1"), QString::number(*l1)});
        if (generated.exitCode != 0) {
            qWarning("%s", qPrintable(describe(QStringLiteral("generation"), {generator}, generated)));
            return {};
        }
        const QString harness = work.filePath(QStringLiteral("harness"));
        const QStringList build =
            sanitizerFlags(cores) + m_toolchain.emulCflags +
            QStringList{QStringLiteral("-I"), out, QStringLiteral("-I"), source, out + QStringLiteral("/GenKernels.c")} +
            m_toolchain.cnnSources + QStringList{source + QStringLiteral("/harness.c"), QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, build);
        if (built.exitCode != 0) {
            qWarning("%s", qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)));
            return {};
        }
        return harness;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        QString error;
        if (!m_toolchain.init(&error) && m_toolchain.cc.isEmpty())
            QSKIP("no C compiler (cc or gcc) on PATH");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_generator = m_work.filePath(QStringLiteral("gen_mnist"));
        QStringList command;
        const ProcessResult built =
            m_toolchain.compileModel(kGapTests + QStringLiteral("/MnistLayers/Model.c"), m_generator, &command);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("compiling the MNIST layers model"),
                                                          QStringList{m_toolchain.cc} + command, built)));
    }

    void basicKernelsMatchTheirDefinition_data()
    {
        QTest::addColumn<int>("cores");
        QTest::newRow("1 core") << 1;
        QTest::newRow("8 cores") << 8;
    }
    void basicKernelsMatchTheirDefinition()
    {
        QFETCH(int, cores);
        const QString program = m_work.filePath(QStringLiteral("cnn_check_%1").arg(cores));
        const QStringList command = sanitizerFlags(cores) + m_toolchain.emulCflags + m_toolchain.cnnSources +
                                    QStringList{kGapTests + QStringLiteral("/cnn_kernels_check.c"), QStringLiteral("-lm"),
                                                QStringLiteral("-o"), program};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + command, built)));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("RESULT ok")),
                 qPrintable(describe(QStringLiteral("the basic-kernel check"), {program}, ran)));
    }

    // The same for the SQ8 basic kernels (tests/gap/cnn_sq8_kernels_check.c, docs "SQ8").
    void basicKernelsSq8MatchTheirDefinition_data()
    {
        QTest::addColumn<int>("cores");
        QTest::newRow("1 core") << 1;
        QTest::newRow("8 cores") << 8;
    }
    void basicKernelsSq8MatchTheirDefinition()
    {
        QFETCH(int, cores);
        const QString program = m_work.filePath(QStringLiteral("cnn_sq8_check_%1").arg(cores));
        const QStringList command = sanitizerFlags(cores) + m_toolchain.emulCflags + m_toolchain.cnnSources +
                                    QStringList{kGapTests + QStringLiteral("/cnn_sq8_kernels_check.c"),
                                                QStringLiteral("-lm"), QStringLiteral("-o"), program};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + command, built)));
        const ProcessResult ran = runProcess(program, {}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("RESULT ok")),
                 qPrintable(describe(QStringLiteral("the SQ8 basic-kernel check"), {program}, ran)));
    }

    // The guide's memory figure for the first layer: 41632 bytes of L1 at a 48000 budget, as
    // In 2 x 784 + Bias 64 + Filter 1600 + ConvOut 30720 + Out 2 x 3840 over 3 tiles.
    void guideFirstLayerMemory()
    {
        QTemporaryDir out;
        const ProcessResult generated = generate(out.path(), kGuideL1);
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {m_generator}, generated)));
        QString error;
        const QJsonObject tiling = readJson(out.filePath(QStringLiteral("GenKernels.tiling.json")), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonObject conv = findByName(tiling[QStringLiteral("kernels")].toArray(), QStringLiteral("Conv5x5ReLUMaxPool2x2_0"));
        QCOMPARE(conv[QStringLiteral("l1_bytes")].toInteger(), 41632);
        QCOMPARE(conv[QStringLiteral("tiles")].toInt(), 3);
        const QJsonArray args = conv[QStringLiteral("args")].toArray();
        QCOMPARE(findByName(args, QStringLiteral("In"))[QStringLiteral("l1_bytes")].toInteger(), 2 * 784);
        QCOMPARE(findByName(args, QStringLiteral("Filter"))[QStringLiteral("l1_bytes")].toInteger(), 1600);
        QCOMPARE(findByName(args, QStringLiteral("ConvOut"))[QStringLiteral("l1_bytes")].toInteger(), 30720);
        QCOMPARE(findByName(args, QStringLiteral("Out"))[QStringLiteral("l1_bytes")].toInteger(), 2 * 3840);
        QVERIFY(tiling[QStringLiteral("l1_used")].toInteger() <= 41632);
    }

    // Every layer at the guide's budget, the smallest feasible one and a generous one, on one core
    // and eight: outputs equal the reference, DMA bytes equal the prediction.
    void layersMatchTheReference_data()
    {
        QTest::addColumn<QString>("budget");
        QTest::addColumn<int>("cores");
        QTest::newRow("guide, 1 core") << QStringLiteral("guide") << 1;
        QTest::newRow("guide, 8 cores") << QStringLiteral("guide") << 8;
        QTest::newRow("minimum, 8 cores") << QStringLiteral("minimum") << 8;
        QTest::newRow("generous, 1 core") << QStringLiteral("generous") << 1;
    }
    void layersMatchTheReference()
    {
        QFETCH(QString, budget);
        QFETCH(int, cores);
        QTemporaryDir work;
        const QString out = work.filePath(QStringLiteral("out"));
        QDir().mkpath(out);
        qint64 l1 = budget == QStringLiteral("generous") ? 4 * kGuideL1 : kGuideL1;
        if (budget == QStringLiteral("minimum")) {
            const ProcessResult probe = generate(out, 64);
            l1 = neededL1(probe.err);
            QVERIFY2(probe.exitCode != 0 && l1 > 64, qPrintable(describe(QStringLiteral("probe"), {m_generator}, probe)));
            QVERIFY(generate(out, l1 - 1).exitCode != 0);
        }
        const ProcessResult generated = generate(out, l1);
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {m_generator}, generated)));

        const QString harness = work.filePath(QStringLiteral("harness"));
        const QStringList command =
            sanitizerFlags(cores) + m_toolchain.emulCflags +
            QStringList{QStringLiteral("-I"), out, out + QStringLiteral("/GenKernels.c")} +
            m_toolchain.cnnSources +
            QStringList{kGapTests + QStringLiteral("/MnistLayers/harness.c"), QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, command);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + command, built)));

        // Data in ranges where no int32 accumulator can overflow (docs/gap-fixed-point.md).
        std::mt19937 random(42u + unsigned(cores));
        const QString data = work.filePath(QStringLiteral("data"));
        QDir().mkpath(data);
        struct Expected {
            QString layer;
            std::vector<int16_t> output;
        };
        std::vector<Expected> expected;
        const auto write = [&](const QString& layer, const char* what, const std::vector<int16_t>& values) {
            QVERIFY(writeValues(data + '/' + layer + '.' + what, values));
        };
        for (const auto& [name, cin, cout, size] : {std::tuple{QStringLiteral("Conv5x5ReLUMaxPool2x2_0"), 1, 32, 28},
                                                   std::tuple{QStringLiteral("Conv5x5ReLUMaxPool2x2_1"), 32, 64, 12}}) {
            const fp::ConvPoolReluParams params = mnistConv(cin, cout, size);
            const std::vector<int16_t> input = randomValues(random, std::size_t(cin) * size * size, 2047);
            const std::vector<int16_t> filter = randomValues(random, std::size_t(cout) * cin * 25, 255);
            const std::vector<int16_t> bias = randomValues(random, std::size_t(cout), 1023);
            write(name, "in", input);
            write(name, "filter", filter);
            write(name, "bias", bias);
            expected.push_back({name, fp::convPoolRelu(params, input, filter, bias)});
        }
        {
            const std::vector<int16_t> input = randomValues(random, 1024, 2047);
            const std::vector<int16_t> filter = randomValues(random, 10 * 1024, 255);
            const std::vector<int16_t> bias = randomValues(random, 10, 1023);
            write(QStringLiteral("LinearLayerReLU_0"), "in", input);
            write(QStringLiteral("LinearLayerReLU_0"), "filter", filter);
            write(QStringLiteral("LinearLayerReLU_0"), "bias", bias);
            expected.push_back({QStringLiteral("LinearLayerReLU_0"), fp::linearRelu(1024, 10, false, 12, 12, 8, 11, input, filter, bias)});
        }
        {
            const std::vector<int16_t> input = randomValues(random, 10, 30000);
            write(QStringLiteral("SoftMax_0"), "in", input);
            expected.push_back({QStringLiteral("SoftMax_0"), fp::softmaxQ15(input, 15)});
        }

        const ProcessResult ran = runProcess(harness, {data}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the harness"), {harness, data}, ran)));
        for (const Expected& layer : expected) {
            const std::vector<int16_t> got = readValues(data + '/' + layer.layer + QStringLiteral(".out"), layer.output.size());
            QVERIFY2(got.size() == layer.output.size(), qPrintable(layer.layer));
            for (std::size_t i = 0; i < got.size(); ++i)
                if (got[i] != layer.output[i])
                    QFAIL(qPrintable(QStringLiteral("%1: element %2 is %3, the reference gives %4 (L1 budget %5)")
                                         .arg(layer.layer)
                                         .arg(i)
                                         .arg(got[i])
                                         .arg(layer.output[i])
                                         .arg(l1)));
        }

        // The harness's DMA counters against the solver's prediction, layer by layer.
        QString error;
        const QJsonObject tiling = readJson(out + QStringLiteral("/GenKernels.tiling.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int checked = 0;
        for (const QString& line : ran.out.split('\n')) {
            const QStringList fields = line.split(' ', Qt::SkipEmptyParts);
            if (fields.size() != 6 || fields[0] != QStringLiteral("DMA"))
                continue;
            const QJsonObject dma =
                findByName(tiling[QStringLiteral("kernels")].toArray(), fields[1])[QStringLiteral("dma")].toObject();
            QCOMPARE(fields[2].toLongLong(), dma[QStringLiteral("l2_read")].toInteger(-1));
            QCOMPARE(fields[3].toLongLong(), dma[QStringLiteral("l2_write")].toInteger(-1));
            ++checked;
        }
        QCOMPARE(checked, 4);
    }

    // Zero-padded and depthwise convolutions (tests/gap/ConvLayers: "same" 3x3 and 5x5, strided,
    // dilated, with pooling): the tiles see the padding lines, the DMA moves only real lines (the counters equal
    // the prediction) and the outputs equal the reference, from a budget that forces many tiles
    // (padding in the first and last) to one that holds whole planes, on 1 and 8 cores. With every
    // *_InL3 flag set, each argument is homed in L3 and streams through L2 staging: the L3 counters
    // equal the prediction too.
    void paddedConvolutionsMatchTheReference_data()
    {
        QTest::addColumn<qint64>("l1");
        QTest::addColumn<int>("cores");
        QTest::addColumn<bool>("inL3");
        QTest::addColumn<int>("padType");  // AT_PadType; -1: no generator control (the default split)
        QTest::newRow("smallest L1, 1 core") << qint64(0) << 1 << false << -1;
        QTest::newRow("smallest L1, 8 cores") << qint64(0) << 8 << false << -1;
        QTest::newRow("64 KB L1, 8 cores") << qint64(65536) << 8 << false << -1;
        QTest::newRow("smallest L1, 8 cores, arguments in L3") << qint64(0) << 8 << true << -1;
        QTest::newRow("PAD_RIGHT, smallest L1, 1 core") << qint64(0) << 1 << false << 1;
        if (tessera::test::kSanitizedBuild)  // the same code as PAD_RIGHT, with other amounts
            return;
        QTest::newRow("PAD_LEFT, smallest L1, 8 cores") << qint64(0) << 8 << false << 0;
        QTest::newRow("PAD_BALANCED_RIGHT, 64 KB L1, 8 cores") << qint64(65536) << 8 << false << 3;
    }
    void paddedConvolutionsMatchTheReference()
    {
        QFETCH(qint64, l1);
        QFETCH(int, cores);
        QFETCH(bool, inL3);
        QFETCH(int, padType);
        QTemporaryDir work;
        const bool smallest = l1 == 0;
        QStringList defines{QStringLiteral("-DARGS_IN_L3=%1").arg(inL3 ? 1 : 0)};
        if (padType >= 0)
            defines << QStringLiteral("-DPAD_TYPE=%1").arg(padType);
        const QString harness = buildLayerHarness(QStringLiteral("ConvLayers"), work, &l1, cores, defines);
        // The reference pools with one padding on every side: the layers with pooling padding are
        // checked with the default split only (any split of the convolution's padding is checked).
        const int split = padType >= 0 ? padType : 2;
        auto checked = [split](int poolPad) { return poolPad == 0 || split == 2; };
        QVERIFY(!harness.isEmpty());
        const QString out = work.filePath(QStringLiteral("out"));

        struct Layer {
            const char* name;
            int cin, cout, width, height, filter, dilation, stride, pad;
            fp::ConvPoolReluParams::Pool pool;
            int poolSize, poolStride, poolPad;
            bool relu;
            bool depthwise = false;
        };
        using Pool = fp::ConvPoolReluParams::Pool;
        // pad and poolPad are the generators' "same" flags; the reference gets the amounts.
        const Layer layers[] = {  // tests/gap/ConvLayers/layers.h
            {"Same3x3", 4, 8, 20, 18, 3, 1, 1, 1, Pool::None, 1, 1, 0, true},
            {"Same3x3Stride2MaxPool", 3, 6, 17, 15, 3, 1, 2, 1, Pool::Max, 2, 2, 0, false},
            {"Pad2Dilated3x3AvgPool", 2, 5, 16, 16, 3, 2, 1, 1, Pool::Average, 2, 2, 0, true},
            {"Same5x5", 3, 4, 12, 11, 5, 1, 1, 1, Pool::None, 1, 1, 0, false},
            {"Same3x3Wide", 16, 16, 40, 32, 3, 1, 1, 1, Pool::None, 1, 1, 0, true},
            {"Depthwise3x3", 8, 8, 24, 20, 3, 1, 1, 1, Pool::None, 1, 1, 0, true, true},
            {"Depthwise3x3Stride2", 6, 6, 25, 23, 3, 1, 2, 1, Pool::None, 1, 1, 0, false, true},
            {"Depthwise5x5MaxPool", 4, 4, 18, 16, 5, 1, 1, 1, Pool::Max, 2, 2, 0, true, true},
            {"Same3x3MaxPool3x3Pad1", 3, 6, 19, 17, 3, 1, 1, 1, Pool::Max, 3, 2, 1, true},
            {"Stride2AvgPool3x3Pad1", 4, 5, 23, 21, 3, 1, 2, 1, Pool::Average, 3, 2, 1, false},
            {"Depthwise3x3MaxPool3x3Pad1", 5, 5, 20, 18, 3, 1, 1, 1, Pool::Max, 3, 2, 1, false, true},
            // "Same" padding with more above and left than below and right.
            {"Same2x2", 3, 5, 14, 12, 2, 1, 1, 1, Pool::None, 1, 1, 0, false},
            {"Same4x4Stride2Odd", 2, 4, 17, 15, 4, 1, 2, 1, Pool::None, 1, 1, 0, true},
            {"Depthwise2x2", 4, 4, 13, 11, 2, 1, 1, 1, Pool::None, 1, 1, 0, true, true}};
        std::mt19937 random(5u + unsigned(cores));
        const QString data = work.filePath(QStringLiteral("data"));
        QDir().mkpath(data);
        std::vector<std::vector<int16_t>> expected;
        for (const Layer& layer : layers) {
            // The reference convolves the input with its zero padding written out (any split), and
            // pools with the same padding on every side, which the layers' pooling allows: the
            // extra line or column below and right is never reached.
            const auto [top, bottom] = samePadding(layer.pad, layer.height, layer.filter, layer.dilation, layer.stride, split);
            const auto [left, right] = samePadding(layer.pad, layer.width, layer.filter, layer.dilation, layer.stride, split);
            const int paddedW = layer.width + left + right, paddedH = layer.height + top + bottom;
            const int span = layer.dilation * (layer.filter - 1) + 1;
            const int convW = (paddedW - span) / layer.stride + 1, convH = (paddedH - span) / layer.stride + 1;
            const auto [poolBefore, poolRight] = samePadding(layer.poolPad, convW, layer.poolSize, 1, layer.poolStride);
            const auto [poolTop, poolBottom] = samePadding(layer.poolPad, convH, layer.poolSize, 1, layer.poolStride);
            QCOMPARE(poolTop, poolBefore);
            QCOMPARE((convW + 2 * poolBefore - layer.poolSize) / layer.poolStride,
                     (convW + poolBefore + poolRight - layer.poolSize) / layer.poolStride);
            QCOMPARE((convH + 2 * poolBefore - layer.poolSize) / layer.poolStride,
                     (convH + poolBefore + poolBottom - layer.poolSize) / layer.poolStride);
            fp::ConvPoolReluParams params;
            params.inFeatures = layer.cin;
            params.outFeatures = layer.cout;
            params.width = paddedW;
            params.height = paddedH;
            params.filterWidth = params.filterHeight = layer.filter;
            params.dilationX = params.dilationY = layer.dilation;
            params.strideX = params.strideY = layer.stride;
            params.pad = 0;
            params.pool = layer.pool;
            params.poolWidth = params.poolHeight = layer.poolSize;
            params.poolStrideX = params.poolStrideY = layer.poolStride;
            params.poolPad = poolBefore;
            params.relu = layer.relu;
            params.depthwise = layer.depthwise;
            params.inQ = 12;
            params.filterQ = params.biasQ = 14;
            params.outQ = 12;
            const int taps = layer.filter * layer.filter;
            const std::vector<int16_t> input = randomValues(random, std::size_t(layer.cin) * layer.width * layer.height, 2047);
            const int filterInputs = layer.depthwise ? 1 : layer.cin;
            const std::vector<int16_t> filter = randomValues(random, std::size_t(layer.cout) * filterInputs * taps, 255);
            const std::vector<int16_t> bias = randomValues(random, std::size_t(layer.cout), 1023);
            const QString base = data + '/' + QLatin1String(layer.name);
            QVERIFY(writeValues(base + QStringLiteral(".in"), input));
            QVERIFY(writeValues(base + QStringLiteral(".filter"), filter));  // [Cout][Cin][F][F], as the SDK's
            QVERIFY(writeValues(base + QStringLiteral(".bias"), bias));
            expected.push_back(fp::convPoolRelu(
                params, zeroPadded(input, layer.cin, layer.width, layer.height, top, bottom, left, right), filter, bias));
        }
        const ProcessResult ran = runProcess(harness, {data}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the harness"), {harness, data}, ran)));

        QString error;
        const QJsonObject tiling = readJson(out + QStringLiteral("/GenKernels.tiling.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int multiTile = 0;
        for (std::size_t i = 0; i < std::size(layers); ++i) {
            const QString name = QLatin1String(layers[i].name);
            if (checked(layers[i].poolPad))
                QCOMPARE(readValues(data + '/' + name + QStringLiteral(".out"), expected[i].size()), expected[i]);
            const QJsonObject kernel = findByName(tiling[QStringLiteral("kernels")].toArray(), name);
            multiTile += kernel[QStringLiteral("tiles")].toInt() > 1;
            const QRegularExpressionMatch dma =
                QRegularExpression(QStringLiteral("DMA %1 (\\d+) (\\d+) (\\d+) (\\d+)").arg(name)).match(ran.out);
            QVERIFY2(dma.hasMatch(), qPrintable(ran.out));
            const QJsonObject predicted = kernel[QStringLiteral("dma")].toObject();
            QCOMPARE(dma.captured(1).toLongLong(), predicted[QStringLiteral("l2_read")].toInteger(-1));
            QCOMPARE(dma.captured(2).toLongLong(), predicted[QStringLiteral("l2_write")].toInteger(-1));
            QCOMPARE(dma.captured(3).toLongLong(), predicted[QStringLiteral("l3_read")].toInteger(-1));
            QCOMPARE(dma.captured(4).toLongLong(), predicted[QStringLiteral("l3_write")].toInteger(-1));
            // In L3, every input byte comes from L3 at least once and every output byte goes there.
            if (inL3)
                QVERIFY(dma.captured(3).toLongLong() > 0 && dma.captured(4).toLongLong() > 0);
            else
                QVERIFY(dma.captured(3).toLongLong() == 0 && dma.captured(4).toLongLong() == 0);
        }
        if (smallest)  // the budget of the largest layer: most layers run in several tiles
            QVERIFY2(multiTile >= 3, qPrintable(QStringLiteral("%1 of the layers tiled").arg(multiTile)));
    }

    // Pooling alone, global average pooling, element-wise additions and matrix products
    // (tests/gap/CnnOps) against
    // the reference, with the DMA bytes predicted, at the smallest L1 the model accepts (several
    // tiles) and at 64 KB, on 1 and 8 cores.
    void poolingSumsAndProductsMatchTheReference_data()
    {
        QTest::addColumn<qint64>("l1");
        QTest::addColumn<int>("cores");
        QTest::newRow("smallest L1, 1 core") << qint64(0) << 1;
        QTest::newRow("smallest L1, 8 cores") << qint64(0) << 8;
        QTest::newRow("64 KB L1, 8 cores") << qint64(65536) << 8;
    }
    void poolingSumsAndProductsMatchTheReference()
    {
        QFETCH(qint64, l1);
        QFETCH(int, cores);
        QTemporaryDir work;
        const bool smallest = l1 == 0;
        const QString harness = buildLayerHarness(QStringLiteral("CnnOps"), work, &l1, cores);
        QVERIFY(!harness.isEmpty());
        const QString out = work.filePath(QStringLiteral("out"));

        std::mt19937 random(13u + unsigned(cores));
        const QString data = work.filePath(QStringLiteral("data"));
        QDir().mkpath(data);
        std::vector<std::pair<QString, std::vector<int16_t>>> expected;
        const auto write = [&](const QString& layer, const char* what, const std::vector<int16_t>& values) {
            QVERIFY(writeValues(data + '/' + layer + '.' + what, values));
        };
        using Pool = fp::PoolReluParams::Pool;
        // Padded windows skip the positions outside the plane (max of the others, average over them).
        for (const auto& [name, feat, w, h, pool, size, stride, pad, relu] :
             {std::tuple{QStringLiteral("MaxPool3x3Stride2"), 5, 17, 15, Pool::Max, 3, 2, 0, true},
              std::tuple{QStringLiteral("AvgPool2x2"), 4, 16, 12, Pool::Average, 2, 2, 0, false},
              std::tuple{QStringLiteral("MaxPool3x3Stride2Pad1"), 3, 17, 15, Pool::Max, 3, 2, 1, false},
              std::tuple{QStringLiteral("AvgPool3x3Pad1"), 4, 10, 9, Pool::Average, 3, 1, 1, false},
              std::tuple{QStringLiteral("MaxPool5x5Pad2Tall"), 2, 24, 70, Pool::Max, 5, 1, 2, true}}) {  // "same"
            const std::vector<int16_t> input = randomValues(random, std::size_t(feat) * w * h, 30000);
            write(name, "in", input);
            fp::PoolReluParams params;
            params.features = feat;
            params.width = w;
            params.height = h;
            params.pool = pool;
            params.poolWidth = params.poolHeight = size;
            params.strideX = params.strideY = stride;
            params.pad = pad;
            params.relu = relu;
            expected.push_back({name, fp::poolRelu(params, input)});
        }
        {
            // The generator's "same" flag on 2x2 windows of stride 1: one padding line above and
            // one column left, none below or right.
            const std::vector<int16_t> input = randomValues(random, std::size_t(3) * 11 * 9, 30000);
            write(QStringLiteral("MaxPool2x2Same"), "in", input);
            expected.push_back({QStringLiteral("MaxPool2x2Same"), maxPoolSkippingPadding(input, 3, 11, 9, 2, 1, 1, 1,
                                                                                          11, 9, false)});
        }
        for (const auto& [name, feat, w, h] : {std::tuple{QStringLiteral("GlobalAvg"), 12, 14, 13},
                                              std::tuple{QStringLiteral("GlobalAvgLarge"), 3, 60, 50}}) {
            const std::vector<int16_t> input = randomValues(random, std::size_t(feat) * w * h, 30000);
            write(name, "in", input);
            expected.push_back({name, fp::globalAveragePool(feat, w, h, input)});
        }
        for (const auto& [name, count, q1, q2, q, relu] : {std::tuple{QStringLiteral("Add"), 6 * 20 * 10, 12, 10, 11, false},
                                                          std::tuple{QStringLiteral("AddReLU"), 3 * 9 * 7, 12, 12, 12, true}}) {
            const std::vector<int16_t> a = randomValues(random, std::size_t(count), 30000);
            const std::vector<int16_t> b = randomValues(random, std::size_t(count), 30000);
            write(name, "in1", a);
            write(name, "in2", b);
            expected.push_back({name, fp::matAdd(a, q1, b, q2, q, relu)});
        }
        for (const auto& [name, lines, inner, columns, qa, qb, qbias, q, relu] :
             {std::tuple{QStringLiteral("MatMul"), 40, 24, 9, 12, 14, 14, 12, false},
              std::tuple{QStringLiteral("MatMulReLU"), 5, 7, 3, 11, 13, 12, 10, true}}) {
            const std::vector<int16_t> a = randomValues(random, std::size_t(lines) * inner, 2047);
            const std::vector<int16_t> b = randomValues(random, std::size_t(inner) * columns, 2047);
            const std::vector<int16_t> bias = randomValues(random, std::size_t(lines), 2047);
            write(name, "in1", a);
            write(name, "in2", b);
            write(name, "bias", bias);
            expected.push_back({name, fp::matMul(lines, inner, columns, a, qa, b, qb, bias, qbias, q, relu)});
        }
        const ProcessResult ran = runProcess(harness, {data}, sanitizerEnvironment());
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the harness"), {harness, data}, ran)));
        QString error;
        const QJsonObject tiling = readJson(out + QStringLiteral("/GenKernels.tiling.json"), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        int multiTile = 0, paddedMultiTile = 0;
        for (const auto& [name, values] : expected) {
            QCOMPARE(readValues(data + '/' + name + QStringLiteral(".out"), values.size()), values);
            const QJsonObject kernel = findByName(tiling[QStringLiteral("kernels")].toArray(), name);
            multiTile += kernel[QStringLiteral("tiles")].toInt() > 1;
            paddedMultiTile += kernel[QStringLiteral("tiles")].toInt() > 1 && name.contains(QStringLiteral("Pad"));
            const QRegularExpressionMatch dma = QRegularExpression(QStringLiteral("DMA %1 (\\d+) (\\d+)").arg(name)).match(ran.out);
            QVERIFY2(dma.hasMatch(), qPrintable(ran.out));
            const QJsonObject predicted = kernel[QStringLiteral("dma")].toObject();
            QCOMPARE(dma.captured(1).toLongLong(), predicted[QStringLiteral("l2_read")].toInteger(-1));
            QCOMPARE(dma.captured(2).toLongLong(), predicted[QStringLiteral("l2_write")].toInteger(-1));
        }
        if (smallest)
            QVERIFY2(multiTile >= 3 && paddedMultiTile >= 1,
                     qPrintable(QStringLiteral("%1 of the layers tiled, %2 padded ones").arg(multiTile).arg(paddedMultiTile)));
    }

    // The SDK's copy generators (tests/gap/CnnCopy, CNN_Copy_Generators.h through
    // CNN_Generators_SQ8.h): transpositions (by lines, by columns one matrix at a time, of an HWC
    // tensor, and one too wide for a small L1, which becomes a permutation as in the SDK), the ten
    // permutations of 8- and 16-bit tensors, copies, a repeat and the 24 conversions (zero points,
    // 8 <-> 16 bits, scaled between any two item types) and the 8 image normalizations, each compared
    // by the harness with the items moved or converted there directly, with the DMA bytes the tile solver predicted; at the smallest
    // L1 the model accepts (several tiles) and at 64 KB, on 1 and 8 cores.
    void copiesAndPermutationsMoveEveryItem_data()
    {
        QTest::addColumn<qint64>("l1");
        QTest::addColumn<int>("cores");
        QTest::newRow("smallest L1, 1 core") << qint64(0) << 1;
        QTest::newRow("smallest L1, 8 cores") << qint64(0) << 8;
        QTest::newRow("64 KB L1, 8 cores") << qint64(65536) << 8;
    }
    void copiesAndPermutationsMoveEveryItem()
    {
        QFETCH(qint64, l1);
        QFETCH(int, cores);
        QTemporaryDir work;
        const bool smallest = l1 == 0;
        const QString harness = buildLayerHarness(QStringLiteral("CnnCopy"), work, &l1, cores);
        QVERIFY(!harness.isEmpty());
        const QString out = work.filePath(QStringLiteral("out"));
        for (const char* seed : {"1", "77"}) {
            const ProcessResult ran = runProcess(harness, {QLatin1String(seed)}, sanitizerEnvironment());
            QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("RESULT ok")),
                     qPrintable(describe(QStringLiteral("the harness"), {harness, QLatin1String(seed)}, ran)));
            QString error;
            const QJsonObject tiling = readJson(out + QStringLiteral("/GenKernels.tiling.json"), &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QJsonArray kernels = tiling[QStringLiteral("kernels")].toArray();
            QCOMPARE(kernels.size(), 60);
            int multiTile = 0;
            for (const QJsonValue& value : kernels) {
                const QJsonObject kernel = value.toObject();
                // An RGB normalization is a group of one body kernel; the harness names the group.
                QString name = kernel[QStringLiteral("name")].toString();
                if (name.startsWith(QStringLiteral("NormRGB")) && name.endsWith(QStringLiteral("Body")))
                    name.chop(4);
                multiTile += kernel[QStringLiteral("tiles")].toInt() > 1;
                const QRegularExpressionMatch dma =
                    QRegularExpression(QStringLiteral("DMA %1 (\\d+) (\\d+)\n").arg(name)).match(ran.out);
                QVERIFY2(dma.hasMatch(), qPrintable(name + QStringLiteral(": ") + ran.out));
                const QJsonObject predicted = kernel[QStringLiteral("dma")].toObject();
                QCOMPARE(dma.captured(1).toLongLong(), predicted[QStringLiteral("l2_read")].toInteger(-1));
                QCOMPARE(dma.captured(2).toLongLong(), predicted[QStringLiteral("l2_write")].toInteger(-1));
            }
            if (smallest)
                QVERIFY2(multiTile >= 20, qPrintable(QStringLiteral("%1 of the layers tiled").arg(multiTile)));
        }
        // The kernels called are the SDK's, by name; the wide transposition falls back below 16000 bytes.
        QFile code(out + QStringLiteral("/GenKernels.c"));
        QVERIFY(code.open(QIODevice::ReadOnly));
        const QString generated = QString::fromUtf8(code.readAll());
        for (const char* kernel : {"CNN_ParTranspose_fps", "CNN_ParTranspose_fp", "CNN_Transpose_fps",
                                   "CNN_MatPermHWC2WHC_fps", "CNN_MatPermCHW2HCW_fp", "CNN_MatPermHWC2CWH_fps",
                                   "CNN_Copy_void", "CNN_Repeat_void", "CNN_FpsUFps", "CNN_FpFps",
                                   "CNN_UFpsUFpScaled", "CNN_FpUFpsScaled", "CNN_NormRGB565_offset_fps",
                                   "CNN_NormRGB16_fp", "CNN_NormBW_shift_fps"})
            QVERIFY2(generated.contains(QStringLiteral("(void *) %1,").arg(QLatin1String(kernel))), kernel);
        const qsizetype wideStart = generated.indexOf(QStringLiteral("void TransposeWide("));
        QVERIFY2(wideStart >= 0, qPrintable(generated.left(2000)));
        const QString wideBody = generated.mid(wideStart, generated.indexOf(QStringLiteral("\n}\n"), wideStart) - wideStart);
        QVERIFY2(wideBody.contains(smallest ? QStringLiteral("(void *) CNN_MatPermCHW2CWH_fps,")
                                            : QStringLiteral("(void *) CNN_ParTranspose_fps,")),
                 qPrintable(wideBody));
    }

};

QTEST_GUILESS_MAIN(TestGapCnnLayers)
#include "tst_gap_cnn_layers.moc"
