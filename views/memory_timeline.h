#pragma once
// The memory timeline: one panel per memory level, named and always shown (L2 on top, then L3 RAM,
// then flash, as the target's levels are given); x is the execution step, y the address. Every
// placed tensor is a rectangle coloured by kind (activation, constant, staging, prefetch), named
// inside when it is wide enough; a legend says what the colours and lines mean. The L2 peak and
// lower bound are marked, and the L2 budget is a line the user drags. A step cursor shows the step
// selected anywhere in the studio and outlines what is live there; clicking empty space picks a
// step. When a re-plan moves tensors, they are shown moving: rectangles glide to their new offsets,
// those pushed to another level drop out of one panel into the other, and the tensors a change
// pushed out of L2 stay outlined in red until the next change begins. The second panel (the L3 RAM)
// also shows, against a scale on its right, the bytes moved between L3 and L2 at each step.
#include "memory/hierarchy_planner.h"

#include <QHash>
#include <QRectF>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QMouseEvent;
class QVariantAnimation;

namespace tessera::views {

class MemoryTimeline : public QWidget {
    Q_OBJECT

public:
    explicit MemoryTimeline(QWidget* parent = nullptr);
    ~MemoryTimeline() override;

    // The panels, top to bottom: the first is the level whose budget is dragged ("L2"; "DRAM
    // scratch" for NVDLA), the others the levels below it (for GAP8: HyperRAM, HyperFlash).
    void setLevels(const QStringList& levels);
    QStringList levels() const;

    void showPlan(const HierarchyPlan& plan, qint64 l2Budget);
    // A budget the planner rejected: the line stays where the user put it, the message shows
    // (budget 0: no line, for a target without an L2 budget).
    void showProblem(const QString& message, qint64 l2Budget);
    void clear();

    // A line about the plan shown, wrapped above the legend (empty: none).
    void setSummary(const QString& text);

    qint64 budget() const { return budget_; }
    // Moves the budget line without emitting a signal.
    void setBudget(qint64 bytes);

    // A change of budgets begins (a drag begins by itself): the tensors it pushes out of the top
    // panel are counted, and outlined, against the plan shown now.
    void markChangeStart();
    // Tensors outlined as pushed out of the top panel by the current change.
    QStringList pushedOutTensors() const;

    // The step cursor (-1: none), drawn in every panel; the tensors live at it are outlined.
    void setCursorStep(int step);
    int cursorStep() const { return cursorStep_; }
    // Where the memory-in-use curve of `level` is highest: the step and the bytes live there
    // (-1, 0 for an empty panel).
    std::pair<int, qint64> mostInUse(const QString& level) const;
    // Placements of the shown plan live at `step`, in every level.
    std::vector<TensorPlacement> liveAt(int step) const;

    // The steps shown in the panel of `level` (all panels show the same after a zoom or pan with
    // the wheel or a drag); showAllSteps() returns to every step.
    std::pair<double, double> shownSteps(const QString& level) const;
    void showAllSteps();

    // The level whose panel shows the L3 traffic per step (empty: no such panel), and the bytes
    // drawn there for each step (empty when the plan does not give them).
    QString trafficLevel() const;
    std::vector<qint64> drawnTraffic() const;

    // Rectangles drawn in the panel of `level`.
    int rectangleCount(const QString& level) const;
    QString message() const;
    QString legendText() const;
    // Where the budget line crosses the middle of the top panel, in that panel's coordinates.
    QPoint budgetLinePoint() const;
    QWidget* l2Panel() const;
    QWidget* panel(const QString& level) const;  // nullptr when no panel shows `level`
    // Pixel of (`step`, `address`) in the panel of `level` (the top panel by default), in that
    // panel's coordinates.
    QPoint l2PointOf(double step, qint64 address) const;
    QPoint pointOf(const QString& level, double step, qint64 address) const;
    // The labels of the budget, peak and lower-bound lines, in the top panel's pixels.
    QList<QRectF> lineLabelRects() const;
    // The tensor drawn at (`step`, `address`) in the top panel, or an empty string.
    QString tensorAt(double step, qint64 address) const;
    void selectTensor(const QString& name);
    QString selectedTensor() const { return selected_; }

    // The timeline as shown (summary, legend, every panel) as a picture: .png or .svg by the name;
    // the problem, or an empty string. The panels stay vectors in SVG.
    QString exportImage(const QString& path) const;

    // How long a re-plan's moves take on screen (0: no animation).
    void setMoveDuration(int milliseconds);
    bool isMoving() const;
    // Tensors the running animation brings into `level`'s panel from another one.
    QStringList arrivingTensors(const QString& level) const;
    // Where a placement of the shown plan is drawn now: x in steps, y in bytes; nullopt when its
    // level has no panel.
    std::optional<QRectF> drawnRectangle(const TensorPlacement& placement) const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

signals:
    void budgetDragStarted();
    void budgetDragged(qint64 bytes);  // while the line moves
    void budgetChanged(qint64 bytes);  // when the user lets go
    void tensorSelected(const QString& name);
    void stepClicked(int step);        // a click on empty space of a panel

private:
    struct Panel;
    struct Moving;
    Panel& top() const { return *panels_.front(); }
    void applyPalette();
    void redraw();
    size_t drawingKey(const Panel& panel) const;
    void drawPanel(Panel& panel);
    void drawLines(Panel& panel);
    void drawCursor(Panel& panel);
    void drawInUse(Panel& panel);
    void drawTraffic(Panel& panel);
    static void placeRectangle(const Moving& motion, double progress);
    void drawLeaving(Panel& panel);
    void alignStepAxes();
    const Panel* panelOf(const QString& level) const; // nullptr for a level without a panel
    const Panel* panelOf(const QObject* plot) const;
    void onMoveFrame(double progress);
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    qint64 budgetAtPixel(double y) const;
    void onStepRangeChanged(double lower, double upper);
    void scheduleRelayout();  // lays labels and names out again once the event loop is free
    bool isCompact() const;
    void applySummary();
    QSet<QString> pushedOutOfTop(const HierarchyPlan& plan) const;

    std::vector<std::unique_ptr<Panel>> panels_;
    QLabel* summary_ = nullptr;
    QString pendingSummary_;
    QString shownSummary_;           // the whole text, whatever the label shows
    bool summaryCompact_ = false;
    static constexpr int kCompactBelowPixels = 480;  // shorter timelines get a one-line summary
    QLabel* legend_ = nullptr;
    QPlainTextEdit* message_ = nullptr;
    HierarchyPlan plan_;
    bool hasPlan_ = false;
    qint64 budget_ = 0;
    bool dragging_ = false;
    QString selected_;
    int cursorStep_ = -1;
    QSet<QString> baselineOut_;  // tensors out of the top panel when the current change began
    QSet<QString> pushedOut_;    // ... and those the change pushed out since
    QMultiHash<QString, TensorPlacement> previousPlacements_; // the plan shown before, by motion key
    QMultiHash<QString, QString> currentLevels_;             // motion key -> levels in this plan
    QVariantAnimation* moveAnimation_ = nullptr;
    double moveProgress_ = 1.0;
    int moveDurationMs_ = 350;
    bool relayoutPending_ = false;
    std::optional<std::pair<double, double>> stepRange_;  // zoomed or panned steps; none: all
    bool syncingSteps_ = false;
};

} // namespace tessera::views
