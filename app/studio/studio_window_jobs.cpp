// The studio window's work with the session: loading a model, laying it out, planning it at the
// budgets shown, exporting it, and following the selection between the views.
#include "studio_window.h"

#include "cbuf_banks_view.h"
#include "studio_support.h"

#include "aie_view.h"
#include "budget_sweep_view.h"
#include "cbuf_banks_view.h"
#include "graph_view.h"
#include "memory_timeline.h"
#include "step_table_model.h"
#include "tiling_panel.h"
#include "welcome_page.h"

#include "aie/split_planner.h"
#include "session/model_stats.h"

#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QUndoStack>

#include <utility>

namespace tessera::studio {

void StudioWindow::openModel(const QString& path)
{
    statusLabel_->setText("Loading " + path + " ...");
    runInBackground<LoadedModel>(this, [path] { return loadModelJob(path); },
                                 [this, path](const LoadedModel& loaded) { onModelLoaded(path, loaded); });
}

void StudioWindow::onModelLoaded(const QString& path, const LoadedModel& loaded)
{
    if (!loaded.session) {
        projectOpening_ = false;
        showError("Cannot open model", loaded.error);
        return;
    }
    restoreGraphRoom();
    // The old model's view goes before the model: nothing shown may point at a graph replaced.
    graphView_->clear();
    tilingPanel_->clear();
    findEdit_->clear();
    findCount_->clear();
    properties_->clear();
    planSteps_ = {};
    stepModel_->setPlanSteps(planSteps_.stepOfNode);
    changeBaseline_.reset();
    resetCompareAndSweep();
    // A model opened by itself starts from the target's budgets; a project brings its own.
    if (!std::exchange(projectOpening_, false)) {
        pendingL2_.reset();
        projectPath_.clear();
        applyTargetDefaults();
    }
    releaseInBackground(std::exchange(session_, loaded.session), std::exchange(gapPlan_, std::nullopt),
                        std::exchange(graph_, loaded.session->sharedGraph()));
    planSymbols_ = {};
    modelPath_ = path;
    rememberRecent(path);
    plan_.reset();
    planShortfall_.reset();
    gapTiling_.reset();
    nvdla_.reset();
    cbufView_->clear();
    fillCapabilityTable();
    lastError_.clear();
    budgetHistory_->clear();
    recordedBudgets_ = budgets();
    markModified(false);
    stepModel_->setStats(computeModelStats(*graph_));
    properties_->setHtml(modelHtml());
    fitStepColumns();
    replanAie();
    timeline_->clear();
    statusLabel_->setText("Laying out " + QString::number(graph_->nodeCount()) + " nodes ...");
    relayoutGraph();
    pendingL2_.reset();
    requestPlan();
}

void StudioWindow::onLayoutDone(const LaidOutModel& laidOut)
{
    if (!laidOut.layout) {
        showError("Cannot lay out the graph", laidOut.error);
        return;
    }
    const int selected = graphView_->selectedNode();
    central_->setCurrentWidget(graphView_);
    welcome_->setProblem({});
    graphView_->showGraph(graph_, *laidOut.layout);
    showNvdlaUnits();  // when the NVDLA mapping came first
    if (selected >= 0)  // laid out again in another direction: the selection stays
        graphView_->selectNode(selected);
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
    if (const std::optional<NvdlaTarget> nvdla = parseNvdlaTarget(target())) {
        startNvdla(generation, *nvdla);
        return;
    }
    if (nvdla_) {  // back to a GAP target: the graph loses the NVDLA units
        nvdla_.reset();
        cbufView_->clear();
        showNvdlaUnits();
        fillCapabilityTable();
        timeline_->clear();
    }
    timeline_->setLevels(gapTimelineLevels(target()));
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
    planShortfall_ = outcome.shortfall;
    planSymbols_ = {outcome.modelTensorOf, outcome.symbolsOf};
    planSteps_ = {outcome.stepOfNode, outcome.nodesOfStep};
    stepModel_->setPlanSteps(planSteps_.stepOfNode);
    if (!outcome.plan) {
        plan_.reset();
        gapPlan_.reset();
        planStatus_ = "no plan at L2 " + kib(outcome.l2Budget) + ": " + outcome.error;
        timeline_->showProblem(outcome.error, outcome.l2Budget);
        showPlanStatus();
        emit planShown();
        return;
    }
    const HierarchyPlan& plan = *outcome.plan;
    const QString change = changeSummary(plan);
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
    showComparison();
    sweepView_->setCurrentBudgets(budgets().l1, outcome.l2Budget);
    if (graphView_->selectedNode() >= 0)  // the steps may have changed: the cursor follows the node
        timeline_->setCursorStep(stepOfNode(QString::fromStdString(graph_->node(graphView_->selectedNode()).name)));
    showPlanStatus();
    emit planShown();
}

// The AI Engine split plan takes microseconds, so it is recomputed directly.
void StudioWindow::replanAie()
{
    if (!graph_) {
        aieView_->clear();
        return;
    }
    try {
        aieView_->showPlan(aie::planSplitsMarkingRefusals(*graph_, aieView_->architecture()));
    } catch (const std::exception& error) {
        aieView_->showProblem(QString::fromStdString(error.what()));
    }
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
            // The kernels as tiled for this project, handed over in process.
            raiseTilingDock();
            tilingPanel_->showKernelModel(outcome.tiledModel, std::uint64_t(outcome.l1Budget), outcome.tilingReport);
            statusLabel_->setText(outcome.summary);
            emit projectExported(outcome.folder);
        });
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

} // namespace tessera::studio
