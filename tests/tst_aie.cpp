// AI Engine buffer splitting: AMD's published Radio-ML table, other shapes and generations,
// the functional check, and errors.
#include "aie/aie_report.h"
#include "aie/split_check.h"
#include "aie/split_planner.h"
#include "ir/builder.h"
#include "base/error.h"
#include "zoo/zoo.h"

#include <QtTest>

#include <nlohmann/json.hpp>

using namespace tessera;
using namespace tessera::aie;

namespace {

// A 1-D conv network in the Radio-ML style: `blocks` x (conv 'same' + ReLU + max-pool 2), then
// a dense layer.
Graph convNetwork(int64_t samples, int64_t filters, int64_t kernel, int blocks)
{
    GraphBuilder b("net", 13);
    TensorId x = b.input("iq", DType::Float32, {1, 2, samples});
    int64_t channels = 2;
    for (int k = 0; k < blocks; ++k) {
        const std::string n = std::to_string(k);
        std::vector<float> w(size_t(filters * channels * kernel));
        for (size_t i = 0; i < w.size(); ++i)
            w[i] = float((i * 37 % 17) - 8) / 64.0f;
        const TensorId weights = b.constant("w" + n, TensorData::fromFloats({filters, channels, kernel}, w));
        const TensorId bias = b.constant("b" + n, TensorData::fromFloats({filters}, std::vector<float>(size_t(filters), 0.125f)));
        x = b.op("Conv", {x, weights, bias},
                 {{"kernel_shape", Attribute::ofInts({kernel})}, {"pads", Attribute::ofInts({kernel / 2, kernel / 2})}},
                 "conv" + n);
        x = b.op("Relu", {x}, {}, "relu" + n);
        x = b.op("MaxPool", {x}, {{"kernel_shape", Attribute::ofInts({2})}, {"strides", Attribute::ofInts({2})}}, "pool" + n);
        channels = filters;
    }
    b.output(x);
    return b.finish();
}

bool allPassed(const std::vector<LayerCheck>& checks)
{
    for (const LayerCheck& check : checks)
        if (!check.passed) {
            qWarning("layer %s differs by %g", check.layer.c_str(), check.maxError);
            return false;
        }
    return !checks.empty();
}

} // namespace

class TestAie : public QObject {
    Q_OBJECT

private slots:
    void radiomlReproducesAmdTable()
    {
        // AMD Radio-ML design (Vitis Tutorials, AIE-ML v2), per-layer invocation table.
        const QStringList expected = {
            "conv1d_w1|(2,1024)|(64,1024)|8|256|1|1|Split output nodes by NSPLIT=8, handled inside kernel using async_output_buffer",
            "max_pool1d_w2|(64,1024)|(64,512)|256|128|8|1|\u2014",
            "conv1d_w3|(64,512)|(64,512)|176|128|8|1|Split I/O over samples dimension",
            "max_pool1d_w4|(64,512)|(64,256)|128|64|4|NA|\u2014",
            "conv1d_w5|(64,256)|(64,256)|88|64|4|1|Same note as conv1d_w3",
            "max_pool1d_w6|(64,256)|(64,128)|64|32|2|NA|\u2014",
            "conv1d_w7|(64,128)|(64,128)|44|32|2|1|Same note as conv1d_w3",
            "max_pool1d_w8|(64,128)|(64,64)|32|16|1|NA|\u2014",
            "conv1d_w9|(64,64)|(64,64)|17.5|16|1|1|NA",
            "max_pool1d_w10|(64,64)|(64,32)|16|8|1|NA|\u2014",
            "conv1d_w11|(64,32)|(64,32)|9.5|8|1|1|NA",
            "max_pool1d_w12|(64,32)|(64,16)|8|4|1|NA|\u2014",
            "conv1d_w13|(64,16)|(64,16)|5.5|4|1|1|NA",
            "max_pool1d_w14|(64,16)|(64,8)|4|2|1|NA|\u2014",
            "dense_w16|(512)|(128)|2|0.5|1|NA|\u2014",
            "dense_w17|(128)|(128)|0.5|0.5|1|NA|\u2014",
            "dense_w18|(128)|(24)|0.5|0.1|1|NA|\u2014",
        };
        const Graph graph = buildZooModel("radioml");
        for (const char* arch : {"aie-ml", "aie-ml-v2"}) {
            const AiePlan plan = planSplits(graph, aieArchitecture(arch));
            QCOMPARE(int(plan.layers.size()), int(expected.size()));
            for (size_t r = 0; r < plan.layers.size(); ++r) {
                const LayerPlan& p = plan.layers[r];
                const QString row = QString::fromStdString(
                    p.layer.name + "|" + p.layer.inputShapeText() + "|" + p.layer.outputShapeText() + "|" +
                    formatKB(p.inputKB) + "|" + formatKB(p.outputKB) + "|" + std::to_string(p.kernelInvocations) + "|" +
                    (p.memtileInvocations ? std::to_string(*p.memtileInvocations) : "NA") + "|" + p.note);
                QCOMPARE(row, expected[int(r)]);
            }
            QVERIFY(allPassed(checkPlan(graph, plan)));
        }
    }

    void jsonCarriesTheDecisions()
    {
        const AiePlan plan = planSplits(buildZooModel("radioml"), aieArchitecture("aie-ml"));
        const nlohmann::json json = nlohmann::json::parse(formatJson(plan));
        QCOMPARE(QString::fromStdString(json["arch"].get<std::string>()), QString("aie-ml"));
        const auto& layers = json["layers"];
        QCOMPARE(int(layers.size()), 17);
        QCOMPARE(layers[0]["nsplit"].get<int>(), 8);
        QCOMPARE(QString::fromStdString(layers[0]["async_buffer"].get<std::string>()), QString("output"));
        QCOMPARE(QString::fromStdString(layers[0]["split_dim"].get<std::string>()), QString("nodes"));
        QCOMPARE(layers[2]["input_kb"].get<double>(), 176.0);
        QCOMPARE(QString::fromStdString(layers[2]["split_dim"].get<std::string>()), QString("samples"));
        QVERIFY(layers[2]["async_buffer"].is_null());
        QVERIFY(layers[3]["memtile_invocations"].is_null());
        QCOMPARE(layers[16]["output_kb"].get<double>(), 0.09375);
        QVERIFY(!layers[2]["reasons"].empty());
        // The ADF text names the memory-tile windows of the conv template.
        const std::string adf = formatAdf(plan);
        QVERIFY(adf.find("tiling_dimension={8,22} offset={0,-3} traversal_stride={8,16}") != std::string::npos);
        QVERIFY(adf.find("repetition_count(kernel) = 8") != std::string::npos);
    }

    void otherShapesFitAndCheck_data()
    {
        QTest::addColumn<QString>("arch");
        QTest::addColumn<qint64>("samples");
        QTest::addColumn<qint64>("filters");
        QTest::addColumn<qint64>("kernel");
        QTest::newRow("2048 samples") << "aie-ml" << qint64(2048) << qint64(64) << qint64(7);
        QTest::newRow("32 filters") << "aie-ml" << qint64(1024) << qint64(32) << qint64(7);
        QTest::newRow("128 filters") << "aie-ml" << qint64(1024) << qint64(128) << qint64(7);
        QTest::newRow("kernel 5") << "aie-ml" << qint64(1024) << qint64(64) << qint64(5);
        QTest::newRow("kernel 9") << "aie-ml-v2" << qint64(1024) << qint64(64) << qint64(9);
        QTest::newRow("first-generation AIE") << "aie" << qint64(1024) << qint64(64) << qint64(7);
        QTest::newRow("AIE, 128 filters, 2048") << "aie" << qint64(2048) << qint64(128) << qint64(7);
    }

    void otherShapesFitAndCheck()
    {
        QFETCH(QString, arch);
        QFETCH(qint64, samples);
        QFETCH(qint64, filters);
        QFETCH(qint64, kernel);
        const Graph graph = convNetwork(samples, filters, kernel, 4);
        const AiePlan plan = planSplits(graph, aieArchitecture(arch.toStdString()));
        const int64_t budget = plan.arch.pingPongBudget();
        for (const LayerPlan& p : plan.layers) {
            // Every kernel buffer pair fits the ping-pong budget ...
            const int64_t in = p.kernelInputElements * 2 * 2, out = p.kernelOutputElements * 2 * 2;
            QVERIFY2(in <= budget && out <= budget,
                     qPrintable(QString("%1: %2 / %3 bytes, budget %4").arg(QString::fromStdString(p.layer.name)).arg(in).arg(out).arg(budget)));
            // ... and half as many chunks would not.
            if (p.nsplit > 1) {
                const double driving = std::max(p.inputKB, p.outputKB) * 1024.0;
                QVERIFY2(driving / double(p.nsplit / 2) > double(budget), p.layer.name.c_str());
            }
        }
        QVERIFY(allPassed(checkPlan(graph, plan)));
    }

    void denseSplitOverNodesChecks()
    {
        // A 512 -> 8192 dense layer on a 32 KB tile: its output is split over nodes.
        GraphBuilder b("dense", 13);
        const TensorId x = b.input("x", DType::Float32, {1, 512});
        std::vector<float> w(size_t(8192) * 512);
        for (size_t i = 0; i < w.size(); ++i)
            w[i] = float(int(i % 7) - 3) / 16.0f;
        const TensorId weights = b.constant("w", TensorData::fromFloats({8192, 512}, w));
        const TensorId bias = b.constant("b", TensorData::fromFloats({8192}, std::vector<float>(8192, 0.5f)));
        b.output(b.op("Gemm", {x, weights, bias}, {{"transB", Attribute::ofInt(1)}}, "dense"));
        const Graph graph = b.finish();
        const AiePlan plan = planSplits(graph, aieArchitecture("aie"));
        QCOMPARE(plan.layers.front().nsplit, qint64(2)); // 32 KB of output against a 16 KB port budget
        QCOMPARE(QString::fromStdString(*plan.layers.front().splitDim), QString("nodes"));
        const std::vector<LayerCheck> checks = checkPlan(graph, plan);
        QVERIFY(allPassed(checks));
        QCOMPARE(checks.front().pieces, qint64(2));
    }

    void layerTooLargeIsReported()
    {
        // 8192 nodes of 16 samples: the pool after the first conv cannot fit a 32 KB tile even one
        // output sample per chunk.
        const Graph graph = convNetwork(16, 8192, 3, 2);
        try {
            planSplits(graph, aieArchitecture("aie"));
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains("'pool0'") && QString(error.what()).contains("cannot fit"), error.what());
            return;
        }
        QFAIL("no error for a layer that cannot fit");
    }

    void unsupportedLayersAndNamesAreReported()
    {
        GraphBuilder b("image", 13);
        const TensorId x = b.input("x", DType::Float32, {1, 3, 8, 8});
        const TensorId w = b.constant("w", TensorData::fromFloats({4, 3, 3, 3}, std::vector<float>(108, 0.5f)));
        b.output(b.op("Conv", {x, w}, {}, "conv2d"));
        const Graph graph = b.finish();
        QVERIFY_THROWS_EXCEPTION(UnsupportedError, planSplits(graph, aieArchitecture("aie-ml")));
        QVERIFY_THROWS_EXCEPTION(Error, aieArchitecture("aie-ml-v9"));
    }
};

QTEST_GUILESS_MAIN(TestAie)
#include "tst_aie.moc"
