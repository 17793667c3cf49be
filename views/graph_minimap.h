#pragma once
// The graph view's overview: the whole graph in a small picture in the view's lower right corner,
// with the part the view shows outlined. Clicking or dragging in it moves the view there. It is
// shown only while the view does not show the whole graph.
#include <QPixmap>
#include <QWidget>

class QGraphicsView;

namespace tessera::views {

class GraphMinimap : public QWidget {
    Q_OBJECT

public:
    // An overlay on `view`'s viewport, drawing `view`'s scene.
    explicit GraphMinimap(QGraphicsView* view);

    // The scene changed (a new graph, colours, marks): draw the picture again when next shown.
    void invalidate();
    // The view scrolled, zoomed or resized: place, show or hide the overview, move the outline.
    void follow();

    // Where the view's visible part is outlined, in this widget's pixels.
    QRectF outline() const;
    // The widget point that stands for scene point `at`, and the reverse.
    QPointF toMinimap(QPointF at) const;
    QPointF toScene(QPointF at) const;

    static constexpr int kMaxSide = 180;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    void centreViewOn(QPointF widgetPoint);
    QRectF pictureRect() const;  // where the scene is drawn inside this widget

    QGraphicsView* view_;
    QPixmap picture_;
    bool stale_ = true;
};

} // namespace tessera::views
