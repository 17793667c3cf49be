#pragma once
// The memory timeline: one panel per level (L2 on top, L3 RAM below); x is the execution step,
// y the address. Every placed tensor is a rectangle coloured by kind (activation, constant,
// staging, prefetch); the L2 peak and lower bound are marked, and the L2 budget is a line the
// user drags. When a re-plan moves tensors, they are shown moving: rectangles glide to their new
// offsets, those pushed to L3 drop out of L2 into the L3 panel (and back up when they return), and
// the ones newly pushed to L3 stay outlined in red.
#include "memory/hierarchy_planner.h"

#include <QHash>
#include <QRectF>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QCustomPlot;
class QLabel;
class QMouseEvent;
class QVariantAnimation;

namespace tessera::views {

class MemoryTimeline : public QWidget {
    Q_OBJECT

public:
    explicit MemoryTimeline(QWidget* parent = nullptr);
    ~MemoryTimeline() override;

    void showPlan(const HierarchyPlan& plan, qint64 l2Budget);
    // A budget the planner rejected: the line stays where the user put it, the message shows
    // (budget 0: no line, for a target without an L2 budget).
    void showProblem(const QString& message, qint64 l2Budget);
    void clear();

    // The level the upper panel draws ("L2", the default; "DRAM scratch" for NVDLA); the lower panel
    // draws the plan's other level.
    void setPrimaryLevel(const QString& level);

    qint64 budget() const { return budget_; }
    // Moves the budget line without emitting a signal.
    void setBudget(qint64 bytes);

    // Rectangles drawn in the panel of `level` ("L2" or the L3 level's name).
    int rectangleCount(const QString& level) const;
    QString message() const;
    // Where the budget line crosses the middle of the L2 panel, in that panel's coordinates.
    QPoint budgetLinePoint() const;
    QWidget* l2Panel() const;
    // Pixel of (`step`, `address`) in the L2 panel's coordinates.
    QPoint l2PointOf(double step, qint64 address) const;
    // The tensor drawn at (`step`, `address`) in the L2 panel, or an empty string.
    QString tensorAt(double step, qint64 address) const;
    void selectTensor(const QString& name);
    QString selectedTensor() const { return selected_; }

    // How long a re-plan's moves take on screen (0: no animation).
    void setMoveDuration(int milliseconds);
    bool isMoving() const;
    // Tensors the running animation brings into `level`'s panel from the other one.
    QStringList arrivingTensors(const QString& level) const;
    // Where a placement of the shown plan is drawn now: x in steps, y in bytes; nullopt when its
    // level has no panel.
    std::optional<QRectF> drawnRectangle(const TensorPlacement& placement) const;

protected:
    void changeEvent(QEvent* event) override;

signals:
    void budgetDragged(qint64 bytes);  // while the line moves
    void budgetChanged(qint64 bytes);  // when the user lets go
    void tensorSelected(const QString& name);

private:
    struct Panel;
    struct Moving;
    void applyPalette();
    void redraw();
    void drawPanel(Panel& panel);
    static void placeRectangle(const Moving& motion, double progress);
    void drawLeaving(Panel& panel);
    const Panel* panelOf(const QString& level) const; // nullptr for a level without a panel
    void onMoveFrame(double progress);
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void onRelease(QMouseEvent* event);
    qint64 budgetAtPixel(double y) const;

    std::unique_ptr<Panel> l2_;
    std::unique_ptr<Panel> l3_;
    QLabel* message_ = nullptr;
    HierarchyPlan plan_;
    bool hasPlan_ = false;
    qint64 budget_ = 0;
    bool dragging_ = false;
    QString selected_;
    QSet<QString> previouslyInL3_;
    QSet<QString> newlyInL3_;
    QMultiHash<QString, TensorPlacement> previousPlacements_; // the plan shown before, by motion key
    QMultiHash<QString, QString> currentLevels_;             // motion key -> levels in this plan
    QVariantAnimation* moveAnimation_ = nullptr;
    double moveProgress_ = 1.0;
    int moveDurationMs_ = 350;
};

} // namespace tessera::views
