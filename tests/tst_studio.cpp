// The studio, driven offscreen: opening models, dragging the L2 budget, selection across views,
// bad budgets and files, and project files.
#include "aie_view.h"
#include "cbuf_banks_view.h"
#include "graph_view.h"
#include "loadable_inspector_view.h"
#include "memory_timeline.h"
#include "step_table_model.h"
#include "studio_window.h"
#include "tiling_panel.h"

#include "memory/hierarchy_planner.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/loadable_contents.h"
#include "onnx/onnx_export.h"
#include "session/deployed_memory_plan.h"
#include "session/model_loader.h"
#include "session/session.h"
#include "target/chip_table.h"
#include "zoo/zoo.h"
#include "nvdla_networks.h"
#include "studio_harness.h"

#include <QJsonArray>
#include <QListWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;
using tessera::studio::Budgets;
using tessera::studio::StudioWindow;

using namespace tessera::studio_testing;

class TestStudio : public QObject {
    Q_OBJECT

private:
    ZooFiles zoo_;

private slots:
    void initTestCase() { useThrowAwaySettings("tst_studio"); }

    void opensZooModels_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("width");
        QTest::addColumn<int>("resolution");
        QTest::addColumn<bool>("deploys");  // the GAP generators implement every operator
        QTest::newRow("mnist") << "mnist" << 1.0 << 224 << true;
        QTest::newRow("lenet5") << "lenet5" << 1.0 << 224 << true;
        QTest::newRow("radioml") << "radioml" << 1.0 << 224 << false;
        QTest::newRow("mobilenet 0.25/128") << "mobilenet_v1" << 0.25 << 128 << true;
        QTest::newRow("mobilenet 1.0/224") << "mobilenet_v1" << 1.0 << 224 << true;
    }

    void opensZooModels()
    {
        QFETCH(QString, name);
        QFETCH(double, width);
        QFETCH(int, resolution);
        QFETCH(bool, deploys);
        const QString path = zoo_.path(name.toStdString(), width, resolution);
        const Graph graph = loadModel(path.toStdString());
        StudioWindow window;
        window.show();
        QElapsedTimer timer;
        timer.start();
        QVERIFY(openAndWait(window, path, 900000));
        qInfo("%s: graph and plan shown in %lld ms (plan %.1f ms)", qPrintable(name), timer.elapsed(),
              window.lastPlanMilliseconds());
        QCOMPARE(window.graphView()->nodeItemCount(), int(graph.nodeCount()));
        QCOMPARE(window.stepTable()->model()->rowCount(), int(graph.nodeCount()));
        // Readable on open, as Netron opens: no node text under 9 pixels.
        QVERIFY2(window.graphView()->textPixelHeight() >= views::GraphView::kReadableTextPixels,
                 qPrintable(QString::number(window.graphView()->textPixelHeight())));
        if (!deploys) {
            // No plan in place of the real one: the timeline says which node the chip cannot run.
            QVERIFY(!window.plan().has_value());
            QVERIFY2(window.timeline()->message().contains("no GAP CNN generator implements"),
                     qPrintable(window.timeline()->message()));
            return;
        }
        QVERIFY2(window.plan().has_value(), qPrintable(window.planStatus()));
        QVERIFY(window.timeline()->rectangleCount("L2") > 0);
    }

    // File > Export GAP project: the open model compiled with the budgets shown, the project
    // written through the exporter, and its kernels shown in the Tiling dock.
    void exportsAGapProject()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        window.setBudgets({32 * 1024, 100 * 1024, window.budgets().l3, window.budgets().flash});
        QSignalSpy exported(&window, &StudioWindow::projectExported);
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        const QString folder = zoo_.filePath("lenet5_gap");
        window.exportGapProject(folder);
        QVERIFY2(exported.wait(kWaitMs), qPrintable(window.lastError()));
        QCOMPARE(errors.count(), 0);
        QCOMPARE(exported.first().first().toString(), folder);
        for (const char* file : {"Makefile", "report.json", "emul/emul_main.c", "lenet5Kernels.c"})
            QVERIFY2(QFile::exists(folder + "/" + file), file);
        QTRY_COMPARE_WITH_TIMEOUT(window.tilingPanel()->kernelCount(), 7, kWaitMs);  // solved off the GUI thread
        QFile report(folder + "/report.json");
        QVERIFY(report.open(QIODevice::ReadOnly));
        const QJsonObject budgets = QJsonDocument::fromJson(report.readAll()).object()["budgets"].toObject();
        QCOMPARE(budgets["l2"].toInteger(), 100 * 1024);
        QCOMPARE(budgets["l1"].toInteger(), 32 * 1024);
        // The Tiling dock was handed the exported kernels in process: they are the ones the tiling
        // report written to the folder lists, and the layer figures below are that report's.
        const QString tilingPath = folder + "/lenet5Kernels.tiling.json";
        QCOMPARE(window.tilingPanel()->filePath(), tilingPath);
        QFile tilingFile(tilingPath);
        QVERIFY(tilingFile.open(QIODevice::ReadOnly));
        const QJsonObject tiling = QJsonDocument::fromJson(tilingFile.readAll()).object();
        QStringList reportKernels;
        for (const QJsonValue kernel : tiling["kernels"].toArray())
            reportKernels << kernel.toObject()["name"].toString();
        QStringList shownKernels;
        for (int row = 0; row < window.tilingPanel()->kernelCount(); ++row)
            shownKernels << window.tilingPanel()->cell(row, views::TilingPanel::Kernel);
        QCOMPARE(shownKernels, reportKernels);
        QHash<QString, qint64> reportL1;  // GAP layer -> L1 bytes of the graph node running it
        for (const QJsonValue node : tiling["graphs"].toArray()[0].toObject()["nodes"].toArray())
            reportL1.insert(node.toObject()["source_kernel"].toString(), node.toObject()["l1_bytes"].toInteger());

        // Each ONNX node shows the GAP layer it went into and how that layer was tiled, and the
        // Tiling dock follows to that kernel.
        QVERIFY(window.gapTiling().has_value());
        int convolutions = 0;
        for (size_t k = 0; k < window.graph()->nodeCount(); ++k) {
            const Node& node = window.graph()->node(k);
            const QString layer = window.gapTiling()->layerOfNode.value(QString::fromStdString(node.name));
            window.graphView()->selectNode(int(k));
            const QString text = window.propertiesText();
            QVERIFY2(text.contains("GAP tiling (export to " + folder + " at L1 32.0 KiB, L2 100.0 KiB)"), qPrintable(text));
            if (node.opType != "Conv")
                continue;
            ++convolutions;
            QVERIFY2(!layer.isEmpty(), node.name.c_str());
            QVERIFY2(text.contains("layer " + layer), qPrintable(text));
            QCOMPARE(window.tilingPanel()->selectedKernel(), layer);
            // The figures are the generation report's for that layer: its L1 use is within the budget.
            const QRegularExpressionMatch l1 = QRegularExpression("tiles, L1 (\\d+) B").match(text);
            QVERIFY2(l1.hasMatch(), qPrintable(text));
            QVERIFY(l1.captured(1).toLongLong() > 0 && l1.captured(1).toLongLong() <= 32 * 1024);
            QCOMPARE(l1.captured(1).toLongLong(), reportL1.value(layer, -1));
        }
        QCOMPARE(convolutions, 2);
        // A new model drops the old tiling.
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
        QVERIFY(!window.gapTiling().has_value());
        window.graphView()->selectNode(0);
        QVERIFY(window.propertiesText().contains("File > Export GAP project tiles the model"));
    }

    // Without a model there is nothing to export: the message says what to do.
    void exportWithoutAModelSaysSo()
    {
        StudioWindow window;
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        window.exportGapProject(zoo_.filePath("nothing"));
        QCOMPARE(errors.count(), 1);
        QVERIFY(errors.first().first().toString().contains("open a model first"));
    }

    void draggingTheBudgetReplans()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        const qint64 before = window.l2Budget();
        const HierarchyPlan initial = *window.plan();
        QSignalSpy planned(&window, &StudioWindow::planShown);
        dragBudgetDown(window, 0.6);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == window.l2Budget() &&
                                     window.timeline()->budget() == window.l2Budget(), kWaitMs);
        QVERIFY(planned.count() > 0);
        const qint64 after = window.l2Budget();
        QVERIFY2(after < before, qPrintable(QString("budget %1 -> %2").arg(before).arg(after)));
        // The line follows the pointer: 60% of the way to address 0 is 40% of the budget (the
        // scale does not shrink under the pointer while it moves; spin box steps are 1 KiB).
        QVERIFY2(std::abs(double(after) - 0.4 * double(before)) < 0.03 * double(before),
                 qPrintable(QString("budget %1 -> %2, expected about %3").arg(before).arg(after).arg(0.4 * before)));
        // What the studio shows is the session's plan for that budget: what Export generates.
        SessionChoices choices;
        choices.budgets = {window.budgets().l1, after, window.budgets().l3, window.budgets().flash, std::nullopt};
        const Session fresh(window.session()->sharedGraph());
        const gap::GapPlan direct = fresh.plan(choices);
        QVERIFY(direct.ok());
        const HierarchyPlan& shown = *window.plan();
        QCOMPARE(shown.l2.peak, qint64(direct.allocation().l2Total()));
        QCOMPARE(window.gapPlan()->allocation().l3Traffic, direct.allocation().l3Traffic);
        int inL2 = 0;
        for (const TensorPlacement& p : deployedMemoryPlan(*fresh.deployment(choices), direct).placements)
            inL2 += p.level == "L2";
        QCOMPARE(window.timeline()->rectangleCount("L2"), inL2);
        QVERIFY(shown.promotedConstants != initial.promotedConstants || shown.spilledTensors != initial.spilledTensors ||
                shown.l2.peak != initial.l2.peak);
        QVERIFY(window.planStatus().contains("change:"));
    }

    // A re-plan is shown moving: tensors pushed to L3 drop from above into the L3 panel, those that
    // stay in L2 glide from their old offsets, and at the end everything sits where the plan says.
    void replannedTensorsAreShownMoving()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        views::MemoryTimeline* timeline = window.timeline();
        timeline->setMoveDuration(1500);
        const HierarchyPlan before = *window.plan();
        QSignalSpy planned(&window, &StudioWindow::planShown);
        window.setL2Budget(window.l2Budget() / 4);
        QVERIFY(planned.wait(kWaitMs));
        QVERIFY2(window.plan().has_value(), qPrintable(window.planStatus()));
        QVERIFY(timeline->isMoving());
        const HierarchyPlan& after = *window.plan();
        // The same placement in the plan before: tensor, kind and first step.
        auto previous = [&](const TensorPlacement& p, bool sameLevel) -> const TensorPlacement* {
            for (const TensorPlacement& old : before.placements)
                if (old.tensor == p.tensor && old.kind == p.kind && old.lower == p.lower && (old.level == p.level) == sameLevel)
                    return &old;
            return nullptr;
        };
        QString l3Level;
        for (const TensorPlacement& p : after.placements)
            if (p.level != "L2" && p.kind == PlacementKind::Activation)
                l3Level = QString::fromStdString(p.level);
        int gliding = 0, dropping = 0;
        for (const TensorPlacement& p : after.placements) {
            const std::optional<QRectF> drawn = timeline->drawnRectangle(p);
            QVERIFY2(drawn, p.tensor.c_str());  // every level has its panel
            if (const TensorPlacement* old = previous(p, true); old && old->offset != p.offset) {
                // Still at (or near) the old offset: the move has just begun.
                QVERIFY(std::abs(drawn->top() - double(old->offset)) < std::abs(drawn->top() - double(p.offset)));
                ++gliding;
            } else if (!previous(p, true) && previous(p, false) && p.level != "L2") {
                QVERIFY2(timeline->arrivingTensors(QString::fromStdString(p.level)).contains(QString::fromStdString(p.tensor)),
                         p.tensor.c_str());
                QVERIFY2(drawn->top() > double(p.offset), p.tensor.c_str()); // still above its place
                ++dropping;
            }
        }
        qInfo("%d placements drop into %s, %d glide", dropping, qPrintable(l3Level), gliding);
        QVERIFY(dropping > 0 && gliding > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!timeline->isMoving(), kWaitMs);
        for (const TensorPlacement& p : after.placements)
            if (const std::optional<QRectF> drawn = timeline->drawnRectangle(p)) {
                QCOMPARE(drawn->top(), double(p.offset));
                QCOMPARE(drawn->bottom(), double(p.offset + p.size));
            }
        QVERIFY(timeline->arrivingTensors(l3Level).isEmpty());
    }

    // A dark palette (as a dark system theme gives) reaches the timeline's plots.
    void timelineFollowsThePalette()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
        QWidget* panel = window.timeline()->l2Panel();
        QVERIFY(panel->grab().toImage().pixelColor(3, 3).lightness() > 200); // the default light palette
        QPalette dark;
        dark.setColor(QPalette::Base, QColor(0x20, 0x22, 0x26));
        dark.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x31));
        dark.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
        dark.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
        window.setPalette(dark);
        QCOMPARE(panel->grab().toImage().pixelColor(3, 3), QColor(0x20, 0x22, 0x26));
    }

    void selectingATensorSelectsItEverywhere()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        // An activation in L2 that an operator produces (not the graph input).
        const TensorPlacement* activation = nullptr;
        for (const TensorPlacement& p : window.plan()->placements) {
            const auto id = window.graph()->findTensor(window.modelTensorOf(QString::fromStdString(p.tensor)).toStdString());
            bool produced = false;
            for (const Node& node : window.graph()->nodes())
                produced = produced || (id && !node.outputs.empty() && node.outputs.front() == *id);
            if (p.kind == PlacementKind::Activation && p.level == "L2" && produced) {
                activation = &p;
                break;
            }
        }
        QVERIFY(activation);
        const QString name = QString::fromStdString(activation->tensor);
        const QPoint at = window.timeline()->l2PointOf((activation->lower + activation->upper) / 2.0,
                                                       activation->offset + activation->size / 2);
        QCOMPARE(window.timeline()->tensorAt((activation->lower + activation->upper) / 2.0,
                                             activation->offset + activation->size / 2),
                 name);
        QTest::mouseClick(window.timeline()->l2Panel(), Qt::LeftButton, Qt::NoModifier, at);
        QCOMPARE(window.timeline()->selectedTensor(), name);
        const int node = window.graphView()->selectedNode();
        QVERIFY(node >= 0);
        const Node& producer = window.graph()->node(node);
        QCOMPARE(QString::fromStdString(window.graph()->tensor(producer.outputs.front()).name), window.modelTensorOf(name));
        QCOMPARE(window.stepTable()->currentIndex().row(), node);
    }

    // The budget bar starts where the command line does: every chip's defaults from the chip table.
    void budgetBarDefaultsAreTheCommandLines()
    {
        StudioWindow window;
        for (const target::ChipDescription& chip : target::chips()) {
            window.setTarget(QString::fromStdString(chip.name));
            QCOMPARE(window.target(), QString::fromStdString(chip.name));
            SessionChoices choices;
            choices.target = chip.name;
            const target::Budgets cli = Session::resolveBudgets(choices);
            const Budgets bar = window.budgets();
            QCOMPARE(bar.l1, qint64(cli.l1));
            QCOMPARE(bar.l2, qint64(cli.l2));
            QCOMPARE(bar.l3, qint64(cli.l3));
            QCOMPARE(bar.flash, qint64(cli.flash));
            // What the bar asks the session for is the command line's budgets, privileged flash too.
            QCOMPARE(Session::resolveBudgets(sessionChoices(window.target(), bar)), cli);
        }
    }

    // Clicks on the timeline and the graph while a second model loads and after it is shown: the
    // views never read the model that was replaced (the sanitized build checks every access).
    void clicksBetweenModelLoadsReadOnlyLiveModels()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QString symbol;
        for (const TensorPlacement& p : window.plan()->placements)
            if (p.kind == PlacementKind::Activation && p.level == "L2")
                symbol = QString::fromStdString(p.tensor);
        QVERIFY(!symbol.isEmpty());
        const QString modelTensor = window.modelTensorOf(symbol);
        QSignalSpy shown(&window, &StudioWindow::modelShown);
        window.openModel(zoo_.path("mnist"));
        QSignalSpy planned(&window, &StudioWindow::planShown);
        for (int k = 0; k < 200 && shown.count() == 0; ++k) {
            window.graphView()->selectTensor(modelTensor);
            emit window.timeline()->tensorSelected(symbol);
            QTest::mouseClick(window.timeline()->l2Panel(), Qt::LeftButton, Qt::NoModifier,
                              window.timeline()->l2PointOf(1, 64));
            QTest::qWait(5);
        }
        QVERIFY(shown.count() > 0 || shown.wait(kWaitMs));
        QVERIFY(planned.count() > 0 || planned.wait(kWaitMs));
        QCOMPARE(window.graph()->name, std::string("mnist"));
        window.graphView()->selectTensor(modelTensor);  // a name the new model lacks
        QCOMPARE(window.graphView()->nodeItemCount(), int(window.graph()->nodeCount()));
        for (const TensorPlacement& p : window.plan()->placements)
            if (p.kind == PlacementKind::Activation && p.level == "L2") {
                emit window.timeline()->tensorSelected(QString::fromStdString(p.tensor));
                QVERIFY(window.graphView()->selectedNode() >= 0);
                break;
            }
    }

    void infeasibleBudgetShowsTheMessage()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
        window.setL2Budget(1024);
        QTRY_VERIFY_WITH_TIMEOUT(!window.timeline()->message().isEmpty(), kWaitMs);
        QVERIFY(!window.plan().has_value());
        QVERIFY(window.planStatus().contains("no plan"));
        // The facts behind the message: the L2 budget, and the smallest that works.
        QVERIFY(window.planShortfall() && window.planShortfall()->memory == "L2");
        QCOMPARE(window.planShortfall()->budget, std::uint64_t(1024));
        QVERIFY(window.planShortfall()->smallest > 1024);
        // The window keeps working: a generous budget plans again.
        window.setL2Budget(400 * 1024);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan().has_value(), kWaitMs);
        QVERIFY(window.timeline()->message().isEmpty());
        // A flash too small for the constants names the flash budget that would do; that budget plans.
        Budgets budgets = window.budgets();
        budgets.flash = 16 * 1024;
        window.setBudgets(budgets);
        QTRY_VERIFY_WITH_TIMEOUT(!window.plan().has_value() && !window.timeline()->message().isEmpty(), kWaitMs);
        QVERIFY2(window.timeline()->message().contains("raise the flash budget to at least"),
                 qPrintable(window.timeline()->message()));
        QVERIFY(window.planShortfall() && window.planShortfall()->memory == "flash");
        budgets.flash = qint64(window.planShortfall()->smallest + 1023) / 1024 * 1024;
        window.setBudgets(budgets);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan().has_value(), kWaitMs);
        QVERIFY(window.plan()->flashBytes <= budgets.flash);
        QVERIFY(window.plan()->flashBytes > budgets.flash - 1024);
    }

    void corruptModelShowsAnError()
    {
        const QString path = zoo_.filePath("garbage.onnx");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("\x08\x07garbage that is not a model");
        file.close();
        StudioWindow window;
        window.show();
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        window.openModel(path);
        QVERIFY(errors.wait(kWaitMs));
        QVERIFY2(window.lastError().contains("garbage.onnx"), qPrintable(window.lastError()));
        QVERIFY(window.graph() == nullptr);
    }

    // An NVDLA loadable opens into the inspector (the lists as a tree, an operation graph node per
    // operation, the validator's findings); a corrupt one shows the error, and the window keeps
    // what it showed and opens the next file.
    void nvdlaLoadableOpensIntoTheInspector()
    {
        Graph lenet = buildZooModel("lenet5", {});
        prepareGraph(lenet);
        const nvdla::NvdlaCompilation compiled = nvdla::compileForNvdla(lenet, {});
        const QString path = zoo_.filePath("lenet5.nvdla");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(reinterpret_cast<const char*>(compiled.bytes.data()), qint64(compiled.bytes.size()));
        file.close();
        std::size_t operations = 0;
        for (const nvdla::TaskEntry& task : compiled.loadable.tasks)
            operations += task.interface == nvdla::kInterfaceDla1
                              ? nvdla::decodeDlaTask(compiled.loadable, task).operations.size()
                              : nvdla::decodeEmuTask(compiled.loadable, task).operations.size();

        StudioWindow window;
        window.show();
        QSignalSpy shown(&window, &StudioWindow::loadableShown);
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        window.openAnyFile(path);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(errors.count(), 0);
        views::LoadableInspectorView* inspector = window.loadableView();
        QTreeWidgetItem* root = inspector->tree()->topLevelItem(0);
        QStringList lists;
        for (int i = 0; i < root->childCount(); ++i)
            lists << root->child(i)->text(0);
        for (const char* list : {"task_list", "memory_list", "address_list", "event_list", "submit_list",
                                 "tensor_desc_list", "reloc_list", "blobs"})
            QVERIFY2(lists.contains(list), qPrintable(lists.join(", ")));
        QCOMPARE(inspector->operations()->nodeItemCount(), int(operations));
        QVERIFY(inspector->findings()->item(0)->text().startsWith("no findings"));
        QVERIFY(inspector->summary().contains("lenet5.nvdla"));

        // Truncated: the error names the file's problem; the inspector keeps the good loadable.
        const QString broken = zoo_.filePath("broken.nvdla");
        QFile truncated(broken);
        QVERIFY(truncated.open(QIODevice::WriteOnly));
        truncated.write(reinterpret_cast<const char*>(compiled.bytes.data()), 100);
        truncated.close();
        window.openAnyFile(broken);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(window.lastError().contains("broken.nvdla"), qPrintable(window.lastError()));
        QCOMPARE(inspector->operations()->nodeItemCount(), int(operations));
        QVERIFY(inspector->summary().contains("lenet5.nvdla"));
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
    }

    // Target NVDLA: the DRAM timeline's steps are the compilation's operations, and the step cursor
    // follows the selection as on GAP: a node's step runs the operation that does its work (a fused
    // ReLU shares its convolution's), the steps follow the model's order, and a step picked in the
    // timeline selects its first node.
    void nvdlaStepCursorFollowsTheSelection()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QSignalSpy planned(&window, &StudioWindow::planShown);
        window.setTarget("nvdla:nv_full:fp16");
        QVERIFY(planned.wait(kWaitMs));
        QVERIFY(window.nvdla() && window.nvdla()->compilation);
        const nvdla::NvdlaCompilation& compilation = *window.nvdla()->compilation;
        const std::vector<NodeId>& operations = compilation.surfaces.operations;
        const Graph& model = *window.graph();
        int withStep = 0;
        for (NodeId n = 0; n < NodeId(model.nodeCount()); ++n) {
            const QString name = QString::fromStdString(model.node(n).name);
            const int step = window.stepOfNode(name);
            window.graphView()->selectNode(int(n));
            QCOMPARE(window.timeline()->cursorStep(), step);
            if (step < 0)
                continue;
            ++withStep;
            QVERIFY(step < int(operations.size()));
            QVERIFY2(window.nodesOfStep(step).contains(name), qPrintable(name));
            QVERIFY2(window.propertiesText().contains(QString("live at step %1").arg(step)), qPrintable(window.propertiesText()));
        }
        QVERIFY2(withStep >= 8, qPrintable(QString::number(withStep)));  // all but the pools' and flatten's views at most
        // The convolutions and fully connected layers run under their own names, in the model's order.
        int previous = -1;
        for (const char* layer : {"c1", "c3", "c5", "f6", "output"}) {
            const int step = window.stepOfNode(layer);
            QVERIFY2(step > previous, layer);
            QCOMPARE(QString::fromStdString(compilation.legalized.node(operations[std::size_t(step)]).name), QString(layer));
            previous = step;
        }
        QCOMPARE(window.stepOfNode("c1_relu"), window.stepOfNode("c1"));
        QCOMPARE(window.stepOfNode("c3_relu"), window.stepOfNode("c3"));
        // A step picked in the timeline selects its first node.
        window.showStep(window.stepOfNode("c3"));
        QCOMPARE(QString::fromStdString(model.node(NodeId(window.graphView()->selectedNode())).name),
                 window.nodesOfStep(window.stepOfNode("c3")).front());
        QCOMPARE(window.timeline()->cursorStep(), window.stepOfNode("c3"));
    }

    // Target NVDLA: every node of the graph is marked with the unit that runs it and the Capability
    // dock has a row per operation; nv_small has no SDP lookup table, so its Sigmoid and Tanh become
    // problems and there is no compilation; Export NVDLA project writes the folder; back on GAP8
    // the marks go.
    void nvdlaTargetMarksEveryNodeWithItsUnit()
    {
        const QString path = zoo_.filePath("lookup.onnx");
        exportOnnxFile(test::lookupNetwork(), path.toStdString());
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, path));
        const auto nodeNamed = [&](const std::string& name) {
            for (NodeId n = 0; n < NodeId(window.graph()->nodeCount()); ++n)
                if (window.graph()->node(n).name == name)
                    return int(n);
            return -1;
        };
        QSignalSpy planned(&window, &StudioWindow::planShown);
        window.setTarget("nvdla:nv_full:fp16");
        QVERIFY(planned.wait(kWaitMs));
        QVERIFY(window.nvdla() && window.nvdla()->compilation);
        for (int n = 0; n < int(window.graph()->nodeCount()); ++n)
            QVERIFY2(!window.graphView()->nodeUnit(n).isEmpty(), window.graph()->node(NodeId(n)).name.c_str());
        QCOMPARE(window.graphView()->nodeUnit(nodeNamed("conv1")), QString("CONV+SDP"));
        QCOMPARE(window.graphView()->nodeUnit(nodeNamed("sigmoid")), QString("SDP"));
        QVERIFY(window.capabilityTable()->rowCount() >= int(window.graph()->nodeCount()));
        QVERIFY(window.capabilityTable()->findItems("CANNOT RUN", Qt::MatchExactly).isEmpty());
        QVERIFY2(window.planStatus().contains("loadable"), qPrintable(window.planStatus()));
        // The timeline draws the DRAM surfaces: the scratch ones packed by the planner, the bound ones below.
        std::size_t scratch = 0;
        for (const nvdla::Surface& surface : window.nvdla()->compilation->surfaces.surfaces)
            scratch += surface.place == nvdla::Surface::Place::Scratch;
        QVERIFY(scratch > 0);
        QCOMPARE(window.timeline()->rectangleCount("DRAM scratch"), int(scratch));
        QCOMPARE(window.timeline()->rectangleCount("bound I/O"), 2);
        window.graphView()->selectNode(nodeNamed("sigmoid"));
        QVERIFY2(window.propertiesText().contains("through the SDP's lookup table"), qPrintable(window.propertiesText()));

        // Run: every node whose output one operation writes is compared with the reference.
        QSignalSpy simulated(&window, &StudioWindow::simulationShown);
        window.simulateNvdla();
        QVERIFY(simulated.wait(kWaitMs));
        QTableWidget* simulation = window.simulationTable();
        int compared = 0;
        for (int row = 0; row < simulation->rowCount(); ++row)
            if (!simulation->item(row, 4)->text().isEmpty()) {
                ++compared;
                QVERIFY2(simulation->item(row, 4)->text().toDouble() < 2e-2,
                         qPrintable(simulation->item(row, 0)->text() + " " + simulation->item(row, 4)->text()));
            }
        QVERIFY2(compared >= 4, qPrintable(QString::number(compared)));

        QSignalSpy exported(&window, &StudioWindow::projectExported);
        const QString folder = zoo_.filePath("lookup-nvdla");
        window.exportNvdlaProject(folder);
        QVERIFY(exported.wait(kWaitMs));
        for (const char* file : {"model.nvdla", "report.txt", "input.pb", "expected_output.pb", "run.sh", "README.md"})
            QVERIFY2(QFile::exists(folder + "/" + file), file);
        // Run on a file of the user's: the exported input tensor; a file of another kind is refused.
        window.simulateNvdla(folder + "/input.pb");
        QVERIFY(simulated.wait(kWaitMs));
        QVERIFY2(window.statusText().contains("on input.pb"), qPrintable(window.statusText()));
        QVERIFY(window.simulationTable()->rowCount() > 0);
        QSignalSpy runErrors(&window, &StudioWindow::errorShown);
        window.simulateNvdla(folder + "/README.md");
        QVERIFY(runErrors.wait(kWaitMs));
        QVERIFY2(window.lastError().contains(".pgm or .jpg"), qPrintable(window.lastError()));

        window.setTarget("nvdla:nv_small:int8");
        QVERIFY(planned.wait(kWaitMs));
        QVERIFY(window.nvdla() && !window.nvdla()->compilation);
        QCOMPARE(window.graphView()->nodeUnit(nodeNamed("sigmoid")), QString("CANNOT RUN"));
        QCOMPARE(window.graphView()->nodeUnit(nodeNamed("conv1")), QString("CONV+SDP"));
        QCOMPARE(window.capabilityTable()->item(0, 2)->text(), QString("CANNOT RUN"));
        QVERIFY2(window.planStatus().contains("2 nodes no unit runs"), qPrintable(window.planStatus()));
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        window.exportNvdlaProject(zoo_.filePath("refused"));
        QCOMPARE(errors.count(), 1);
        QVERIFY2(window.lastError().contains("Sigmoid needs the SDP LUT, absent on nv_small"), qPrintable(window.lastError()));

        // A zoo model: every node gets a unit.
        window.setTarget("nvdla:nv_full:fp16");
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QVERIFY(window.nvdla() && window.nvdla()->compilation);
        // The marks follow the compilation's result, which a slow (sanitized) build may deliver later.
        for (int n = 0; n < int(window.graph()->nodeCount()); ++n)
            QTRY_VERIFY2_WITH_TIMEOUT(!window.graphView()->nodeUnit(n).isEmpty(),
                                      window.graph()->node(NodeId(n)).name.c_str(), kWaitMs);
        window.graphView()->selectNode(0);
        QVERIFY2(window.propertiesText().contains("CBUF banks"), qPrintable(window.propertiesText()));
        // Under the timeline, the convolution's banks: data first, weights last, as the descriptor has them.
        QVERIFY(window.cbufView()->isVisible());
        const views::CbufBanks& banks = window.cbufView()->banks();
        QCOMPARE(banks.banks, 16);
        QCOMPARE(banks.rows.size(), std::size_t(1));
        QVERIFY(banks.rows[0].dataBanks >= 1 && banks.rows[0].weightBanks >= 1);
        QVERIFY(banks.rows[0].dataBanks + banks.rows[0].weightBanks <= banks.banks);
        QVERIFY2(window.cbufView()->summary().contains("of 16 banks of 32 KiB"), qPrintable(window.cbufView()->summary()));
        window.graphView()->selectNode(-1);
        QVERIFY(!window.cbufView()->isVisible());

        // A convolution too wide for the CBUF is marked split, its ReLU fused, and the banks show each part.
        const QString wide = zoo_.filePath("wide.onnx");
        exportOnnxFile(test::wideChannelsNetwork(), wide.toStdString());
        QVERIFY(openAndWait(window, wide));
        QVERIFY(window.nvdla() && window.nvdla()->compilation);
        QCOMPARE(window.graphView()->nodeMark(nodeNamed("wide_conv")), QString("split \u00d72"));
        QCOMPARE(window.graphView()->nodeMark(nodeNamed("wide_conv_relu")), QString("fused"));
        QCOMPARE(window.graphView()->nodeMark(nodeNamed("flatten_a")), QString());
        window.graphView()->selectNode(nodeNamed("wide_conv"));
        QCOMPARE(window.cbufView()->banks().rows.size(), std::size_t(2));
        QVERIFY2(window.cbufView()->summary().contains("split into 2"), qPrintable(window.cbufView()->summary()));
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QVERIFY(!window.cbufView()->isVisible());  // a new model starts with no selection

        window.setTarget("gap8");
        QVERIFY(planned.wait(kWaitMs));
        QVERIFY(!window.nvdla());
        QCOMPARE(window.timeline()->rectangleCount("DRAM scratch"), 0);
        QVERIFY(window.timeline()->rectangleCount("L2") > 0);
        QVERIFY(window.graphView()->nodeUnit(nodeNamed("conv1")).isEmpty());
    }

    void projectReopensTheSameView()
    {
        const QString project = zoo_.filePath("mnist.tessera.json");
        qint64 peak = 0;
        {
            StudioWindow window;
            window.show();
            QVERIFY(openAndWait(window, zoo_.path("mnist")));
            window.setTarget("gap9");
            window.setBudgets({96 * 1024, 200 * 1024, 4096 * 1024, 2048 * 1024});
            QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == 200 * 1024, kWaitMs);
            QVERIFY(window.plan()->l2.peak <= 200 * 1024);
            peak = window.plan()->l2.peak;
            QVERIFY(window.saveProject(project));
        }
        StudioWindow reopened;
        reopened.show();
        QSignalSpy shown(&reopened, &StudioWindow::modelShown);
        reopened.openProject(project);
        QVERIFY(shown.wait(kWaitMs));
        QTRY_VERIFY_WITH_TIMEOUT(reopened.plan().has_value() && reopened.shownPlanBudget() == 200 * 1024, kWaitMs);
        QCOMPARE(reopened.target(), QString("gap9"));
        QCOMPARE(reopened.l2Budget(), qint64(200 * 1024));
        QCOMPARE(reopened.budgets().l1, qint64(96 * 1024));
        QCOMPARE(reopened.budgets().l3, qint64(4096 * 1024));
        QCOMPARE(reopened.budgets().flash, qint64(2048 * 1024));
        QCOMPARE(QFileInfo(reopened.modelPath()).canonicalFilePath(), QFileInfo(zoo_.path("mnist")).canonicalFilePath());
        QCOMPARE(reopened.plan()->l2.peak, peak);
    }

    void aieViewReplansWhenTheArchitectureChanges()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("radioml")));
        views::AieView* view = window.aieView();
        QCOMPARE(view->rowCount(), 17);
        QCOMPARE(view->cell(2, 0), QString("conv1d_w3"));
        QCOMPARE(view->cell(2, 3), QString("176"));
        QCOMPARE(view->cell(2, 5), QString("8"));
        // Picking a layer selects its node in the graph.
        view->selectRow(2);
        QVERIFY(window.graphView()->selectedNode() >= 0);
        QCOMPARE(window.graph()->node(window.graphView()->selectedNode()).name, std::string("conv1d_w3"));
        // First-generation AIE: a 32 KB tile and no memory tile; conv1d_w3 needs twice the chunks.
        view->setArchitecture("aie");
        QCOMPARE(view->cell(2, 5), QString("16"));
        QCOMPARE(view->cell(2, 6), QString("NA"));
        // A tile too small for some layers: those rows are marked with the reason, the others
        // keep their plans, and the message counts them.
        view->setTileKB(8);
        QCOMPARE(view->rowCount(), 17);
        int refused = 0;
        for (int row = 0; row < view->rowCount(); ++row) {
            if (view->isRefused(row)) {
                ++refused;
                QVERIFY2(view->cell(row, 7).startsWith("does not fit: ") && view->cell(row, 7).contains("8 KB tile"),
                         qPrintable(view->cell(row, 7)));
            } else {
                QVERIFY2(view->cell(row, 5).toInt() >= 1, qPrintable(view->cell(row, 0)));
            }
        }
        QVERIFY(refused >= 1 && refused < view->rowCount());
        QVERIFY2(view->message().startsWith(QString("%1 of 17 layers do not fit a 8 KB tile").arg(refused)),
                 qPrintable(view->message()));
        view->setArchitecture("aie-ml");  // its 64 KB tile: nothing refused
        QCOMPARE(view->message(), QString());
        // A 2-D network is not an AIE 1-D design: the view says why instead of a table.
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QCOMPARE(view->rowCount(), 0);
        QVERIFY2(view->message().contains("not on 1-D"), qPrintable(view->message()));
    }

    void openedModelsAreRemembered()
    {
        StudioWindow window;
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
        const QStringList recent = window.recentFiles();
        QVERIFY(recent.size() >= 2);
        QCOMPARE(QFileInfo(recent[0]).fileName(), QFileInfo(zoo_.path("mnist")).fileName());
        QCOMPARE(QFileInfo(recent[1]).fileName(), QFileInfo(zoo_.path("lenet5")).fileName());
    }

    void badProjectFileShowsAnError()
    {
        const QString path = zoo_.filePath("bad.json");
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"tessera_project\": 1, \"model\": 3}");
        file.close();
        StudioWindow window;
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        window.openProject(path);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(window.lastError().contains("bad.json"), qPrintable(window.lastError()));
    }
};

QTEST_MAIN(TestStudio)
#include "tst_studio.moc"
