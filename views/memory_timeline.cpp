#include "memory_timeline.h"
#include "memory_timeline_parts.h"

#include "image_export.h"

#include <QLabel>
#include <QPicture>
#include <QPlainTextEdit>
#include <QTextDocument>
#include <QTimer>
#include <QToolTip>
#include <QVariantAnimation>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace tessera::views {

using namespace timeline;

MemoryTimeline::MemoryTimeline(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    summary_ = new QLabel(this);
    summary_->setObjectName("summary");
    summary_->setWordWrap(true);
    // Its width follows the timeline's: a one-line (elided) summary must not hold the dock wide.
    summary_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setContentsMargins(4, 2, 4, 0);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(summary_);
    // A fixed height, so a longer summary never moves the panels under a dragging pointer (the
    // height follows the timeline's own, see applySummary); hidden until there is one.
    applySummary();
    legend_ = new QLabel(this);
    legend_->setTextFormat(Qt::RichText);
    legend_->setWordWrap(true);
    legend_->setContentsMargins(4, 2, 4, 0);
    // Short words, so the legend takes two lines at most; each entry's tooltip-free meaning is in
    // the README.
    QString legend;
    for (PlacementKind kind : kKinds)
        legend += QString("<span style='color:%1'>&#9632;</span>&nbsp;%2&nbsp;&nbsp; ")
                      .arg(kindColor(kind).name(), QString::fromStdString(placementKindName(kind)));
    legend += QString("<span style='color:%1'>&#9473;</span>&nbsp;budget&nbsp;&nbsp; &#9476;&nbsp;peak&nbsp;&nbsp; "
                      "<span style='color:%2'>&#8230;</span>&nbsp;lower bound&nbsp;&nbsp; "
                      "&#9472;&#9675;&nbsp;in use&nbsp;&nbsp; "
                      "<span style='color:%3'>&#9633;</span>&nbsp;pushed out&nbsp;&nbsp; "
                      "&#9646;&nbsp;step&nbsp;&nbsp; "
                      "<span style='color:%4'>&#9647;</span>&nbsp;L3 traffic")
                  .arg(kBudgetColor.name(), kLowerBoundColor.name(), kPushedOutColor.name(), kTrafficColor.name());
    legend_->setToolTip("budget: drag the red line; peak: the highest address used; lower bound: the least any "
                        "layout needs; in use: bytes live at each step, the most marked; pushed out: tensors the "
                        "last change moved out of the top panel; step: the step of the selected node; L3 traffic: bytes "
                        "moved between L3 and L2 at each step (right scale of the second panel)");
    legend_->setText(legend);
    layout->addWidget(legend_);
    // Why there is no plan: a long list for a model with many refused nodes, so it scrolls in a
    // box of a few lines instead of squeezing the panels.
    message_ = new QPlainTextEdit(this);
    message_->setReadOnly(true);
    message_->setVisible(false);
    message_->setStyleSheet("QPlainTextEdit { color: #b00020; }");
    message_->setMaximumHeight(message_->fontMetrics().lineSpacing() * 7 + 8);
    layout->addWidget(message_);
    setLevels({"L2", "L3 RAM", "flash"});
}

MemoryTimeline::~MemoryTimeline() = default;

void MemoryTimeline::setLevels(const QStringList& levels)
{
    if (levels.isEmpty() || levels == this->levels())
        return;
    for (const std::unique_ptr<Panel>& panel : panels_)
        delete panel->plot;
    panels_.clear();
    auto* layout = static_cast<QVBoxLayout*>(this->layout());
    for (const QString& level : levels) {
        auto panel = std::make_unique<Panel>();
        panel->level = level;
        panel->plot = new QCustomPlot(this);
        panel->plot->setMinimumHeight(panels_.empty() ? 100 : 64);
        panel->plot->yAxis->setLabel(level + "\n(KiB)");
        panel->plot->setMouseTracking(true);
        // Left and right margins are set by alignStepAxes, alike in every panel.
        panel->plot->axisRect()->setAutoMargins(QCP::msTop | QCP::msBottom);
        panel->inUse = panel->plot->addGraph();
        panel->inUse->setLineStyle(QCPGraph::lsStepLeft);
        panel->inUse->setSelectable(QCP::stNone);
        if (panels_.size() == 1) {  // the level under the top one: L3 RAM
            panel->traffic = new QCPBars(panel->plot->xAxis, panel->plot->yAxis2);
            panel->traffic->setWidth(0.8);
            panel->traffic->setSelectable(QCP::stNone);
            panel->plot->yAxis2->setLabel("L3 traffic\n(KiB/step)");
        }
        layout->addWidget(panel->plot, panels_.empty() ? 3 : 2);
        connect(panel->plot, &QCustomPlot::mousePress, this, &MemoryTimeline::onPress);
        connect(panel->plot, &QCustomPlot::mouseMove, this, &MemoryTimeline::onMove);
        connect(panel->plot, &QCustomPlot::mouseRelease, this, &MemoryTimeline::onRelease);
        // Zoom (wheel) and pan (drag) along the steps, all panels together; a double click shows all.
        panel->plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
        panel->plot->axisRect()->setRangeDrag(Qt::Horizontal);
        panel->plot->axisRect()->setRangeZoom(Qt::Horizontal);
        connect(panel->plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
                [this](const QCPRange& range) { onStepRangeChanged(range.lower, range.upper); });
        connect(panel->plot, &QCustomPlot::mouseDoubleClick, this, [this] { showAllSteps(); });
        panels_.push_back(std::move(panel));
    }
    // The step axes line up, so only the lowest panel names them: the others keep that height.
    panels_.back()->plot->xAxis->setLabel("step");
    previousPlacements_.clear();  // nothing moves between the levels of different targets
    applyPalette();
    redraw();
}

QStringList MemoryTimeline::levels() const
{
    QStringList names;
    for (const std::unique_ptr<Panel>& panel : panels_)
        names << panel->level;
    return names;
}

// The plots take the window's colours, so a dark system palette gives dark plots.
void MemoryTimeline::applyPalette()
{
    const QColor text = palette().color(QPalette::Text);
    const QColor grid = palette().color(QPalette::Mid);
    for (const std::unique_ptr<Panel>& panel : panels_) {
        QCustomPlot* plot = panel->plot;
        plot->setBackground(palette().brush(QPalette::Base));
        for (QCPAxis* axis : {plot->xAxis, plot->yAxis, plot->yAxis2}) {
            axis->setBasePen(QPen(text));
            axis->setTickPen(QPen(text));
            axis->setSubTickPen(QPen(text));
            axis->setLabelColor(text);
            axis->setTickLabelColor(text);
            axis->grid()->setPen(QPen(grid, 0, Qt::DotLine));
        }
    }
}

// Line labels and block names are laid out in pixels: a new size lays them out again (once the
// resizing settles).
void MemoryTimeline::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    if (isCompact() != summaryCompact_ || (summaryCompact_ && event->size().width() != event->oldSize().width()))
        applySummary();
    scheduleRelayout();
}

bool MemoryTimeline::isCompact() const { return height() < kCompactBelowPixels; }

// A tall timeline shows the whole summary on three lines; a short one (a small window) gives the
// panels that room and shows one line, elided, the whole text in the tooltip and the status bar.
void MemoryTimeline::applySummary()
{
    summaryCompact_ = isCompact();
    const int lines = summaryCompact_ ? 1 : 3;
    summary_->setWordWrap(!summaryCompact_);
    summary_->setFixedHeight(summary_->fontMetrics().lineSpacing() * lines + 4);
    const int room = std::max(40, width() - 8);
    summary_->setText(summaryCompact_ ? summary_->fontMetrics().elidedText(shownSummary_, Qt::ElideRight, room)
                                      : shownSummary_);
    summary_->setToolTip(shownSummary_);
    summary_->setVisible(!shownSummary_.isEmpty());
}

void MemoryTimeline::scheduleRelayout()
{
    if (!relayoutPending_) {
        relayoutPending_ = true;
        QTimer::singleShot(0, this, [this] {
            relayoutPending_ = false;
            redraw();
        });
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
    baselineOut_.clear();
    pushedOut_.clear();
    previousPlacements_.clear();
    cursorStep_ = -1;
    selected_.clear();
    stepRange_.reset();
    for (const std::unique_ptr<Panel>& panel : panels_)
        panel->keptTop = 0;
    if (moveAnimation_)
        moveAnimation_->stop();
    moveProgress_ = 1.0;
    redraw();
}

QSet<QString> MemoryTimeline::pushedOutOfTop(const HierarchyPlan& plan) const
{
    QSet<QString> out;
    for (const TensorPlacement& p : plan.placements)
        if (p.kind == PlacementKind::Activation && QString::fromStdString(p.level) != top().level)
            out.insert(QString::fromStdString(p.tensor));
    return out;
}

void MemoryTimeline::markChangeStart()
{
    baselineOut_ = hasPlan_ ? pushedOutOfTop(plan_) : QSet<QString>();
    pushedOut_.clear();
    redraw();
}

QStringList MemoryTimeline::pushedOutTensors() const
{
    QStringList names(pushedOut_.begin(), pushedOut_.end());
    names.sort();
    return names;
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
    const QSet<QString> out = pushedOutOfTop(plan);
    if (!hasPlan_)
        baselineOut_ = out;  // the first plan of a model changes nothing
    pushedOut_ = out - baselineOut_;
    if (plan.steps != plan_.steps)
        stepRange_.reset();  // another graph's steps
    plan_ = plan;
    hasPlan_ = true;
    budget_ = l2Budget;
    message_->setVisible(false);
    for (const std::unique_ptr<Panel>& panel : panels_)
        panel->arriving.clear();
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
                redraw(); // drops what left each panel, names the blocks
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
    message_->setPlainText(message);
    message_->setVisible(true);
    redraw();
}

void MemoryTimeline::setBudget(qint64 bytes)
{
    budget_ = bytes;
    redraw();
}

void MemoryTimeline::setCursorStep(int step)
{
    const int clamped = hasPlan_ && step >= 0 && step < plan_.steps ? step : -1;
    if (clamped == cursorStep_)
        return;
    cursorStep_ = clamped;
    redraw();
}

std::vector<TensorPlacement> MemoryTimeline::liveAt(int step) const
{
    std::vector<TensorPlacement> live;
    for (const TensorPlacement& p : plan_.placements)
        if (step >= p.lower && step < p.upper)
            live.push_back(p);
    return live;
}

int MemoryTimeline::rectangleCount(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel ? panel->rectangles : 0;
}

// The steps shown, zoomed or panned in one panel: every panel shows the same ones, within the plan.
void MemoryTimeline::onStepRangeChanged(double lower, double upper)
{
    if (syncingSteps_)
        return;
    const double steps = std::max<double>(1.0, double(plan_.steps));
    const double width = std::clamp(upper - lower, std::min(2.0, steps), steps);
    lower = std::clamp(lower, 0.0, steps - width);
    const bool all = lower <= 0 && width >= steps;
    stepRange_ = all ? std::nullopt : std::optional<std::pair<double, double>>({lower, lower + width});
    syncingSteps_ = true;
    for (const std::unique_ptr<Panel>& panel : panels_) {
        panel->plot->xAxis->setRange(lower, lower + width);
        panel->plot->replot(QCustomPlot::rpQueuedReplot);
    }
    syncingSteps_ = false;
    scheduleRelayout();  // block names fit the new widths once the zoom settles
}

void MemoryTimeline::showAllSteps()
{
    stepRange_.reset();
    onStepRangeChanged(0, std::max<double>(1.0, double(plan_.steps)));
}

std::pair<int, qint64> MemoryTimeline::mostInUse(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel && hasPlan_ && !panel->placements.empty() ? std::pair<int, qint64>(panel->mostInUseStep, panel->mostInUse)
                                                           : std::pair<int, qint64>(-1, 0);
}

std::pair<double, double> MemoryTimeline::shownSteps(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel ? std::pair{panel->plot->xAxis->range().lower, panel->plot->xAxis->range().upper} : std::pair{0.0, 0.0};
}

QString MemoryTimeline::exportImage(const QString& path) const
{
    return writeImage(path, hasPlan_ ? size() : QSize(), "memory timeline", [&](QPainter& painter) {
        painter.fillRect(rect(), palette().color(QPalette::Window));
        for (const QLabel* label : {summary_, legend_}) {
            if (label->isHidden())
                continue;
            QTextDocument text;
            text.setHtml(label == legend_ ? label->text() : label->text().toHtmlEscaped());
            text.setTextWidth(label->width());
            painter.save();
            painter.translate(label->geometry().topLeft());
            text.drawContents(&painter);
            painter.restore();
        }
        for (const std::unique_ptr<Panel>& panel : panels_) {
            // QCustomPlot draws through a painter of its own: recorded as vector commands first.
            QPicture picture;
            QCPPainter recorder(&picture);
            panel->plot->toPainter(&recorder, panel->plot->width(), panel->plot->height());
            recorder.end();
            painter.drawPicture(panel->plot->geometry().topLeft(), picture);
        }
    });
}

void MemoryTimeline::setSummary(const QString& text)
{
    // Wrapping the text costs milliseconds: while the line is dragged the last one waits for the release.
    pendingSummary_ = text;
    if (dragging_)
        return;
    shownSummary_ = text;
    applySummary();
}

QString MemoryTimeline::message() const { return message_->isHidden() ? QString() : message_->toPlainText(); }

QString MemoryTimeline::legendText() const
{
    QTextDocument document;
    document.setHtml(legend_->text());
    return document.toPlainText();
}

QString MemoryTimeline::trafficLevel() const { return panels_.size() > 1 ? panels_[1]->level : QString(); }

std::vector<qint64> MemoryTimeline::drawnTraffic() const
{
    std::vector<qint64> bytes;
    if (panels_.size() < 2 || !panels_[1]->traffic->visible())
        return bytes;
    for (auto bar = panels_[1]->traffic->data()->constBegin(); bar != panels_[1]->traffic->data()->constEnd(); ++bar)
        bytes.push_back(qint64(std::llround(bar->value * kKiB)));
    return bytes;
}

QWidget* MemoryTimeline::l2Panel() const { return top().plot; }

QWidget* MemoryTimeline::panel(const QString& level) const
{
    const Panel* panel = panelOf(level);
    return panel ? panel->plot : nullptr;
}

QPoint MemoryTimeline::budgetLinePoint() const
{
    const QCPAxisRect* rect = top().plot->axisRect();
    const double y = top().plot->yAxis->coordToPixel(double(budget_) / kKiB);
    return QPoint(int(rect->center().x()), int(std::lround(y)));
}

QPoint MemoryTimeline::l2PointOf(double step, qint64 address) const { return pointOf(top().level, step, address); }

QPoint MemoryTimeline::pointOf(const QString& level, double step, qint64 address) const
{
    const Panel* panel = panelOf(level);
    if (!panel)
        return {};
    return QPoint(int(std::lround(panel->plot->xAxis->coordToPixel(step))),
                  int(std::lround(panel->plot->yAxis->coordToPixel(double(address) / kKiB))));
}

QList<QRectF> MemoryTimeline::lineLabelRects() const
{
    QList<QRectF> rects;
    for (const QCPItemText* label : top().lineLabels)
        rects << QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
    return rects;
}

qint64 MemoryTimeline::budgetAtPixel(double y) const
{
    return std::max<qint64>(0, qint64(std::llround(top().plot->yAxis->pixelToCoord(y) * kKiB)));
}

QString MemoryTimeline::tensorAt(double step, qint64 address) const
{
    for (const TensorPlacement* p : top().placements)
        if (contains(*p, step, address))
            return QString::fromStdString(p->tensor);
    return {};
}

void MemoryTimeline::selectTensor(const QString& name)
{
    selected_ = name;
    redraw();
}

const MemoryTimeline::Panel* MemoryTimeline::panelOf(const QString& level) const
{
    for (const std::unique_ptr<Panel>& panel : panels_)
        if (!level.isEmpty() && panel->level == level)
            return panel.get();
    return nullptr;
}

const MemoryTimeline::Panel* MemoryTimeline::panelOf(const QObject* plot) const
{
    for (const std::unique_ptr<Panel>& panel : panels_)
        if (panel->plot == plot)
            return panel.get();
    return nullptr;
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
    const Panel* panel = panelOf(sender());
    if (!panel)
        return;
    const QPointF position = event->position();
    if (panel == &top() && budget_ > 0 && std::abs(position.y() - budgetLinePoint().y()) <= kGrabPixels) {
        dragging_ = true;
        top().plot->setInteraction(QCP::iRangeDrag, false);  // the line moves, not the steps
        markChangeStart();
        emit budgetDragStarted();
        return;
    }
    const double step = panel->plot->xAxis->pixelToCoord(position.x());
    const qint64 address = qint64(panel->plot->yAxis->pixelToCoord(position.y()) * kKiB);
    for (const TensorPlacement* p : panel->placements)
        if (contains(*p, step, address)) {
            selectTensor(QString::fromStdString(p->tensor));
            emit tensorSelected(selected_);
            return;
        }
    if (hasPlan_ && step >= 0 && step < double(plan_.steps) && panel->plot->axisRect()->rect().contains(position.toPoint()))
        emit stepClicked(int(std::floor(step)));
}

void MemoryTimeline::onMove(QMouseEvent* event)
{
    const Panel* panel = panelOf(sender());
    if (!panel)
        return;
    if (dragging_ && panel == &top()) {
        budget_ = budgetAtPixel(event->position().y());
        drawPanel(top());
        emit budgetDragged(budget_);
        return;
    }
    const double step = panel->plot->xAxis->pixelToCoord(event->position().x());
    const qint64 address = qint64(panel->plot->yAxis->pixelToCoord(event->position().y()) * kKiB);
    for (const TensorPlacement* p : panel->placements)
        if (contains(*p, step, address)) {
            QToolTip::showText(event->globalPosition().toPoint(), describe(*p), panel->plot);
            return;
        }
    if (panel->traffic && panel->traffic->visible() && step >= 0 && step < double(plan_.stepTraffic.size())) {
        QToolTip::showText(event->globalPosition().toPoint(),
                           QString("step %1: %2 bytes moved between L3 and L2")
                               .arg(int(step))
                               .arg(plan_.stepTraffic[std::size_t(step)]),
                           panel->plot);
        return;
    }
    QToolTip::hideText();
}

void MemoryTimeline::onRelease(QMouseEvent* event)
{
    if (!dragging_)
        return;
    dragging_ = false;
    top().plot->setInteraction(QCP::iRangeDrag, true);
    budget_ = budgetAtPixel(event->position().y());
    drawPanel(top());
    setSummary(pendingSummary_);
    emit budgetChanged(budget_);
}

} // namespace tessera::views
