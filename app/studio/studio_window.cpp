#include "studio_window.h"
#include "studio_support.h"

#include "aie_view.h"
#include "budget_sweep_view.h"
#include "byte_size_spin_box.h"
#include "cbuf_banks_view.h"
#include "graph_view.h"
#include "loadable_inspector_view.h"
#include "memory_timeline.h"
#include "plan_comparison_view.h"
#include "scamp_view.h"
#include "scamp_workbench.h"
#include "step_table_model.h"
#include "tiling_panel.h"
#include "welcome_page.h"

#include "aie/split_planner.h"
#include "session/model_stats.h"
#include "session/project.h"
#include "target/chip_table.h"
#include "zoo/zoo.h"

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
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStackedWidget>
#include <QTableWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>
#include <QToolBar>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace tessera::studio {

namespace {

constexpr int kDebounceMs = 30;
const char* const kLeftToRightKey = "graph/leftToRight";

} // namespace

StudioWindow::StudioWindow(QWidget* parent) : QMainWindow(parent)
{
    setAcceptDrops(true);
    installEventFilter(this);  // sees resizes before the layout does (see eventFilter)
    // The graph in the middle; until a model opens, the welcome page in its place.
    central_ = new QStackedWidget(this);
    welcome_ = new views::WelcomePage(central_);
    graphView_ = new views::GraphView(central_);
    central_->addWidget(welcome_);
    central_->addWidget(graphView_);
    // Only the page shown sets the middle's minimum size: the welcome page's two lists would
    // otherwise keep the graph 700 px wide and squeeze the docks of a small window.
    auto onlyShownPageCounts = [this] {
        for (int page = 0; page < central_->count(); ++page) {
            const bool shown = page == central_->currentIndex();
            const QSizePolicy::Policy policy = shown ? QSizePolicy::Expanding : QSizePolicy::Ignored;
            central_->widget(page)->setSizePolicy(policy, policy);
        }
    };
    onlyShownPageCounts();
    connect(central_, &QStackedWidget::currentChanged, this, [this, onlyShownPageCounts] {
        onlyShownPageCounts();
        onMiddlePageChanged();
    });
    setCentralWidget(central_);
    QStringList sampleNames, sampleDescriptions;
    for (const ZooEntry& entry : zooModels()) {
        sampleNames << QString::fromStdString(entry.name);
        sampleDescriptions << QString::fromStdString(entry.description);
    }
    welcome_->setSamples(sampleNames, sampleDescriptions);
    connect(welcome_, &views::WelcomePage::openDialogRequested, this, &StudioWindow::openFileDialog);
    connect(welcome_, &views::WelcomePage::projectDialogRequested, this, &StudioWindow::openProjectDialog);
    connect(welcome_, &views::WelcomePage::fileRequested, this, &StudioWindow::openAnyFile);
    connect(welcome_, &views::WelcomePage::sampleRequested, this, &StudioWindow::openSample);
    planTimer_ = new QTimer(this);
    planTimer_->setSingleShot(true);
    planTimer_->setInterval(kDebounceMs);
    connect(planTimer_, &QTimer::timeout, this, &StudioWindow::startPlan);
    budgetHistory_ = new QUndoStack(this);
    layoutDirection_ = QSettings().value(kLeftToRightKey, false).toBool() ? LayoutDirection::LeftToRight
                                                                           : LayoutDirection::TopToBottom;
    buildBudgetBar();
    buildDocks();
    buildMenus();
    statusLabel_ = new QLabel("Open an ONNX model (Ctrl+O) or drop one here.", this);
    // The line never widens the window; the whole plan summary is in its tooltip and above the timeline.
    statusLabel_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(statusLabel_, 1);
    connect(graphView_, &views::GraphView::nodeSelected, this, &StudioWindow::showNodeProperties);
    connect(timeline_, &views::MemoryTimeline::budgetDragStarted, this, &StudioWindow::onBudgetDragStarted);
    connect(timeline_, &views::MemoryTimeline::budgetDragged, this, [this](qint64 bytes) {
        l2Box_->blockSignals(true);
        l2Box_->setBytes(bytes);
        l2Box_->blockSignals(false);
        requestPlan();
    });
    connect(timeline_, &views::MemoryTimeline::budgetChanged, this, [this](qint64 bytes) {
        l2Box_->blockSignals(true);
        l2Box_->setBytes(std::max<qint64>(1024, bytes));
        l2Box_->blockSignals(false);
        timeline_->setBudget(l2Budget());
        requestPlan();
        recordBudgets();
    });
    connect(timeline_, &views::MemoryTimeline::tensorSelected, this, &StudioWindow::selectTensor);
    connect(timeline_, &views::MemoryTimeline::stepClicked, this, &StudioWindow::showStep);
    applyTargetDefaults();
    resetSweepRange();
    recordedBudgets_ = budgets();
    resize(1400, 900);
    applyDefaultDockSizes();
    defaultDockState_ = saveState();
    updateTitle();
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
    // A budget with its label, shown and typed as a size ("64 KiB", "22 345 B", "8 MiB").
    const auto budgetBox = [bar](const QString& label, qint64 granularity, qint64 smallest, qint64 largest,
                                 const QString& tip) {
        bar->addWidget(new QLabel(label, bar));
        auto* box = new views::ByteSizeSpinBox(granularity, smallest, largest, bar);
        box->setToolTip(tip);
        bar->addWidget(box);
        return box;
    };
    // The ranges a project file may hold (session/project.h). L1 and L2 to the byte (the Tiling
    // dock's L1 is the same value), L3 and flash by KiB.
    l1Box_ = budgetBox("  L1 ", 1, kProjectSmallestBudget, kProjectLargestL1,
                       "L1 (shared cluster memory) for the tiling of every layer; the Tiling dock shows the same budget");
    l2Box_ = budgetBox("  L2 budget ", 1, kProjectSmallestBudget, kProjectLargestL2,
                       "L2 for the graph's tensors (drag the red line in the timeline)");
    l3Box_ = budgetBox("  L3 RAM ", 1024, kProjectSmallestBudget, kProjectLargestL3,
                       "L3 RAM for the tensors that do not fit L2");
    flashBox_ = budgetBox("  Flash ", 1024, kProjectSmallestBudget, kProjectLargestFlash,
                          "L3 flash holding the constants that do not stay in L2 or L3 RAM");
    bar->addSeparator();
    findEdit_ = new QLineEdit(bar);
    findEdit_->setPlaceholderText("Find node, tensor, initializer (Ctrl+F)");
    findEdit_->setToolTip("Operators by name or op type, tensors, initializers and graph inputs/outputs by name; "
                          "Enter goes to the next match");
    findEdit_->setClearButtonEnabled(true);
    findEdit_->setMaximumWidth(260);
    bar->addWidget(findEdit_);
    findCount_ = new QLabel(bar);
    findCount_->setMinimumWidth(70);
    bar->addWidget(findCount_);
    connect(findEdit_, &QLineEdit::returnPressed, this, &StudioWindow::findNext);
    connect(findEdit_, &QLineEdit::textChanged, findCount_, &QLabel::clear);
    connect(targetBox_, &QComboBox::currentIndexChanged, this, [this] {
        applyTargetDefaults();
        resetSweepRange();
        onBudgetEdited();
        if (graph_)
            markModified(true);
    });
    connect(l1Box_, &views::ByteSizeSpinBox::bytesChanged, this, [this](qint64 bytes) {
        if (!syncingL1_ && tilingPanel_->l1Budget() != bytes)
            tilingPanel_->setL1Budget(bytes);
        onBudgetEdited();
    });
    connect(l2Box_, &views::ByteSizeSpinBox::bytesChanged, this, [this] {
        timeline_->setBudget(l2Budget());
        onBudgetEdited();
    });
    connect(l3Box_, &views::ByteSizeSpinBox::bytesChanged, this, &StudioWindow::onBudgetEdited);
    connect(flashBox_, &views::ByteSizeSpinBox::bytesChanged, this, &StudioWindow::onBudgetEdited);
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
    stepTable_->sortByColumn(views::StepTableModel::Order, Qt::AscendingOrder);
    stepTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    stepTable_->setSelectionMode(QAbstractItemView::SingleSelection);
    // Names and shapes get the room; Tab moves on to the next widget instead of walking the cells.
    stepTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    stepTable_->horizontalHeader()->setSectionResizeMode(views::StepTableModel::Inputs, QHeaderView::Stretch);
    stepTable_->horizontalHeader()->setStretchLastSection(false);
    stepTable_->setTabKeyNavigation(false);
    stepTable_->setWordWrap(false);
    stepTable_->setTextElideMode(Qt::ElideMiddle);
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
    connect(aieView_, &views::AieView::layerSelected, this, [this](int node) {
        if (graphView_->selectedNode() != node)
            graphView_->selectNode(node);
    });

    tilingPanel_ = new views::TilingPanel(this);
    addTabBehind(tableDock, "Tiling", "tiling", tilingPanel_);
    // One L1 budget: the Tiling dock's and the bar's are the same value.
    connect(tilingPanel_, &views::TilingPanel::budgetEdited, this, [this](qint64 bytes) {
        syncingL1_ = true;
        l1Box_->setBytes(bytes);
        syncingL1_ = false;
    });
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
        // The search is over: the line says what it found, not that it is compiling.
        statusLabel_->setText("SCAMP-5 kernels: " + scampView_->progressText() +
                              "; select a step to see the register planes");
        if (std::exchange(scampKernelsOpening_, false))
            emit planShown();
    });

    compareView_ = new views::PlanComparisonView(this);
    addTabBehind(tableDock, "Compare", "compare", compareView_);
    connect(compareView_, &views::PlanComparisonView::tensorSelected, this, &StudioWindow::selectTensor);
    sweepView_ = new views::BudgetSweepView(this);
    addTabBehind(tableDock, "Sweep", "sweep", sweepView_);
    connect(sweepView_, &views::BudgetSweepView::runRequested, this, &StudioWindow::startSweep);
    connect(sweepView_, &views::BudgetSweepView::cancelRequested, this, &StudioWindow::cancelSweep);
    connect(sweepView_, &views::BudgetSweepView::budgetPicked, this, [this](SweptBudget swept, qint64 bytes) {
        if (swept == SweptBudget::L1)
            l1Box_->setBytes(bytes);  // re-plans and records the change, as an edit of the box does
        else
            setL2Budget(bytes);
    });
    connect(sweepView_, &views::BudgetSweepView::sweptChanged, this, [this] { resetSweepRange(); });

    capabilityTable_ = buildCapabilityTable();
    addTabBehind(tableDock, "Capability", "capability", capabilityTable_);
    simulationTable_ = buildSimulationTable();
    addTabBehind(tableDock, "Simulation", "simulation", simulationTable_);

    loadableView_ = new views::LoadableInspectorView(this);
    addTabBehind(tableDock, "NVDLA loadable", "nvdla", loadableView_);

    properties_ = new QTextBrowser(this);
    // Long symbol names (AT_GRAPH_CONST_EXEC_FROM_FLASH, generated tensor names) break rather than
    // widen a narrow dock into a sideways scroll.
    properties_->setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    auto* propertiesDock = new QDockWidget("Properties", this);
    propertiesDock->setObjectName("properties");
    propertiesDock->setWidget(properties_);
    addDockWidget(Qt::LeftDockWidgetArea, propertiesDock);
}

void StudioWindow::addTabBehind(QDockWidget* front, const QString& title, const QString& name, QWidget* widget)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    // A tool with many controls scrolls in a short dock: tabbed docks share one height, so its
    // minimum would otherwise hold every bottom tab (the steps too) that high in a small window.
    auto* scroller = new QScrollArea(dock);
    scroller->setWidgetResizable(true);
    scroller->setFrameShape(QFrame::NoFrame);
    scroller->setWidget(widget);
    dock->setWidget(scroller);
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    tabifyDockWidget(front, dock);
    front->raise();
    // The tools below the graph need more than a table's strip when they come to the front.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
        if (visible)
            giveRoom(dock);
    });
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
    // A picture of a view: the format follows the name the user gives.
    const auto imageDialog = [this](const QString& what, bool (StudioWindow::*write)(const QString&)) {
        const QString path = QFileDialog::getSaveFileName(this, "Export " + what + " as a picture", {},
                                                          "PNG picture (*.png);;SVG drawing (*.svg)");
        if (!path.isEmpty())
            (this->*write)(path);
    };
    file->addAction("Export graph &picture...", QKeySequence("Ctrl+Shift+G"), this,
                    [imageDialog] { imageDialog("the graph", &StudioWindow::exportGraphImage); });
    file->addAction("Export &timeline picture...", QKeySequence("Ctrl+Shift+L"), this,
                    [imageDialog] { imageDialog("the memory timeline", &StudioWindow::exportTimelineImage); });
    file->addSeparator();
    file->addAction("&Quit", QKeySequence("Ctrl+Q"), this, &QWidget::close);
    QMenu* edit = menuBar()->addMenu("&Edit");
    QAction* undo = budgetHistory_->createUndoAction(this, "&Undo budget change");
    undo->setShortcut(QKeySequence::Undo);
    edit->addAction(undo);
    QAction* redo = budgetHistory_->createRedoAction(this, "&Redo budget change");
    redo->setShortcut(QKeySequence("Ctrl+Shift+Z"));
    edit->addAction(redo);
    QMenu* view = menuBar()->addMenu("&View");
    view->addAction("&Find", QKeySequence::Find, this, [this] {
        findEdit_->setFocus();
        findEdit_->selectAll();
    });
    view->addAction("Find ne&xt", QKeySequence::FindNext, this, &StudioWindow::findNext);
    view->addSeparator();
    view->addAction("Zoom &in", QKeySequence("Ctrl+="), graphView_, [this] { graphView_->zoomBy(1.25); });
    view->addAction("Zoom &out", QKeySequence("Ctrl+-"), graphView_, [this] { graphView_->zoomBy(0.8); });
    view->addAction("&Actual size", QKeySequence("Ctrl+1"), graphView_, &views::GraphView::actualSize);
    view->addAction("&Fit graph", QKeySequence("Ctrl+0"), graphView_, &views::GraphView::fitAll);
    QAction* leftToRight = view->addAction("Lay out &left to right", QKeySequence("Ctrl+L"));
    leftToRight->setCheckable(true);
    leftToRight->setChecked(layoutDirection_ == LayoutDirection::LeftToRight);
    connect(leftToRight, &QAction::toggled, this, [this](bool on) {
        setLayoutDirection(on ? LayoutDirection::LeftToRight : LayoutDirection::TopToBottom);
    });
    view->addSeparator();
    view->addAction("&Next step", QKeySequence("Alt+Down"), this, [this] { stepBy(1); });
    view->addAction("&Previous step", QKeySequence("Alt+Up"), this, [this] { stepBy(-1); });
    view->addAction("Next &tab below the graph", QKeySequence("Ctrl+PgDown"), this, [this] { cycleBottomTabs(1); });
    view->addAction("Previous tab below the &graph", QKeySequence("Ctrl+PgUp"), this, [this] { cycleBottomTabs(-1); });
    view->addSeparator();
    QMenu* panels = view->addMenu("&Panels");
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        panels->addAction(dock->toggleViewAction());
    view->addAction("&Reset layout", this, &StudioWindow::resetLayout);
    QMenu* plan = menuBar()->addMenu("&Plan");
    plan->addAction("&Pin plan as A", QKeySequence("Ctrl+Shift+P"), this, &StudioWindow::pinPlan);
    plan->addAction("&Unpin plan A", this, &StudioWindow::unpinPlan);
    plan->addAction("&Sweep budget (L2 or L1)", QKeySequence("Ctrl+Shift+W"), this, &StudioWindow::sweepNow);
    plan->addAction("&Cancel sweep", this, &StudioWindow::cancelSweep);
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
    for (views::ByteSizeSpinBox* box : {l1Box_, l2Box_, l3Box_, flashBox_})
        box->setEnabled(!nvdla);
    if (nvdla)
        return;
    const target::Budgets defaults = target::chip(target().toStdString()).defaultBudgets();
    const qint64 l2 = pendingL2_.value_or(qint64(defaults.l2));
    const std::initializer_list<views::ByteSizeSpinBox*> boxes{l1Box_, l2Box_, l3Box_, flashBox_};
    for (views::ByteSizeSpinBox* box : boxes)
        box->blockSignals(true);
    l1Box_->setBytes(qint64(defaults.l1));
    l2Box_->setBytes(l2);
    l3Box_->setBytes(qint64(defaults.l3));
    flashBox_->setBytes(qint64(defaults.flash));
    for (views::ByteSizeSpinBox* box : boxes)
        box->blockSignals(false);
    if (tilingPanel_->l1Budget() != l1Box_->bytes())
        tilingPanel_->setL1Budget(l1Box_->bytes());
    timeline_->setBudget(l2Budget());
}

QString StudioWindow::target() const { return targetBox_->currentData().toString(); }
QString StudioWindow::statusText() const { return statusLabel_->text(); }

qint64 StudioWindow::l2Budget() const { return l2Box_->bytes(); }

Budgets StudioWindow::budgets() const { return {l1Box_->bytes(), l2Budget(), l3Box_->bytes(), flashBox_->bytes()}; }

void StudioWindow::setBudgets(const Budgets& budgets)
{
    l1Box_->setBytes(budgets.l1);
    l3Box_->setBytes(budgets.l3);
    flashBox_->setBytes(budgets.flash);
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
    l2Box_->setBytes(bytes);
    requestPlan();
}

void StudioWindow::showError(const QString& title, const QString& message)
{
    lastError_ = message;
    if (!graph_)  // nothing open: the welcome page says what went wrong and offers the rest
        welcome_->setProblem(title + ": " + message);
    statusLabel_->setText(title + ": " + message);
    auto* box = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
    emit errorShown(message);
}

} // namespace tessera::studio
