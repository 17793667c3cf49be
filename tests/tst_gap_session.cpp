// One planning truth: the session's plan of a deployed model (what the studio draws and
// `tessera plan --model` prints) is what `tessera compile` and File > Export generate. For the zoo's
// networks on GAP8 and GAP9 at several L2 budgets, a plan made by one session and a project compiled
// by another (nothing shared between them) agree on every tensor's memory, offset and size and on
// the totals; where no plan exists the compilation fails with the same reason. The chip table gives
// the command line and the session the same defaults.
#include "gap_project/gap_project_writer.h"
#include "test_support.h"
#include "base/error.h"
#include "onnx/onnx_export.h"
#include "session/deployed_memory_plan.h"
#include "session/model_loader.h"
#include "session/session.h"
#include "target/chip_table.h"
#include "zoo/zoo.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>
#include <numeric>

using namespace tessera;

namespace {

std::shared_ptr<const Graph> zooGraph(const std::string& name, double width, int resolution)
{
    ZooOptions options;
    options.width = width;
    options.resolution = resolution;
    Graph graph = buildZooModel(name, options);
    prepareGraph(graph);
    return std::make_shared<const Graph>(std::move(graph));
}

QJsonObject readJson(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestGapSession : public QObject {
    Q_OBJECT

private slots:
    void planIsWhatTheProjectUses_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::addColumn<QString>("target");
        QTest::addColumn<QList<qint64>>("l2Budgets");
        const QList<qint64> small{0, 96 * 1024, 40000, 12000, 4000};  // 0: the chip's default
        const QList<qint64> large{0, 256 * 1024, 96 * 1024};
        for (const char* target : {"gap8", "gap9"}) {
            QTest::addRow("mnist %s", target) << "mnist" << 1.0 << 224 << target << small;
            QTest::addRow("lenet5 %s", target) << "lenet5" << 1.0 << 224 << target << small;
            QTest::addRow("mobilenet 0.25/128 %s", target) << "mobilenet_v1" << 0.25 << 128 << target << large;
            QTest::addRow("mobilenet 1.0/224 %s", target)
                << "mobilenet_v1" << 1.0 << 224 << target << QList<qint64>{0, 160 * 1024};
        }
    }

    void planIsWhatTheProjectUses()
    {
        QFETCH(QString, name);
        QFETCH(double, width);
        QFETCH(int, resolution);
        QFETCH(QString, target);
        QFETCH(QList<qint64>, l2Budgets);
        if (test::kSanitizedBuild && width == 1.0 && resolution == 224)
            QSKIP("224x224 networks run in the release build only");
        const std::shared_ptr<const Graph> graph = zooGraph(name.toStdString(), width, resolution);
        const Session planner(graph);
        QTemporaryDir dir;
        int planned = 0, refused = 0;
        std::ptrdiff_t trafficSteps = 0;
        for (const qint64 l2 : l2Budgets) {
            SessionChoices choices;
            choices.target = target.toStdString();
            if (l2 > 0)
                choices.budgets.l2 = std::uint64_t(l2);
            const gap::GapPlan plan = planner.plan(choices);
            // A session of its own for the project: nothing of the plan above is reused.
            const Session compiler(graph);
            const QString folder = dir.filePath(QString("%1_%2").arg(target).arg(l2));
            std::optional<gap::GapCompileResult> compiled;
            QString failure;
            try {
                compiled = gap::exportGapProject(compiler, choices, folder.toStdString());
            } catch (const Error& error) {
                failure = QString::fromStdString(error.what());
            }
            const QString where = QString("%1 on %2 at L2 %3").arg(name, target).arg(l2);
            if (!plan.ok()) {
                ++refused;
                QVERIFY2(!compiled, qPrintable(where + ": compiled without a plan: " + QString::fromStdString(plan.error())));
                QCOMPARE(failure, QString::fromStdString(plan.error()));
                QVERIFY2(plan.shortfall() && plan.shortfall()->memory == "L2", qPrintable(where));
                QCOMPARE(plan.shortfall()->budget, std::uint64_t(l2));
                QVERIFY2(plan.shortfall()->smallest > std::uint64_t(l2), qPrintable(where));
                continue;
            }
            ++planned;
            QVERIFY2(compiled, qPrintable(where + ": a plan but no project: " + failure));
            // The exported report, read back from its file as a user's tool would.
            const QJsonObject report = readJson(folder + "/report.json");
            const QJsonObject memory = report["memory"].toObject();
            const tiler::GraphAllocation& a = plan.allocation();
            QCOMPARE(qint64(memory["l2_static"].toInteger()), qint64(a.l2Static));
            QCOMPARE(qint64(memory["l2_dynamic"].toInteger()), qint64(a.l2Dynamic));
            QCOMPARE(qint64(memory["l3_static"].toInteger()), qint64(a.l3Static));
            QCOMPARE(qint64(memory["l3_dynamic"].toInteger()), qint64(a.l3Dynamic));
            QCOMPARE(qint64(memory["l3_traffic"].toInteger()), qint64(a.l3Traffic));
            QCOMPARE(qint64(memory["flash_bytes"].toInteger()), qint64(a.flashBytes));
            QCOMPARE(qint64(memory["privileged_flash_bytes"].toInteger()), qint64(a.privilegedFlashBytes));
            const QJsonArray tensors = memory["tensors"].toArray();
            QCOMPARE(tensors.size(), qsizetype(a.tensors.size()));
            for (qsizetype k = 0; k < tensors.size(); ++k) {
                const QJsonObject written = tensors[k].toObject();
                const tiler::GraphTensor& shown = a.tensors[size_t(k)];
                const QString tensor = where + ", tensor " + QString::fromStdString(shown.name);
                QCOMPARE(written["name"].toString(), QString::fromStdString(shown.name));
                QVERIFY2(written["placement"].toString() == tiler::placementName(shown.placement), qPrintable(tensor));
                QVERIFY2(qint64(written["offset"].toInteger()) == qint64(shown.offset), qPrintable(tensor));
                QVERIFY2(qint64(written["bytes"].toInteger()) == qint64(shown.bytes), qPrintable(tensor));
                QVERIFY2(qint64(written["prefetch_node"].toInteger()) == shown.prefetchNode, qPrintable(tensor));
            }
            // The budgets the project was built with are the plan's.
            const QJsonObject budgets = report["budgets"].toObject();
            QCOMPARE(qint64(budgets["l2"].toInteger()), qint64(plan.budgets.l2));
            QCOMPARE(qint64(budgets["flash"].toInteger()), qint64(plan.budgets.flash));
            // What the timeline draws in L2 is the plan's L2, within the budget.
            const HierarchyPlan drawn = deployedMemoryPlan(*planner.deployment(choices), plan);
            QCOMPARE(drawn.l2.peak, qint64(a.l2Total()));
            QVERIFY(drawn.l2.peak <= qint64(plan.budgets.l2));
            for (const TensorPlacement& p : drawn.placements)
                if (p.level == "L2")
                    QVERIFY2(p.offset + p.size <= drawn.l2.peak, qPrintable(where + " " + QString::fromStdString(p.tensor)));
            // Its L3 traffic step by step is the report's: each node's streams, each prefetch where it starts.
            std::vector<qint64> traffic(size_t(drawn.steps), 0);
            const QJsonArray nodes = memory["nodes"].toArray();
            QCOMPARE(nodes.size(), qsizetype(drawn.steps));
            for (qsizetype n = 0; n < nodes.size(); ++n)
                traffic[size_t(n)] += nodes[n].toObject()["l3_read"].toInteger() + nodes[n].toObject()["l3_write"].toInteger();
            for (const QJsonValue& tensor : tensors)
                if (const qint64 step = tensor.toObject()["prefetch_node"].toInteger(); step >= 0)
                    traffic[size_t(step)] += tensor.toObject()["bytes"].toInteger();
            QCOMPARE(std::vector<qint64>(drawn.stepTraffic.begin(), drawn.stepTraffic.end()), traffic);
            QCOMPARE(std::accumulate(traffic.begin(), traffic.end(), qint64(0)), qint64(memory["l3_traffic"].toInteger()));
            trafficSteps += std::count_if(traffic.begin(), traffic.end(), [](qint64 bytes) { return bytes > 0; });
        }
        qInfo("%s on %s: %d budgets planned and compiled alike, %d refused by both, %d steps with L3 traffic",
              qPrintable(name), qPrintable(target), planned, refused, int(trafficSteps));
        QVERIFY(planned > 0);
    }

    // `tessera plan --model` prints the session's plan: the same L2 blocks as the project compiled
    // with the same options, and the same refusal with the smallest L2 that works.
    void commandLinePlanIsTheSessions()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("mnist.onnx");
        exportOnnxFile(*zooGraph("mnist", 1.0, 224), model.toStdString());
        const Session session(zooGraph("mnist", 1.0, 224));
        for (const qint64 l2 : {qint64(65536), qint64(20000)}) {
            QProcess cli;
            cli.start(TESSERA_CLI_PATH, {"plan", "--model", model, "--l2", QString::number(l2), "--dump"});
            QVERIFY(cli.waitForFinished(120000));
            QCOMPARE(cli.exitCode(), 0);
            const QString out = QString::fromUtf8(cli.readAllStandardOutput());
            SessionChoices choices;
            choices.budgets.l2 = std::uint64_t(l2);
            const gap::GapPlan plan = session.plan(choices);
            QVERIFY(plan.ok());
            QVERIFY2(out.contains(QString::fromStdString(formatPlanTotals(plan))), qPrintable(out));
            // One line per drawn placement, and its offset.
            const HierarchyPlan drawn = deployedMemoryPlan(*session.deployment(choices), plan);
            for (const TensorPlacement& p : drawn.placements)
                QVERIFY2(QRegularExpression(QRegularExpression::escape(QString::fromStdString(p.tensor)) + " +\\S+ +" +
                                            QRegularExpression::escape(QString::fromStdString(p.level)) + " +" +
                                            QString::number(p.offset) + " +" + QString::number(p.size))
                             .match(out)
                             .hasMatch(),
                         qPrintable(QString::fromStdString(p.tensor) + " not in\n" + out));
        }
        QProcess tooSmall;
        tooSmall.start(TESSERA_CLI_PATH, {"plan", "--model", model, "--l2", "4000"});
        QVERIFY(tooSmall.waitForFinished(120000));
        QCOMPARE(tooSmall.exitCode(), 1);
        SessionChoices choices;
        choices.budgets.l2 = 4000;
        const gap::GapPlan refused = session.plan(choices);
        QVERIFY(!refused.ok());
        QVERIFY(refused.shortfall() && refused.shortfall()->smallest > 4000);
        QVERIFY(QString::fromUtf8(tooSmall.readAllStandardError()).contains(QString::fromStdString(refused.error())));
    }

    // Every chip's defaults come from the chip table alone: the session's budgets, a compiled
    // project's report and the memory hierarchy agree.
    void defaultsComeFromTheChipTable()
    {
        const std::shared_ptr<const Graph> graph = zooGraph("mnist", 1.0, 224);
        QTemporaryDir dir;
        for (const target::ChipDescription& chip : target::chips()) {
            SessionChoices choices;
            choices.target = chip.name;
            const target::Budgets budgets = Session::resolveBudgets(choices);
            QCOMPARE(budgets.l1, chip.bytes(target::MemoryRole::L1));
            QCOMPARE(budgets.l2, chip.bytes(target::MemoryRole::L2) - chip.l2CodeReserve);
            QCOMPARE(budgets.l3, chip.bytes(target::MemoryRole::L3Ram));
            QCOMPARE(budgets.flash, chip.bytes(target::MemoryRole::Flash));
            QCOMPARE(budgets.privilegedFlash, chip.bytes(target::MemoryRole::PrivilegedFlash));
            QCOMPARE(gap::gapTarget(chip.name).defaultBudgets(), budgets);
            const QString folder = dir.filePath(QString::fromStdString(chip.name));
            QProcess cli;
            cli.start(TESSERA_CLI_PATH, {"zoo", "mnist", "-o", dir.filePath("mnist.onnx")});
            QVERIFY(cli.waitForFinished(60000));
            cli.start(TESSERA_CLI_PATH,
                      {"compile", dir.filePath("mnist.onnx"), "--target", QString::fromStdString(chip.name), "-o", folder});
            QVERIFY(cli.waitForFinished(120000));
            QCOMPARE(cli.exitCode(), 0);
            const QJsonObject written = readJson(folder + "/report.json")["budgets"].toObject();
            QCOMPARE(quint64(written["l1"].toInteger()), budgets.l1);
            QCOMPARE(quint64(written["l2"].toInteger()), budgets.l2);
            QCOMPARE(quint64(written["l3"].toInteger()), budgets.l3);
            QCOMPARE(quint64(written["flash"].toInteger()), budgets.flash);
            QCOMPARE(quint64(written["privileged_flash"].toInteger()), budgets.privilegedFlash);
        }
        QVERIFY_THROWS_EXCEPTION(Error, target::chip("gap7"));
    }

    // NaN in a constant cannot be quantized: the deployment names the layer, not a library routine.
    void nanConstantsNameTheLayer()
    {
        ZooOptions options;
        Graph graph = buildZooModel("mnist", options);
        prepareGraph(graph);
        bool poisoned = false;
        for (size_t t = 0; t < graph.tensorCount() && !poisoned; ++t) {
            Tensor& tensor = graph.tensor(TensorId(t));
            if (!tensor.constant || tensor.shape.size() != 4)  // the first convolution's filter
                continue;
            auto values = std::make_shared<TensorData>(*tensor.constant);
            values->setDouble(3, std::nan(""));
            tensor.constant = values;
            poisoned = true;
        }
        QVERIFY(poisoned);
        const Session session(std::make_shared<const Graph>(std::move(graph)));
        try {
            session.deployment(SessionChoices{});
            QFAIL("NaN weights were quantized");
        } catch (const UnsupportedError& error) {
            QVERIFY2(QString(error.what()).contains(QRegularExpression("^layer \\w+: its weights hold nan at index 3")),
                     error.what());
        }
    }

    // A flash budget below the constants image is refused with the budget that works as a fact.
    void flashBudgetIsEnforced()
    {
        const Session session(zooGraph("mnist", 1.0, 224));
        SessionChoices choices;
        choices.budgets.flash = 1;
        const gap::GapPlan plan = session.plan(choices);
        QVERIFY(!plan.ok());
        QVERIFY(plan.shortfall() && plan.shortfall()->memory == "flash");
        QCOMPARE(plan.shortfall()->budget, std::uint64_t(1));
        const std::uint64_t image = plan.shortfall()->smallest;
        QVERIFY(image > 1);
        QTemporaryDir dir;
        try {
            session.compile(choices, dir.path().toStdString());
            QFAIL("a flash budget of 1 byte was accepted");
        } catch (const BudgetError& error) {
            QCOMPARE(error.facts().smallest, image);
        }
        // At exactly the image's size it plans, and the image is that size.
        choices.budgets.flash = image;
        const gap::GapPlan fits = session.plan(choices);
        QVERIFY2(fits.ok(), fits.error().c_str());
        QCOMPARE(fits.allocation().flashBytes, image);
    }
};

QTEST_GUILESS_MAIN(TestGapSession)
#include "tst_gap_session.moc"
