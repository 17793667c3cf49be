#include "coefficient_heatmap_delegate.h"

#include "scamp_trace_model.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::views {

namespace {

const QColor kPositive(0xd7, 0x30, 0x27);
const QColor kNegative(0x31, 0x68, 0xb4);
constexpr int kMargin = 3;

QColor mix(const QColor& from, const QColor& to, double t)
{
    return QColor::fromRgbF(float(from.redF() + (to.redF() - from.redF()) * t),
                            float(from.greenF() + (to.greenF() - from.greenF()) * t),
                            float(from.blueF() + (to.blueF() - from.blueF()) * t));
}

const ScampTraceModel* traceModelOf(const QModelIndex& index)
{
    return qobject_cast<const ScampTraceModel*>(index.model());
}

} // namespace

QColor CoefficientHeatmapDelegate::colourOf(int64_t coefficient, int64_t largest, const QColor& base)
{
    if (coefficient == 0)
        return base;
    // A square root keeps small coefficients visible next to a large centre weight.
    const double t = 0.2 + 0.8 * std::sqrt(double(std::abs(coefficient)) / double(std::max<int64_t>(largest, 1)));
    return mix(base, coefficient > 0 ? kPositive : kNegative, std::min(t, 1.0));
}

void CoefficientHeatmapDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                       const QModelIndex& index) const
{
    const ScampTraceModel* model = traceModelOf(index);
    if (!model || index.column() == ScampTraceModel::kInstructionColumn || !model->trace()) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    painter->save();
    const QPalette& palette = option.palette;
    if (option.state & QStyle::State_Selected)
        painter->fillRect(option.rect, palette.highlight().color().lighter(160));
    const scamp::Goal* goal = model->goalAt(index);
    const QColor base = palette.base().color();
    if (!goal) {
        painter->setPen(palette.placeholderText().color());
        painter->drawText(option.rect, Qt::AlignCenter, model->isClobbered(index) ? "scratch" : "\u2013");
        painter->restore();
        return;
    }
    const int radius = model->trace()->radius();
    // One scale per cell: goals differ by powers of two along a program (the input holds 2^d
    // units), and the pattern, not the magnitude, is what the reader compares; the tooltip has the numbers.
    int64_t largest = 1;
    for (const scamp::Goal::Term& term : goal->terms())
        largest = std::max(largest, std::abs(term.coefficient));
    const int side = 2 * radius + 1;
    const int square = std::max(3, std::min(kSquarePixels, (std::min(option.rect.width(), option.rect.height()) -
                                                            2 * kMargin) / side));
    const QRect grid(option.rect.center().x() - side * square / 2, option.rect.center().y() - side * square / 2,
                     side * square, side * square);
    const QColor lines = mix(base, palette.text().color(), 0.15);
    for (int row = 0; row < side; ++row) {
        const int y = radius - row; // north at the top
        for (int column = 0; column < side; ++column) {
            const int x = column - radius;
            const QRect cell(grid.left() + column * square, grid.top() + row * square, square, square);
            painter->fillRect(cell, colourOf(goal->coefficientAt({x, y}), largest, base));
            painter->setPen(lines);
            painter->drawRect(cell.adjusted(0, 0, -1, -1));
        }
    }
    if (model->isWritten(index)) {
        painter->setPen(QPen(palette.highlight().color(), 2));
        painter->drawRect(grid.adjusted(-2, -2, 1, 1));
    }
    painter->restore();
}

QSize CoefficientHeatmapDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    const ScampTraceModel* model = traceModelOf(index);
    if (!model || index.column() == ScampTraceModel::kInstructionColumn || !model->trace())
        return QStyledItemDelegate::sizeHint(option, index);
    const int side = (2 * model->trace()->radius() + 1) * kSquarePixels + 2 * kMargin + 4;
    return {std::max(side, 40), side};
}

} // namespace tessera::views
