#include "graph_minimap.h"

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>

namespace tessera::views {

namespace {

constexpr int kMargin = 8;   // from the viewport's corner
constexpr int kBorder = 3;   // inside the frame

} // namespace

GraphMinimap::GraphMinimap(QGraphicsView* view) : QWidget(view->viewport()), view_(view)
{
    setCursor(Qt::PointingHandCursor);
    setToolTip("Overview: click or drag to move the view");
    hide();
}

void GraphMinimap::invalidate()
{
    stale_ = true;
    follow();
}

void GraphMinimap::follow()
{
    const QRectF scene = view_->sceneRect();
    const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    // Shown while part of the graph is out of view, and when the viewport has room for it.
    const bool wanted = !view_->scene()->items().isEmpty() && !visible.contains(scene) &&
                        view_->viewport()->width() > 3 * kMaxSide && view_->viewport()->height() > 2 * kMaxSide;
    if (!wanted) {
        hide();
        return;
    }
    const double aspect = scene.width() / std::max(scene.height(), 1.0);
    const int width = aspect >= 1 ? kMaxSide : std::max(40, int(kMaxSide * aspect));
    const int height = aspect >= 1 ? std::max(40, int(kMaxSide / aspect)) : kMaxSide;
    const QSize size(width + 2 * kBorder, height + 2 * kBorder);
    if (this->size() != size) {
        resize(size);
        stale_ = true;
    }
    move(view_->viewport()->width() - size.width() - kMargin, view_->viewport()->height() - size.height() - kMargin);
    show();
    raise();
    update();
}

QRectF GraphMinimap::pictureRect() const
{
    const QRectF scene = view_->sceneRect();
    const QRectF box = QRectF(rect()).adjusted(kBorder, kBorder, -kBorder, -kBorder);
    const double scale = std::min(box.width() / std::max(scene.width(), 1.0), box.height() / std::max(scene.height(), 1.0));
    const QSizeF drawn(scene.width() * scale, scene.height() * scale);
    return QRectF(box.center() - QPointF(drawn.width() / 2, drawn.height() / 2), drawn);
}

QPointF GraphMinimap::toMinimap(QPointF at) const
{
    const QRectF scene = view_->sceneRect();
    const QRectF picture = pictureRect();
    return {picture.left() + (at.x() - scene.left()) / std::max(scene.width(), 1.0) * picture.width(),
            picture.top() + (at.y() - scene.top()) / std::max(scene.height(), 1.0) * picture.height()};
}

QPointF GraphMinimap::toScene(QPointF at) const
{
    const QRectF scene = view_->sceneRect();
    const QRectF picture = pictureRect();
    return {scene.left() + (at.x() - picture.left()) / std::max(picture.width(), 1.0) * scene.width(),
            scene.top() + (at.y() - picture.top()) / std::max(picture.height(), 1.0) * scene.height()};
}

QRectF GraphMinimap::outline() const
{
    const QRectF visible = view_->mapToScene(view_->viewport()->rect()).boundingRect();
    return QRectF(toMinimap(visible.topLeft()), toMinimap(visible.bottomRight())).intersected(pictureRect());
}

void GraphMinimap::paintEvent(QPaintEvent*)
{
    if (stale_ || picture_.size() != size() * devicePixelRatioF()) {
        // The scene drawn once per change, not on every scroll.
        picture_ = QPixmap(size() * devicePixelRatioF());
        picture_.setDevicePixelRatio(devicePixelRatioF());
        picture_.fill(Qt::transparent);
        QPainter painter(&picture_);
        painter.setRenderHint(QPainter::Antialiasing);
        view_->scene()->render(&painter, pictureRect(), view_->sceneRect(), Qt::KeepAspectRatio);
        stale_ = false;
    }
    QPainter painter(this);
    QColor background = palette().color(QPalette::Base);
    background.setAlpha(235);
    painter.fillRect(rect(), background);
    painter.setPen(QPen(palette().color(QPalette::Mid), 1));
    painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    painter.drawPixmap(0, 0, picture_);
    QColor highlight = palette().color(QPalette::Highlight);
    painter.setPen(QPen(highlight, 1.5));
    highlight.setAlpha(40);
    painter.setBrush(highlight);
    painter.drawRect(outline());
}

void GraphMinimap::centreViewOn(QPointF widgetPoint)
{
    view_->centerOn(toScene(widgetPoint));
    follow();
}

void GraphMinimap::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        centreViewOn(event->position());
}

void GraphMinimap::mouseMoveEvent(QMouseEvent* event)
{
    if (event->buttons() & Qt::LeftButton)
        centreViewOn(event->position());
}

} // namespace tessera::views
