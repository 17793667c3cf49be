// The tiling dock, driven offscreen: a tiling report written by the generator for the guide's
// kernels (MatAdd, MatMax with a DynTile buffer, a 5x5 convolution with overlap, vertical tiles)
// is opened in the studio; tile grids, overlaps, last tiles and L1 buffers are checked against the
// solver, the L1 budget is moved (solved again, or the solver's message when too small), the
// model's JSON round trip and broken files.
#include "studio_window.h"
#include "tile_layout_view.h"
#include "tiling_panel.h"

#include "tiler/code_generator.h"
#include "tiler/model_json.h"
#include "tiler/tile_solver.h"

#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QtTest>

#include <fstream>

using namespace tessera;
using namespace tessera::tiler;
using tessera::studio::StudioWindow;
using tessera::views::TileLayoutView;
using tessera::views::TilingPanel;

namespace {

constexpr int kWaitMs = 10000;
constexpr std::uint32_t kInDb = ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::Tiled;
constexpr std::uint32_t kOutDb = ArgFlag::Out | ArgFlag::DoubleBuffer | ArgFlag::Tiled;

Binding tileOf(const std::string& arg, ArgSelect select = ArgSelect::Tile)
{
    return {Binding::Kind::KernelArg, arg, select, IterationSpace::Tile, 0};
}

UserKernel matAdd()
{
    UserKernel kernel;
    kernel.name = "MatAdd";
    kernel.width = 200;
    kernel.height = 300;
    kernel.order = {IterationSpace::Tile};
    kernel.cargs = {{"int * __restrict__", "In1"}, {"int * __restrict__", "In2"}, {"int * __restrict__", "Out"}};
    kernel.calls = {{"MatSumPar", CallLocation::InnerLoop,
                     {tileOf("In1"), tileOf("In2"), tileOf("Out"), tileOf("In1", ArgSelect::TileWidth),
                      tileOf("In1", ArgSelect::TileHeight)}}};
    kernel.args = {{"In1", kInDb, 200, 300, 4, 0, 0, 0, "In1", 0},
                   {"In2", kInDb, 200, 300, 4, 0, 0, 0, "In2", 0},
                   {"Out", kOutDb, 200, 300, 4, 0, 0, 0, "Out", 0}};
    return kernel;
}

UserKernel matMax()
{
    UserKernel kernel;
    kernel.name = "MatMax";
    kernel.width = 200;
    kernel.height = 300;
    kernel.order = {IterationSpace::Tile};
    kernel.cargs = {{"int * __restrict__", "In"}, {"int * __restrict__", "Out"}};
    kernel.calls = {{"MatMaxPar", CallLocation::InnerLoop,
                     {tileOf("In"), tileOf("TiledOut"), tileOf("In", ArgSelect::TileWidth),
                      tileOf("In", ArgSelect::TileHeight), tileOf("In", ArgSelect::TileIndex)}},
                    {"MatMaxReduce", CallLocation::InnerLoopEpilog,
                     {tileOf("TiledOut"), {Binding::Kind::CArg, "Out", ArgSelect::Tile, IterationSpace::Tile, 0},
                      tileOf("In", ArgSelect::TileCount)}}};
    kernel.args = {{"In", kInDb, 200, 300, 4, 0, 0, 0, "In", 0},
                   {"TiledOut", ArgFlag::Buffer | ArgFlag::Tiled | ArgFlag::DynTile, 1, 300, 4, 0, 0, 0, "", 0}};
    return kernel;
}

// 3 input planes of 128x130 int16, a 5x5 window (overlap 4), 2 output planes.
UserKernel conv5x5()
{
    UserKernel kernel;
    kernel.name = "Conv5x5";
    kernel.dimension = 4;
    kernel.inPlanes = 3;
    kernel.outPlanes = 2;
    kernel.width = 128;
    kernel.height = 130;
    kernel.order = {IterationSpace::OutPlane, IterationSpace::Tile, IterationSpace::InPlane};
    kernel.cargs = {{"short * __restrict__", "In"}, {"short * __restrict__", "Filter"}, {"short * __restrict__", "Out"}};
    kernel.calls = {{"Conv5x5Par", CallLocation::InnerLoop,
                     {tileOf("In"), tileOf("In", ArgSelect::TileWidth), tileOf("In", ArgSelect::TileHeight),
                      tileOf("Filter"), tileOf("Out"), {Binding::Kind::Immediate, "", ArgSelect::Tile, IterationSpace::Tile, 10}}}};
    kernel.args = {{"In", kInDb | ArgFlag::ThreeD, 128, 130, 2, 4, 0, 0, "In", 0},
                   {"Filter", ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::FourD, 5, 5, 2, 0, 0, 0, "Filter", 0},
                   {"Out", kOutDb | ArgFlag::ThreeD, 124, 126, 2, 0, 0, 0, "Out", 0}};
    return kernel;
}

// Column tiles, declared inside a kernel group.
UserKernel scaleColumns()
{
    UserKernel kernel;
    kernel.name = "ScaleColumns";
    kernel.width = 300;
    kernel.height = 200;
    kernel.order = {IterationSpace::Tile};
    kernel.orientation = Orientation::Vertical;
    kernel.cargs = {{"int * __restrict__", "InOut"}};
    kernel.calls = {{"ScalePar", CallLocation::InnerLoop,
                     {tileOf("InOut"), tileOf("InOut", ArgSelect::TileWidth), tileOf("InOut", ArgSelect::TileHeight)}}};
    kernel.args = {{"InOut", kInDb | kOutDb, 300, 200, 4, 0, ArgConstraint::Even, 0, "InOut", 0}};
    kernel.group = "ScaleGroup";
    return kernel;
}

KernelModel guideModel(const QString& folder)
{
    KernelModel model;
    model.options.outputDir = folder.toStdString();
    model.options.l1Size = 51200;
    model.options.libKernelHeaders = {"GuideKernels.h"};
    const CArgument in{"int *", "In"}, in2{"int *", "In2"}, out{"int *", "Out"};
    model.basicKernels = {{"MatSumPar", CallType::Parallel, {in, in2, out, {"unsigned", "W"}, {"unsigned", "H"}}, "MatSum_Arg_T"},
                          {"MatMaxPar", CallType::Parallel, {in, out, {"unsigned", "W"}, {"unsigned", "H"}, {"unsigned", "Tile"}}, "MatMax_Arg_T"},
                          {"MatMaxReduce", CallType::Sequential, {in, out, {"unsigned", "N"}}, ""},
                          {"Conv5x5Par", CallType::Parallel, {{"short *", "In"}, {"unsigned", "W"}, {"unsigned", "H"},
                                                              {"short *", "Filter"}, {"short *", "Out"}, {"unsigned", "Norm"}}, "Conv_Arg_T"},
                          {"ScalePar", CallType::Parallel, {in, {"unsigned", "W"}, {"unsigned", "H"}}, "Scale_Arg_T"}};
    model.userKernels = {matAdd(), matMax(), conv5x5(), scaleColumns()};
    KernelGroup group;
    group.name = "ScaleGroup";
    group.members = {"ScaleColumns"};
    group.cargs = {{"int * __restrict__", "Data"}};
    group.calls = {{"ScaleColumns", CallLocation::Group, {{Binding::Kind::CArg, "Data", ArgSelect::Tile, IterationSpace::Tile, 0}}}};
    group.hasTemplate = true;
    model.groups = {group};
    model.items = {{ModelItem::Kind::UserKernel, 0}, {ModelItem::Kind::UserKernel, 1}, {ModelItem::Kind::UserKernel, 2},
                   {ModelItem::Kind::Group, 0}};
    return model;
}

bool openAndWait(StudioWindow& window, const QString& path)
{
    QSignalSpy shown(window.tilingPanel(), &TilingPanel::tilingShown);
    window.openProject(path); // how the command line, drops and recent files open a .json
    return shown.count() > 0 || shown.wait(kWaitMs);
}

// Moves the budget and waits for the kernels solved at it.
bool budgetShown(const TilingPanel* panel, qint64 bytes)
{
    return QTest::qWaitFor([&] { return panel->shownBudget() == bytes; }, kWaitMs);
}

// Drags the slider's handle by `dx` pixels with the mouse.
void dragSlider(QSlider* slider, int dx)
{
    QStyleOptionSlider option;
    option.initFrom(slider);
    option.orientation = slider->orientation();
    option.minimum = slider->minimum();
    option.maximum = slider->maximum();
    option.sliderPosition = option.sliderValue = slider->value();
    const QPoint start =
        slider->style()->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider).center();
    QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, start);
    for (int k = 1; k <= 5; ++k) {
        const QPoint at(start.x() + dx * k / 5, start.y());
        QMouseEvent move(QEvent::MouseMove, at, slider->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(slider, &move);
    }
    QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, QPoint(start.x() + dx, start.y()));
}

QString writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(bytes);
    return path;
}

} // namespace

class TestStudioTiling : public QObject {
    Q_OBJECT

private:
    QTemporaryDir dir_;
    QString report_;

    static int rowOf(const TilingPanel* panel, const QString& kernel)
    {
        for (int row = 0; row < panel->kernelCount(); ++row)
            if (panel->cell(row, TilingPanel::Kernel) == kernel)
                return row;
        return -1;
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName("Tessera");
        QCoreApplication::setApplicationName("tst_studio_tiling");
        QSettings().clear();
        const GenerationResult result = generateTilingCode(guideModel(dir_.path()));
        QVERIFY2(result.ok, result.error.c_str());
        report_ = dir_.filePath("GenKernels.tiling.json");
        QVERIFY(QFile::exists(report_));
    }

    void reportCarriesTheModel()
    {
        std::ifstream in(report_.toStdString());
        const nlohmann::json report = nlohmann::json::parse(in);
        QVERIFY(report.contains("model"));
        const KernelModel original = guideModel(dir_.path());
        QCOMPARE(report["model"], kernelModelToJson(original));
        const KernelModel read = kernelModelFromJson(report["model"]);
        QCOMPARE(kernelModelToJson(read), kernelModelToJson(original));
        // Straight from memory too, where numbers are signed or unsigned as the C++ fields are.
        QCOMPARE(kernelModelToJson(kernelModelFromJson(kernelModelToJson(original))), kernelModelToJson(original));
        // Spot checks of fields the JSON comparison alone would not prove were read back.
        QCOMPARE(read.options.l1Size, 51200u);
        QCOMPARE(read.options.libKernelHeaders, std::vector<std::string>{"GuideKernels.h"});
        QCOMPARE(read.basicKernels.size(), std::size_t(5));
        QCOMPARE(read.basicKernels[2].callType, CallType::Sequential);
        QCOMPARE(read.basicKernels[3].parallelArgType, std::string("Conv_Arg_T"));
        const UserKernel& conv = read.userKernels[2];
        QCOMPARE(conv.dimension, 4);
        QCOMPARE(conv.inPlanes, 3u);
        QVERIFY(conv.order == original.userKernels[2].order);
        QCOMPARE(conv.args[0].tileOverlap, 4u);
        QCOMPARE(conv.args[1].flags, ArgFlag::In | ArgFlag::DoubleBuffer | ArgFlag::FourD);
        QCOMPARE(conv.calls[0].bindings[5].kind, Binding::Kind::Immediate);
        QCOMPARE(conv.calls[0].bindings[5].value, std::int64_t(10));
        QCOMPARE(read.userKernels[1].calls[1].location, CallLocation::InnerLoopEpilog);
        QCOMPARE(read.userKernels[1].calls[0].bindings[4].select, ArgSelect::TileIndex);
        QCOMPARE(read.userKernels[3].orientation, Orientation::Vertical);
        QCOMPARE(read.userKernels[3].args[0].constraints, ArgConstraint::Even);
        QCOMPARE(read.userKernels[3].group, std::string("ScaleGroup"));
        QCOMPARE(read.groups[0].members, std::vector<std::string>{"ScaleColumns"});
        QVERIFY(read.groups[0].hasTemplate);
        QCOMPARE(read.items[3].kind, ModelItem::Kind::Group);
    }

    void badModelJsonNamesTheField_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative width") << "width" << "-3" << "user_kernels[0].args[0].width: must not be negative";
        QTest::newRow("width too large") << "width" << "1048577" << "user_kernels[0].args[0].width: 1048577 is over the limit";
        QTest::newRow("item over 1 MiB") << "item_size" << "1048577"
                                         << "user_kernels[0].args[0].item_size: 1048577 is over the limit";
        QTest::newRow("height as text") << "height" << "\"tall\"" << "user_kernels[0].args[0].height: expected an unsigned";
        QTest::newRow("unknown flag") << "flags" << "[\"in\", \"sideways\"]" << "args[0].flags[1]: unknown value \"sideways\"";
        QTest::newRow("missing name") << "name" << "" << "user_kernels[0].args[0].name: missing";
        QTest::newRow("kernel pad of 3") << "kernel_pad" << "[1, 1, 1]"
                                         << "user_kernels[0].args[0].kernel_pad: expected 4 integers";
        QTest::newRow("negative kernel pad") << "kernel_pad" << "[1, -1, 0, 0]"
                                             << "user_kernels[0].args[0].kernel_pad[1]: expected an integer from 0";
        // Fields of the kernel itself (the plane loop it may run in chunks).
        QTest::newRow("chunked tile loop") << "kernel.chunkable_planes" << "\"outer_tile\""
                                           << "user_kernels[0].chunkable_planes: must be in_plane, out_plane";
        QTest::newRow("chunk divider 0") << "kernel.chunk_divider" << "0"
                                         << "user_kernels[0].chunk_divider: must be at least 1";
    }
    void badModelJsonNamesTheField()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        nlohmann::json model = kernelModelToJson(guideModel(dir_.path()));
        const bool ofKernel = field.startsWith("kernel.");
        nlohmann::json& object = ofKernel ? model["user_kernels"][0] : model["user_kernels"][0]["args"][0];
        const std::string key = (ofKernel ? field.mid(7) : field).toStdString();
        if (value.isEmpty())
            object.erase(key);
        else
            object[key] = nlohmann::json::parse(value.toStdString());
        try {
            kernelModelFromJson(model);
            QFAIL("no error");
        } catch (const std::runtime_error& error) {
            QVERIFY2(QString(error.what()).contains(expected), error.what());
        }
    }

    // GreenWaves' generators declare a filter plane as one item (Fx*Fy values): a report whose
    // arguments have items of 50 bytes opens and is solved as the solver solves it.
    void itemsOfWholeFilterPlanesOpen()
    {
        nlohmann::json model = kernelModelToJson(guideModel(dir_.path()));
        for (nlohmann::json& arg : model["user_kernels"][0]["args"])
            arg["item_size"] = 50;
        const KernelModel read = kernelModelFromJson(model);
        const nlohmann::json report = {{"model", model}, {"l1_budget", 51200}};
        const QString path = writeFile(dir_.filePath("filter_items.tiling.json"), QByteArray::fromStdString(report.dump()));
        TilingPanel panel;
        QSignalSpy shown(&panel, &TilingPanel::tilingShown);
        QVERIFY(panel.openTilingFile(path));
        QVERIFY(shown.wait(kWaitMs));
        const int row = rowOf(&panel, "MatAdd");
        QVERIFY(row >= 0);
        const TileSolverResult solved = solveTiling(read.userKernels[0], 51200);
        QVERIFY(solved.ok);
        QVERIFY(solved.tiling.tileCount > 30);  // 12.5 times the bytes of 4-byte items: more tiles
        QCOMPARE(panel.cell(row, TilingPanel::Tiles), QString::number(solved.tiling.tileCount));
    }

    void windowListsTheKernels()
    {
        StudioWindow window;
        window.show();
        QSignalSpy planned(&window, &StudioWindow::planShown); // what --screenshot waits for
        QVERIFY(openAndWait(window, report_));
        TilingPanel* panel = window.tilingPanel();
        QCOMPARE(planned.count(), 1);
        QCOMPARE(panel->l1Budget(), qint64(51200));
        QCOMPARE(panel->kernelCount(), 4);
        const KernelModel model = guideModel(dir_.path());
        for (int row = 0; row < 4; ++row) {
            const TileSolverResult direct = solveTiling(model.userKernels[std::size_t(row)], 51200);
            QVERIFY2(direct.ok, direct.error.c_str());
            QCOMPARE(panel->cell(row, TilingPanel::Kernel), QString::fromStdString(model.userKernels[std::size_t(row)].name));
            QCOMPARE(panel->cell(row, TilingPanel::Tiles), QString::number(direct.tiling.tileCount));
        }
        QCOMPARE(panel->cell(0, TilingPanel::Tiles), QString("30"));
        QCOMPARE(panel->cell(0, TilingPanel::L1Used), QString("48 000 B"));
        QCOMPARE(panel->cell(0, TilingPanel::DmaBytes), QString("720 000 B"));
        QVERIFY(panel->message().isEmpty());
        QVERIFY(window.recentFiles().contains(QFileInfo(report_).absoluteFilePath()));
    }

    void matAddTilesAndDoubleBuffers()
    {
        TilingPanel panel;
        QSignalSpy shown(&panel, &TilingPanel::tilingShown);
        QVERIFY(panel.openTilingFile(report_));
        QVERIFY(shown.wait(kWaitMs));
        QVERIFY(panel.selectKernel("MatAdd"));
        const TileLayoutView* view = panel.layoutView();
        QCOMPARE(view->kernelName(), QString("MatAdd"));
        for (const QString arg : {"In1", "In2", "Out"}) {
            QCOMPARE(view->gridLineCount(arg), 29);
            QCOMPARE(view->argument(arg)->overlapBands, 0);
            QVERIFY(!view->argument(arg)->lastTileHighlighted); // 300 lines in 30 tiles of 10
            QVERIFY(view->argument(arg)->toolTip.contains("2 × 8 000 B"));
        }
        QCOMPARE(view->argument("Out")->kind, QString("output"));
        const QList<TileLayoutView::L1Segment> segments = view->l1Segments();
        QCOMPARE(segments.size(), 3);
        const quint64 offsets[] = {0, 16000, 32000};
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(segments[i].offset, offsets[i]);
            QCOMPARE(segments[i].bytes, quint64(16000));
            QCOMPARE(segments[i].bufferSlots, 2);
        }
        QCOMPARE(segments[0].name, QString("In1"));
        QCOMPARE(segments[2].kind, QString("output"));
        QCOMPARE(view->l1Budget(), std::uint64_t(51200));
    }

    // Many thin tiles draw a boundary every few tiles, not a moire of lines a pixel or two apart.
    void thinTilesDrawAThinnedGrid()
    {
        UserKernel kernel = matAdd();
        TileSolverResult solved;
        std::uint64_t budget = 51200;
        for (; budget > 256; budget -= 256) {  // the budget that gives at least 56 tiles
            solved = solveTiling(kernel, budget);
            if (solved.ok && solved.tiling.tileCount >= 56)
                break;
        }
        QVERIFY2(solved.ok && solved.tiling.tileCount >= 56, solved.error.c_str());
        TileLayoutView view;
        view.resize(900, 600);
        view.showTiling(solved.tiling, budget);
        const int tiles = int(solved.tiling.tileCount);
        const TileLayoutView::ArgumentDrawing* in = view.argument("In1");
        QVERIFY(in != nullptr);
        QVERIFY2(in->gridStride > 1, qPrintable(QString::number(tiles)));
        QCOMPARE(in->gridLines, (tiles - 1) / in->gridStride);
        // The boundaries drawn are at least 5 scene pixels apart: 190 px planes.
        QVERIFY(190.0 / tiles * in->gridStride >= 5.0);
        bool noted = false;
        for (QGraphicsItem* item : view.scene()->items())
            if (auto* label = dynamic_cast<QGraphicsSimpleTextItem*>(item))
                noted = noted || label->text().contains(QString("a line every %1 tiles").arg(in->gridStride));
        QVERIFY(noted);
    }

    void scratchOverlapAndColumnTiles()
    {
        TilingPanel panel;
        QSignalSpy shown(&panel, &TilingPanel::tilingShown);
        QVERIFY(panel.openTilingFile(report_));
        QVERIFY(shown.wait(kWaitMs));
        const TileLayoutView* view = panel.layoutView();
        // MatMax: 10 tiles of 31 lines, the last 21; the DynTile buffer is L1-only scratch.
        QVERIFY(panel.selectKernel("MatMax"));
        QCOMPARE(view->gridLineCount("In"), 9);
        QVERIFY(view->argument("In")->lastTileHighlighted);
        QCOMPARE(view->argument("TiledOut")->kind, QString("scratch"));
        QCOMPARE(view->gridLineCount("TiledOut"), 0);
        QCOMPARE(view->l1Segments().last().offset, quint64(49600));
        QCOMPARE(view->l1Segments().last().bytes, quint64(40));
        QCOMPARE(view->l1Segments().last().bufferSlots, 1);
        // The convolution: input tiles share 4 lines, the last tile is short, the filter is promoted.
        QVERIFY(panel.selectKernel("Conv5x5"));
        const TileSolverResult conv = solveTiling(conv5x5(), 51200);
        QVERIFY2(conv.ok, conv.error.c_str());
        const int tiles = int(conv.tiling.tileCount);
        QVERIFY(tiles > 1);
        QVERIFY(conv.tiling.args[0].lastTileSize < conv.tiling.args[0].tileSize);
        QCOMPARE(view->gridLineCount("In"), tiles - 1);
        QCOMPARE(view->argument("In")->overlapBands, tiles - 1);
        QVERIFY(view->argument("In")->lastTileHighlighted);
        QVERIFY(view->argument("In")->toolTip.contains("overlap 4 lines"));
        QCOMPARE(view->gridLineCount("Out"), tiles - 1);
        QCOMPARE(view->argument("Out")->overlapBands, 0);
        QCOMPARE(view->argument("Filter")->kind, QString("promoted"));
        QCOMPARE(view->gridLineCount("Filter"), 0);
        // Column tiles of an argument that is both read and written.
        QVERIFY(panel.selectKernel("ScaleColumns"));
        const TileSolverResult scale = solveTiling(scaleColumns(), 51200);
        QVERIFY(view->argument("InOut")->verticalTiles);
        QCOMPARE(view->argument("InOut")->kind, QString("in-out"));
        QCOMPARE(view->gridLineCount("InOut"), int(scale.tiling.tileCount) - 1);
    }

    void budgetChangesSolveAgain()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, report_));
        TilingPanel* panel = window.tilingPanel();
        QVERIFY(panel->selectKernel("MatAdd"));
        // Dragging the slider to the MatAdd minimum: single buffers of one line.
        panel->budgetSlider()->setValue(2400);
        QCOMPARE(panel->budgetBox()->value(), 2400);
        QVERIFY(budgetShown(panel, 2400));
        QCOMPARE(panel->cell(0, TilingPanel::Tiles), QString("300"));
        QCOMPARE(panel->selectedKernel(), QString("MatAdd"));
        const TileLayoutView* view = panel->layoutView();
        // 300 tiles of one line on a 190-pixel plane: a boundary every 10 tiles, not 299 lines.
        QCOMPARE(view->argument("In1")->gridStride, 10);
        QCOMPARE(view->gridLineCount("In1"), 29);
        for (const TileLayoutView::L1Segment& segment : view->l1Segments())
            QCOMPARE(segment.bufferSlots, 1);
        // Too small for MatAdd: its message instead of a layout, and nothing breaks.
        panel->budgetBox()->setValue(1000);
        QVERIFY(budgetShown(panel, 1000));
        QVERIFY2(panel->message().contains("needs at least 2400 bytes of L1"), qPrintable(panel->message()));
        QVERIFY(view->l1Segments().isEmpty());
        QVERIFY2(view->message().contains("needs at least 2400 bytes of L1"), qPrintable(view->message()));
        QCOMPARE(panel->cell(0, TilingPanel::Tiles), QString("-"));
        QCOMPARE(panel->cell(0, TilingPanel::L1Used), QString("needs 2 400 B"));
        // A burst of budgets: only the last one is shown.
        for (int bytes : {3000, 5000, 20000, 51200})
            panel->setL1Budget(bytes);
        QVERIFY(budgetShown(panel, 51200));
        QCOMPARE(panel->cell(0, TilingPanel::Tiles), QString("30"));
        QVERIFY(panel->message().isEmpty());
        QCOMPARE(view->l1Segments().size(), 3);
        // The keyboard moves the slider a page (1 KiB) at a time; the mouse drags it.
        QTest::keyClick(panel->budgetSlider(), Qt::Key_PageUp);
        QVERIFY(budgetShown(panel, 51200 + 1024));
        dragSlider(panel->budgetSlider(), -panel->budgetSlider()->width() / 8);
        const qint64 dragged = panel->l1Budget();
        QVERIFY2(dragged < 51200, qPrintable(QString::number(dragged)));
        QVERIFY(budgetShown(panel, dragged));
        QCOMPARE(panel->cell(0, TilingPanel::Tiles),
                 QString::number(solveTiling(matAdd(), std::uint64_t(dragged)).tiling.tileCount));
    }

    void brokenFilesShowErrors_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing") << "missing.tiling.json" << QByteArray() << "does not exist";
        QTest::newRow("corrupt") << "corrupt.tiling.json" << QByteArray("{\"kernels\": [1, 2") << "corrupt JSON";
        QTest::newRow("no model") << "old.tiling.json" << QByteArray("{\"kernels\": []}") << "no \"model\" section";
        QTest::newRow("bad model") << "bad.tiling.json"
                                   << QByteArray("{\"model\": {\"user_kernels\": [{\"name\": \"K\", \"width\": 4, "
                                                 "\"height\": 4, \"args\": [{\"name\": \"A\", \"width\": 4}]}]}}")
                                   << "user_kernels[0].args[0].height: missing";
        // Every field in range, yet no model the tiler can take: checkModel's messages, one per line.
        QTest::newRow("unsolvable model")
            << "huge.tiling.json"
            << QByteArray("{\"model\": {\"user_kernels\": [{\"name\": \"K\", \"width\": 4, \"height\": 4, "
                          "\"args\": [{\"name\": \"A\", \"flags\": [\"in\"], \"width\": 1048576, "
                          "\"height\": 1048576, \"item_size\": 1048576}], \"calls\": [{\"callee\": \"Nowhere\"}]}]}}")
            << "its model cannot be solved again:\n  ";
    }
    void brokenFilesShowErrors()
    {
        QFETCH(QString, name);
        QFETCH(QByteArray, contents);
        QFETCH(QString, expected);
        const QString path = contents.isEmpty() ? dir_.filePath(name) : writeFile(dir_.filePath(name), contents);
        StudioWindow window;
        QVERIFY(openAndWait(window, report_));
        QSignalSpy errors(window.tilingPanel(), &TilingPanel::errorShown);
        QVERIFY(!window.openTilingReport(path));
        QCOMPARE(errors.count(), 1);
        const QString message = errors.front().front().toString();
        QVERIFY2(message.contains(name) && message.contains(expected), qPrintable(message));
        QCOMPARE(window.lastError(), message);
        // What was shown before stays.
        QCOMPARE(window.tilingPanel()->kernelCount(), 4);
        QCOMPARE(window.tilingPanel()->filePath(), report_);
    }
};

QTEST_MAIN(TestStudioTiling)
#include "tst_studio_tiling.moc"
