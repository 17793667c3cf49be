#pragma once
// The studio's main window: graph view in the centre, memory timeline, step table, the tiling
// of an Autotiler report, the SCAMP-5 compiler's trace and the NVDLA loadable inspector in docks,
// properties of the selection, the capability report of an NVDLA target,
// and the budget bar (target, L1, L2, L3 and flash budgets). Loading, layout and planning run off
// the GUI thread; a budget change re-plans after a short debounce and results of superseded
// requests are dropped. The window is built in studio_window.cpp; its work with the session
// (load, plan, export) is in studio_window_jobs.cpp, the properties pane in
// studio_window_properties.cpp, files and dialogs in studio_window_files.cpp, the NVDLA target in
// studio_window_nvdla.cpp.
#include "nvdla_job.h"
#include "plan_job.h"

#include <QMainWindow>
#include <QPointer>

#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QStackedWidget;
class QUndoStack;
class QTableWidget;
class QTableView;
class QTextBrowser;
class QTimer;

namespace tessera::views {
class AieView;
class BudgetSweepView;
class PlanComparisonView;
class ByteSizeSpinBox;
class GraphView;
class LoadableInspectorView;
class CbufBanksView;
class MemoryTimeline;
class StepTableModel;
class ScampView;
class TilingPanel;
class WelcomePage;
} // namespace tessera::views

namespace tessera::studio {

class ScampWorkbench;

class StudioWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit StudioWindow(QWidget* parent = nullptr);
    ~StudioWindow() override;

    // Starts loading; modelShown() or errorShown() follows.
    void openModel(const QString& path);
    void openProject(const QString& path);
    // A model, project, tiling report, kernels file or NVDLA loadable, by its name (the command
    // line, drops and the recent files).
    void openAnyFile(const QString& path);
    // Writes sample network `name` of the zoo (tessera zoo NAME) to the user's cache and opens it.
    void openSample(const QString& name);
    // Whether the welcome page (recent files, samples) stands where the graph goes.
    bool welcomeShown() const;
    views::WelcomePage* welcomePage() const { return welcome_; }
    // Shows an Autotiler tiling report (*.tiling.json) in the Tiling dock; false when it cannot.
    bool openTilingReport(const QString& path);
    // Opens a SCAMP-5 kernels file in the SCAMP-5 dock and starts compiling it; false (and the
    // problem shown there) when the file cannot be used.
    bool openScampKernels(const QString& path);
    // Opens an NVDLA loadable (.nvdla) in the NVDLA loadable dock: its lists as a tree, its
    // operations as a graph, the validator's findings; false (and the problem shown, what was shown
    // before kept) when the file is not a loadable.
    bool openLoadable(const QString& path);
    // The graph, or the memory timeline, as a picture (.png or .svg by the name); false (and the
    // problem shown) when it cannot be written.
    bool exportGraphImage(const QString& path);
    bool exportTimelineImage(const QString& path);
    // Writes the project atomically; false (and an error shown) when it cannot.
    bool saveProject(const QString& path);
    // Compiles the open model for the GAP target and budgets shown and writes the GAP project to
    // `folder` off the GUI thread; projectExported() or errorShown() follows.
    void exportGapProject(const QString& folder);
    // Writes the NVDLA project of the compilation shown (an NVDLA target in the bar) to `folder` off
    // the GUI thread; projectExported() or errorShown() follows.
    void exportNvdlaProject(const QString& folder);
    // Run: simulates the loadable shown (an NVDLA target) on the project's sample input, or on
    // `inputFile` (an image .pgm/.jpg as nvdla_runtime reads it, or a tensor .pb), off the GUI thread
    // and fills the Simulation tab, each node against the reference; simulationShown() or
    // errorShown() follows.
    void simulateNvdla(const QString& inputFile = {});
    void simulateNvdlaOnFileDialog();

    // Compare: keeps the plan shown as A; every plan shown after is compared with it (Compare dock).
    void pinPlan();
    void unpinPlan();
    // Plans the model at `count` L2 budgets from `lowest` to `highest` off the GUI thread (the other
    // budgets as the bar has them); sweepShown() follows. A new sweep or Cancel stops one under way.
    void startSweep(qint64 lowest, qint64 highest, int count);
    // Plan > Sweep: raises the Sweep dock and sweeps its range.
    void sweepNow();
    void cancelSweep();

    // Selects the operator called `name` in the graph (properties, steps and the CBUF follow);
    // false when the open model has none.
    bool selectNodeNamed(const QString& name);
    void setTarget(const QString& target);
    void setL2Budget(qint64 bytes);

    views::GraphView* graphView() const { return graphView_; }
    views::MemoryTimeline* timeline() const { return timeline_; }
    views::AieView* aieView() const { return aieView_; }
    views::TilingPanel* tilingPanel() const { return tilingPanel_; }
    views::PlanComparisonView* compareView() const { return compareView_; }
    views::BudgetSweepView* sweepView() const { return sweepView_; }
    views::ScampView* scampView() const { return scampView_; }
    views::LoadableInspectorView* loadableView() const { return loadableView_; }
    views::CbufBanksView* cbufView() const { return cbufView_; }
    QTableWidget* capabilityTable() const { return capabilityTable_; }
    QTableWidget* simulationTable() const { return simulationTable_; }
    // The open model on the NVDLA target of the bar: the report, each node's unit, the compilation.
    const std::optional<NvdlaOutcome>& nvdla() const { return nvdla_; }
    ScampWorkbench* scampWorkbench() const { return scampWorkbench_; }
    QTableView* stepTable() const { return stepTable_; }
    const views::StepTableModel* stepModel() const { return stepModel_; }
    const Graph* graph() const { return graph_.get(); }
    // The plan shown: the deployed graph's, as Export generates it with the budgets shown.
    const std::optional<HierarchyPlan>& plan() const { return plan_; }
    // The deployed graph's step that runs ONNX node `name` in the shown plan (-1: none, e.g. a view).
    int stepOfNode(const QString& name) const { return planSteps_.stepOfNode.value(name, -1); }
    // The ONNX nodes the shown plan's step `step` runs.
    QStringList nodesOfStep(int step) const;
    // A step picked in the timeline: its first node is selected (the properties, steps and cursor follow).
    void showStep(int step);
    const std::optional<gap::GapPlan>& gapPlan() const { return gapPlan_; }
    // When no plan could be made because a budget is too small: which one, and what works.
    const std::optional<BudgetShortfall>& planShortfall() const { return planShortfall_; }
    const std::shared_ptr<const Session>& session() const { return session_; }
    // The ONNX tensor a symbol of the deployed graph holds (`symbol` itself when it holds none).
    QString modelTensorOf(const QString& symbol) const { return planSymbols_.modelTensorOf.value(symbol, symbol); }
    QString planStatus() const;
    QString lastError() const { return lastError_; }
    QString statusText() const;  // the status bar's line
    QLineEdit* findEdit() const { return findEdit_; }
    // What Find matched last: "2 of 7", or "no match".
    QString findCountText() const;
    // Budget changes, undone and redone with Edit > Undo / Redo.
    QUndoStack* budgetHistory() const { return budgetHistory_; }
    // The project file the window shows (opened or saved), if any.
    QString projectPath() const { return projectPath_; }
    // Where the graph's data flows: down the page or to the right (View > Lay out left to right).
    LayoutDirection layoutDirection() const { return layoutDirection_; }
    void setLayoutDirection(LayoutDirection direction);
    // Puts every dock back where a new window has it.
    void resetLayout();
    // The keyboard shortcuts of every menu, as F1 lists them.
    QStringList shortcutList() const;
    // Models and projects opened successfully, newest first (kept in the user's settings).
    QStringList recentFiles() const;
    QString modelPath() const { return modelPath_; }
    QString target() const;
    qint64 l2Budget() const;
    Budgets budgets() const;
    // Sets every budget of the bar (the plan follows after the debounce).
    void setBudgets(const Budgets& budgets);
    // How the last GAP export tiled the open model (the GAP layer of each ONNX node), if any.
    const std::optional<ExportOutcome>& gapTiling() const { return gapTiling_; }
    QString propertiesText() const;
    double lastPlanMilliseconds() const { return lastPlanMs_; }
    // The L2 budget the shown plan (or planner message) belongs to.
    qint64 shownPlanBudget() const { return shownPlanBudget_; }

signals:
    void modelShown();
    void planShown();
    void errorShown(const QString& message);
    void projectExported(const QString& folder);
    void loadableShown();
    void simulationShown();
    void sweepShown();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    void buildBudgetBar();
    void buildDocks();
    // A dock in the bottom area, tabbed behind `front` (which stays the visible tab).
    void addTabBehind(QDockWidget* front, const QString& title, const QString& name, QWidget* widget);
    void showError(const QString& title, const QString& message);
    void onModelLoaded(const QString& path, const LoadedModel& loaded);
    void onLayoutDone(const LaidOutModel& laidOut);
    void requestPlan();
    void startPlan();
    void onPlanDone(quint64 generation, const PlanOutcome& outcome);
    void showNodeProperties(int node);
    QString gapTilingHtml(const QString& node);
    QString modelHtml() const;
    QString liveAtStepHtml(int step) const;
    // "; change since the drag began: +8 in L3, ..." against the plan the change started from.
    QString changeSummary(const HierarchyPlan& plan) const;
    void selectTensor(const QString& name);
    void stepBy(int delta);
    void applyTargetDefaults();
    void openFileDialog();
    void saveProjectDialog();
    void openProjectDialog();
    void openTilingDialog();
    void openScampDialog();
    void exportStepTable();
    void exportGapProjectDialog();
    void exportNvdlaProjectDialog();
    // NVDLA (studio_window_nvdla.cpp).
    void startNvdla(quint64 generation, const NvdlaTarget& nvdla);
    void onNvdlaDone(quint64 generation, const NvdlaOutcome& outcome);
    void fillCapabilityTable();
    void showNvdlaUnits();
    QString nvdlaHtml(int node) const;
    void showCbufBanks(int node);  // node -1 or no NVDLA convolution: hidden
    QTableWidget* buildCapabilityTable();
    QTableWidget* buildSimulationTable();
    void showSimulation(const NvdlaRunOutcome& outcome);
    // Selects the graph node named in column 0 of `table`'s `row`.
    void selectNodeNamed(QTableWidget* table, int row);
    void showShortcuts();
    // A picture written (the path in the status bar) or not (`problem` shown); whether it was.
    bool reportPicture(const QString& what, const QString& path, const QString& problem);
    // planStatus_ in the status line (and its tooltip) and above the timeline, wrapped.
    void showPlanStatus();
    void findNext();
    void onBudgetEdited();
    void onBudgetDragStarted();
    void recordBudgets();
    void markModified(bool modified);
    void updateTitle();
    void relayoutGraph();
    // Gives a tool dock of the bottom area (SCAMP-5, AI Engine, Tiling, loadable) room when raised.
    void giveRoom(QDockWidget* dock);
    // A bottom dock takes `height` for a file shown without a model; the next model takes its room
    // back (restoreGraphRoom), so sizes meant for one kind of file do not stay for the next.
    void enlargeToolDock(QDockWidget* dock, int height);
    void restoreGraphRoom();
    // The docks' default sizes, as shares of the window: the timeline about a third of the width,
    // the properties a fifth, the bottom docks under a third of the height (clamped to what reads
    // well). Applied when the window is first shown, on Reset Layout, and while the window grows or
    // shrinks as long as the user has not moved a dock edge.
    void applyDefaultDockSizes();
    int defaultBottomDockHeight() const;
    struct DockSizes {
        int timeline = 0, properties = 0, steps = 0;  // widths of the side docks, height of the bottom one
    };
    DockSizes dockSizes() const;
    bool docksAsApplied() const;  // no dock moved by the user since applyDefaultDockSizes
    void onMiddlePageChanged();
    // Every column of the step table but the inputs fitted to its contents (names at most 320 px);
    // the inputs take the rest.
    void fitStepColumns();
    // Brings the next (or previous) tab of the docks below the graph to the front.
    void cycleBottomTabs(int delta);
    // Compare and sweep (studio_window_compare.cpp).
    void showComparison();
    void resetCompareAndSweep();
    void resetSweepRange();
    void replanAie();
    void rememberRecent(const QString& path);
    // Shows and raises the Tiling dock.
    QDockWidget* raiseTilingDock();
    void rebuildRecentMenu();

    QStackedWidget* central_ = nullptr;
    views::WelcomePage* welcome_ = nullptr;
    views::GraphView* graphView_ = nullptr;
    views::MemoryTimeline* timeline_ = nullptr;
    views::AieView* aieView_ = nullptr;
    views::TilingPanel* tilingPanel_ = nullptr;
    views::PlanComparisonView* compareView_ = nullptr;
    views::BudgetSweepView* sweepView_ = nullptr;
    views::ScampView* scampView_ = nullptr;
    views::LoadableInspectorView* loadableView_ = nullptr;
    views::CbufBanksView* cbufView_ = nullptr;  // under the timeline: the selected convolution's banks
    QTableWidget* capabilityTable_ = nullptr;
    QTableWidget* simulationTable_ = nullptr;
    ScampWorkbench* scampWorkbench_ = nullptr;
    views::StepTableModel* stepModel_ = nullptr;
    QSortFilterProxyModel* stepProxy_ = nullptr;
    QTableView* stepTable_ = nullptr;
    QTextBrowser* properties_ = nullptr;
    QComboBox* targetBox_ = nullptr;
    views::ByteSizeSpinBox* l1Box_ = nullptr;
    views::ByteSizeSpinBox* l2Box_ = nullptr;
    views::ByteSizeSpinBox* l3Box_ = nullptr;
    views::ByteSizeSpinBox* flashBox_ = nullptr;
    QLineEdit* findEdit_ = nullptr;
    QLabel* findCount_ = nullptr;
    QUndoStack* budgetHistory_ = nullptr;
    QLabel* statusLabel_ = nullptr;
    QTimer* planTimer_ = nullptr;
    QMenu* recentMenu_ = nullptr;

    std::shared_ptr<const Session> session_;
    std::shared_ptr<const Graph> graph_;  // the session's model
    std::optional<HierarchyPlan> plan_;
    std::optional<gap::GapPlan> gapPlan_;
    std::optional<BudgetShortfall> planShortfall_;
    // Deployed graph symbols and ONNX tensors of the shown plan, both ways.
    struct PlanSymbols {
        QHash<QString, QString> modelTensorOf;
        QMultiHash<QString, QString> symbolsOf;
    } planSymbols_;
    // The deployed graph's steps of the shown plan and the ONNX nodes each runs.
    struct PlanSteps {
        QHash<QString, int> stepOfNode;
        QList<QStringList> nodesOfStep;
    } planSteps_;
    // The plan a change of budgets is counted from: the one shown when the drag (or edit) began.
    std::optional<HierarchyPlan> changeBaseline_;
    bool changeFromDrag_ = false;
    Budgets recordedBudgets_;         // the budgets after the last change the history holds
    bool applyingHistory_ = false;    // an undo or redo sets the budgets
    bool syncingL1_ = false;          // the Tiling dock's budget is being copied to the bar
    bool projectOpening_ = false;     // the model being loaded comes with a project's budgets
    QString projectPath_;
    LayoutDirection layoutDirection_ = LayoutDirection::TopToBottom;
    QByteArray defaultDockState_;
    bool toolDockEnlarged_ = false;  // a bottom dock took most of the height for a file without a model
    bool shownOnce_ = false;
    std::optional<DockSizes> appliedDockSizes_;
    bool docksSizedByUser_ = false;  // a separator dragged: window resizes keep the user's sizes  // as the layout gave them after applyDefaultDockSizes
    struct Pinned {
        HierarchyPlan plan;
        QString label;  // its target and budgets
    };
    std::optional<Pinned> pinned_;
    std::shared_ptr<std::atomic<bool>> sweepCancel_;  // the sweep under way, if any
    QString modelPath_;
    QString lastError_;
    QString planStatus_;
    quint64 planGeneration_ = 0;
    double lastPlanMs_ = 0;
    qint64 shownPlanBudget_ = 0;
    std::optional<ExportOutcome> gapTiling_;
    std::optional<NvdlaOutcome> nvdla_;
    Budgets gapTilingBudgets_;
    std::optional<qint64> pendingL2_; // budget from a project being opened
    bool tilingReportOpening_ = false;
    bool scampKernelsOpening_ = false;
};

} // namespace tessera::studio
