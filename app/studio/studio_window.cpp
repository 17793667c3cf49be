#include "studio_window.h"

#include "aie_view.h"
#include "graph_view.h"
#include "memory_timeline.h"
#include "scamp_view.h"
#include "scamp_workbench.h"
#include "step_table_model.h"
#include "tiling_panel.h"

#include "aie/split_planner.h"
#include "session/model_stats.h"
#include "session/project.h"
#include "target/chip_table.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace tessera::studio {

namespace {

constexpr int kDebounceMs = 30;
constexpr int kRecentFiles = 8;
const char* const kRecentKey = "recentFiles";

// Runs `job` on the thread pool and calls `done` with its result on the GUI thread.
template <class Result, class Job, class Done> void runInBackground(QObject* owner, Job job, Done done)
{
    auto* watcher = new QFutureWatcher<Result>(owner);
    QObject::connect(watcher, &QFutureWatcher<Result>::finished, owner, [watcher, done]() {
        done(watcher->result());
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run(std::move(job)));
}

QString kib(qint64 bytes) { return QString::number(double(bytes) / 1024.0, 'f', 1) + " KiB"; }

} // namespace

StudioWindow::StudioWindow(QWidget* parent) : QMainWindow(parent)
{
    setWindowTitle("Tessera Studio");
    setAcceptDrops(true);
    graphView_ = new views::GraphView(this);
    setCentralWidget(graphView_);
    planTimer_ = new QTimer(this);
    planTimer_->setSingleShot(true);
    planTimer_->setInterval(kDebounceMs);
    connect(planTimer_, &QTimer::timeout, this, &StudioWindow::startPlan);
    buildBudgetBar();
    buildDocks();
    buildMenus();
    statusLabel_ = new QLabel("Open an ONNX model (Ctrl+O) or drop one here.", this);
    statusBar()->addWidget(statusLabel_, 1);
    connect(graphView_, &views::GraphView::nodeSelected, this, &StudioWindow::showNodeProperties);
    connect(timeline_, &views::MemoryTimeline::budgetDragged, this, [this](qint64 bytes) {
        l2Box_->blockSignals(true);
        l2Box_->setValue(int(bytes / 1024));
        l2Box_->blockSignals(false);
        requestPlan();
    });
    connect(timeline_, &views::MemoryTimeline::budgetChanged, this, [this](qint64 bytes) { setL2Budget(bytes); });
    connect(timeline_, &views::MemoryTimeline::tensorSelected, this, &StudioWindow::selectTensor);
    applyTargetDefaults();
    resize(1400, 900);
    // Graph in the middle, the timeline a third of the width, the tables a quarter of the height.
    resizeDocks({findChild<QDockWidget*>("timeline")}, {520}, Qt::Horizontal);
    resizeDocks({findChild<QDockWidget*>("properties")}, {260}, Qt::Horizontal);
    resizeDocks({findChild<QDockWidget*>("steps")}, {230}, Qt::Vertical);
}

StudioWindow::~StudioWindow() = default;

void StudioWindow::buildBudgetBar()
{
    QToolBar* bar = addToolBar("Budgets");
    bar->setObjectName("budgets");
    bar->addWidget(new QLabel(" Target ", bar));
    targetBox_ = new QComboBox(bar);
    for (const target::ChipDescription& chip : target::chips())
        targetBox_->addItem(QString::fromStdString(chip.displayName), QString::fromStdString(chip.name));
    bar->addWidget(targetBox_);
    // A budget in KiB, with its label.
    const auto budgetBox = [bar](const QString& label, int minimum, int maximum, const QString& tip) {
        bar->addWidget(new QLabel(label, bar));
        auto* box = new QSpinBox(bar);
        box->setSuffix(" KiB");
        box->setRange(minimum, maximum);
        box->setToolTip(tip);
        bar->addWidget(box);
        return box;
    };
    l1Box_ = budgetBox("  L1 ", 1, 1 << 12, "L1 (shared cluster memory) for the GAP export's tiling");
    l2Box_ = budgetBox("  L2 budget ", 1, 1 << 20, "L2 for the graph's tensors (drag the red line in the timeline)");
    l3Box_ = budgetBox("  L3 RAM ", 1, 1 << 22, "L3 RAM for the tensors that do not fit L2");
    flashBox_ = budgetBox("  Flash ", 1, 1 << 22, "L3 flash holding the constants that do not stay in L2 or L3 RAM");
    bar->addSeparator();
    findEdit_ = new QLineEdit(bar);
    findEdit_->setPlaceholderText("Find node (Ctrl+F)");
    findEdit_->setMaximumWidth(220);
    bar->addWidget(findEdit_);
    connect(findEdit_, &QLineEdit::returnPressed, this, [this] {
        if (!graphView_->findNext(findEdit_->text()))
            statusBar()->showMessage("no node matches '" + findEdit_->text() + "'", 3000);
    });
    connect(targetBox_, &QComboBox::currentIndexChanged, this, [this] {
        applyTargetDefaults();
        requestPlan();
    });
    connect(l2Box_, &QSpinBox::valueChanged, this, [this] {
        timeline_->setBudget(l2Budget());
        requestPlan();
    });
    connect(l3Box_, &QSpinBox::valueChanged, this, &StudioWindow::requestPlan);
    connect(flashBox_, &QSpinBox::valueChanged, this, &StudioWindow::requestPlan);
}

void StudioWindow::buildDocks()
{
    timeline_ = new views::MemoryTimeline(this);
    auto* timelineDock = new QDockWidget("Memory timeline", this);
    timelineDock->setObjectName("timeline");
    timelineDock->setWidget(timeline_);
    addDockWidget(Qt::RightDockWidgetArea, timelineDock);

    stepModel_ = new views::StepTableModel(this);
    stepProxy_ = new QSortFilterProxyModel(this);
    stepProxy_->setSourceModel(stepModel_);
    stepTable_ = new QTableView(this);
    stepTable_->setModel(stepProxy_);
    stepTable_->setSortingEnabled(true);
    stepTable_->sortByColumn(views::StepTableModel::Step, Qt::AscendingOrder);
    stepTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    stepTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    stepTable_->horizontalHeader()->setStretchLastSection(true);
    stepTable_->verticalHeader()->hide();
    auto* tableDock = new QDockWidget("Steps", this);
    tableDock->setObjectName("steps");
    tableDock->setWidget(stepTable_);
    addDockWidget(Qt::BottomDockWidgetArea, tableDock);
    connect(stepTable_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
        if (!current.isValid())
            return;
        const int node = stepProxy_->mapToSource(current).row();
        if (graphView_->selectedNode() != node)
            graphView_->selectNode(node);
    });

    aieView_ = new views::AieView(this);
    addTabBehind(tableDock, "AI Engine", "aie", aieView_);
    connect(aieView_, &views::AieView::architectureChanged, this, &StudioWindow::replanAie);

    tilingPanel_ = new views::TilingPanel(this);
    addTabBehind(tableDock, "Tiling", "tiling", tilingPanel_);
    connect(tilingPanel_, &views::TilingPanel::errorShown, this,
            [this](const QString& message) { showError("Cannot open tiling report", message); });
    // --screenshot waits for planShown: the first tiling of an opened report counts as the shown plan.
    connect(tilingPanel_, &views::TilingPanel::tilingShown, this, [this] {
        if (std::exchange(tilingReportOpening_, false))
            emit planShown();
    });

    scampView_ = new views::ScampView(this);
    scampWorkbench_ = new ScampWorkbench(scampView_, this);
    addTabBehind(tableDock, "SCAMP-5", "scamp", scampView_);
    connect(scampWorkbench_, &ScampWorkbench::kernelsOpened, this, [this](const QString& path) {
        rememberRecent(path);
        statusLabel_->setText("SCAMP-5 kernels " + QFileInfo(path).fileName() +
                              ": compiling by reverse search; select a step to see the register planes");
    });
    // --screenshot waits for planShown: a kernels file opened from the command line counts once
    // its search has finished.
    connect(scampWorkbench_, &ScampWorkbench::searchFinished, this, [this] {
        if (std::exchange(scampKernelsOpening_, false))
            emit planShown();
    });

    properties_ = new QTextBrowser(this);
    auto* propertiesDock = new QDockWidget("Properties", this);
    propertiesDock->setObjectName("properties");
    propertiesDock->setWidget(properties_);
    addDockWidget(Qt::LeftDockWidgetArea, propertiesDock);
}

void StudioWindow::addTabBehind(QDockWidget* front, const QString& title, const QString& name, QWidget* widget)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(widget);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(front, dock);
    front->raise();
}

void StudioWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction("&Open model...", QKeySequence::Open, this, &StudioWindow::openFileDialog);
    file->addAction("Open &project...", QKeySequence("Ctrl+Shift+O"), this, &StudioWindow::openProjectDialog);
    file->addAction("Open &tiling report...", QKeySequence("Ctrl+Shift+T"), this, &StudioWindow::openTilingDialog);
    file->addAction("Open SCAMP-5 &kernels...", QKeySequence("Ctrl+K"), this, &StudioWindow::openScampDialog);
    recentMenu_ = file->addMenu("Open &recent");
    rebuildRecentMenu();
    file->addAction("&Save project...", QKeySequence::Save, this, &StudioWindow::saveProjectDialog);
    file->addAction("&Export step table as CSV...", QKeySequence("Ctrl+E"), this, &StudioWindow::exportStepTable);
    file->addAction("Export &GAP project...", QKeySequence("Ctrl+Shift+E"), this,
                    &StudioWindow::exportGapProjectDialog);
    file->addSeparator();
    file->addAction("&Quit", QKeySequence::Quit, this, &QWidget::close);
    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Find node", QKeySequence::Find, this, [this] {
        findEdit_->setFocus();
        findEdit_->selectAll();
    });
    view->addAction("&Fit graph", QKeySequence("Ctrl+0"), graphView_, &views::GraphView::fitAll);
    view->addAction("&Next step", QKeySequence("Alt+Down"), this, [this] { stepBy(1); });
    view->addAction("&Previous step", QKeySequence("Alt+Up"), this, [this] { stepBy(-1); });
    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&Keyboard shortcuts", QKeySequence::HelpContents, this, &StudioWindow::showShortcuts);
}

// The chip's default budgets (core/target/chip_table.h), the command line's defaults too.
void StudioWindow::applyTargetDefaults()
{
    const target::Budgets defaults = target::chip(target().toStdString()).defaultBudgets();
    const qint64 l2 = pendingL2_.value_or(qint64(defaults.l2));
    const std::initializer_list<QSpinBox*> boxes{l1Box_, l2Box_, l3Box_, flashBox_};
    for (QSpinBox* box : boxes)
        box->blockSignals(true);
    l1Box_->setValue(int(defaults.l1 / 1024));
    l2Box_->setValue(int(l2 / 1024));
    l3Box_->setValue(int(defaults.l3 / 1024));
    flashBox_->setValue(int(defaults.flash / 1024));
    for (QSpinBox* box : boxes)
        box->blockSignals(false);
    timeline_->setBudget(l2Budget());
}

QString StudioWindow::target() const { return targetBox_->currentData().toString(); }

qint64 StudioWindow::l2Budget() const { return qint64(l2Box_->value()) * 1024; }

Budgets StudioWindow::budgets() const
{
    return {qint64(l1Box_->value()) * 1024, l2Budget(), qint64(l3Box_->value()) * 1024,
            qint64(flashBox_->value()) * 1024};
}

void StudioWindow::setBudgets(const Budgets& budgets)
{
    l1Box_->setValue(int(std::max<qint64>(1, budgets.l1 / 1024)));
    l3Box_->setValue(int(budgets.l3 / 1024));
    flashBox_->setValue(int(std::max<qint64>(1, budgets.flash / 1024)));
    setL2Budget(budgets.l2);
}

void StudioWindow::setTarget(const QString& target)
{
    const int index = targetBox_->findData(target.toLower());
    if (index >= 0)
        targetBox_->setCurrentIndex(index);
}

void StudioWindow::setL2Budget(qint64 bytes)
{
    l2Box_->setValue(int(std::max<qint64>(1, bytes / 1024)));
    requestPlan();
}

void StudioWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    statusLabel_->setText(title + ": " + message);
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit errorShown(message);
}

void StudioWindow::openModel(const QString& path)
{
    statusLabel_->setText("Loading " + path + " ...");
    runInBackground<LoadedModel>(this, [path] { return loadModelJob(path); },
                                 [this, path](const LoadedModel& loaded) { onModelLoaded(path, loaded); });
}

void StudioWindow::onModelLoaded(const QString& path, const LoadedModel& loaded)
{
    if (!loaded.session) {
        showError("Cannot open model", loaded.error);
        return;
    }
    // The old model's view goes before the model: nothing shown may point at a graph replaced.
    graphView_->clear();
    session_ = loaded.session;
    graph_ = session_->sharedGraph();
    planSymbols_ = {};
    modelPath_ = path;
    rememberRecent(path);
    plan_.reset();
    gapPlan_.reset();
    smallestL2_ = 0;
    gapTiling_.reset();
    lastError_.clear();
    setWindowTitle("Tessera Studio - " + QFileInfo(path).fileName());
    stepModel_->setStats(computeModelStats(*graph_));
    replanAie();
    timeline_->clear();
    statusLabel_->setText("Laying out " + QString::number(graph_->nodeCount()) + " nodes ...");
    const BoxSizer sizer = graphView_->boxSizer(*graph_);
    std::shared_ptr<const Graph> graph = graph_;
    runInBackground<LaidOutModel>(this, [graph, sizer] { return layoutJob(graph, sizer); },
                                  [this, graph](const LaidOutModel& laidOut) {
                                      if (graph == graph_) // a newer model may have been opened meanwhile
                                          onLayoutDone(laidOut);
                                  });
    pendingL2_.reset();
    requestPlan();
}

void StudioWindow::onLayoutDone(const LaidOutModel& laidOut)
{
    if (!laidOut.layout) {
        showError("Cannot lay out the graph", laidOut.error);
        return;
    }
    graphView_->showGraph(graph_, *laidOut.layout);
    emit modelShown();
}

void StudioWindow::requestPlan()
{
    if (graph_)
        planTimer_->start();
}

void StudioWindow::startPlan()
{
    if (!graph_)
        return;
    const quint64 generation = ++planGeneration_;
    if (!plan_)
        statusLabel_->setText("Preparing " + QFileInfo(modelPath_).fileName() + " for " + target().toUpper() +
                              " (lowering, calibration, quantization) ...");
    runInBackground<PlanOutcome>(this, [session = session_, choices = sessionChoices(target(), budgets())] {
        return planJob(session, choices);
    }, [this, generation](const PlanOutcome& outcome) { onPlanDone(generation, outcome); });
}

void StudioWindow::onPlanDone(quint64 generation, const PlanOutcome& outcome)
{
    if (generation != planGeneration_)
        return; // superseded by a newer budget
    lastPlanMs_ = outcome.milliseconds;
    shownPlanBudget_ = outcome.l2Budget;
    smallestL2_ = outcome.smallestL2;
    planSymbols_ = {outcome.modelTensorOf, outcome.symbolsOf};
    if (!outcome.plan) {
        plan_.reset();
        gapPlan_.reset();
        planStatus_ = "no plan at L2 " + kib(outcome.l2Budget) + ": " + outcome.error;
        timeline_->showProblem(outcome.error, outcome.l2Budget);
        statusLabel_->setText(planStatus_);
        emit planShown();
        return;
    }
    const HierarchyPlan& plan = *outcome.plan;
    QString change;
    if (plan_) {
        const auto delta = [](qint64 now, qint64 before) { return (now >= before ? "+" : "") + QString::number(now - before); };
        change = QString("; change: %1 in L3, %2 promoted, L3 traffic %3 B")
                     .arg(delta(qint64(plan.spilledTensors), qint64(plan_->spilledTensors)),
                          delta(qint64(plan.promotedConstants), qint64(plan_->promotedConstants)),
                          delta(plan.l3TrafficBytes, plan_->l3TrafficBytes));
    }
    plan_ = plan;
    gapPlan_ = outcome.gapPlan;
    const tiler::GraphAllocation& allocation = gapPlan_->allocation();
    planStatus_ = QString("%1 on %2: L2 %3 of %4 (%5 constants, %6 between layers; lower bound %7), L3 RAM %8, "
                          "%9 constants promoted, %10 prefetched, L3 traffic %11 per inference; planned in %12 ms%13")
                      .arg(QString::fromStdString(graph_->name),
                           target().toUpper(), kib(plan.l2.peak), kib(outcome.l2Budget),
                           kib(qint64(allocation.l2Static)), kib(qint64(allocation.l2Dynamic)),
                           kib(plan.l2.lowerBound), kib(plan.l3RamBytes))
                      .arg(plan.promotedConstants)
                      .arg(plan.prefetchedConstants)
                      .arg(kib(plan.l3TrafficBytes))
                      .arg(outcome.milliseconds, 0, 'f', 1)
                      .arg(change);
    timeline_->showPlan(plan, outcome.l2Budget);
    statusLabel_->setText(planStatus_);
    emit planShown();
}

// The GAP layer the node went into at the last export, and how it was tiled.
QString StudioWindow::gapTilingHtml(const QString& node)
{
    if (!gapTiling_)
        return "<p><b>GAP tiling</b><br>File &gt; Export GAP project tiles the model for the target and budgets shown.</p>";
    const auto layer = gapTiling_->layerOfNode.constFind(node);
    QString html = QString("<p><b>GAP tiling</b> (export to %1 at L1 %2, L2 %3)<br>")
                       .arg(gapTiling_->folder.toHtmlEscaped(), kib(gapTilingBudgets_.l1), kib(gapTilingBudgets_.l2));
    if (layer == gapTiling_->layerOfNode.constEnd())
        return html + "no GAP layer of its own: a view (reshape, flatten) or folded into a neighbour's constants</p>";
    const QStringList fused = gapTiling_->nodesOfLayer.value(*layer);
    html += QString("layer %1").arg(layer->toHtmlEscaped());
    if (fused.size() > 1)
        html += QString(" (fuses %1)").arg(fused.join(", ").toHtmlEscaped());
    html += "<br>" + gapTiling_->layerFigures.value(*layer, "no figures in the generation report").toHtmlEscaped() +
            "</p>";
    return html;
}

QString StudioWindow::propertiesText() const { return properties_->toPlainText(); }

QString StudioWindow::planStatus() const { return planStatus_; }

// The AI Engine split plan takes microseconds, so it is recomputed directly.
void StudioWindow::replanAie()
{
    if (!graph_) {
        aieView_->clear();
        return;
    }
    try {
        aieView_->showPlan(aie::planSplits(*graph_, aieView_->architecture()));
    } catch (const std::exception& error) {
        aieView_->showProblem(QString::fromStdString(error.what()));
    }
}

void StudioWindow::showNodeProperties(int node)
{
    if (!graph_ || node < 0 || node >= int(graph_->nodeCount())) {
        properties_->clear();
        return;
    }
    const Node& n = graph_->node(node);
    QString html = QString("<h3>%1</h3><p><b>%2</b></p>").arg(QString::fromStdString(n.name).toHtmlEscaped(),
                                                              QString::fromStdString(n.opType));
    const NodeStats& stats = stepModel_->stats().nodes.at(size_t(node));
    html += QString("<p>MACs %1<br>parameters %2 (%3 bytes)<br>live activations %4</p>")
                .arg(stats.macs)
                .arg(stats.parameters)
                .arg(stats.parameterBytes)
                .arg(kib(stats.liveActivationBytes));
    if (!n.attributes.empty()) {
        html += "<p><b>attributes</b><br>";
        for (const auto& [key, value] : n.attributes)
            html += QString::fromStdString(key + " = " + value.toString()).toHtmlEscaped() + "<br>";
        html += "</p>";
    }
    auto tensorRows = [&](const std::vector<TensorId>& ids, const char* title) {
        html += QString("<p><b>%1</b><br>").arg(title);
        for (TensorId id : ids) {
            if (id == kNoTensor)
                continue;
            const Tensor& t = graph_->tensor(id);
            html += QString("%1: %2 %3, %4 bytes%5<br>")
                        .arg(QString::fromStdString(t.name).toHtmlEscaped(),
                             QString::fromStdString(std::string(dtypeName(t.dtype))),
                             QString::fromStdString(shapeToString(t.shape)))
                        .arg(t.bytes())
                        .arg(t.isConstant() ? " (constant)" : "");
            const QStringList symbols = planSymbols_.symbolsOf.values(QString::fromStdString(t.name));
            if (plan_)
                for (const TensorPlacement& p : plan_->placements)
                    if (symbols.contains(QString::fromStdString(p.tensor)))
                        html += QString("&nbsp;&nbsp;&rarr; %1 at %2 (%3): %4<br>")
                                    .arg(QString::fromStdString(p.level))
                                    .arg(p.offset)
                                    .arg(QString::fromStdString(placementKindName(p.kind)),
                                         QString::fromStdString(p.reason).toHtmlEscaped());
        }
        html += "</p>";
    };
    tensorRows(n.inputs, "inputs");
    tensorRows(n.outputs, "outputs");
    html += gapTilingHtml(QString::fromStdString(n.name));
    properties_->setHtml(html);
    if (gapTiling_) // the Tiling dock follows to the node's GAP kernel
        if (const QString layer = gapTiling_->layerOfNode.value(QString::fromStdString(n.name)); !layer.isEmpty())
            tilingPanel_->selectKernel(layer);
    const QModelIndex row = stepProxy_->mapFromSource(stepModel_->index(node, 0));
    if (stepTable_->currentIndex().row() != row.row())
        stepTable_->setCurrentIndex(row);
}

// `name` is a symbol of the deployed graph (the timeline's) or an ONNX tensor.
void StudioWindow::selectTensor(const QString& name)
{
    timeline_->selectTensor(name);
    graphView_->selectTensor(modelTensorOf(name));
}

void StudioWindow::stepBy(int delta)
{
    if (!graph_ || graph_->nodeCount() == 0)
        return;
    const int count = int(graph_->nodeCount());
    const int current = graphView_->selectedNode();
    graphView_->selectNode(((current < 0 ? (delta > 0 ? -1 : 0) : current) + delta + count) % count);
}

void StudioWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void StudioWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    const QString path = urls.front().toLocalFile();
    if (path.endsWith(".json", Qt::CaseInsensitive))
        openProject(path);
    else
        openModel(path);
}

void StudioWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open model", {}, "ONNX models (*.onnx);;All files (*)");
    if (!path.isEmpty())
        openModel(path);
}

void StudioWindow::openProjectDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        openProject(path);
}

void StudioWindow::openTilingDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, "Open tiling report", {}, "Autotiler tiling (*.tiling.json)");
    if (!path.isEmpty())
        openTilingReport(path);
}

void StudioWindow::openScampDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open SCAMP-5 kernels", {}, "Kernels (*.json)");
    if (!path.isEmpty())
        openScampKernels(path);
}

bool StudioWindow::openScampKernels(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("scamp");
    dock->show();
    dock->raise();
    if (!scampWorkbench_->openKernels(path)) {
        showError("Cannot open SCAMP-5 kernels", scampView_->message());
        return false;
    }
    if (!graph_) // nothing else to look at: give the trace room
        resizeDocks({dock}, {height() * 2 / 3}, Qt::Vertical);
    scampKernelsOpening_ = true;
    scampWorkbench_->run();
    return true;
}

bool StudioWindow::openTilingReport(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("tiling");
    dock->show();
    dock->raise();
    tilingReportOpening_ = true;
    if (!tilingPanel_->openTilingFile(path)) {
        tilingReportOpening_ = false;
        return false;
    }
    rememberRecent(path);
    if (!graph_) // nothing else to look at: give the tiles room
        resizeDocks({dock}, {height() / 2}, Qt::Vertical);
    statusLabel_->setText("Tiling report " + QFileInfo(path).fileName() +
                          ": drag the L1 budget to solve its kernels again");
    return true;
}

void StudioWindow::saveProjectDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, "Save project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        saveProject(path);
}

void StudioWindow::openProject(const QString& path)
{
    // Tiling reports are JSON too; the command line, drops and recent files all come here.
    if (path.endsWith(".tiling.json", Qt::CaseInsensitive)) {
        openTilingReport(path);
        return;
    }
    if (ScampWorkbench::isKernelsFile(path)) {
        openScampKernels(path);
        return;
    }
    try {
        const Project project = loadProject(path.toStdString());
        pendingL2_ = project.l2Budget > 0 ? std::optional<qint64>(project.l2Budget) : std::nullopt;
        setTarget(QString::fromStdString(project.target));
        applyTargetDefaults();
        if (project.l3Budget)
            l3Box_->setValue(int(*project.l3Budget / 1024));
        if (project.l1Budget)
            l1Box_->setValue(int(*project.l1Budget / 1024));
        if (project.flashBudget)
            flashBox_->setValue(int(*project.flashBudget / 1024));
        openModel(QString::fromStdString(project.modelPath));
    } catch (const std::exception& error) {
        showError("Cannot open project", QString::fromStdString(error.what()));
    }
}

bool StudioWindow::saveProject(const QString& path)
{
    if (modelPath_.isEmpty()) {
        showError("Cannot save project", "open a model first");
        return false;
    }
    Project project;
    project.modelPath = QFileInfo(modelPath_).absoluteFilePath().toStdString();
    project.target = target().toStdString();
    project.l2Budget = l2Budget();
    project.l3Budget = budgets().l3;
    project.l1Budget = budgets().l1;
    project.flashBudget = budgets().flash;
    try {
        tessera::saveProject(project, path.toStdString());
    } catch (const std::exception& error) {
        showError("Cannot save project", QString::fromStdString(error.what()));
        return false;
    }
    statusBar()->showMessage("saved " + path, 3000);
    return true;
}

void StudioWindow::exportGapProjectDialog()
{
    if (!graph_) {
        showError("Export GAP project", "open a model first (File > Open model)");
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, "Folder for the GAP project");
    if (!folder.isEmpty())
        exportGapProject(folder);
}

void StudioWindow::exportGapProject(const QString& folder)
{
    if (!graph_) {
        showError("Export GAP project", "open a model first (File > Open model)");
        return;
    }
    statusLabel_->setText("Compiling " + QFileInfo(modelPath_).fileName() + " for " + target().toUpper() + "...");
    runInBackground<ExportOutcome>(
        this, [session = session_, choices = sessionChoices(target(), budgets()), folder] {
            return exportGapProjectJob(session, choices, folder);
        },
        [this, graph = graph_, budgets = budgets()](const ExportOutcome& outcome) {
            if (!outcome.error.isEmpty()) {
                showError("Export GAP project", outcome.error);
                return;
            }
            if (graph == graph_) { // the model was not replaced meanwhile
                gapTiling_ = outcome;
                gapTilingBudgets_ = budgets;
                if (graphView_->selectedNode() >= 0)
                    showNodeProperties(graphView_->selectedNode());
            }
            openTilingReport(outcome.tilingReport);  // the kernels as tiled for this project
            statusLabel_->setText(outcome.summary);
            emit projectExported(outcome.folder);
        });
}

void StudioWindow::exportStepTable()
{
    const QString path = QFileDialog::getSaveFileName(this, "Export step table", {}, "CSV (*.csv)");
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(stepModel_->toCsv().toUtf8()) < 0 || !file.commit())
        showError("Cannot export", path + ": " + file.errorString());
}

QStringList StudioWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void StudioWindow::rememberRecent(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void StudioWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (const QString& file : files)
        recentMenu_->addAction(QFileInfo(file).fileName(), this, [this, file] {
            if (file.endsWith(".json", Qt::CaseInsensitive))
                openProject(file);
            else
                openModel(file);
        })->setToolTip(file);
    recentMenu_->setEnabled(!files.isEmpty());
}

void StudioWindow::showShortcuts()
{
    QMessageBox::information(this, "Keyboard shortcuts",
                             "Ctrl+O  open model\nCtrl+Shift+O  open project\nCtrl+Shift+T  open tiling report\n"
                             "Ctrl+K  open SCAMP-5 kernels\n"
                             "Ctrl+S  save project\n"
                             "Ctrl+E  export step table\nCtrl+Shift+E  export GAP project\nCtrl+F  find node\n"
                             "Ctrl+0  fit graph\n"
                             "Alt+Down / Alt+Up  next / previous step\nF1  this list\n\n"
                             "Drag the red L2 budget line in the memory timeline to re-plan.\n"
                             "In the SCAMP-5 trace, Up / Down step through the program.");
}

} // namespace tessera::studio
