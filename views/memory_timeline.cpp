#include "memory_timeline.h"

#include "image_export.h"

#include <qcustomplot.h>

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

namespace {

constexpr double kKiB = 1024.0;
constexpr int kGrabPixels = 6;         // how close to the budget line a press starts a drag
constexpr int kMostNamedBlocks = 400;  // beyond this many rectangles a panel names none

const PlacementKind kKinds[] = {PlacementKind::Activation, PlacementKind::Constant, PlacementKind::Staging,
                                PlacementKind::Prefetch};

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

const QColor kBudgetColor(0xd0, 0x30, 0x30);
const QColor kLowerBoundColor(0x40, 0x80, 0x40);
const QColor kPushedOutColor(0xc0, 0x20, 0x20);

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

bool contains(const TensorPlacement& p, double step, qint64 address)
{
    return step >= double(p.lower) && step < double(p.upper) && address >= p.offset && address < p.offset + p.size;
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
    QStringList arriving;                // tensors coming from another panel
    std::vector<QCPItemText*> lineLabels;
    double keptTop = 0;                  // the y range never shrinks while one model is shown
    QCPGraph* inUse = nullptr;           // bytes live at each step (the memory-in-use curve)
    int mostInUseStep = -1;              // where that curve is highest, and how high
    std::int64_t mostInUse = 0;
    size_t drawn = 0;                    // what was drawn last (drawingKey); 0: nothing yet
};

MemoryTimeline::MemoryTimeline(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_->setContentsMargins(4, 2, 4, 0);
    summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // A fixed height, so a longer summary never moves the panels under a dragging pointer.
    summary_->setFixedHeight(summary_->fontMetrics().lineSpacing() * 3 + 4);
    summary_->setVisible(false);
    layout->addWidget(summary_);
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
                      "&#9646;&nbsp;step")
                  .arg(kBudgetColor.name(), kLowerBoundColor.name(), kPushedOutColor.name());
    legend_->setToolTip("budget: drag the red line; peak: the highest address used; lower bound: the least any "
                        "layout needs; in use: bytes live at each step, the most marked; pushed out: tensors the "
                        "last change moved out of the top panel; step: the step of the selected node");
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
        panel->plot->setMinimumHeight(panels_.empty() ? 140 : 90);
        panel->plot->xAxis->setLabel("step");
        panel->plot->yAxis->setLabel(level + "\n(KiB)");
        panel->plot->setMouseTracking(true);
        panel->plot->axisRect()->setAutoMargins(QCP::msTop | QCP::msRight | QCP::msBottom);
        panel->inUse = panel->plot->addGraph();
        panel->inUse->setLineStyle(QCPGraph::lsStepLeft);
        panel->inUse->setSelectable(QCP::stNone);
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

// Line labels and block names are laid out in pixels: a new size lays them out again (once the
// resizing settles).
void MemoryTimeline::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    scheduleRelayout();
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
    summary_->setText(text);
    summary_->setToolTip(text);
    summary_->setVisible(!text.isEmpty());
}

QString MemoryTimeline::summary() const { return pendingSummary_; }

QString MemoryTimeline::message() const { return message_->isHidden() ? QString() : message_->toPlainText(); }

QString MemoryTimeline::legendText() const
{
    QTextDocument document;
    document.setHtml(legend_->text());
    return document.toPlainText();
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

void MemoryTimeline::redraw()
{
    for (const std::unique_ptr<Panel>& panel : panels_) {
        panel->placements.clear();
        if (hasPlan_)
            for (const TensorPlacement& p : plan_.placements)
                if (QString::fromStdString(p.level) == panel->level)
                    panel->placements.push_back(&p);
    }
    alignStepAxes();
    for (const std::unique_ptr<Panel>& panel : panels_)
        drawPanel(*panel);
}

// Every panel gets the same left margin, wide enough for the widest address label of any of them,
// so one step sits at one x in all panels.
void MemoryTimeline::alignStepAxes()
{
    double widest = 1;
    for (const std::unique_ptr<Panel>& panel : panels_)
        for (const TensorPlacement* p : panel->placements)
            widest = std::max(widest, double(p->offset + p->size) / kKiB);
    widest = std::max({widest, double(budget_) / kKiB, top().keptTop});
    int margin = 0;
    for (const std::unique_ptr<Panel>& panel : panels_) {
        const QFontMetrics ticks(panel->plot->yAxis->tickLabelFont());
        const QFontMetrics label(panel->plot->yAxis->labelFont());
        margin = std::max(margin, ticks.horizontalAdvance(QString::number(qint64(widest * 1.2)) + ".5") +
                                      2 * label.height() + 24);
    }
    for (const std::unique_ptr<Panel>& panel : panels_) {
        QMargins margins = panel->plot->axisRect()->margins();
        margins.setLeft(margin);
        panel->plot->axisRect()->setMargins(margins);
    }
}

// Everything a panel's drawing depends on: when it has not changed (a re-plan that left this level
// alone), the panel is not drawn again.
size_t MemoryTimeline::drawingKey(const Panel& panel) const
{
    size_t key = 0x9e3779b9;
    const auto mix = [&key](size_t value) { key ^= value + 0x9e3779b97f4a7c15ULL + (key << 6) + (key >> 2); };
    for (const TensorPlacement* p : panel.placements) {
        mix(std::hash<std::string>()(p->tensor));
        for (const std::int64_t field : {p->offset, p->size, p->lower, p->upper, std::int64_t(p->kind)})
            mix(size_t(field));
        mix(pushedOut_.contains(QString::fromStdString(p->tensor)));
    }
    mix(qHash(selected_));
    if (stepRange_)
        mix(std::hash<double>()(stepRange_->first) ^ (std::hash<double>()(stepRange_->second) << 1));
    for (const std::int64_t field : {std::int64_t(cursorStep_), plan_.steps, std::int64_t(hasPlan_), std::int64_t(dragging_),
                                     std::int64_t(isMoving()), std::int64_t(panel.plot->width()),
                                     std::int64_t(panel.plot->height()), std::int64_t(panel.plot->axisRect()->margins().left()),
                                     std::int64_t(palette().cacheKey())})
        mix(size_t(field));
    if (&panel == &top())
        for (const std::int64_t field : {std::int64_t(budget_), plan_.l2.peak, plan_.l2.lowerBound})
            mix(size_t(field));
    return key == 0 ? 1 : key;
}

void MemoryTimeline::drawPanel(Panel& panel)
{
    const size_t key = drawingKey(panel);
    if (key == panel.drawn)
        return;
    panel.drawn = key;
    QCustomPlot* plot = panel.plot;
    plot->clearItems();
    panel.rectangles = 0;
    panel.moving.clear();
    panel.items.clear();
    panel.lineLabels.clear();
    const double steps = std::max<double>(1.0, double(plan_.steps));
    const bool isTop = &panel == &top();
    double highest = 0;
    for (const TensorPlacement* p : panel.placements)
        highest = std::max(highest, double(p->offset + p->size) / kKiB);
    if (isTop)
        highest = std::max(highest, double(budget_) / kKiB);
    syncingSteps_ = true;
    if (stepRange_)
        plot->xAxis->setRange(stepRange_->first, stepRange_->second);
    else
        plot->xAxis->setRange(0, steps);
    syncingSteps_ = false;
    // The scale only grows while a model is shown, so the budget line follows the pointer during a
    // drag and nothing jumps when it is let go.
    // (Before the first plan nothing is kept: a budget from another target must not set the scale.)
    const double needed = std::max(1.0, highest * (isTop ? 1.15 : 1.1));
    if (hasPlan_)
        panel.keptTop = std::max(needed, panel.keptTop);
    plot->yAxis->setRange(0, hasPlan_ ? panel.keptTop : needed);
    plot->yAxis->setLabel(panel.level + (panel.placements.empty() && hasPlan_ ? "\n(empty)" : "\n(KiB)"));
    // Tensors that come from another panel enter over the edge facing it (the top panel is drawn
    // above the others); those that left slide out over that edge and fade.
    const double otherPanelEdge = isTop ? -plot->yAxis->range().upper * kKiB * 0.2 : plot->yAxis->range().upper * kKiB;
    const bool animating = isMoving();
    const bool nameBlocks = !animating && !dragging_ && int(panel.placements.size()) <= kMostNamedBlocks;
    const QFontMetrics nameMetrics(plot->font());
    for (const TensorPlacement* p : panel.placements) {
        auto* rect = new QCPItemRect(plot);
        const QString name = QString::fromStdString(p->tensor);
        const bool picked = name == selected_;
        const bool pushed = pushedOut_.contains(name) && !isTop;
        const bool live = cursorStep_ >= p->lower && cursorStep_ < p->upper;
        QColor fill = kindColor(p->kind);
        fill.setAlpha(picked ? 255 : (cursorStep_ >= 0 && !live ? 120 : 200));
        rect->setBrush(fill);
        QPen pen(fill.darker(140), 1.0);
        if (picked)
            pen = QPen(palette().highlight().color(), 2.5);
        else if (pushed)
            pen = QPen(kPushedOutColor, 2.0);
        else if (live && cursorStep_ >= 0)
            pen = QPen(palette().color(QPalette::Text), 1.5);
        rect->setPen(pen);
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
            } else if (elsewhere) { // arrives from another panel
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
        // The tensor's name inside its block when the block is wide and tall enough to hold it.
        if (nameBlocks) {
            const double width = plot->xAxis->coordToPixel(double(p->upper)) - plot->xAxis->coordToPixel(double(p->lower));
            const double height = plot->yAxis->coordToPixel(double(p->offset) / kKiB) -
                                  plot->yAxis->coordToPixel(double(p->offset + p->size) / kKiB);
            if (height >= nameMetrics.height() && width >= nameMetrics.averageCharWidth() * 6) {
                auto* text = new QCPItemText(plot);
                text->setClipToAxisRect(true);
                text->position->setCoords((double(p->lower) + double(p->upper)) / 2,
                                          (double(p->offset) + double(p->size) / 2) / kKiB);
                text->setText(nameMetrics.elidedText(name, Qt::ElideMiddle, int(width) - 4));
                text->setColor(Qt::white);
                text->setSelectable(false);
            }
        }
    }
    if (animating)
        drawLeaving(panel);
    drawInUse(panel);
    if (isTop)
        drawLines(panel);
    drawCursor(panel);
    plot->replot(dragging_ || animating ? QCustomPlot::rpQueuedReplot : QCustomPlot::rpImmediateRefresh);
}

// The budget, peak and lower-bound lines of the top panel. Their labels sit at the right edge,
// moved apart vertically where lines are close, so they never cover one another.
void MemoryTimeline::drawLines(Panel& panel)
{
    QCustomPlot* plot = panel.plot;
    struct Line {
        double kib;
        QPen pen;
        QString label;
    };
    std::vector<Line> lines;
    if (hasPlan_) {
        lines.push_back({double(plan_.l2.peak) / kKiB, QPen(palette().color(QPalette::Text), 1, Qt::DashLine),
                         QString("peak %1 KiB").arg(double(plan_.l2.peak) / kKiB, 0, 'f', 1)});
        lines.push_back({double(plan_.l2.lowerBound) / kKiB, QPen(kLowerBoundColor, 1, Qt::DotLine),
                         QString("lower bound %1 KiB").arg(double(plan_.l2.lowerBound) / kKiB, 0, 'f', 1)});
    }
    if (budget_ > 0)  // 0: a target without an L2 budget (NVDLA)
        lines.push_back({double(budget_) / kKiB, QPen(kBudgetColor, 2),
                         QString("%1 budget %2 KiB (drag)").arg(panel.level).arg(double(budget_) / kKiB, 0, 'f', 1)});
    std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.kib > b.kib; });
    // Each label ends at its line, pushed down below the one above when they would meet, then up
    // again where that would take it under the panel's bottom.
    const double lineHeight = QFontMetricsF(plot->font()).height() + 2;
    std::vector<double> bottoms;
    double nextFree = -1e9;
    for (const Line& line : lines) {
        bottoms.push_back(std::max(plot->yAxis->coordToPixel(line.kib), nextFree + lineHeight));
        nextFree = bottoms.back();
    }
    double limit = plot->axisRect()->bottom();
    for (size_t k = bottoms.size(); k-- > 0;) {
        bottoms[k] = std::min(bottoms[k], limit);
        limit = bottoms[k] - lineHeight;
    }
    for (size_t k = 0; k < lines.size(); ++k) {
        const Line& line = lines[k];
        auto* straight = new QCPItemStraightLine(plot);
        straight->point1->setCoords(0, line.kib);
        straight->point2->setCoords(1, line.kib);
        straight->setPen(line.pen);
        auto* text = new QCPItemText(plot);
        text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
        text->position->setTypeY(QCPItemPosition::ptAbsolute);
        text->position->setCoords(0.995, bottoms[k]);
        text->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
        text->setText(line.label);
        text->setColor(line.pen.color());
        QColor backing = palette().color(QPalette::Base);
        backing.setAlpha(210);
        text->setBrush(backing);
        panel.lineLabels.push_back(text);
    }
}

// The bytes live at each step as a step curve over the blocks, its highest point marked: the most the
// level holds at once (the address peak above it is that plus the gaps the layout leaves).
void MemoryTimeline::drawInUse(Panel& panel)
{
    const std::int64_t steps = std::max<std::int64_t>(1, plan_.steps);
    std::vector<double> bytes(std::size_t(steps), 0.0);
    for (const TensorPlacement* p : panel.placements)
        for (std::int64_t step = std::max<std::int64_t>(0, p->lower); step < std::min(steps, p->upper); ++step)
            bytes[std::size_t(step)] += double(p->size);
    QVector<double> keys, values;
    for (std::int64_t step = 0; step < steps; ++step) {
        keys << double(step);
        values << bytes[std::size_t(step)] / kKiB;
    }
    keys << double(steps);
    values << values.back();
    const bool shown = hasPlan_ && !panel.placements.empty();
    panel.inUse->setVisible(shown);
    panel.inUse->setPen(QPen(palette().color(QPalette::Text), 1.5));
    panel.inUse->setData(keys, values, true);
    if (!shown)
        return;
    const auto most = std::max_element(bytes.begin(), bytes.end());
    auto* mark = new QCPItemTracer(panel.plot);
    mark->setGraph(panel.inUse);
    mark->setGraphKey(double(most - bytes.begin()) + 0.5);
    mark->setStyle(QCPItemTracer::tsCircle);
    mark->setSize(7);
    mark->setPen(QPen(palette().color(QPalette::Text), 1.5));
    mark->setBrush(palette().color(QPalette::Base));
    mark->setSelectable(false);
    panel.mostInUseStep = int(most - bytes.begin());
    panel.mostInUse = std::int64_t(*most);
}

// The selected step as a band across the panel.
void MemoryTimeline::drawCursor(Panel& panel)
{
    if (cursorStep_ < 0)
        return;
    auto* band = new QCPItemRect(panel.plot);
    for (QCPItemPosition* corner : {band->topLeft, band->bottomRight})
        corner->setTypeY(QCPItemPosition::ptAxisRectRatio);
    band->topLeft->setCoords(double(cursorStep_), 0);
    band->bottomRight->setCoords(double(cursorStep_ + 1), 1);
    QColor shade = palette().color(QPalette::Highlight);
    band->setPen(QPen(shade, 1.5));
    shade.setAlpha(45);
    band->setBrush(shade);
    band->setSelectable(false);
}

// What the last re-plan moved from this panel to another one: dashed rectangles that slide out
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
        const double exit = &panel == &top() ? -double(before->size) - range * 0.2 : range * 1.2;
        const Moving motion{rect, double(before->lower), double(before->upper), double(before->offset), exit,
                            double(before->size), fill, 200, 0};
        panel.moving.push_back(motion);
        placeRectangle(motion, moveProgress_);
    }
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
    for (const std::unique_ptr<Panel>& panel : panels_) {
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
