#include "memory_timeline.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QVariantAnimation>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::views {

namespace {

constexpr double kKiB = 1024.0;
constexpr int kGrabPixels = 6; // how close to the budget line a press starts a drag

QColor kindColor(PlacementKind kind)
{
    switch (kind) {
    case PlacementKind::Activation: return QColor(0x4a, 0x86, 0xc8);
    case PlacementKind::Constant: return QColor(0xd9, 0x9a, 0x2b);
    case PlacementKind::Staging: return QColor(0x8c, 0x8c, 0x8c);
    case PlacementKind::Prefetch: return QColor(0x5a, 0xa8, 0x6a);
    }
    return Qt::gray;
}

// One placement across plans: the same tensor, kind and first step (a tensor can have several
// placements, e.g. a constant's L2 copy and its flash image, or a spilled tensor's staging buffer).
QString motionKey(const TensorPlacement& p)
{
    return QString("%1|%2|%3").arg(QString::fromStdString(p.tensor)).arg(int(p.kind)).arg(p.lower);
}

QString describe(const TensorPlacement& p)
{
    return QString("%1 (%2)\n%3 offset %4, %5 bytes\nsteps %6-%7\n%8")
        .arg(QString::fromStdString(p.tensor), QString::fromStdString(placementKindName(p.kind)),
             QString::fromStdString(p.level))
        .arg(p.offset)
        .arg(p.size)
        .arg(p.lower)
        .arg(p.upper - 1)
        .arg(QString::fromStdString(p.reason));
}

} // namespace

struct MemoryTimeline::Moving {
    QCPItemRect* rect = nullptr;
    double lower = 0, upper = 0;          // steps
    double fromOffset = 0, toOffset = 0;  // bytes
    double size = 0;
    QColor fill;
    int fromAlpha = 0, toAlpha = 0;
};

struct MemoryTimeline::Panel {
    QCustomPlot* plot = nullptr;
    QString level;
    std::vector<const TensorPlacement*> placements;
    int rectangles = 0;
    QHash<QString, QCPItemRect*> items;  // the rectangles of `placements`, by motionKey
    std::vector<Moving> moving;          // what the running move animation moves in this panel
    QStringList arriving;                // tensors coming from the other panel
};

MemoryTimeline::MemoryTimeline(QWidget* parent) : QWidget(parent), l2_(std::make_unique<Panel>()), l3_(std::make_unique<Panel>())
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setVisible(false);
    message_->setStyleSheet("QLabel { color: #b00020; padding: 4px; }");
    layout->addWidget(message_);
    for (Panel* panel : {l2_.get(), l3_.get()}) {
        panel->plot = new QCustomPlot(this);
        panel->plot->setMinimumHeight(140);
        panel->plot->xAxis->setLabel("step");
        panel->plot->yAxis->setLabel("address (KiB)");
        panel->plot->setMouseTracking(true);
        layout->addWidget(panel->plot, panel == l2_.get() ? 3 : 2);
    }
    l2_->level = "L2";
    applyPalette();
    connect(l2_->plot, &QCustomPlot::mousePress, this, &MemoryTimeline::onPress);
    connect(l2_->plot, &QCustomPlot::mouseMove, this, &MemoryTimeline::onMove);
    connect(l2_->plot, &QCustomPlot::mouseRelease, this, &MemoryTimeline::onRelease);
    connect(l3_->plot, &QCustomPlot::mouseMove, this, &MemoryTimeline::onMove);
    connect(l3_->plot, &QCustomPlot::mousePress, this, &MemoryTimeline::onPress);
}

MemoryTimeline::~MemoryTimeline() = default;

// The plots take the window's colours, so a dark system palette gives dark plots.
void MemoryTimeline::applyPalette()
{
    const QColor text = palette().color(QPalette::Text);
    const QColor grid = palette().color(QPalette::Mid);
    for (Panel* panel : {l2_.get(), l3_.get()}) {
        QCustomPlot* plot = panel->plot;
        plot->setBackground(palette().brush(QPalette::Base));
        for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setLabelColor(text);
            axis->setTickLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
        }
    }
}

void MemoryTimeline::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPalette();
        redraw();
    }
}

void MemoryTimeline::clear()
{
    hasPlan_ = false;
    plan_ = {};
    message_->setVisible(false);
    previouslyInL3_.clear();
    newlyInL3_.clear();
    previousPlacements_.clear();
    if (moveAnimation_)
        moveAnimation_->stop();
    moveProgress_ = 1.0;
    redraw();
}

void MemoryTimeline::showPlan(const HierarchyPlan& plan, qint64 l2Budget)
{
    // Where everything was, so the change can be shown moving.
    previousPlacements_.clear();
    if (hasPlan_)
        for (const TensorPlacement& p : plan_.placements)
            previousPlacements_.insert(motionKey(p), p);
    currentLevels_.clear();
    for (const TensorPlacement& p : plan.placements)
        currentLevels_.insert(motionKey(p), QString::fromStdString(p.level));
    QSet<QString> inL3;
    for (const TensorPlacement& p : plan.placements)
        if (p.kind == PlacementKind::Activation && QString::fromStdString(p.level) != l2_->level)
            inL3.insert(QString::fromStdString(p.tensor));
    newlyInL3_ = hasPlan_ ? inL3 - previouslyInL3_ : QSet<QString>();
    previouslyInL3_ = inL3;
    plan_ = plan;
    hasPlan_ = true;
    budget_ = l2Budget;
    message_->setVisible(false);
    l2_->arriving.clear();
    l3_->arriving.clear();
    if (moveAnimation_)
        moveAnimation_->stop();
    moveProgress_ = 1.0;
    if (!previousPlacements_.isEmpty() && moveDurationMs_ > 0) {
        if (!moveAnimation_) {
            moveAnimation_ = new QVariantAnimation(this);
            moveAnimation_->setStartValue(0.0);
            moveAnimation_->setEndValue(1.0);
            moveAnimation_->setEasingCurve(QEasingCurve::InOutCubic);
            connect(moveAnimation_, &QVariantAnimation::valueChanged, this,
                    [this](const QVariant& value) { onMoveFrame(value.toDouble()); });
            connect(moveAnimation_, &QVariantAnimation::finished, this, [this] {
                moveProgress_ = 1.0;
                redraw(); // drops what left each panel
            });
        }
        moveAnimation_->setDuration(moveDurationMs_);
        moveProgress_ = 0.0;
    }
    redraw();
    if (moveProgress_ < 1.0)
        moveAnimation_->start();
}

void MemoryTimeline::showProblem(const QString& message, qint64 l2Budget)
{
    budget_ = l2Budget;
    message_->setText(message);
    message_->setVisible(true);
    redraw();
}

void MemoryTimeline::setPrimaryLevel(const QString& level)
{
    if (l2_->level == level)
        return;
    l2_->level = level;
    l2_->plot->yAxis->setLabel(level == "L2" ? "address (KiB)" : level + " address (KiB)");
    previousPlacements_.clear();  // nothing moves between the levels of different targets
    redraw();
}

void MemoryTimeline::setBudget(qint64 bytes)
{
    budget_ = bytes;
    redraw();
}

int MemoryTimeline::rectangleCount(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel ? panel->rectangles : 0;
}

QString MemoryTimeline::message() const { return message_->isVisible() ? message_->text() : QString(); }

QWidget* MemoryTimeline::l2Panel() const { return l2_->plot; }

QPoint MemoryTimeline::budgetLinePoint() const
{
    const QCPAxisRect* rect = l2_->plot->axisRect();
    const double y = l2_->plot->yAxis->coordToPixel(double(budget_) / kKiB);
    return QPoint(int(rect->center().x()), int(std::lround(y)));
}

QPoint MemoryTimeline::l2PointOf(double step, qint64 address) const
{
    return QPoint(int(std::lround(l2_->plot->xAxis->coordToPixel(step))),
                  int(std::lround(l2_->plot->yAxis->coordToPixel(double(address) / kKiB))));
}

qint64 MemoryTimeline::budgetAtPixel(double y) const
{
    return std::max<qint64>(0, qint64(std::llround(l2_->plot->yAxis->pixelToCoord(y) * kKiB)));
}

QString MemoryTimeline::tensorAt(double step, qint64 address) const
{
    for (const TensorPlacement* p : l2_->placements)
        if (step >= double(p->lower) && step < double(p->upper) && address >= p->offset && address < p->offset + p->size)
            return QString::fromStdString(p->tensor);
    return {};
}

void MemoryTimeline::selectTensor(const QString& name)
{
    selected_ = name;
    redraw();
}

void MemoryTimeline::redraw()
{
    l3_->level.clear();
    for (const TensorPlacement& p : plan_.placements)
        if (QString::fromStdString(p.level) != l2_->level && hasPlan_) {
            l3_->level = QString::fromStdString(p.level);
            break;
        }
    for (Panel* panel : {l2_.get(), l3_.get()}) {
        panel->placements.clear();
        if (hasPlan_)
            for (const TensorPlacement& p : plan_.placements)
                if (QString::fromStdString(p.level) == panel->level && !panel->level.isEmpty())
                    panel->placements.push_back(&p);
        drawPanel(*panel);
    }
}

void MemoryTimeline::drawPanel(Panel& panel)
{
    QCustomPlot* plot = panel.plot;
    plot->clearItems();
    panel.rectangles = 0;
    panel.moving.clear();
    panel.items.clear();
    const double steps = std::max<double>(1.0, double(plan_.steps));
    double top = 0;
    for (const TensorPlacement* p : panel.placements)
        top = std::max(top, double(p->offset + p->size) / kKiB);
    plot->xAxis->setRange(0, steps);
    if (&panel == l2_.get()) {
        top = std::max(top, double(budget_) / kKiB);
        // While the line is dragged the scale stays put (it only grows), so the line follows the
        // pointer instead of the axis sliding under it; the release fits the scale again.
        const double upper = std::max(1.0, top * 1.15);
        plot->yAxis->setRange(0, dragging_ ? std::max(upper, plot->yAxis->range().upper) : upper);
    } else {
        plot->yAxis->setLabel(panel.level.isEmpty() ? "L3 (nothing spilled)" : panel.level + " address (KiB)");
        plot->yAxis->setRange(0, std::max(1.0, top * 1.1));
    }
    // Tensors that come from the other panel enter over the edge facing it (L2 is drawn above L3);
    // those that left slide out over that edge and fade.
    const bool isL2 = &panel == l2_.get();
    const double otherPanelEdge = isL2 ? -plot->yAxis->range().upper * kKiB * 0.2 : plot->yAxis->range().upper * kKiB;
    const bool animating = isMoving();
    for (const TensorPlacement* p : panel.placements) {
        auto* rect = new QCPItemRect(plot);
        const QString name = QString::fromStdString(p->tensor);
        const bool picked = name == selected_;
        const bool moved = newlyInL3_.contains(name) && &panel == l3_.get();
        QColor fill = kindColor(p->kind);
        fill.setAlpha(picked ? 255 : 200);
        rect->setBrush(fill);
        rect->setPen(QPen(picked ? palette().highlight().color() : (moved ? QColor(0xc0, 0x20, 0x20) : fill.darker(140)),
                          picked || moved ? 2.0 : 1.0));
        Moving motion{rect, double(p->lower), double(p->upper), double(p->offset), double(p->offset), double(p->size),
                      fill, fill.alpha(), fill.alpha()};
        const QString key = motionKey(*p);
        if (animating) {
            const TensorPlacement* here = nullptr;
            bool elsewhere = false;
            for (auto before = previousPlacements_.constFind(key); before != previousPlacements_.constEnd() && before.key() == key;
                 ++before) {
                if (QString::fromStdString(before->level) == panel.level)
                    here = &*before;
                else
                    elsewhere = true;
            }
            if (here) {
                motion.fromOffset = double(here->offset);
            } else if (elsewhere) { // arrives from the other panel
                motion.fromOffset = otherPanelEdge;
                motion.fromAlpha = 0;
                panel.arriving << name;
            }
        }
        if (motion.fromOffset != motion.toOffset || motion.fromAlpha != motion.toAlpha)
            panel.moving.push_back(motion);
        placeRectangle(motion, animating ? moveProgress_ : 1.0);
        panel.items.insert(key, rect);
        ++panel.rectangles;
    }
    if (animating)
        drawLeaving(panel);
    if (isL2) {
        const double budget = double(budget_) / kKiB;
        // Labels at the left (budget), middle (lower bound) and right (peak) so close lines stay readable.
        auto horizontal = [&](double y, QPen pen, const QString& label, double xFraction, Qt::Alignment align) {
            auto* line = new QCPItemStraightLine(plot);
            line->point1->setCoords(0, y);
            line->point2->setCoords(1, y);
            line->setPen(pen);
            auto* text = new QCPItemText(plot);
            text->position->setType(QCPItemPosition::ptPlotCoords);
            text->position->setCoords(steps * xFraction, y);
            text->setPositionAlignment(align | Qt::AlignBottom);
            text->setText(label);
            text->setColor(pen.color());
        };
        if (hasPlan_) {
            horizontal(double(plan_.l2.peak) / kKiB, QPen(palette().color(QPalette::Text), 1, Qt::DashLine),
                       QString("peak %1 KiB").arg(double(plan_.l2.peak) / kKiB, 0, 'f', 1), 1.0, Qt::AlignRight);
            horizontal(double(plan_.l2.lowerBound) / kKiB, QPen(QColor(0x40, 0x80, 0x40), 1, Qt::DotLine),
                       QString("lower bound %1 KiB").arg(double(plan_.l2.lowerBound) / kKiB, 0, 'f', 1), 0.5,
                       Qt::AlignHCenter);
        }
        if (budget_ > 0)  // 0: a target without an L2 budget (NVDLA)
            horizontal(budget, QPen(QColor(0xd0, 0x30, 0x30), 2),
                       QString("L2 budget %1 KiB (drag)").arg(budget, 0, 'f', 1), 0.0, Qt::AlignLeft);
    }
    plot->replot(dragging_ || animating ? QCustomPlot::rpQueuedReplot : QCustomPlot::rpImmediateRefresh);
}

// What the last re-plan moved from this panel to the other one: dashed rectangles that slide out
// over the edge facing it and fade.
void MemoryTimeline::drawLeaving(Panel& panel)
{
    const double range = panel.plot->yAxis->range().upper * kKiB;
    for (auto before = previousPlacements_.constBegin(); before != previousPlacements_.constEnd(); ++before) {
        if (QString::fromStdString(before->level) != panel.level || panel.items.contains(before.key()) ||
            !currentLevels_.contains(before.key()))
            continue;
        auto* rect = new QCPItemRect(panel.plot);
        QColor fill = kindColor(before->kind);
        fill.setAlpha(200);
        rect->setBrush(fill);
        rect->setPen(QPen(fill.darker(140), 1.0, Qt::DashLine));
        const double exit = &panel == l2_.get() ? -double(before->size) - range * 0.2 : range * 1.2;
        const Moving motion{rect, double(before->lower), double(before->upper), double(before->offset), exit,
                            double(before->size), fill, 200, 0};
        panel.moving.push_back(motion);
        placeRectangle(motion, moveProgress_);
    }
}

const MemoryTimeline::Panel* MemoryTimeline::panelOf(const QString& level) const
{
    if (level == l2_->level)
        return l2_.get();
    return !level.isEmpty() && level == l3_->level ? l3_.get() : nullptr;
}

void MemoryTimeline::placeRectangle(const Moving& motion, double progress)
{
    const double offset = motion.fromOffset + (motion.toOffset - motion.fromOffset) * progress;
    motion.rect->topLeft->setCoords(motion.lower, (offset + motion.size) / kKiB);
    motion.rect->bottomRight->setCoords(motion.upper, offset / kKiB);
    QColor fill = motion.fill;
    fill.setAlpha(int(std::lround(motion.fromAlpha + (motion.toAlpha - motion.fromAlpha) * progress)));
    motion.rect->setBrush(fill);
}

void MemoryTimeline::onMoveFrame(double progress)
{
    moveProgress_ = progress;
    for (Panel* panel : {l2_.get(), l3_.get()}) {
        for (const Moving& motion : panel->moving)
            placeRectangle(motion, progress);
        panel->plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MemoryTimeline::setMoveDuration(int milliseconds) { moveDurationMs_ = std::max(0, milliseconds); }

bool MemoryTimeline::isMoving() const { return moveAnimation_ && moveProgress_ < 1.0; }

QStringList MemoryTimeline::arrivingTensors(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel && isMoving() ? panel->arriving : QStringList();
}

std::optional<QRectF> MemoryTimeline::drawnRectangle(const TensorPlacement& placement) const
{
    const Panel* panel = panelOf(QString::fromStdString(placement.level));
    const QString key = motionKey(placement);
    if (!panel || !panel->items.contains(key))
        return std::nullopt;
    const QCPItemRect* rect = panel->items.value(key);
    return QRectF(QPointF(rect->topLeft->coords().x(), rect->bottomRight->coords().y() * kKiB),
                  QPointF(rect->bottomRight->coords().x(), rect->topLeft->coords().y() * kKiB));
}

void MemoryTimeline::onPress(QMouseEvent* event)
{
    auto* plot = qobject_cast<QCustomPlot*>(sender());
    const QPointF position = event->position();
    if (plot == l2_->plot && std::abs(position.y() - budgetLinePoint().y()) <= kGrabPixels) {
        dragging_ = true;
        return;
    }
    const double step = plot->xAxis->pixelToCoord(position.x());
    const qint64 address = qint64(plot->yAxis->pixelToCoord(position.y()) * kKiB);
    const Panel& panel = plot == l2_->plot ? *l2_ : *l3_;
    for (const TensorPlacement* p : panel.placements)
        if (step >= double(p->lower) && step < double(p->upper) && address >= p->offset && address < p->offset + p->size) {
            selectTensor(QString::fromStdString(p->tensor));
            emit tensorSelected(selected_);
            return;
        }
}

void MemoryTimeline::onMove(QMouseEvent* event)
{
    auto* plot = qobject_cast<QCustomPlot*>(sender());
    if (dragging_ && plot == l2_->plot) {
        budget_ = budgetAtPixel(event->position().y());
        drawPanel(*l2_);
        emit budgetDragged(budget_);
        return;
    }
    const double step = plot->xAxis->pixelToCoord(event->position().x());
    const qint64 address = qint64(plot->yAxis->pixelToCoord(event->position().y()) * kKiB);
    const Panel& panel = plot == l2_->plot ? *l2_ : *l3_;
    for (const TensorPlacement* p : panel.placements)
        if (step >= double(p->lower) && step < double(p->upper) && address >= p->offset && address < p->offset + p->size) {
            QToolTip::showText(event->globalPosition().toPoint(), describe(*p), plot);
            return;
        }
    QToolTip::hideText();
}

void MemoryTimeline::onRelease(QMouseEvent* event)
{
    if (!dragging_)
        return;
    dragging_ = false;
    budget_ = budgetAtPixel(event->position().y());
    drawPanel(*l2_);
    emit budgetChanged(budget_);
}

} // namespace tessera::views
