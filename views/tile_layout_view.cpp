#include "tile_layout_view.h"

#include "byte_sizes.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QHash>
#include <QVBoxLayout>

#include <algorithm>

namespace tessera::views {

using tiler::ArgResidence;
using tiler::ArgTiling;
using tiler::KernelTiling;
using tiler::Orientation;

namespace {

constexpr double kMargin = 12;
constexpr double kPlaneSide = 190;    // the largest argument dimension, in scene pixels
constexpr double kMinPlaneSide = 14;  // a 5x5 filter next to a 200-line image stays visible
constexpr double kStackDepth = 5;     // offset of the planes drawn behind a 3-D argument
constexpr double kColumnGap = 28;
constexpr double kMinColumn = 170;
constexpr double kBarHeight = 44;
constexpr double kMinBarWidth = 640;
constexpr double kMinScale = 0.55;    // below this the labels stop being readable: scroll instead
constexpr double kMinGridSpacing = 5; // closer tile boundaries would draw as moire stripes

const char* const kKinds[] = {"input", "output", "in-out", "promoted", "scratch"};

// Mid-tone colours that read on light and dark backgrounds alike.
QColor kindColor(const QString& kind)
{
    static const QHash<QString, QColor> colors{{"input", QColor(0x4a, 0x86, 0xc8)},
                                               {"output", QColor(0x5a, 0xa8, 0x6a)},
                                               {"in-out", QColor(0x9a, 0x6f, 0xc8)},
                                               {"promoted", QColor(0xd9, 0x80, 0x2b)}};
    return colors.value(kind, QColor(0x8c, 0x8c, 0x8c));
}
QColor overlapColor() { return QColor(0xf2, 0xc0, 0x3a, 160); }
QColor lastTileColor() { return QColor(0xd0, 0x3c, 0x8c, 130); }
QColor budgetColor() { return QColor(0xd8, 0x3a, 0x3a); }
QColor textOn(const QColor& fill) { return fill.lightnessF() > 0.62 ? Qt::black : Qt::white; }

QString kindOf(const ArgTiling& arg)
{
    if (arg.residence == ArgResidence::Scratch)
        return "scratch";
    if (arg.residence == ArgResidence::Promoted)
        return "promoted";
    if (arg.isInput() && arg.isOutput())
        return "in-out";
    return arg.isOutput() ? "output" : "input";
}

QString unitText(const ArgTiling& arg, unsigned count)
{
    const bool horizontal = arg.orientation == Orientation::Horizontal;
    return QString::number(count) + (horizontal ? (count == 1 ? " line" : " lines") : (count == 1 ? " column" : " columns"));
}

unsigned overlapOf(const ArgTiling& arg)
{
    if (arg.dynamic)
        return arg.arg->tileOverlap;
    return arg.tileSize > arg.step ? arg.tileSize - arg.step : 0;
}

// Draw every `gridStride`-th tile boundary: 1 when boundaries are kMinGridSpacing apart or more,
// else the smallest of 2, 5, 10, 20, 50, ... that spaces them so.
unsigned gridStride(double spacing)
{
    if (spacing >= kMinGridSpacing)
        return 1;
    const double needed = kMinGridSpacing / std::max(spacing, 1e-9);
    for (unsigned decade = 1;; decade *= 10)
        for (unsigned step : {2u, 5u, 10u})
            if (double(step * decade) >= needed || step * decade >= 1000000000u)
                return step * decade;
}

bool hasTileGrid(const KernelTiling& tiling, const ArgTiling& arg)
{
    return arg.tiled && arg.residence == ArgResidence::Streamed && tiling.tileCountOf(arg) > 1 && arg.extent > 0;
}

QString describe(const KernelTiling& tiling, const ArgTiling& arg)
{
    const tiler::KernelArgument& model = *arg.arg;
    QString buffering = arg.bufferCount == 2 ? "streamed, double-buffered" : "streamed, single buffer";
    if (arg.residence == ArgResidence::Promoted)
        buffering = "promoted: moved whole into L1 once";
    if (arg.residence == ArgResidence::Scratch)
        buffering = "scratch buffer in L1 only, no DMA";
    QStringList lines{QString("%1: %2, %3").arg(QString::fromStdString(model.name), kindOf(arg), buffering)};
    lines << QString("%1 × %2 items of %3 B, %4 plane(s) of %5")
                 .arg(model.width).arg(model.height).arg(model.itemSize).arg(arg.planeCount).arg(exactBytes(arg.planeBytes));
    if (arg.residence == ArgResidence::Streamed && arg.tiled)
        lines << QString("%1 %2 %3tile(s) of %4, last %5, step %6%7")
                     .arg(tiling.tileCountOf(arg))
                     .arg(arg.orientation == Orientation::Horizontal ? "horizontal" : "vertical")
                     .arg(arg.outer ? "outer " : "")
                     .arg(unitText(arg, arg.tileSize), unitText(arg, arg.lastTileSize),
                          (arg.dynamic ? "about " : "") + unitText(arg, arg.step))
                     .arg(overlapOf(arg) ? ", overlap " + unitText(arg, overlapOf(arg)) : QString());
    else if (arg.residence == ArgResidence::Streamed)
        lines << "untiled: each chunk is a whole plane";
    if (arg.residence == ArgResidence::Scratch && model.has(tiler::ArgFlag::DynTile))
        lines << QString("one entry per tile (%1 tiles)").arg(tiling.tileCount);
    if (arg.chunkPlanes > 1)
        lines << QString("one chunk holds %1 planes of the chunked loop (the last %2)")
                     .arg(arg.chunkPlanes)
                     .arg(tiling.chunkedLoop()->lastChunk());
    if (arg.acrossInPlanes)
        lines << QString("one chunk holds all %1 input planes").arg(arg.planesPerChunk / arg.chunkPlanes);
    else if (arg.carriesOutPlanes)
        lines << QString("one chunk holds all %1 output planes").arg(arg.planesPerChunk);
    lines << QString("L1: %1 at offset %2")
                 .arg(arg.bufferCount == 2 ? "2 × " + exactBytes(arg.chunkBytes) : exactBytes(arg.l1Bytes))
                 .arg(arg.l1Offset);
    if (!arg.arg->sharesBufferOf.empty())
        lines << QString("the buffer of %1, which this output is written from (KerArgAliased)")
                     .arg(QString::fromStdString(arg.arg->sharesBufferOf));
    if (arg.residence != ArgResidence::Scratch)
        lines << QString("DMA: %1 L2 → L1, %2 L1 → L2").arg(exactBytes(arg.dmaRead), exactBytes(arg.dmaWrite));
    if (arg.stagedInL2)
        lines << QString("home in L3, staged through %1 × %2 of L2 at offset %3; L3: %4 in, %5 out")
                     .arg(arg.l2BufferCount).arg(exactBytes(arg.chunkBytes)).arg(arg.l2Offset)
                     .arg(exactBytes(arg.l3Read), exactBytes(arg.l3Write));
    return lines.join('\n');
}

} // namespace

TileLayoutView::TileLayoutView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    scene_ = new QGraphicsScene(this);
    view_ = new QGraphicsView(scene_, this);
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    layout->addWidget(view_);
    redraw();
}

void TileLayoutView::showTiling(const KernelTiling& tiling, std::uint64_t l1Budget)
{
    // Copy the kernel and point the copied arguments at it, so nothing refers to the caller's model.
    shownKernel_ = *tiling.kernel;
    KernelTiling copy = tiling;
    copy.kernel = &*shownKernel_;
    copy.args.clear();
    for (const ArgTiling& arg : tiling.args)
        for (std::size_t i = 0; i < tiling.kernel->args.size(); ++i)
            if (&tiling.kernel->args[i] == arg.arg) {
                copy.args.push_back(arg);
                copy.args.back().arg = &shownKernel_->args[i];
            }
    shownTiling_ = std::move(copy);
    kernel_ = QString::fromStdString(tiling.kernel->name);
    message_.clear();
    budget_ = l1Budget;
    redraw();
}

void TileLayoutView::showProblem(const QString& kernelName, const QString& message)
{
    shownTiling_.reset();
    shownKernel_.reset();
    kernel_ = kernelName;
    message_ = message;
    redraw();
}

void TileLayoutView::clear()
{
    budget_ = 0;
    showProblem({}, {});
}

const TileLayoutView::ArgumentDrawing* TileLayoutView::argument(const QString& name) const
{
    for (const ArgumentDrawing& drawing : arguments_)
        if (drawing.name == name)
            return &drawing;
    return nullptr;
}

int TileLayoutView::gridLineCount(const QString& argument) const
{
    const ArgumentDrawing* drawing = this->argument(argument);
    return drawing ? drawing->gridLines : -1;
}

void TileLayoutView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitScene();
}

void TileLayoutView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        redraw();
}

void TileLayoutView::fitScene()
{
    view_->resetTransform();
    const QRectF rect = scene_->sceneRect();
    const QSize viewport = view_->viewport()->size();
    if (rect.width() <= 0 || rect.height() <= 0 || viewport.isEmpty())
        return;
    const double fit = std::min(double(viewport.width()) / rect.width(), double(viewport.height()) / rect.height());
    const double scale = std::clamp(fit, kMinScale, 1.0);
    view_->scale(scale, scale);
}

void TileLayoutView::redraw()
{
    scene_->clear();
    arguments_.clear();
    segments_.clear();
    const QColor text = palette().color(QPalette::Text);
    if (!shownTiling_) {
        QString note = "Open a tiling report (File > Open tiling report...) to see its kernels' tiles.";
        if (!message_.isEmpty())
            note = kernel_ + ": no tiling at this L1 budget.\n\n" + message_;
        else if (!kernel_.isEmpty())
            note.clear();
        QGraphicsTextItem* item = scene_->addText(note);
        item->setTextWidth(560);
        item->setDefaultTextColor(message_.isEmpty() ? text : budgetColor());
        item->setPos(kMargin, kMargin);
        scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-kMargin, -kMargin, kMargin, kMargin));
        fitScene();
        return;
    }
    const KernelTiling& tiling = *shownTiling_;
    const ArgTiling* reference = tiling.referenceArg();
    // Two-level tiling: the reference argument's loop first, then the other one's count.
    const bool outerReference = reference && reference->outer;
    const unsigned referenceTiles = outerReference ? tiling.outerTileCount : tiling.tileCount;
    QString title = QString("%1: %2 %3tile(s)").arg(kernel_).arg(referenceTiles).arg(outerReference ? "outer " : "");
    if (reference && referenceTiles > 1)
        title += " of " + unitText(*reference, reference->tileSize);
    if (reference && referenceTiles > 1 && reference->lastTileSize != reference->tileSize)
        title += " (last " + unitText(*reference, reference->lastTileSize) + ")";
    if (tiling.kernel->outerTiles)
        title += outerReference ? QString(", each with %1 inner tile(s)").arg(tiling.tileCount)
                                : QString(" in each of %1 outer tile(s)").arg(tiling.outerTileCount);
    title += QString(", L1 %1 of %2, DMA %3 in, %4 out")
                 .arg(exactBytes(tiling.l1Bytes), exactBytes(budget_), exactBytes(tiling.dmaRead), exactBytes(tiling.dmaWrite));
    addLabel(title, {kMargin, kMargin}, text, true);

    unsigned largest = 1;
    for (const ArgTiling& arg : tiling.args)
        largest = std::max({largest, arg.arg->width, arg.arg->height});
    const double scale = kPlaneSide / largest;
    double x = kMargin;
    for (const ArgTiling& arg : tiling.args)
        x += drawArgument(tiling, arg, x, scale) + kColumnGap;
    const double planesBottom = scene_->itemsBoundingRect().bottom();
    drawL1Bar(tiling, planesBottom + 22, std::max(kMinBarWidth, x - kColumnGap - kMargin));
    scene_->setSceneRect(scene_->itemsBoundingRect().adjusted(-kMargin, -kMargin, kMargin, kMargin));
    fitScene();
}

// Draws one argument's column (name, sizes, the plane and its tiles, a summary line) at `x`;
// returns the column's width.
double TileLayoutView::drawArgument(const KernelTiling& tiling, const ArgTiling& arg, double x, double scale)
{
    const tiler::KernelArgument& model = *arg.arg;
    const QColor text = palette().color(QPalette::Text);
    ArgumentDrawing drawing;
    drawing.name = QString::fromStdString(model.name);
    drawing.kind = kindOf(arg);
    drawing.verticalTiles = arg.orientation == Orientation::Vertical;
    drawing.toolTip = describe(tiling, arg);
    const QColor color = kindColor(drawing.kind);
    const double top = kMargin + 30;
    QGraphicsSimpleTextItem* name = addLabel(drawing.name, {x, top}, text, true);
    const QString planes = arg.planeCount > 1 ? QString(", %1 planes").arg(arg.planeCount) : QString();
    QGraphicsSimpleTextItem* sizes = addLabel(
        QString("%1 × %2, %3 B items%4").arg(model.width).arg(model.height).arg(model.itemSize).arg(planes), {x, top + 18}, text);

    // Planes behind the first one suggest the depth of a 3-D or 4-D argument.
    const int behind = int(std::min(arg.planeCount, 3u)) - 1;
    const double w = std::max(model.width * scale, kMinPlaneSide);
    const double h = std::max(model.height * scale, kMinPlaneSide);
    const double planeTop = top + 42;
    const QRectF plane(x, planeTop + behind * kStackDepth, w, h);
    for (int s = behind; s >= 1; --s)
        scene_->addRect(plane.translated(s * kStackDepth, -s * kStackDepth), QPen(color, 1), QBrush(palette().color(QPalette::Base)));
    QColor fill = color;
    fill.setAlpha(arg.residence == ArgResidence::Promoted ? 170 : 70);
    QGraphicsRectItem* body = scene_->addRect(plane, QPen(color, 1.5), fill);
    body->setToolTip(drawing.toolTip);
    if (arg.residence == ArgResidence::Scratch)
        scene_->addRect(plane, Qt::NoPen, QBrush(color, Qt::BDiagPattern))->setToolTip(drawing.toolTip);

    QString summary;
    if (arg.residence == ArgResidence::Scratch)
        summary = "scratch buffer (L1 only)";
    else if (arg.residence == ArgResidence::Promoted)
        summary = "promoted: whole in L1";
    else if (!arg.tiled)
        summary = "untiled: whole plane per chunk";
    else
        summary = QString("%1 %2tile(s) of %3")
                      .arg(tiling.tileCountOf(arg))
                      .arg(arg.outer ? "outer " : "")
                      .arg(unitText(arg, arg.tileSize));
    if (arg.residence == ArgResidence::Streamed)
        summary += arg.bufferCount == 2 ? ", double buffer" : ", single buffer";

    if (hasTileGrid(tiling, arg)) {
        const bool horizontal = arg.orientation == Orientation::Horizontal;
        const double unit = (horizontal ? plane.height() : plane.width()) / arg.extent;
        // The part of the plane between `from` and `to` along the tiled dimension.
        const auto band = [&](unsigned from, unsigned to) {
            to = std::min(to, arg.extent);
            return horizontal ? QRectF(plane.left(), plane.top() + from * unit, plane.width(), (to - from) * unit)
                              : QRectF(plane.left() + from * unit, plane.top(), (to - from) * unit, plane.height());
        };
        const unsigned tileCount = tiling.tileCountOf(arg);
        const auto startOf = [&](unsigned t) { return arg.tileStartAt(t, tileCount); };
        const unsigned lastStart = startOf(tileCount - 1);
        // Many thin tiles: only every stride-th boundary (and its overlap band) is drawn.
        const unsigned stride = gridStride(arg.step * unit);
        if (arg.lastTileSize < arg.tileSize) {
            QGraphicsRectItem* last =
                scene_->addRect(band(lastStart, arg.extent), QPen(lastTileColor().darker(130), 1, Qt::DashLine), lastTileColor());
            last->setToolTip(QString("last tile: %1 instead of %2\n\n%3")
                                 .arg(unitText(arg, arg.lastTileSize), unitText(arg, arg.tileSize), drawing.toolTip));
            drawing.lastTileHighlighted = true;
            summary += QString(", last %1").arg(unitText(arg, arg.lastTileSize));
        }
        if (const unsigned overlap = overlapOf(arg)) {
            for (unsigned t = stride; t < tileCount; t += stride) {
                QGraphicsRectItem* shared = scene_->addRect(band(startOf(t), startOf(t) + overlap), Qt::NoPen, overlapColor());
                shared->setToolTip(
                    QString("tiles %1 and %2 share %3\n\n%4").arg(t - 1).arg(t).arg(unitText(arg, overlap), drawing.toolTip));
                ++drawing.overlapBands;
            }
            summary += QString(", overlap %1").arg(overlap);
        }
        QColor gridColor = text;
        gridColor.setAlpha(170);
        const QPen gridPen(gridColor, 0); // cosmetic: one pixel at any zoom
        for (unsigned t = stride; t < tileCount; t += stride) {
            const double at = startOf(t) * unit;
            if (horizontal)
                scene_->addLine(plane.left(), plane.top() + at, plane.right(), plane.top() + at, gridPen);
            else
                scene_->addLine(plane.left() + at, plane.top(), plane.left() + at, plane.bottom(), gridPen);
            ++drawing.gridLines;
        }
        drawing.gridStride = int(stride);
        if (stride > 1)
            summary += QString(", a line every %1 tiles").arg(stride);
    }
    QGraphicsSimpleTextItem* below = addLabel(summary, {x, plane.bottom() + 6}, text);
    arguments_.push_back(drawing);
    const double stack = behind * kStackDepth;
    return std::max({w + stack, kMinColumn, name->boundingRect().width(), sizes->boundingRect().width(),
                     below->boundingRect().width()});
}

void TileLayoutView::drawL1Bar(const KernelTiling& tiling, double top, double width)
{
    const QColor text = palette().color(QPalette::Text);
    const QColor base = palette().color(QPalette::Base);
    const double left = kMargin;
    const std::uint64_t total = std::max<std::uint64_t>({budget_, tiling.l1Bytes, 1});
    const auto xOf = [&](std::uint64_t bytes) { return left + double(bytes) / double(total) * width; };
    const std::uint64_t free = budget_ > tiling.l1Bytes ? budget_ - tiling.l1Bytes : 0;
    addLabel(QString("L1: %1 used of %2, %3 free").arg(exactBytes(tiling.l1Bytes), exactBytes(budget_), exactBytes(free)),
             {left, top}, text, true);
    const double barTop = top + 24;
    QColor frame = text;
    frame.setAlpha(120);
    scene_->addRect(QRectF(left, barTop, xOf(budget_) - left, kBarHeight), QPen(frame, 1), Qt::NoBrush);
    if (free > 0) {
        QColor hatch = text;
        hatch.setAlpha(70);
        QGraphicsRectItem* freeArea = scene_->addRect(
            QRectF(xOf(tiling.l1Bytes), barTop, xOf(budget_) - xOf(tiling.l1Bytes), kBarHeight), Qt::NoPen,
            QBrush(hatch, Qt::BDiagPattern));
        freeArea->setToolTip(QString("free: %1 from offset %2").arg(exactBytes(free)).arg(tiling.l1Bytes));
    }
    const QFontMetricsF metrics(font());
    for (const ArgTiling& arg : tiling.args) {
        if (arg.l1Bytes == 0)
            continue;
        const QString name = QString::fromStdString(arg.arg->name);
        const QString kind = kindOf(arg);
        const int slotCount = arg.residence == ArgResidence::Streamed ? int(std::max(1u, arg.bufferCount)) : 1;
        segments_.push_back({name, arg.l1Offset, arg.l1Bytes, slotCount, kind});
        const QColor color = kindColor(kind);
        const QString description = describe(tiling, arg);
        const double x0 = xOf(arg.l1Offset);
        const double slotWidth = std::max(xOf(arg.l1Offset + arg.l1Bytes) - x0, 2.0) / slotCount;
        for (int s = 0; s < slotCount; ++s) {
            const QRectF box(x0 + s * slotWidth, barTop, slotWidth, kBarHeight);
            QGraphicsRectItem* item = scene_->addRect(box, QPen(base, 1), color);
            const QString slot = slotCount > 1 ? QString(" %1").arg(QChar('A' + s)) : QString();
            item->setToolTip(slotCount > 1 ? QString("%1: buffer %2 of 2\n\n%3").arg(name, slot.trimmed(), description)
                                           : description);
            const QString label = name + slot;
            if (metrics.horizontalAdvance(label) + 6 < box.width()) {
                QGraphicsSimpleTextItem* caption =
                    addLabel(label, {box.left() + (box.width() - metrics.horizontalAdvance(label)) / 2,
                                     box.center().y() - metrics.height() / 2}, textOn(color));
                caption->setAcceptedMouseButtons(Qt::NoButton);
                caption->setToolTip(item->toolTip());
            }
        }
    }
    // The budget: a marker through the bar with its value below.
    const double budgetX = xOf(budget_);
    scene_->addLine(budgetX, barTop - 6, budgetX, barTop + kBarHeight + 6, QPen(budgetColor(), 2));
    const QString budgetLabel = "budget " + exactBytes(budget_);
    addLabel(budgetLabel, {budgetX - metrics.horizontalAdvance(budgetLabel), barTop + kBarHeight + 8}, budgetColor());
    addLabel("0", {left, barTop + kBarHeight + 8}, text);
    drawLegend(barTop + kBarHeight + 30);
}

void TileLayoutView::drawLegend(double top)
{
    const QColor text = palette().color(QPalette::Text);
    QColor frame = text;
    frame.setAlpha(120);
    QList<QPair<QString, QBrush>> keys;
    for (const char* kind : kKinds)
        keys.append({kind, kindColor(kind)});
    keys.append({{"tile overlap", overlapColor()}, {"last tile", lastTileColor()}, {"free", QBrush(frame, Qt::BDiagPattern)}});
    double x = kMargin;
    for (const auto& [label, brush] : keys) {
        scene_->addRect(QRectF(x, top + 2, 12, 12), QPen(frame, 1), brush);
        x += 16 + addLabel(label, {x + 16, top}, text)->boundingRect().width() + 14;
    }
}

QGraphicsSimpleTextItem* TileLayoutView::addLabel(const QString& text, QPointF at, const QColor& color, bool bold)
{
    QFont labelFont = font();
    labelFont.setBold(bold);
    QGraphicsSimpleTextItem* item = scene_->addSimpleText(text, labelFont);
    item->setBrush(color);
    item->setPos(at);
    return item;
}

} // namespace tessera::views
