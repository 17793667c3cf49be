// Drawing the memory timeline's panels: the blocks (moving after a re-plan), their names, the
// budget, peak and lower-bound lines, the memory-in-use curve and the step cursor. A panel whose
// drawing has not changed is not drawn again.
#include "memory_timeline.h"
#include "memory_timeline_parts.h"

#include <QFontMetrics>

#include <algorithm>
#include <cmath>

namespace tessera::views {

using namespace timeline;

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
    // The right margin holds the traffic scale of the second panel, and the same room in the others.
    int right = 12;
    if (panels_.size() > 1 && hasPlan_ && !plan_.stepTraffic.empty()) {
        const double most = double(*std::max_element(plan_.stepTraffic.begin(), plan_.stepTraffic.end())) / kKiB;
        const QCPAxis* axis = panels_[1]->plot->yAxis2;
        right = QFontMetrics(axis->tickLabelFont()).horizontalAdvance(QString::number(qint64(most * 1.2)) + ".5") +
                2 * QFontMetrics(axis->labelFont()).height() + 24;
    }
    for (const std::unique_ptr<Panel>& panel : panels_) {
        QMargins margins = panel->plot->axisRect()->margins();
        margins.setLeft(margin);
        margins.setRight(right);
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
    if (panel.traffic)
        for (const std::int64_t bytes : plan_.stepTraffic)
            mix(size_t(bytes));
    mix(size_t(panel.plot->axisRect()->margins().right()));
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
    drawTraffic(panel);
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

// The bytes moved between L3 and L2 at each step, as bars against the panel's right scale.
void MemoryTimeline::drawTraffic(Panel& panel)
{
    if (!panel.traffic)
        return;
    const bool shown = hasPlan_ && !plan_.stepTraffic.empty();
    panel.traffic->setVisible(shown);
    panel.plot->yAxis2->setVisible(shown);
    if (!shown) {
        panel.traffic->data()->clear();
        return;
    }
    QVector<double> keys, values;
    double most = 0;
    for (std::size_t step = 0; step < plan_.stepTraffic.size(); ++step) {
        keys << double(step) + 0.5;
        values << double(plan_.stepTraffic[step]) / kKiB;
        most = std::max(most, values.back());
    }
    panel.traffic->setData(keys, values, true);
    QColor fill = kTrafficColor;
    fill.setAlpha(150);
    panel.traffic->setBrush(fill);
    panel.traffic->setPen(QPen(kTrafficColor, 1));
    panel.plot->yAxis2->setRange(0, most > 0 ? most * 1.15 : 1.0);
    panel.plot->yAxis2->setLabel(most > 0 ? "L3 traffic\n(KiB/step)" : "L3 traffic\n(none)");
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

} // namespace tessera::views
