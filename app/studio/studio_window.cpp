#include "studio_window.h"
#include "studio_support.h"

#include "aie_view.h"
#include "cbuf_banks_view.h"
#include "graph_view.h"
#include "loadable_inspector_view.h"
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
#include <QTableWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace tessera::studio {

namespace {

constexpr int kDebounceMs = 30;

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

StudioWindow::~StudioWindow()
{
    graphView_->clear();  // its share of the model goes with the rest
    releaseInBackground(std::move(session_), std::move(gapPlan_), std::move(gapTiling_), std::move(graph_));
}

void StudioWindow::buildBudgetBar()
{
    QToolBar* bar = addToolBar("Budgets");
    bar->setObjectName("budgets");
    bar->addWidget(new QLabel(" Target ", bar));
    targetBox_ = new QComboBox(bar);
    for (const target::ChipDescription& chip : target::chips())
        targetBox_->addItem(QString::fromStdString(chip.displayName), QString::fromStdString(chip.name));
    for (const NvdlaTargetEntry& entry : nvdlaTargets())
        targetBox_->addItem(entry.displayName, entry.name);
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
    // The ranges a project file may hold (session/project.h), in KiB.
    l1Box_ = budgetBox("  L1 ", 1, int(kProjectLargestL1 / 1024), "L1 (shared cluster memory) for the GAP export's tiling");
    l2Box_ = budgetBox("  L2 budget ", 1, int(kProjectLargestL2 / 1024),
                       "L2 for the graph's tensors (drag the red line in the timeline)");
    l3Box_ = budgetBox("  L3 RAM ", 1, int(kProjectLargestL3 / 1024), "L3 RAM for the tensors that do not fit L2");
    flashBox_ = budgetBox("  Flash ", 1, int(kProjectLargestFlash / 1024),
                          "L3 flash holding the constants that do not stay in L2 or L3 RAM");
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
    cbufView_ = new views::CbufBanksView(this);
    auto* timelineArea = new QWidget(this);
    auto* timelineLayout = new QVBoxLayout(timelineArea);
    timelineLayout->setContentsMargins(0, 0, 0, 0);
    timelineLayout->addWidget(timeline_, 1);
    timelineLayout->addWidget(cbufView_);
    auto* timelineDock = new QDockWidget("Memory timeline", this);
    timelineDock->setObjectName("timeline");
    timelineDock->setWidget(timelineArea);
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

    capabilityTable_ = buildCapabilityTable();
    addTabBehind(tableDock, "Capability", "capability", capabilityTable_);
    simulationTable_ = buildSimulationTable();
    addTabBehind(tableDock, "Simulation", "simulation", simulationTable_);

    loadableView_ = new views::LoadableInspectorView(this);
    addTabBehind(tableDock, "NVDLA loadable", "nvdla", loadableView_);

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
    file->addAction("Export &NVDLA project...", QKeySequence("Ctrl+Shift+N"), this,
                    &StudioWindow::exportNvdlaProjectDialog);
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
    QMenu* run = menuBar()->addMenu("&Run");
    run->addAction("&Simulate on NVDLA", QKeySequence("Ctrl+R"), this, [this] { simulateNvdla(); });
    run->addAction("Simulate on NVDLA with &input file...", QKeySequence("Ctrl+Shift+R"), this,
                   &StudioWindow::simulateNvdlaOnFileDialog);
    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&Keyboard shortcuts", QKeySequence::HelpContents, this, &StudioWindow::showShortcuts);
}

// The chip's default budgets (core/target/chip_table.h), the command line's defaults too.
void StudioWindow::applyTargetDefaults()
{
    // NVDLA keeps everything in DRAM: the GAP budgets do not apply.
    const bool nvdla = parseNvdlaTarget(target()).has_value();
    for (QSpinBox* box : {l1Box_, l2Box_, l3Box_, flashBox_})
        box->setEnabled(!nvdla);
    if (nvdla)
        return;
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
QString StudioWindow::statusText() const { return statusLabel_->text(); }

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

} // namespace tessera::studio
