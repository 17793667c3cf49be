// The studio window's view of the graph and its panels: Find, the layout direction, the step
// selected from the timeline, room for the tools below the graph, and the default layout.
#include "studio_window.h"
#include "studio_support.h"

#include "graph_view.h"
#include "memory_timeline.h"

#include "step_table_model.h"
#include <QDockWidget>
#include <QEvent>
#include <QHeaderView>
#include <QTableView>
#include <QTimer>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace tessera::studio {

namespace {

// A tool dock given room gets at least this share of the window's height.
constexpr double kToolShare = 0.45;

} // namespace

void StudioWindow::findNext()
{
    const QString text = findEdit_->text();
    if (text.isEmpty() || !graph_)
        return;
    const int index = graphView_->findNext(text);
    if (index < 0) {
        findCount_->setText("no match");
        statusBar()->showMessage("nothing is called '" + text +
                                     "' (searched operators, op types, tensors, initializers, graph inputs and outputs)",
                                 5000);
        return;
    }
    findCount_->setText(QString("%1 of %2").arg(index + 1).arg(graphView_->matchCount()));
    if (const views::GraphMatch* match = graphView_->currentMatch())
        statusBar()->showMessage(match->description, 5000);
}

QString StudioWindow::findCountText() const { return findCount_->text(); }

void StudioWindow::setLayoutDirection(LayoutDirection direction)
{
    if (direction == layoutDirection_)
        return;
    layoutDirection_ = direction;
    QSettings().setValue("graph/leftToRight", direction == LayoutDirection::LeftToRight);
    if (graph_)
        relayoutGraph();
}

// Lays the open model out off the GUI thread; modelShown() follows.
void StudioWindow::relayoutGraph()
{
    const BoxSizer sizer = graphView_->boxSizer(*graph_);
    std::shared_ptr<const Graph> graph = graph_;
    runInBackground<LaidOutModel>(this, [graph, sizer, direction = layoutDirection_] { return layoutJob(graph, sizer, direction); },
                                  [this, graph](const LaidOutModel& laidOut) {
                                      if (graph == graph_) // a newer model may have been opened meanwhile
                                          onLayoutDone(laidOut);
                                  });
}

QStringList StudioWindow::nodesOfStep(int step) const
{
    return step >= 0 && step < planSteps_.nodesOfStep.size() ? planSteps_.nodesOfStep[step] : QStringList();
}

// A step picked in the timeline: its first node is selected (the properties, steps and the cursor follow).
void StudioWindow::showStep(int step)
{
    const QStringList nodes = nodesOfStep(step);
    if (nodes.isEmpty() || !selectNodeNamed(nodes.front()))
        timeline_->setCursorStep(step);
}

void StudioWindow::giveRoom(QDockWidget* dock)
{
    if (!dock->isVisible() || dock->isFloating())
        return;
    const int wanted = int(height() * kToolShare);
    if (dock->height() < wanted)
        resizeDocks({dock}, {wanted}, Qt::Vertical);
}

void StudioWindow::enlargeToolDock(QDockWidget* dock, int height)
{
    resizeDocks({dock}, {height}, Qt::Vertical);
    toolDockEnlarged_ = true;
}

void StudioWindow::restoreGraphRoom()
{
    if (!std::exchange(toolDockEnlarged_, false))
        return;
    // The bottom docks were enlarged for a file shown without a model (kernels, a loadable, a
    // tiling report); the model's graph gets its room back.
    resizeDocks({findChild<QDockWidget*>("steps")}, {defaultBottomDockHeight()}, Qt::Vertical);
}

void StudioWindow::cycleBottomTabs(int delta)
{
    auto* steps = findChild<QDockWidget*>("steps");
    QList<QDockWidget*> tabs{steps};
    tabs += tabifiedDockWidgets(steps);
    int front = 0;  // the tab drawn now (the others keep their widgets but are covered)
    for (int k = 0; k < tabs.size(); ++k)
        if (!tabs[k]->visibleRegion().isEmpty())
            front = k;
    QDockWidget* next = tabs[(front + delta + int(tabs.size())) % int(tabs.size())];
    next->show();
    next->raise();
}

void StudioWindow::resetLayout()
{
    restoreState(defaultDockState_);
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        dock->setFloating(false);
    toolDockEnlarged_ = false;
    docksSizedByUser_ = false;
    applyDefaultDockSizes();
}

int StudioWindow::defaultBottomDockHeight() const
{
    // A small window (a 1280x720 screen) keeps more of its height for the graph and the timeline.
    return std::clamp(int(height() * (height() < 800 ? 0.25 : 0.3)), 160, 420);
}

StudioWindow::DockSizes StudioWindow::dockSizes() const
{
    return {findChild<QDockWidget*>("timeline")->width(), findChild<QDockWidget*>("properties")->width(),
            findChild<QDockWidget*>("steps")->height()};
}

void StudioWindow::applyDefaultDockSizes()
{
    resizeDocks({findChild<QDockWidget*>("timeline"), findChild<QDockWidget*>("properties")},
                {std::clamp(int(width() * (width() < 1360 ? 0.4 : 0.34)), 420, 900), std::clamp(int(width() * 0.19), 260, 520)},
                Qt::Horizontal);
    if (!toolDockEnlarged_)  // a tool dock shown without a model keeps the height it was given
        resizeDocks({findChild<QDockWidget*>("steps")}, {defaultBottomDockHeight()}, Qt::Vertical);
    // What the layout gives once it has run (the docks' frames and minimum sizes take their share),
    // so that a later resize can tell these sizes from ones the user chose.
    appliedDockSizes_.reset();
    QTimer::singleShot(0, this, [this] { appliedDockSizes_ = dockSizes(); });
}

void StudioWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    // The size the window is shown at, not the one it was built at, once its layout has that size.
    if (!std::exchange(shownOnce_, true))
        QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
}

void StudioWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Docks the user has not sized keep their shares of a window that is maximised or resized;
    // once a separator is dragged, the user's sizes stay (until View > Reset layout).
    if (shownOnce_ && !toolDockEnlarged_ && !docksSizedByUser_)
        QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
}

bool StudioWindow::eventFilter(QObject* watched, QEvent* event)
{
    // The window itself gets the mouse only on the separators between docks: a release there with
    // the docks no longer as applied ends the user's own sizing, which later resizes keep.
    if (watched == this && event->type() == QEvent::MouseButtonRelease && appliedDockSizes_ && !docksAsApplied())
        docksSizedByUser_ = true;
    return QMainWindow::eventFilter(watched, event);
}

bool StudioWindow::docksAsApplied() const
{
    if (!appliedDockSizes_)
        return false;
    const DockSizes now = dockSizes();
    auto kept = [this](const char* name, int actual, int applied) {
        const auto* dock = findChild<QDockWidget*>(name);
        return !dock->isVisible() || dock->isFloating() || std::abs(actual - applied) <= 8;
    };
    return kept("timeline", now.timeline, appliedDockSizes_->timeline) &&
           kept("properties", now.properties, appliedDockSizes_->properties) &&
           kept("steps", now.steps, appliedDockSizes_->steps);
}

// The middle page changed (welcome page, graph): docks the user has not moved take the default
// shares again, now that the page's minimum size no longer holds them.
void StudioWindow::onMiddlePageChanged()
{
    if (shownOnce_ && !toolDockEnlarged_ && !docksSizedByUser_)
        QTimer::singleShot(0, this, [this] { applyDefaultDockSizes(); });
}

void StudioWindow::fitStepColumns()
{
    QHeaderView* header = stepTable_->horizontalHeader();
    for (int column : {views::StepTableModel::Order, views::StepTableModel::PlanStep, views::StepTableModel::Name, views::StepTableModel::Op,
                       views::StepTableModel::Outputs, views::StepTableModel::LiveBytes, views::StepTableModel::Params,
                       views::StepTableModel::Macs}) {
        stepTable_->resizeColumnToContents(column);
        // A long generated name is elided in the middle rather than taking the inputs' room.
        header->resizeSection(column, std::min(header->sectionSize(column), column == views::StepTableModel::Name ? 320 : 200));
    }
}

} // namespace tessera::studio
