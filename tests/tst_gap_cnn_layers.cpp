// The CNN generators end to end: the basic-kernel library against its own direct implementation
// of docs/gap-fixed-point.md, then the layers of the guide's MNIST model generated through the tile
// engine, built for the host with the emulation runtime (1 and 8 cores, AddressSanitizer), run on
// random data and compared bit for bit with the reference interpreter's fixed-point kernels; and
// the guide's MnistModel.c, verbatim, as a graph: constructed from its flash image, run, destructed.
#include "gap_toolchain.h"

#include "interp/fixed_point/pow2_kernels.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdint>
#include <random>
#include <vector>

using namespace tessera::test;
namespace fp = tessera::fixed_point;

namespace {

const QString kGapTests = QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap");
constexpr qint64 kGuideL1 = 48000;

QStringList sanitizerFlags(int cores)
{
    return {QStringLiteral("-O1"), QStringLiteral("-g"), QStringLiteral("-fsanitize=address,undefined"),
            QStringLiteral("-fno-sanitize-recover=undefined"), QStringLiteral("-fno-omit-frame-pointer"),
            QStringLiteral("-DAT_EMUL_CORES=%1").arg(cores)};
}

QProcessEnvironment sanitizerEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("detect_leaks=1"));
    environment.insert(QStringLiteral("UBSAN_OPTIONS"), QStringLiteral("halt_on_error=1:print_stacktrace=1"));
    return environment;
}

std::vector<int16_t> randomValues(std::mt19937& random, std::size_t count, int limit)
{
    std::uniform_int_distribution<int> value(-limit, limit);
    std::vector<int16_t> values(count);
    for (int16_t& v : values)
        v = int16_t(value(random));
    return values;
}

// Integer-valued float32 tensor files, as ConstInfo(file, 1 (float), 1 (binary), 16, 0) reads them.
bool writeFloatTensor(const QString& path, const std::vector<int16_t>& values)
{
    std::vector<float> floats(values.begin(), values.end());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(reinterpret_cast<const char*>(floats.data()), qint64(floats.size() * sizeof(float))) ==
               qint64(floats.size() * sizeof(float));
}

bool writeValues(const QString& path, const std::vector<int16_t>& values)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * sizeof(int16_t))) ==
               qint64(values.size() * sizeof(int16_t));
}

std::vector<int16_t> readValues(const QString& path, std::size_t count)
{
    QFile file(path);
    std::vector<int16_t> values(count);
    if (!file.open(QIODevice::ReadOnly) ||
        file.read(reinterpret_cast<char*>(values.data()), qint64(count * sizeof(int16_t))) != qint64(count * sizeof(int16_t)))
        return {};
    return values;
}

// [Cout][Cin][k] (the reference's layout) to [Cin][Cout][k] (what the generated layers read).
std::vector<int16_t> inputFeatureMajor(const std::vector<int16_t>& filter, int cout, int cin, int taps)
{
    std::vector<int16_t> reordered(filter.size());
    for (int co = 0; co < cout; ++co)
        for (int ci = 0; ci < cin; ++ci)
            for (int k = 0; k < taps; ++k)
                reordered[(std::size_t(ci) * cout + co) * taps + k] = filter[(std::size_t(co) * cin + ci) * taps + k];
    return reordered;
}

// The MNIST layers as the guide's model declares them (tests/gap/MnistLayers/Model.c).
fp::ConvPoolReluParams mnistConv(int inFeatures, int outFeatures, int size)
{
    fp::ConvPoolReluParams params;
    params.inFeatures = inFeatures;
    params.outFeatures = outFeatures;
    params.width = params.height = size;
    params.filterWidth = params.filterHeight = 5;
    params.pool = fp::ConvPoolReluParams::Pool::Max;
    params.poolWidth = params.poolHeight = 2;
    params.poolStrideX = params.poolStrideY = 2;
    params.relu = true;
    params.inQ = 12;
    params.filterQ = 14;
    params.biasQ = 14;
    params.outQ = 12;
    return params;
}

} // namespace

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
            QStringList{QStringLiteral("-I"), out, out + QStringLiteral("/GenKernels.c"), out + QStringLiteral("/GenKernelsInit.c")} +
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
            write(name, "filter", inputFeatureMajor(filter, cout, cin, 25));
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
        QTemporaryDir work;
        QDir().mkpath(work.filePath(QStringLiteral("model")));
        std::mt19937 random(7u + unsigned(cores));
        const std::vector<int16_t> w1 = randomValues(random, 32 * 25, 255), b1 = randomValues(random, 32, 1023);
        const std::vector<int16_t> w2 = randomValues(random, 64 * 32 * 25, 255), b2 = randomValues(random, 64, 1023);
        const std::vector<int16_t> w3 = randomValues(random, 10 * 1024, 255), b3 = randomValues(random, 10, 1023);
        const std::pair<const char*, const std::vector<int16_t>*> tensors[] = {
            {"Step1Weights", &w1}, {"Step1Biases", &b1}, {"Step2Weights", &w2},
            {"Step2Biases", &b2},  {"Step3Weights", &w3}, {"Step3Biases", &b3}};
        for (const auto& [name, values] : tensors)
            QVERIFY(writeFloatTensor(work.filePath(QStringLiteral("model/%1.tensor").arg(name)), *values));

        const QString generator = work.filePath(QStringLiteral("GenMnist"));
        QStringList command;
        const ProcessResult compiled =
            m_toolchain.compileModel(kGapTests + QStringLiteral("/MnistGraph/MnistModel.c"), generator, &command);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("compiling MnistModel.c"),
                                                             QStringList{m_toolchain.cc} + command, compiled)));
        const QString out = work.filePath(QStringLiteral("out"));
        const ProcessResult generated =
            runProcess(generator, {QStringLiteral("-o"), out}, QProcessEnvironment::systemEnvironment(), work.path());
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), {generator}, generated)));
        QVERIFY(QFile::exists(out + QStringLiteral("/Mnist_L3_Flash_Const.dat")));

        const QString harness = work.filePath(QStringLiteral("harness"));
        const QStringList build =
            sanitizerFlags(cores) + m_toolchain.emulCflags +
            QStringList{QStringLiteral("-I"), out, out + QStringLiteral("/MnistKernels.c"),
                        out + QStringLiteral("/MnistKernelsInit.c")} +
            m_toolchain.cnnSources +
            QStringList{kGapTests + QStringLiteral("/MnistGraph/harness.c"), QStringLiteral("-o"), harness};
        const ProcessResult built = runProcess(m_toolchain.cc, build);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_toolchain.cc} + build, built)));

        const std::vector<int16_t> input = randomValues(random, 28 * 28, 2047);
        QVERIFY(writeValues(work.filePath(QStringLiteral("input.bin")), input));
        const QStringList arguments{work.filePath(QStringLiteral("input.bin")), work.filePath(QStringLiteral("output.bin"))};
        const ProcessResult ran = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(ran.exitCode == 0, qPrintable(describe(QStringLiteral("the graph"), QStringList{harness} + arguments, ran)));
        QVERIFY2(ran.out.contains(QStringLiteral("MEMORY 41632 124692 11264")), qPrintable(ran.out));

        // The reference chain: the guide's layers with its Q formats, the constants as converted.
        std::vector<int16_t> x = fp::convPoolRelu(mnistConv(1, 32, 28), input, w1, b1);
        x = fp::convPoolRelu(mnistConv(32, 64, 12), x, w2, b2);
        x = fp::linearRelu(1024, 10, false, 12, 12, 8, 11, x, w3, b3);
        x = fp::softmaxQ15(x, 15);
        QCOMPARE(readValues(work.filePath(QStringLiteral("output.bin")), 10), x);

        // The generated graph also builds warning-free for GAP (PMSIS branch, declarations only).
        const QStringList target{QStringLiteral("-fsyntax-only"), QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                 QStringLiteral("-Werror"), QStringLiteral("-Wno-pointer-to-int-cast"),
                                 QStringLiteral("-Wno-int-to-pointer-cast"), QStringLiteral("-DAT_FORCE_PMSIS"),
                                 QStringLiteral("-I"), kGapTests + QStringLiteral("/pmsis_stub"),
                                 QStringLiteral("-I"), QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/runtime"),
                                 QStringLiteral("-I"), QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels"),
                                 QStringLiteral("-I"), out, out + QStringLiteral("/MnistKernels.c"),
                                 out + QStringLiteral("/MnistKernelsInit.c")};
        const ProcessResult targetBuild = runProcess(m_toolchain.cc, target);
        QVERIFY2(targetBuild.exitCode == 0,
                 qPrintable(describe(QStringLiteral("GAP build"), QStringList{m_toolchain.cc} + target, targetBuild)));

        // Without its constants image the graph cannot be constructed: error 1.
        QVERIFY(QFile::remove(out + QStringLiteral("/Mnist_L3_Flash_Const.dat")));
        const ProcessResult missing = runProcess(harness, arguments, sanitizerEnvironment(), out);
        QVERIFY2(missing.exitCode == 1 && missing.out.contains(QStringLiteral("CONSTRUCT 1")), qPrintable(missing.out));
    }
};

QTEST_GUILESS_MAIN(TestGapCnnLayers)
#include "tst_gap_cnn_layers.moc"
