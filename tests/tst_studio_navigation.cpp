// The studio as a first-time user meets it, driven offscreen: a graph readable on open, Fit and
// the zoom keys, both layout directions, Find over nodes and tensors with "n of m", the timeline's
// named panels, legend, labels and step axes, selection and the step cursor linked both ways, drag
// feedback counted from the drag start, undo of budget changes, one L1 budget, state reset on a new
// model, the title's modified mark and the prompt before losing it, the keyboard, room for the
// tools below the graph, and the layout of small and large screens.
#include "byte_size_spin_box.h"
#include "graph_minimap.h"
#include "graph_view.h"
#include "memory_timeline.h"
#include "plan_job.h"
#include "studio_harness.h"
#include "step_table_model.h"
#include "studio_window.h"
#include "tiling_panel.h"
#include "welcome_page.h"

#include "onnx/onnx_export.h"
#include "session/model_loader.h"
#include "target/chip_table.h"
#include "zoo/zoo.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QScrollBar>
#include <QDockWidget>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QWheelEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QtTest>

#include <numeric>
#include <set>

using namespace tessera;
using namespace tessera::studio_testing;
using tessera::studio::StudioWindow;

namespace {

std::set<std::string> outOfL2(const HierarchyPlan& plan)
{
    std::set<std::string> names;
    for (const TensorPlacement& p : plan.placements)
        if (p.kind == PlacementKind::Activation && p.level != "L2")
            names.insert(p.tensor);
    return names;
}

// Answers the next message box the window opens with `button`.
void answerNextMessageBox(QMessageBox::StandardButton button)
{
    QTimer::singleShot(0, [button] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box)
            box->button(button)->click();
    });
}

} // namespace

class TestStudioNavigation : public QObject {
    Q_OBJECT

private:
    ZooFiles zoo_;

private slots:
    void initTestCase() { useThrowAwaySettings("tst_studio_navigation"); }

    void byteSizesReadAndWrite_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes");
        QTest::addColumn<QString>("shown");
        QTest::newRow("KiB") << "448 KiB" << qint64(448 * 1024) << "448 KiB";
        QTest::newRow("K") << "64K" << qint64(65536) << "64 KiB";
        QTest::newRow("bytes") << "22345" << qint64(22345) << "22 345 B";
        QTest::newRow("grouped bytes") << "22 345 B" << qint64(22345) << "22 345 B";
        QTest::newRow("MiB") << "8 MiB" << qint64(8 << 20) << "8 MiB";
        QTest::newRow("fraction") << "1.5 MB" << qint64(3 << 19) << "1 536 KiB";
        QTest::newRow("GiB") << "4 GiB" << (qint64(4) << 30) << "4 GiB";
    }

    void byteSizesReadAndWrite()
    {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        QFETCH(QString, shown);
        QCOMPARE(views::parseByteSize(text), std::optional<qint64>(bytes));
        QCOMPARE(views::formatByteSize(bytes), shown);
        QCOMPARE(views::parseByteSize(shown), std::optional<qint64>(bytes));
        for (const QString bad : {"", "KiB", "12 apples", "-5", "1e400"})
            QVERIFY2(!views::parseByteSize(bad), qPrintable(bad));
        // A box keeps its granularity: the L3 box counts KiB, and its value is still in bytes.
        views::ByteSizeSpinBox box(1024, 1024, qint64(4) << 30);
        box.setBytes(bytes);
        QCOMPARE(box.bytes(), std::max<qint64>(1024, (bytes + 512) / 1024 * 1024));
    }

    // Before any model: the welcome page with the recent files and the samples; a sample opens with
    // one click; a file that does not open leaves the page with the reason on it.
    void welcomePageOpensSamples()
    {
        StudioWindow window;
        window.show();
        QVERIFY(window.welcomeShown());
        views::WelcomePage* welcome = window.welcomePage();
        QCOMPARE(welcome->sampleList()->count(), int(zooModels().size()));
        QSignalSpy failed(&window, &StudioWindow::errorShown);
        const QString notes = zoo_.filePath("notes.md");
        QFile file(notes);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("# Notes\n\nThe model is in the other folder.\n");
        file.close();
        window.openModel(notes);
        QVERIFY(failed.wait(kWaitMs));
        QVERIFY(window.welcomeShown());
        QVERIFY2(welcome->problem().contains("a text file, not an ONNX model"), qPrintable(welcome->problem()));

        QListWidgetItem* lenet = nullptr;
        for (int row = 0; row < welcome->sampleList()->count(); ++row)
            if (welcome->sampleList()->item(row)->text().startsWith("lenet5"))
                lenet = welcome->sampleList()->item(row);
        QVERIFY(lenet);
        QSignalSpy shown(&window, &StudioWindow::modelShown);
        emit welcome->sampleList()->itemActivated(lenet);
        QVERIFY(shown.wait(kWaitMs));
        QVERIFY(!window.welcomeShown());
        QCOMPARE(window.graph()->name, std::string("lenet5"));
        QVERIFY(welcome->problem().isEmpty());
        // It is remembered: the next window's welcome page lists it.
        StudioWindow next;
        QVERIFY(next.welcomePage()->recentList()->item(0)->toolTip().endsWith("lenet5.onnx"));
    }

    // MobileNet (a tall chain) opens with text a person can read, Fit shows all of it, the zoom
    // keys zoom, and it can be laid out left to right with the selection kept.
    void graphOpensReadableAndFits()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        views::GraphView* view = window.graphView();
        QVERIFY2(view->textPixelHeight() >= views::GraphView::kReadableTextPixels, qPrintable(QString::number(view->textPixelHeight())));
        QVERIFY(!view->wholeGraphVisible());  // 58 nodes in a chain do not fit readable
        QVERIFY(view->nodeVisible(0));        // it opens at the inputs
        QTest::keySequence(&window, QKeySequence("Ctrl+0"));
        QVERIFY(view->wholeGraphVisible());
        QTest::keySequence(&window, QKeySequence("Ctrl+1"));
        QCOMPARE(view->transform().m11(), 1.0);
        QTest::keySequence(&window, QKeySequence("Ctrl+="));
        QCOMPARE(view->transform().m11(), 1.25);
        QTest::keySequence(&window, QKeySequence("Ctrl+-"));
        QCOMPARE(view->transform().m11(), 1.0);

        QVERIFY(window.selectNodeNamed("block5_pw"));
        const int selected = view->selectedNode();
        const QRectF tall = view->sceneRect();
        QVERIFY(tall.height() > tall.width());
        QSignalSpy shown(&window, &StudioWindow::modelShown);
        window.setLayoutDirection(LayoutDirection::LeftToRight);
        QVERIFY(shown.wait(kWaitMs));
        const QRectF wide = view->sceneRect();
        QVERIFY2(wide.width() > wide.height(), qPrintable(QString("%1 x %2").arg(wide.width()).arg(wide.height())));
        QCOMPARE(view->selectedNode(), selected);
        QVERIFY(view->nodeVisible(selected));
        QVERIFY(view->textPixelHeight() >= views::GraphView::kReadableTextPixels);
        window.setLayoutDirection(LayoutDirection::TopToBottom);
        QVERIFY(shown.wait(kWaitMs));
    }

    // The docks open at shares of the window at the size it is shown at: on a 2560x1440 screen the
    // timeline and properties take their share instead of leaving it to an empty graph pane, and on
    // a 1280x720 screen (680 pixels under a task bar) the whole window fits. Once the user moves a
    // dock edge, a resize keeps the user's size. The step table's name column fits the names and
    // the shapes take the rest.
    void docksTakeTheirShareOfTheScreen()
    {
        StudioWindow window;
        window.resize(2560, 1440);
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        auto* timeline = window.findChild<QDockWidget*>("timeline");
        auto* properties = window.findChild<QDockWidget*>("properties");
        auto* steps = window.findChild<QDockWidget*>("steps");
        QTRY_VERIFY2(timeline->width() >= 2560 * 0.3, qPrintable(QString::number(timeline->width())));
        QVERIFY2(properties->width() >= 2560 * 0.17, qPrintable(QString::number(properties->width())));
        QVERIFY(window.centralWidget()->width() >= 2560 * 0.3);
        QVERIFY(steps->height() <= 1440 * 0.33);

        window.resize(1280, 680);
        QTRY_COMPARE(window.height(), 680);
        QTRY_VERIFY2(timeline->width() <= 1280 * 0.42, qPrintable(QString::number(timeline->width())));
        QVERIFY2(window.minimumSizeHint().height() <= 680, qPrintable(QString::number(window.minimumSizeHint().height())));
        QVERIFY(window.centralWidget()->height() >= 150);

        // The user narrows the timeline below any default share: a larger window keeps it so.
        // (the separator left of the timeline, dragged with the mouse).
        const QPoint grip((window.centralWidget()->geometry().right() + timeline->geometry().left()) / 2,
                          timeline->geometry().center().y());
        const QPoint dropped = grip + QPoint(timeline->width() - 380, 0);
        QTest::mousePress(&window, Qt::LeftButton, Qt::NoModifier, grip);
        QVERIFY(!window.childAt(grip));  // the separator, the window's own
        QMouseEvent move(QEvent::MouseMove, dropped, window.mapToGlobal(dropped), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &move);
        QTest::qWait(20);  // the window applies a separator's move on a timer
        QTest::mouseRelease(&window, Qt::LeftButton, Qt::NoModifier, dropped);
        QTRY_VERIFY2(qAbs(timeline->width() - 380) < 25, qPrintable(QString::number(timeline->width())));
        window.resize(1600, 1000);
        QTRY_COMPARE(window.height(), 1000);
        QTest::qWait(50);  // a deferred re-layout would have landed
        QVERIFY2(qAbs(timeline->width() - 380) < 25, qPrintable(QString::number(timeline->width())));
        // Reset Layout gives the shares back.
        window.resetLayout();
        QTRY_VERIFY2(qAbs(timeline->width() - 1600 * 0.34) < 40, qPrintable(QString::number(timeline->width())));

        QHeaderView* header = window.stepTable()->horizontalHeader();
        QVERIFY(header->sectionSize(views::StepTableModel::Name) <= 320);
        QVERIFY(header->sectionSize(views::StepTableModel::Inputs) > header->sectionSize(views::StepTableModel::Name));
        const QFontMetrics metrics(window.stepTable()->font());
        QVERIFY(header->sectionSize(views::StepTableModel::Name) >= metrics.horizontalAdvance("block13_pw_relu6"));
    }

    // A 1280x720 screen: the bottom tabs give up height (a tool with many controls scrolls instead
    // of holding them all up), the timeline gets width, its summary one line; the panels stay
    // tall enough to read. The Steps table shows the plan's step beside the model order.
    void smallScreenLeavesThePanelsRoom()
    {
        StudioWindow window;
        window.resize(1280, 720);
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 1.0, 224)));
        auto* timelineDock = window.findChild<QDockWidget*>("timeline");
        auto* steps = window.findChild<QDockWidget*>("steps");
        QTRY_VERIFY2(steps->height() <= 720 * 0.27, qPrintable(QString::number(steps->height())));
        QVERIFY2(timelineDock->width() >= 1280 * 0.37, qPrintable(QString::number(timelineDock->width())));
        for (const char* tool : {"scamp", "sweep", "nvdla", "aie", "tiling"})
            QVERIFY2(window.findChild<QDockWidget*>(tool)->minimumSizeHint().height() <= 120, tool);
        // The welcome page, hidden, no longer sets the graph's minimum width.
        QVERIFY2(window.centralWidget()->minimumSizeHint().width() < 400,
                 qPrintable(QString::number(window.centralWidget()->minimumSizeHint().width())));
        const QStringList levels = window.timeline()->levels();
        QVERIFY2(window.timeline()->panel(levels.front())->height() >= 120,
                 qPrintable(QString::number(window.timeline()->panel(levels.front())->height())));
        for (const QString& level : levels.mid(1))
            QVERIFY2(window.timeline()->panel(level)->height() >= 80, qPrintable(level));
        auto* summary = window.timeline()->findChild<QLabel*>("summary");
        QVERIFY(summary && summary->isVisible());
        QVERIFY(summary->height() < 2 * summary->fontMetrics().lineSpacing());
        QVERIFY(summary->toolTip().contains("L3 traffic"));
        QVERIFY(summary->text().size() < summary->toolTip().size());  // elided, whole in the tooltip
        // A taller window shows the whole summary again.
        window.resize(1400, 1000);
        QTRY_VERIFY(summary->height() >= 3 * summary->fontMetrics().lineSpacing());
        QCOMPARE(summary->text(), summary->toolTip());

        // Steps: the model's order, and the deployed step the timeline's axis counts (fused
        // layers share it).
        const QAbstractItemModel* model = window.stepModel();
        int differing = 0;
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString name = model->index(row, views::StepTableModel::Name).data().toString();
            const QVariant step = model->index(row, views::StepTableModel::PlanStep).data();
            QCOMPARE(model->index(row, views::StepTableModel::Order).data().toInt(), row);
            QCOMPARE(step.isValid() ? step.toInt() : -1, window.stepOfNode(name));
            differing += step.isValid() && step.toInt() != row;
        }
        QVERIFY(differing > 0);
        QCOMPARE(window.stepOfNode("block3_pw"), window.stepOfNode("block3_pw_relu6"));
        QVERIFY(window.selectNodeNamed("block3_pw"));
        QCOMPARE(window.stepTable()->currentIndex().siblingAtColumn(views::StepTableModel::PlanStep).data().toInt(),
                 window.timeline()->cursorStep());
        // What is live there, with long reasons and symbol names, wraps in the narrow properties
        // dock instead of overflowing it sideways.
        auto* properties = qobject_cast<QAbstractScrollArea*>(window.findChild<QDockWidget*>("properties")->widget());
        QVERIFY(properties);
        QVERIFY(window.propertiesText().contains("AT_GRAPH_CONST_EXEC_FROM_FLASH"));
        QTRY_COMPARE(properties->horizontalScrollBar()->maximum(), 0);
    }

    // A graph larger than the view shows an overview in the corner with the visible part
    // outlined; a click there moves the view to that part; when everything fits it goes away.
    void minimapShowsAndMovesTheView()
    {
        StudioWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        views::GraphView* view = window.graphView();
        views::GraphMinimap* minimap = view->minimap();
        QVERIFY(!view->wholeGraphVisible());
        QTRY_VERIFY(minimap->isVisible());
        QVERIFY(minimap->width() <= views::GraphMinimap::kMaxSide + 8 && minimap->height() <= views::GraphMinimap::kMaxSide + 8);
        QVERIFY(view->viewport()->rect().contains(minimap->geometry()));
        const QRectF outline = minimap->outline();
        QVERIFY(outline.height() < minimap->height() / 2.0);  // a tall chain: the view shows a part of it
        QVERIFY(outline.top() < minimap->height() / 3.0);      // the top, where it opens
        // Click near the bottom of the overview: the last operator comes into view.
        const int last = view->nodeItemCount() - 1;
        QVERIFY(!view->nodeVisible(last));
        const QPoint bottom(minimap->width() / 2, minimap->height() - 6);
        QTest::mouseClick(minimap, Qt::LeftButton, {}, bottom);
        QVERIFY(view->nodeVisible(last));
        QVERIFY(minimap->outline().bottom() > minimap->height() * 2.0 / 3.0);
        // The whole graph in view: no overview.
        QTest::keySequence(&window, QKeySequence("Ctrl+0"));
        QVERIFY(view->wholeGraphVisible());
        QTRY_VERIFY(!minimap->isVisible());
        // Its two mappings are each other's inverse.
        const QPointF there = minimap->toScene(minimap->toMinimap({10, 20}));
        QVERIFY(qAbs(there.x() - 10) < 1e-6 && qAbs(there.y() - 20) < 1e-6);
    }

    // The graph and the timeline as pictures: PNG at twice the size, SVG as vectors with their text.
    void graphAndTimelineExportAsPictures()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        window.timeline()->setMoveDuration(0);
        QTemporaryDir out;
        QVERIFY(window.exportGraphImage(out.filePath("graph.png")));
        const QImage graph(out.filePath("graph.png"));
        QCOMPARE(graph.width(), int(window.graphView()->sceneRect().width()) * 2);
        QVERIFY(window.exportGraphImage(out.filePath("graph.svg")));
        QFile graphSvg(out.filePath("graph.svg"));
        QVERIFY(graphSvg.open(QIODevice::ReadOnly));
        const QByteArray graphText = graphSvg.readAll();
        QVERIFY(graphText.contains("<svg") && graphText.contains(">c3_relu<"));
        QVERIFY(window.exportTimelineImage(out.filePath("timeline.png")));
        QCOMPARE(QImage(out.filePath("timeline.png")).width(), window.timeline()->width() * 2);
        QVERIFY(window.exportTimelineImage(out.filePath("timeline.svg")));
        QFile timelineSvg(out.filePath("timeline.svg"));
        QVERIFY(timelineSvg.open(QIODevice::ReadOnly));
        const QByteArray timelineText = timelineSvg.readAll();
        QVERIFY(timelineText.contains("<svg") && timelineText.contains("HyperFlash") && timelineText.contains("peak"));
        // A name without a picture format is refused, nothing written.
        QVERIFY(!window.exportGraphImage(out.filePath("graph.txt")));
        QVERIFY2(window.lastError().contains(".png or .svg"), qPrintable(window.lastError()));
        QVERIFY(!QFile::exists(out.filePath("graph.txt")));
    }

    // Find looks at operators, op types, tensors, initializers and graph inputs, counts the
    // matches, and brings each into view.
    void findCoversTensorsAndCounts()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        const Graph& graph = *window.graph();
        // An initializer: shown through the node that reads it.
        std::string initializer;
        NodeId reader = -1;
        for (NodeId n = 0; n < NodeId(graph.nodeCount()) && initializer.empty(); ++n)
            for (TensorId in : graph.node(n).inputs)
                if (in != kNoTensor && graph.tensor(in).isConstant()) {
                    initializer = graph.tensor(in).name;
                    reader = n;
                    break;
                }
        QVERIFY(!initializer.empty());
        QLineEdit* find = window.findEdit();
        find->setText(QString::fromStdString(initializer));
        QTest::keyClick(find, Qt::Key_Return);
        const views::GraphMatch* match = window.graphView()->currentMatch();
        QVERIFY(match);
        QVERIFY2(match->description.startsWith("initializer"), qPrintable(match->description));
        QCOMPARE(window.graphView()->selectedNode(), int(reader));
        QVERIFY(window.graphView()->nodeVisible(reader));
        QVERIFY2(window.findCountText().startsWith("1 of "), qPrintable(window.findCountText()));

        // The graph input by name.
        const QString input = QString::fromStdString(graph.tensor(graph.inputs.front()).name);
        find->setText(input);
        QTest::keyClick(find, Qt::Key_Return);
        bool foundInput = false;
        for (int k = 0; k < window.graphView()->matchCount(); ++k) {
            foundInput = foundInput || window.graphView()->currentMatch()->description.startsWith("graph input");
            window.graphView()->findNext(input);
        }
        QVERIFY(foundInput);

        // "c3": the nodes c3 and c3_relu and every tensor with c3 in its name, once each; Enter walks
        // them all and comes back to the first.
        int expected = 0;
        for (const Node& node : graph.nodes())
            expected += QString::fromStdString(node.name + " " + node.opType).contains("c3", Qt::CaseInsensitive);
        const int operators = expected;
        for (const Tensor& tensor : graph.tensors())
            expected += QString::fromStdString(tensor.name).contains("c3", Qt::CaseInsensitive);
        find->setText("C3");
        QTest::keyClick(find, Qt::Key_Return);
        QVERIFY(operators > 0 && expected > operators);
        QCOMPARE(window.graphView()->matchCount(), expected);
        QCOMPARE(window.findCountText(), QString("1 of %1").arg(expected));
        for (int k = 1; k < expected; ++k)
            QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(window.findCountText(), QString("%1 of %1").arg(expected));
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(window.findCountText(), QString("1 of %1").arg(expected));
        find->setText("no such thing");
        QTest::keyClick(find, Qt::Key_Return);
        QCOMPARE(window.findCountText(), QString("no match"));
    }

    // The timeline's panels are the chip's memories, named and kept; it has a legend; its line
    // labels never cover each other; its step axes line up.
    void timelinePanelsAreNamedAndAligned()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        views::MemoryTimeline* timeline = window.timeline();
        QCOMPARE(timeline->levels(), (QStringList{"L2", "HyperRAM", "HyperFlash"}));
        for (const QString kind : {"activation", "constant", "staging", "prefetch", "budget", "peak", "lower bound"})
            QVERIFY2(timeline->legendText().contains(kind), qPrintable(timeline->legendText()));
        // The memory-in-use curve's highest point: the most bytes live in L2 at one step.
        std::vector<qint64> live(size_t(window.plan()->steps), 0);
        for (const TensorPlacement& p : window.plan()->placements)
            if (p.level == "L2")
                for (std::int64_t step = p.lower; step < p.upper; ++step)
                    live[size_t(step)] += p.size;
        const auto most = std::max_element(live.begin(), live.end());
        QCOMPARE(timeline->mostInUse("L2"), (std::pair<int, qint64>(int(most - live.begin()), *most)));
        QVERIFY(*most <= window.plan()->l2.peak);
        QVERIFY(timeline->legendText().contains("in use"));
        // Nothing is spilled at the default budget: the L3 RAM panel stays, empty.
        QCOMPARE(timeline->rectangleCount("HyperRAM"), 0);
        QVERIFY(timeline->panel("HyperRAM")->isVisible());
        QVERIFY(timeline->rectangleCount("HyperFlash") + timeline->rectangleCount("L2") > 0);
        // The budget just above the peak: three lines within a few pixels, their labels apart.
        QSignalSpy planned(&window, &StudioWindow::planShown);
        window.setL2Budget(window.plan()->l2.peak + 600);
        QVERIFY(planned.wait(kWaitMs));
        const QList<QRectF> labels = timeline->lineLabelRects();
        QCOMPARE(labels.size(), 3);
        for (int a = 0; a < labels.size(); ++a)
            for (int b = a + 1; b < labels.size(); ++b)
                QVERIFY2(!labels[a].intersects(labels[b]),
                         qPrintable(QString("label %1 and %2 overlap").arg(a).arg(b)));
        const double steps = double(window.plan()->steps);
        for (const QString& level : timeline->levels()) {
            QCOMPARE(timeline->pointOf(level, 0, 0).x(), timeline->l2PointOf(0, 0).x());
            QCOMPARE(timeline->pointOf(level, steps, 0).x(), timeline->l2PointOf(steps, 0).x());
        }
        // The wheel zooms the steps of every panel together; a drag pans; a double click shows all.
        QWidget* l2 = timeline->l2Panel();
        const QPoint middle = timeline->l2PointOf(steps / 2, 0) - QPoint(0, 20);
        QWheelEvent wheel(middle, l2->mapToGlobal(middle), QPoint(), QPoint(0, 480), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(l2, &wheel);
        const auto zoomed = timeline->shownSteps("L2");
        QVERIFY2(zoomed.second - zoomed.first < steps * 0.9, qPrintable(QString("%1..%2").arg(zoomed.first).arg(zoomed.second)));
        QVERIFY(zoomed.first >= 0 && zoomed.second <= steps);
        for (const QString& level : timeline->levels())
            QCOMPARE(timeline->shownSteps(level), zoomed);
        QTest::mouseDClick(l2, Qt::LeftButton, Qt::NoModifier, middle);
        QCOMPARE(timeline->shownSteps("HyperFlash"), (std::pair<double, double>(0, steps)));
        // GAP9 has its MRAM too.
        window.setTarget("gap9");
        QVERIFY(planned.wait(kWaitMs));
        QCOMPARE(timeline->levels(), studio::gapTimelineLevels("gap9"));
        QVERIFY(timeline->levels().contains("MRAM"));
    }

    // Stepping through the graph moves the timeline's cursor to the step that runs the node; a
    // click on a step selects what it runs and lists what is live there.
    void stepCursorIsSharedByGraphTimelineAndSteps()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        const Graph& graph = *window.graph();
        int stepped = 0, lastStep = -1;
        for (NodeId n = 0; n < NodeId(graph.nodeCount()); ++n) {
            QTest::keyClick(&window, Qt::Key_Down, Qt::AltModifier);
            QCOMPARE(window.graphView()->selectedNode(), int(n));
            QCOMPARE(window.stepTable()->currentIndex().row(), int(n));
            const int step = window.stepOfNode(QString::fromStdString(graph.node(n).name));
            QCOMPARE(window.timeline()->cursorStep(), step);
            if (step >= 0) {
                QVERIFY2(window.nodesOfStep(step).contains(QString::fromStdString(graph.node(n).name)), graph.node(n).name.c_str());
                QVERIFY(step >= lastStep);  // steps follow the execution order
                lastStep = step;
                ++stepped;
            }
        }
        QVERIFY(stepped > 0 && lastStep == int(window.plan()->steps) - 1);

        // A click on an empty part of the L3 RAM panel picks the step under it.
        const int step = int(window.plan()->steps) / 2;
        QWidget* ram = window.timeline()->panel("HyperRAM");
        QCOMPARE(window.timeline()->rectangleCount("HyperRAM"), 0);
        QTest::mouseClick(ram, Qt::LeftButton, Qt::NoModifier, window.timeline()->pointOf("HyperRAM", step + 0.5, 0) - QPoint(0, 8));
        QCOMPARE(window.timeline()->cursorStep(), step);
        const int node = window.graphView()->selectedNode();
        QVERIFY(node >= 0);
        QCOMPARE(QString::fromStdString(graph.node(node).name), window.nodesOfStep(step).front());
        const QString properties = window.propertiesText();
        QVERIFY2(properties.contains(QString("live at step %1").arg(step)), qPrintable(properties));
        QVERIFY2(properties.contains(QString("L3 traffic at this step: %1 bytes").arg(window.plan()->stepTraffic.at(size_t(step)))),
                 qPrintable(properties));
        const std::vector<TensorPlacement> live = window.timeline()->liveAt(step);
        QVERIFY(!live.empty());
        for (const TensorPlacement& p : live) {
            QVERIFY(p.lower <= step && step < p.upper);
            QVERIFY2(properties.contains(QString::fromStdString(p.tensor)), p.tensor.c_str());
        }
        // No node selected: the model's own properties.
        window.graphView()->selectNode(-1);
        QCOMPARE(window.timeline()->cursorStep(), -1);
        QVERIFY2(window.propertiesText().contains("operator set"), qPrintable(window.propertiesText()));
    }

    // The change a drag makes is counted from where the drag began, the tensors it pushed out stay
    // outlined after the release, the scale holds still, and Undo puts the budget back.
    void dragFeedbackCountsFromTheDragStart()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        window.timeline()->setMoveDuration(0);
        const HierarchyPlan before = *window.plan();
        const qint64 budgetBefore = window.l2Budget();
        QVERIFY(!window.isWindowModified());
        // Every plan the drag shows, so the summary can be told from one counted from the last move.
        std::vector<HierarchyPlan> shownDuringDrag;
        const QMetaObject::Connection collect = connect(&window, &StudioWindow::planShown, this, [&] {
            if (window.plan())
                shownDuringDrag.push_back(*window.plan());
        });
        const QPoint end = dragBudgetDown(window, 0.6, false);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == window.l2Budget(), kWaitMs);
        disconnect(collect);
        const auto counted = [&] {
            const HierarchyPlan& now = *window.plan();
            return QString("change: +%1 in L3, %2%3 promoted, L3 traffic +%4 B (since the drag began)")
                .arg(qint64(now.spilledTensors) - qint64(before.spilledTensors))
                .arg(now.promotedConstants >= before.promotedConstants ? "+" : "")
                .arg(qint64(now.promotedConstants) - qint64(before.promotedConstants))
                .arg(now.l3TrafficBytes - before.l3TrafficBytes);
        };
        QVERIFY(shownDuringDrag.size() >= 2);
        const HierarchyPlan& lastMove = shownDuringDrag[shownDuringDrag.size() - 2];
        qInfo("L3 traffic %lld B before the drag, %lld B one move before its end, %lld B at its end",
              qint64(before.l3TrafficBytes), qint64(lastMove.l3TrafficBytes), qint64(window.plan()->l3TrafficBytes));
        QVERIFY(lastMove.l3TrafficBytes != before.l3TrafficBytes);  // the two ways of counting differ
        QVERIFY2(window.planStatus().contains(counted()), qPrintable(window.planStatus() + "\nexpected " + counted()));
        const QPoint marker = window.timeline()->l2PointOf(0, 64 * 1024);
        QSignalSpy planned(&window, &StudioWindow::planShown);
        QTest::mouseRelease(window.timeline()->l2Panel(), Qt::LeftButton, Qt::NoModifier, end);
        QVERIFY(planned.wait(kWaitMs));
        QCOMPARE(window.timeline()->l2PointOf(0, 64 * 1024), marker);  // the scale did not jump
        QVERIFY2(window.planStatus().contains(counted()), qPrintable(window.planStatus()));
        // What the spills cost, step by step, in the L3 RAM panel against its right scale.
        const std::vector<std::int64_t>& traffic = window.plan()->stepTraffic;
        QCOMPARE(window.timeline()->trafficLevel(), QString("HyperRAM"));
        QCOMPARE(window.timeline()->drawnTraffic(), std::vector<qint64>(traffic.begin(), traffic.end()));
        QCOMPARE(std::accumulate(traffic.begin(), traffic.end(), std::int64_t(0)), window.plan()->l3TrafficBytes);
        QVERIFY(window.plan()->l3TrafficBytes > before.l3TrafficBytes);
        std::set<std::string> pushed;
        const std::set<std::string> was = outOfL2(before);
        for (const std::string& name : outOfL2(*window.plan()))
            if (!was.count(name))
                pushed.insert(name);
        QStringList expected;
        for (const std::string& name : pushed)
            expected << QString::fromStdString(name);
        QCOMPARE(window.timeline()->pushedOutTensors(), expected);
        QVERIFY(window.isWindowModified());
        QVERIFY(window.windowTitle().contains("[*]"));

        // One drag is one step of the history.
        const qint64 dragged = window.l2Budget();
        QCOMPARE(window.budgetHistory()->count(), 1);
        window.budgetHistory()->undo();
        QCOMPARE(window.l2Budget(), budgetBefore);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == budgetBefore, kWaitMs);
        QCOMPARE(window.plan()->l2.peak, before.l2.peak);
        QCOMPARE(window.plan()->spilledTensors, before.spilledTensors);
        window.budgetHistory()->redo();
        QCOMPARE(window.l2Budget(), dragged);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == dragged, kWaitMs);
    }

    // The Tiling dock and the bar show one L1 budget; a new model clears the dock, the find text
    // and the budgets the last model was given.
    void oneL1BudgetAndANewModelStartsClean()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QSignalSpy exported(&window, &StudioWindow::projectExported);
        QTemporaryDir out;
        window.exportGapProject(out.path());
        views::TilingPanel* tiling = window.tilingPanel();
        QSignalSpy tiled(tiling, &views::TilingPanel::tilingShown);
        QVERIFY(exported.wait(900000));
        QVERIFY(tiled.count() > 0 || tiled.wait(kWaitMs));
        QVERIFY(tiling->kernelCount() > 0);
        QCOMPARE(tiling->l1Budget(), window.budgets().l1);
        studio::Budgets budgets = window.budgets();
        budgets.l1 = 40 * 1024;
        window.setBudgets(budgets);
        QCOMPARE(tiling->l1Budget(), qint64(40 * 1024));
        tiling->budgetBox()->setValue(30000);  // the user's edit in the dock
        QCOMPARE(window.budgets().l1, qint64(30000));

        const qint64 defaultL2 = qint64(target::chip("gap8").defaultBudgets().l2);
        window.setL2Budget(100 * 1024);
        window.findEdit()->setText("conv");
        QTest::keyClick(window.findEdit(), Qt::Key_Return);
        QVERIFY(openAndWait(window, zoo_.path("mnist")));
        QCOMPARE(tiling->kernelCount(), 0);
        QCOMPARE(window.l2Budget(), defaultL2);
        QCOMPARE(window.budgets().l1, qint64(target::chip("gap8").defaultBudgets().l1));
        QVERIFY(window.findEdit()->text().isEmpty());
        QVERIFY(window.findCountText().isEmpty());
        QCOMPARE(window.budgetHistory()->count(), 0);
        QVERIFY(!window.isWindowModified());
    }

    // The title names the project and marks changes; closing with changes asks first.
    void titleMarksChangesAndClosingAsks()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        QVERIFY2(window.windowTitle().startsWith("lenet5"), qPrintable(window.windowTitle()));
        QVERIFY(!window.isWindowModified());
        window.setL2Budget(window.l2Budget() - 1024);
        QVERIFY(window.isWindowModified());
        answerNextMessageBox(QMessageBox::Cancel);
        QVERIFY(!window.close());
        QVERIFY(window.isVisible());
        QTemporaryDir out;
        const QString project = out.filePath("mine.json");
        QVERIFY(window.saveProject(project));
        QVERIFY(!window.isWindowModified());
        QVERIFY2(window.windowTitle().startsWith("mine.json"), qPrintable(window.windowTitle()));
        window.setL2Budget(window.l2Budget() - 1024);
        answerNextMessageBox(QMessageBox::Discard);
        QVERIFY(window.close());
    }

    // Tab leaves the Steps table; F1 lists every shortcut; the tool docks get room; Reset layout.
    void keyboardAndPanels()
    {
        StudioWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openAndWait(window, zoo_.path("lenet5")));
        window.activateWindow();
        QTableView* steps = window.stepTable();
        steps->setFocus();
        QTRY_VERIFY(steps->hasFocus());
        QTest::keyClick(steps, Qt::Key_Tab);
        QVERIFY(!steps->hasFocus());

        const QString list = window.shortcutList().join('\n');
        for (const QString key : {"Ctrl+=", "Ctrl+-", "Ctrl+0", "Ctrl+1", "Ctrl+Q", "Ctrl+Z", "Ctrl+F", "Ctrl+PgDown", "F1"})
            QVERIFY2(list.contains(key), qPrintable(key + " missing from\n" + list));

        for (const char* name : {"scamp", "aie", "tiling"}) {
            auto* dock = window.findChild<QDockWidget*>(name);
            dock->show();
            dock->raise();
            QTRY_VERIFY2(dock->height() >= int(window.height() * 0.4),
                         qPrintable(QString("%1: %2 of %3").arg(name).arg(dock->height()).arg(window.height())));
        }
        // Ctrl+PgDown walks the tabs below the graph.
        auto* tiling = window.findChild<QDockWidget*>("tiling");
        const auto front = [&](QDockWidget* dock) { return !dock->visibleRegion().isEmpty(); };
        QVERIFY(front(tiling));
        QTest::keySequence(&window, QKeySequence("Ctrl+PgDown"));
        QTRY_VERIFY(!front(tiling));
        QTest::keySequence(&window, QKeySequence("Ctrl+PgUp"));
        QTRY_VERIFY(front(tiling));
        auto* timelineDock = window.findChild<QDockWidget*>("timeline");
        timelineDock->hide();
        window.resetLayout();
        QVERIFY(timelineDock->isVisible());
        QVERIFY(window.findChild<QDockWidget*>("steps")->isVisible());
    }
};

QTEST_MAIN(TestStudioNavigation)
#include "tst_studio_navigation.moc"
