// The studio window's view of the graph and its panels: Find, the layout direction, the step
// selected from the timeline, room for the tools below the graph, and the default layout.
#include "studio_window.h"
#include "studio_support.h"

#include "graph_view.h"
#include "memory_timeline.h"

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QStatusBar>

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
    resizeDocks({findChild<QDockWidget*>("steps")}, {kBottomDockHeight}, Qt::Vertical);
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
    resizeDocks({findChild<QDockWidget*>("timeline")}, {520}, Qt::Horizontal);
    resizeDocks({findChild<QDockWidget*>("properties")}, {280}, Qt::Horizontal);
    resizeDocks({findChild<QDockWidget*>("steps")}, {kBottomDockHeight}, Qt::Vertical);
    toolDockEnlarged_ = false;
}

} // namespace tessera::studio
