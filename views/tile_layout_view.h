#pragma once
// The tile layout of one user kernel: every argument drawn as a plane to scale with its tile grid
// (a line where each tile starts), the overlap each tile shares with the previous one shaded, and
// a short last tile highlighted; promoted arguments shown whole in L1, scratch buffers labelled.
// Below, L1 as a bar of the kernel's buffers at their offsets (double buffers as two slots),
// the free space and the budget. Hovering a plane or a buffer tells its sizes, buffering and DMA.
#include "tiler/tiling.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

#include <cstdint>
#include <optional>

class QGraphicsScene;
class QGraphicsSimpleTextItem;
class QGraphicsView;

namespace tessera::views {

class TileLayoutView : public QWidget {
    Q_OBJECT

public:
    // What was drawn for one argument, for tests and for whoever links to it.
    struct ArgumentDrawing {
        QString name;
        QString kind;                // "input", "output", "in-out", "scratch" or "promoted"
        bool verticalTiles = false;  // tiles are column ranges, so the grid lines are vertical
        int gridLines = 0;           // tile boundaries drawn inside the plane
        int gridStride = 1;          // every how many tiles a boundary is drawn (thin tiles: not each)
        int overlapBands = 0;        // shaded bands shared by consecutive tiles
        bool lastTileHighlighted = false;
        QString toolTip;
    };
    struct L1Segment {
        QString name;
        quint64 offset = 0;
        quint64 bytes = 0;     // all slots together
        int bufferSlots = 1;   // 2 for a double buffer
        QString kind;
    };

    explicit TileLayoutView(QWidget* parent = nullptr);

    // Draws `tiling` (its kernel and arguments must stay alive only during the call).
    void showTiling(const tiler::KernelTiling& tiling, std::uint64_t l1Budget);
    // A kernel without a tiling at this budget: the message replaces the drawing.
    void showProblem(const QString& kernelName, const QString& message);
    void clear();

    QString kernelName() const { return kernel_; }
    QString message() const { return message_; }
    const QList<ArgumentDrawing>& arguments() const { return arguments_; }
    const ArgumentDrawing* argument(const QString& name) const;
    int gridLineCount(const QString& argument) const;
    const QList<L1Segment>& l1Segments() const { return segments_; }
    std::uint64_t l1Budget() const { return budget_; }
    QGraphicsScene* scene() const { return scene_; }

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void redraw();
    void fitScene();
    double drawArgument(const tiler::KernelTiling& tiling, const tiler::ArgTiling& arg, double x, double scale);
    void drawL1Bar(const tiler::KernelTiling& tiling, double top, double width);
    void drawLegend(double top);
    QGraphicsSimpleTextItem* addLabel(const QString& text, QPointF at, const QColor& color, bool bold = false);

    // A private copy of what is shown (its arguments point into shownKernel_), so a palette change
    // can redraw without the caller's objects.
    std::optional<tiler::UserKernel> shownKernel_;
    std::optional<tiler::KernelTiling> shownTiling_;
    QGraphicsScene* scene_ = nullptr;
    QGraphicsView* view_ = nullptr;
    QString kernel_;
    QString message_;
    std::uint64_t budget_ = 0;
    QList<ArgumentDrawing> arguments_;
    QList<L1Segment> segments_;
};

} // namespace tessera::views
