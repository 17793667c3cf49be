// The sample zoo: published layer counts and sizes, determinism, execution, export round trip and
// optimal activation plans.
#include "interp/interpreter.h"
#include "base/error.h"
#include "memory/lifetimes.h"
#include "memory/memory_planner.h"
#include "memory/plan_validator.h"
#include "onnx/onnx_export.h"
#include "onnx/onnx_import.h"
#include "session/model_loader.h"
#include "session/model_stats.h"
#include "test_support.h"
#include "zoo/zoo.h"

#include <QtTest>

#include <cmath>

using namespace tessera;

namespace {

TensorData randomInput(const Graph& graph, uint32_t seed)
{
    return test::randomFloats(graph.tensor(graph.inputs[0]).shape, seed, 0.0f, 1.0f);
}

} // namespace

class TestZoo : public QObject {
    Q_OBJECT

private slots:
    void publishedSizes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::addColumn<qint64>("params");
        QTest::addColumn<double>("paramTolerance");
        QTest::addColumn<qint64>("macs");
        QTest::addColumn<double>("macTolerance");
        // Exact counts of the classic layer lists.
        // MNIST of the Autotiler guide: 32x1x5x5+32, 64x32x5x5+64, 10x1024+10 parameters;
        // 24*24*32*25 + 8*8*64*32*25 + 1024*10 multiply-adds.
        QTest::newRow("mnist") << "mnist" << 1.0 << 224 << qint64(62346) << 0.0 << qint64(3747840) << 0.0;
        QTest::newRow("lenet5") << "lenet5" << 1.0 << 224 << qint64(61706) << 0.0 << qint64(416520) << 0.0;
        QTest::newRow("radioml") << "radioml" << 1.0 << 224 << qint64(258648) << 0.0 << qint64(0) << -1.0;
        // MobileNet v1 (Howard et al. 2017, Table 7): 569 M mult-adds / 4.2 M parameters at 1.0/224,
        // 14 M / 0.47 M at 0.25/128 (batch norm folded into the convolution biases here).
        QTest::newRow("mobilenet 1.0/224") << "mobilenet_v1" << 1.0 << 224 << qint64(4200000) << 0.02 << qint64(569000000) << 0.01;
        QTest::newRow("mobilenet 0.25/128") << "mobilenet_v1" << 0.25 << 128 << qint64(470000) << 0.02 << qint64(14000000) << 0.05;
        // torchvision's mobilenet_v2: 3,504,872 parameters, 0.30 G multiply-adds at 224 (17,056
        // channels of batch norm folded). The graph also holds the min and max scalars of its 35
        // ReLU6 Clips, counted as constants.
        QTest::newRow("mobilenet_v2") << "mobilenet_v2" << 1.0 << 224 << qint64(3504872 - 17056 + 35 * 2) << 0.0 << qint64(300000000) << 0.02;
        // torchvision's squeezenet1_1: 1,235,496 parameters, 0.35 G multiply-adds at 224.
        QTest::newRow("squeezenet1_1") << "squeezenet1_1" << 1.0 << 224 << qint64(1235496) << 0.0 << qint64(350000000) << 0.02;
        // torchvision's resnet18: 11,689,512 parameters, 1.81 G; mnasnet1_0: 4,383,312, 0.31 G. Their
        // batch norms carry two parameters per channel, folded here into one bias per channel:
        // 4,800 channels of batch norm in ResNet-18, 18,960 in MnasNet 1.0.
        QTest::newRow("resnet18") << "resnet18" << 1.0 << 224 << qint64(11689512 - 4800) << 0.0 << qint64(1814000000) << 0.02;
        QTest::newRow("mnasnet1_0") << "mnasnet1_0" << 1.0 << 224 << qint64(4383312 - 18960) << 0.0 << qint64(312000000) << 0.05;
        // torchvision's shufflenet_v2_x1_0: 2,278,604 parameters, 0.14 G (8,090 channels of batch
        // norm folded). The graph also holds 170 int64 shape values, counted as constants: the Split
        // sizes of the 13 units that split (2 each) and the two Reshape shapes of the 16 channel
        // shuffles (5 + 4 each).
        QTest::newRow("shufflenet_v2_x1_0") << "shufflenet_v2_x1_0" << 1.0 << 224 << qint64(2278604 - 8090 + 13 * 2 + 16 * 9)
                                            << 0.0 << qint64(146000000) << 0.05;
        // torchvision's mobilenet_v3_large: 5,483,032 parameters, 0.22 G; mobilenet_v3_small:
        // 2,542,856, 0.06 G; efficientnet_b0: 5,288,548, 0.39 G. Batch norm channels folded:
        // 12,200, 6,056 and 21,008.
        QTest::newRow("mobilenet_v3_large") << "mobilenet_v3_large" << 1.0 << 224 << qint64(5483032 - 12200) << 0.0
                                            << qint64(217000000) << 0.05;
        QTest::newRow("mobilenet_v3_small") << "mobilenet_v3_small" << 1.0 << 224 << qint64(2542856 - 6056) << 0.0
                                            << qint64(56500000) << 0.1;
        QTest::newRow("efficientnet_b0") << "efficientnet_b0" << 1.0 << 224 << qint64(5288548 - 21008) << 0.0
                                         << qint64(386000000) << 0.05;
    }
    void publishedSizes()
    {
        QFETCH(QString, name);
        QFETCH(double, width);
        QFETCH(int, resolution);
        QFETCH(qint64, params);
        QFETCH(double, paramTolerance);
        QFETCH(qint64, macs);
        QFETCH(double, macTolerance);
        Graph graph = buildZooModel(name.toStdString(), {width, resolution, 1});
        prepareGraph(graph);
        const ModelStats stats = computeModelStats(graph);
        qInfo("%s: %lld params, %lld MACs", qPrintable(name), (long long)stats.parameters, (long long)stats.macs);
        QVERIFY(std::abs(double(stats.parameters - params)) <= paramTolerance * double(params));
        if (macTolerance >= 0)
            QVERIFY(std::abs(double(stats.macs - macs)) <= macTolerance * double(macs));
    }

    void weightsAreAFunctionOfTheSeed()
    {
        const Graph a = buildZooModel("lenet5", {1.0, 224, 5});
        const Graph b = buildZooModel("lenet5", {1.0, 224, 5});
        const Graph c = buildZooModel("lenet5", {1.0, 224, 6});
        const TensorData& wa = *a.tensor(*a.findTensor("c1.weight")).constant;
        QVERIFY(wa == *b.tensor(*b.findTensor("c1.weight")).constant);
        QVERIFY(!(wa == *c.tensor(*c.findTensor("c1.weight")).constant));
    }

    void modelsRunAndSurviveExport_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<qint64>("classes");
        QTest::newRow("mnist") << "mnist" << qint64(10);
        QTest::newRow("lenet5") << "lenet5" << qint64(10);
        QTest::newRow("radioml") << "radioml" << qint64(24);
        QTest::newRow("mobilenet 0.25/128") << "mobilenet_v1" << qint64(1000);
        QTest::newRow("mobilenet_v2 128") << "mobilenet_v2" << qint64(1000);
        QTest::newRow("squeezenet1_1 128") << "squeezenet1_1" << qint64(1000);
        QTest::newRow("resnet18 128") << "resnet18" << qint64(1000);
        QTest::newRow("mnasnet1_0 128") << "mnasnet1_0" << qint64(1000);
        QTest::newRow("shufflenet_v2_x1_0 128") << "shufflenet_v2_x1_0" << qint64(1000);
        QTest::newRow("mobilenet_v3_large 128") << "mobilenet_v3_large" << qint64(1000);
        QTest::newRow("mobilenet_v3_small 128") << "mobilenet_v3_small" << qint64(1000);
        QTest::newRow("efficientnet_b0 128") << "efficientnet_b0" << qint64(1000);
    }
    void modelsRunAndSurviveExport()
    {
        QFETCH(QString, name);
        QFETCH(qint64, classes);
        const double width = name == "mobilenet_v1" ? 0.25 : 1.0;
        const Graph graph = buildZooModel(name.toStdString(), {width, 128, 2});
        const TensorData input = randomInput(graph, 11);
        const TensorData out = Interpreter(graph).run({input})[0];
        QVERIFY(out.shape() == (Shape{1, classes}));
        for (float v : out.toFloats())
            QVERIFY(std::isfinite(v));
        Graph reread = importOnnxBytes(exportOnnxBytes(graph), "zoo.onnx");
        prepareGraph(reread);
        QVERIFY(test::maxRelativeError(Interpreter(reread).run({input})[0], out) == 0.0);
    }

    void activationPlansReachTheLowerBound_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::newRow("mnist") << "mnist" << 1.0 << 224;
        QTest::newRow("lenet5") << "lenet5" << 1.0 << 224;
        QTest::newRow("radioml") << "radioml" << 1.0 << 224;
        QTest::newRow("mobilenet 1.0/224") << "mobilenet_v1" << 1.0 << 224;
        QTest::newRow("mobilenet 0.25/128") << "mobilenet_v1" << 0.25 << 128;
    }
    void activationPlansReachTheLowerBound()
    {
        QFETCH(QString, name);
        QFETCH(double, width);
        QFETCH(int, resolution);
        const Graph graph = buildZooModel(name.toStdString(), {width, resolution, 1});
        const GraphLifetimes lifetimes = computeLifetimes(graph);
        for (bool inPlace : {false, true}) {
            std::vector<Buffer> buffers;
            for (const ActivationBuffer& buffer : activationBuffers(graph, lifetimes, 8, inPlace))
                buffers.push_back(buffer.buffer);
            const PlanResult result = planMemory(buffers, {std::nullopt, true, 5.0, nullptr});
            QVERIFY(validatePlan(buffers, result.offsets, result.peak).empty());
            QCOMPARE(result.peak, result.lowerBound);
            QCOMPARE(result.status, PlanStatus::Optimal);
        }
    }

    void badOptionsAreRefused()
    {
        QVERIFY_THROWS_EXCEPTION(Error, buildZooModel("mobilenet_v1", {0.3, 224, 1}));
        QVERIFY_THROWS_EXCEPTION(Error, buildZooModel("mobilenet_v1", {1.0, 100, 1}));
        QVERIFY_THROWS_EXCEPTION(Error, buildZooModel("resnet50"));
    }
};

QTEST_GUILESS_MAIN(TestZoo)
#include "tst_zoo.moc"
