// The studio's SCAMP-5 view, driven offscreen: compiling a kernels file with live progress, the
// trace against the simulator, stepping through the register planes, stopping a search, and bad
// kernels, program and image files.
#include "coefficient_heatmap_delegate.h"
#include "graph_view.h"
#include "register_planes_widget.h"
#include "scamp_trace_model.h"
#include "scamp_view.h"
#include "scamp_workbench.h"
#include "studio_harness.h"
#include "studio_window.h"
#include "test_support.h"

#include "scamp/simulator.h"

#include <QDockWidget>
#include <QImage>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;
using tessera::studio::ScampWorkbench;
using tessera::studio::StudioWindow;

namespace {

constexpr int kWaitMs = 120000;

QString kernelsFile(const char* name)
{
    return QString::fromStdString(test::sourcePath(std::string("resources/scamp/") + name));
}

// An edge kernel with negative weights: east minus west, and a two-instruction program for it.
const char* kEdgeKernels = R"({"name": "edge", "input_register": "A", "registers": ["A","B","C","D"],
  "kernels": [{"output_register": "B", "scale": 1, "weights": [[0,0,0],[-1,0,1],[0,0,0]]}]})";
const char* kEdgeProgram = "movx(C, A, west);\nsubx(B, A, east, C);\n";

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

scamp::Program prefixOf(const scamp::Program& program, int steps)
{
    scamp::Program prefix;
    prefix.instructions.assign(program.instructions.begin(), program.instructions.begin() + steps);
    return prefix;
}

// Opens `kernels` in the window's SCAMP-5 view with a short search and waits for it to end.
bool compileAndWait(StudioWindow& window, const QString& kernels, double seconds)
{
    window.scampView()->setSettings({true, seconds, 2});
    QSignalSpy finished(window.scampWorkbench(), &ScampWorkbench::searchFinished);
    return window.openScampKernels(kernels) && finished.wait(kWaitMs);
}

} // namespace

class TestStudioScamp : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("Tessera");
        QCoreApplication::setApplicationName("tst_studio_scamp");
        QSettings().clear();
    }

    // The 3x3 Gaussian: progress and the best count while it runs, then a verified program whose
    // trace rows are the simulator's registers after each instruction.
    void compilesWithLiveProgressAndAVerifiedTrace()
    {
        StudioWindow window;
        window.show();
        views::ScampView* view = window.scampView();
        window.scampView()->setSettings({true, 1.5, 2});
        QSignalSpy improved(window.scampWorkbench(), &ScampWorkbench::traceShown);
        QSignalSpy finished(window.scampWorkbench(), &ScampWorkbench::searchFinished);
        QVERIFY(window.openScampKernels(kernelsFile("gauss3x3.json")));
        QVERIFY(view->isRunning());
        QCOMPARE(view->runButton()->text(), QString("Stop"));
        QVERIFY(view->kernelsText().startsWith("gauss3x3: 1 kernel(s), d = 4"));
        QVERIFY(window.findChild<QDockWidget*>("scamp")->isVisible());
        // The progress bar advances while the search runs.
        QTRY_VERIFY_WITH_TIMEOUT(view->progressPercent() > 10 && view->isRunning(), kWaitMs);
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(view->runButton()->text(), QString("Run"));
        QCOMPARE(view->progressPercent(), 100);
        // The status line says what the search found, no longer that it is compiling.
        QVERIFY2(window.statusText().contains(view->progressText()) && !window.statusText().contains("compiling"),
                 qPrintable(window.statusText()));
        QVERIFY(improved.count() >= 1);
        QVERIFY(window.scampWorkbench()->improvements() >= 1);

        const ScampWorkbench& bench = *window.scampWorkbench();
        QVERIFY(bench.program().has_value() && bench.lastResult().has_value());
        const scamp::Program& program = *bench.program();
        QCOMPARE(program.instructions.size(), bench.lastResult()->best->instructions.size());
        QVERIFY2(program.instructions.size() <= 10, qPrintable(view->progressText())); // the paper's Cain: 10
        QVERIFY2(view->progressText().startsWith(QString("best %1 instructions").arg(program.instructions.size())),
                 qPrintable(view->progressText()));
        QVERIFY2(view->message().contains("Verified exact") && !view->messageIsProblem(), qPrintable(view->message()));

        const views::ScampTraceModel* model = view->traceModel();
        QCOMPARE(model->rowCount(), int(program.instructions.size()) + 1);
        QCOMPARE(model->columnCount(), 1 + 6);
        const scamp::KernelSet& set = *bench.kernelSet();
        for (int row = 0; row < model->rowCount(); ++row) {
            const auto registers = scamp::runSymbolic(prefixOf(program, row), set.registers, set.inputRegister,
                                                      bench.kernels()->input());
            for (int column = 1; column < model->columnCount(); ++column) {
                const auto& expected = registers.at(set.registers[size_t(column - 1)]);
                const scamp::Goal* shown = model->goalAt(model->index(row, column));
                QCOMPARE(shown != nullptr, expected.has_value());
                if (shown)
                    QCOMPARE(*shown, *expected);
            }
        }
        // The last row's output register holds the kernel, framed as written where the last
        // instruction writes it.
        const QModelIndex output = model->index(model->rowCount() - 1, model->columnOfRegister("A"));
        QCOMPARE(*model->goalAt(output), bench.kernels()->goals[0]);
        QVERIFY(model->data(model->index(1, 0)).toString().startsWith(
            "1  " + QString::fromStdString(program.instructions[0].toString())));
        QCOMPARE(model->data(model->index(0, 0)).toString(), QString("start: input in A"));
    }

    // Selecting a step (by the table, the buttons or the keyboard) shows the register planes of
    // the program run up to that step on the picture.
    void steppingShowsThePlanesOfEachStep()
    {
        StudioWindow window;
        window.show();
        QVERIFY(compileAndWait(window, kernelsFile("gauss3x3.json"), 1.0));
        views::ScampView* view = window.scampView();
        const ScampWorkbench& bench = *window.scampWorkbench();
        const scamp::Program& program = *bench.program();
        const scamp::KernelSet& set = *bench.kernelSet();
        QCOMPARE(bench.image().size, ScampWorkbench::kSampleImage);
        for (int step = 0; step <= int(program.instructions.size()); ++step) {
            view->setCurrentStep(step);
            QCOMPARE(view->currentStep(), step);
            QCOMPARE(view->planes()->step(), step);
            const auto planes = scamp::runNumeric(prefixOf(program, step), set.registers, set.inputRegister, bench.image());
            for (const std::string& name : set.registers) {
                const scamp::Plane* shown = view->planes()->shownPlane(QString::fromStdString(name));
                QVERIFY(shown);
                QCOMPARE(shown->values, planes.at(name).values);
            }
        }
        // The keyboard moves through the trace: Up from the last step goes back one.
        view->traceTable()->setFocus();
        QTest::keyClick(view->traceTable(), Qt::Key_Up);
        QCOMPARE(view->currentStep(), int(program.instructions.size()) - 1);
        QCOMPARE(view->planes()->step(), int(program.instructions.size()) - 1);
        view->setCurrentStep(1000); // clamped
        QCOMPARE(view->currentStep(), int(program.instructions.size()));
        // The output plane at the end is the blur: brighter where the picture is, 0..255.
        const scamp::Plane* blurred = view->planes()->shownPlane("A");
        QVERIFY(*std::max_element(blurred->values.begin(), blurred->values.end()) <= 255.0);
        const QImage picture = views::RegisterPlanesWidget::planeImage(*blurred);
        QCOMPARE(picture.width(), ScampWorkbench::kSampleImage);
        QVERIFY(!view->grab().isNull());
    }

    // The heat map draws positive coefficients red and negative ones blue, north at the top.
    void heatMapsColourTheCoefficients()
    {
        const QString kernels = writeFile(dir_, "edge.json", kEdgeKernels);
        const QString program = writeFile(dir_, "edge.txt", kEdgeProgram);
        StudioWindow window;
        window.show();
        ScampWorkbench& bench = *window.scampWorkbench();
        QVERIFY(bench.openKernels(kernels));
        QVERIFY(bench.openProgram(program));
        views::ScampView* view = window.scampView();
        QVERIFY2(view->message().contains("edge.txt: 2 instructions. Verified exact"), qPrintable(view->message()));
        const views::ScampTraceModel* model = view->traceModel();
        QCOMPARE(model->rowCount(), 3);
        const QModelIndex edge = model->index(2, model->columnOfRegister("B"));
        QVERIFY(model->isWritten(edge));
        QVERIFY(!model->isWritten(model->index(2, model->columnOfRegister("C"))));
        QVERIFY(model->data(edge, Qt::ToolTipRole).toString().contains("written by this instruction"));

        views::CoefficientHeatmapDelegate delegate;
        QStyleOptionViewItem option;
        option.palette = view->palette();
        const int side = 3 * views::CoefficientHeatmapDelegate::kSquarePixels;
        option.rect = QRect(0, 0, side + 20, side + 20);
        QImage canvas(option.rect.size(), QImage::Format_RGB32);
        canvas.fill(Qt::white);
        QPainter painter(&canvas);
        delegate.paint(&painter, option, edge);
        painter.end();
        // Squares: column 0 is west, column 2 east; the middle row is y = 0.
        const QPoint centre = option.rect.center();
        const int s = views::CoefficientHeatmapDelegate::kSquarePixels;
        const QColor east = canvas.pixelColor(centre.x() + s, centre.y());
        const QColor west = canvas.pixelColor(centre.x() - s, centre.y());
        const QColor north = canvas.pixelColor(centre.x(), centre.y() - s);
        QVERIFY2(east.red() > 150 && east.blue() < 120, qPrintable(east.name()));
        QVERIFY2(west.blue() > 150 && west.red() < 120, qPrintable(west.name()));
        QCOMPARE(north, option.palette.base().color());
        QCOMPARE(views::CoefficientHeatmapDelegate::colourOf(0, 4, Qt::white), QColor(Qt::white));
        // Larger magnitudes are further from the base colour.
        QVERIFY(views::CoefficientHeatmapDelegate::colourOf(4, 4, Qt::white).green() <
                views::CoefficientHeatmapDelegate::colourOf(1, 4, Qt::white).green());
        QVERIFY(views::CoefficientHeatmapDelegate::colourOf(-4, 4, Qt::white).blue() >
                views::CoefficientHeatmapDelegate::colourOf(-4, 4, Qt::white).red());
    }

    // Stop ends a long search early and keeps its best program, verified.
    void stopKeepsTheBestSoFar()
    {
        StudioWindow window;
        window.show();
        views::ScampView* view = window.scampView();
        view->setSettings({true, 120.0, 2});
        QSignalSpy shown(window.scampWorkbench(), &ScampWorkbench::traceShown);
        QSignalSpy finished(window.scampWorkbench(), &ScampWorkbench::searchFinished);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(window.openScampKernels(kernelsFile("gauss5x5.json")));
        QVERIFY(shown.count() > 0 || shown.wait(kWaitMs));
        QTest::mouseClick(view->runButton(), Qt::LeftButton); // "Stop"
        QVERIFY(finished.count() > 0 || finished.wait(kWaitMs));
        QVERIFY2(clock.elapsed() < 100000, "the search ran to its time limit instead of stopping");
        QVERIFY(window.scampWorkbench()->lastResult()->best.has_value());
        QVERIFY2(view->message().contains("Verified exact"), qPrintable(view->message()));
        QCOMPARE(view->runButton()->text(), QString("Run"));
    }

    // Bad kernels, program and image files show a message and leave what was open.
    void badFilesShowAProblemAndKeepWhatWasOpen()
    {
        StudioWindow window;
        window.show();
        ScampWorkbench& bench = *window.scampWorkbench();
        views::ScampView* view = window.scampView();
        QVERIFY(!bench.openProgram(writeFile(dir_, "early.txt", kEdgeProgram)));
        QVERIFY(view->message().contains("Open a kernels file first"));
        QVERIFY(bench.openKernels(writeFile(dir_, "edge2.json", kEdgeKernels)));
        QVERIFY(bench.openProgram(writeFile(dir_, "edge2.txt", kEdgeProgram)));
        const QString kernelsText = view->kernelsText();

        const QString ragged = writeFile(dir_, "ragged.json",
                                         R"({"kernels": [{"output_register": "A", "weights": [[1,2,1],[2,4],[1,2,1]]}]})");
        QVERIFY(!bench.openKernels(ragged));
        QVERIFY2(view->message().contains("weights row 1 has 2"), qPrintable(view->message()));
        QVERIFY(view->messageIsProblem());
        QVERIFY(!bench.openKernels(writeFile(dir_, "broken.json", "{\"kernels\": [")));
        QVERIFY2(view->message().contains("not valid JSON"), qPrintable(view->message()));
        QCOMPARE(view->kernelsText(), kernelsText);
        QCOMPARE(view->traceModel()->rowCount(), 3);

        QVERIFY(!bench.openProgram(writeFile(dir_, "syntax.txt", "movx(C, A, west);\nfrob(B, A);\n")));
        QVERIFY2(view->message().contains("line 2: unknown instruction 'frob'"), qPrintable(view->message()));
        QCOMPARE(view->traceModel()->rowCount(), 3);
        // A program that runs but computes something else is shown, and said to be wrong.
        QVERIFY(bench.openProgram(writeFile(dir_, "wrong.txt", "movx(C, A, west);\nsubx(B, A, north, C);\n")));
        QVERIFY2(view->message().contains("Not exact") && view->messageIsProblem(), qPrintable(view->message()));
        // One that breaks a rule is traced up to the instruction that breaks it.
        QVERIFY(bench.openProgram(writeFile(dir_, "unset.txt", "movx(C, A, west);\nsubx(B, D, east, C);\n")));
        QVERIFY2(view->message().contains("instruction 2") && view->message().contains("holds no value"),
                 qPrintable(view->message()));
        QCOMPARE(view->traceModel()->rowCount(), 2);

        QVERIFY(!bench.openImage(writeFile(dir_, "notapicture.png", "this is text")));
        QVERIFY(view->message().contains("not a picture"));
        QCOMPARE(bench.image().size, ScampWorkbench::kSampleImage);
        // The studio's error dialog for a kernels file given on the command line or by drop.
        QSignalSpy errors(&window, &StudioWindow::errorShown);
        QVERIFY(!window.openScampKernels(ragged));
        QCOMPARE(errors.count(), 1);
        QVERIFY(window.isVisible());
    }

    // A picture chosen by the user: cropped to a square, scaled down, north at the top.
    void programsStepOnAChosenPicture()
    {
        QImage picture(300, 200, QImage::Format_RGB32);
        for (int y = 0; y < picture.height(); ++y)
            for (int x = 0; x < picture.width(); ++x)
                picture.setPixelColor(x, y, y < 20 ? QColor(Qt::white) : QColor(Qt::black));
        const QString path = dir_.filePath("top.png");
        QVERIFY(picture.save(path));
        StudioWindow window;
        ScampWorkbench& bench = *window.scampWorkbench();
        QVERIFY(bench.openKernels(writeFile(dir_, "edge3.json", kEdgeKernels)));
        QVERIFY(bench.openProgram(writeFile(dir_, "edge3.txt", kEdgeProgram)));
        QVERIFY(bench.openImage(path));
        QCOMPARE(bench.image().size, ScampWorkbench::kLargestImage);
        const scamp::Plane& plane = bench.image();
        QCOMPARE(plane.at(10, plane.size - 1), 255.0); // the white band is north
        QCOMPARE(plane.at(10, 0), 0.0);
        // The open program was traced again on the new picture.
        QCOMPARE(bench.trace()->image.size, ScampWorkbench::kLargestImage);
        QCOMPARE(bench.trace()->planes.back()[1].size, ScampWorkbench::kLargestImage);
    }

    // A program saved from the view reads back and verifies; a kernels file given where projects
    // go (command line, drop, recent files) opens in the SCAMP-5 view.
    // Kernels opened with no model take most of the height for the trace; the model opened next
    // takes its room back instead of inheriting that layout.
    void aModelTakesItsRoomBackFromTheTrace()
    {
        StudioWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(compileAndWait(window, kernelsFile("gauss3x3.json"), 0.5));
        auto* scampDock = window.findChild<QDockWidget*>("scamp");
        // As much as the welcome page beside it leaves (the default is 300 px).
        QTRY_VERIFY2(scampDock->height() > 400, qPrintable(QString("%1 of %2").arg(scampDock->height()).arg(window.height())));
        studio_testing::ZooFiles zoo;
        QVERIFY(studio_testing::openAndWait(window, zoo.path("lenet5")));
        QTRY_VERIFY2(scampDock->height() <= 320, qPrintable(QString::number(scampDock->height())));
        QVERIFY(window.graphView()->height() > window.height() / 3);
    }

    void savedProgramsReadBackAndKernelsOpenLikeProjects()
    {
        StudioWindow window;
        window.show();
        // Long enough for a program under a sanitized build sharing the machine with other tests.
        window.scampView()->setSettings({true, 5.0, 2});
        QSignalSpy finished(window.scampWorkbench(), &ScampWorkbench::searchFinished);
        QSignalSpy planShown(&window, &StudioWindow::planShown);
        window.openProject(kernelsFile("analognet2.json"));
        QVERIFY(finished.wait(kWaitMs));
        QCOMPARE(planShown.count(), 1); // what --screenshot waits for
        QCOMPARE(window.scampWorkbench()->kernelsPath(), kernelsFile("analognet2.json"));
        QVERIFY(window.recentFiles().contains(kernelsFile("analognet2.json")));
        const QString saved = dir_.filePath("analognet2.txt");
        QVERIFY(window.scampWorkbench()->saveProgram(saved));
        QFile file(saved);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const scamp::Program again = scamp::parseProgram(file.readAll().toStdString(), "saved");
        QCOMPARE(again.instructions.size(), window.scampWorkbench()->program()->instructions.size());
        const ScampWorkbench& bench = *window.scampWorkbench();
        QVERIFY(scamp::verifyProgram(again, *bench.kernelSet(), *bench.kernels()).exact);
        QVERIFY(!window.scampWorkbench()->saveProgram(dir_.filePath("missing/dir/p.txt")));
        // Cain's text reads back to the same program; the SDK code brackets the same macros.
        const QString cain = dir_.filePath("analognet2.cain.txt");
        QVERIFY(window.scampWorkbench()->saveProgram(cain, scamp::ProgramForm::Cain));
        QFile cainFile(cain);
        QVERIFY(cainFile.open(QIODevice::ReadOnly));
        const QByteArray cainText = cainFile.readAll();
        QVERIFY(cainText.startsWith("//Kernel Code!"));
        QCOMPARE(scamp::parseProgram(cainText.toStdString(), "cain").instructions.size(), again.instructions.size());
        const QString sdk = dir_.filePath("analognet2.hpp");
        QVERIFY(window.scampWorkbench()->saveProgram(sdk, scamp::ProgramForm::Scamp5Sdk));
        QFile sdkFile(sdk);
        QVERIFY(sdkFile.open(QIODevice::ReadOnly));
        const QByteArray sdkText = sdkFile.readAll();
        QVERIFY(sdkText.contains("scamp5_kernel_begin();") && sdkText.contains("inline void analognet2()"));
        QCOMPARE(scamp::programFormForPath("x.hpp"), scamp::ProgramForm::Scamp5Sdk);
        QCOMPARE(scamp::programFormForPath("x.cain.txt"), scamp::ProgramForm::Cain);
    }
};

QTEST_MAIN(TestStudioScamp)
#include "tst_studio_scamp.moc"
