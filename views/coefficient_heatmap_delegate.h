#pragma once
// Draws a register cell of the SCAMP-5 trace as a small heat map of its goal: one square per offset
// around the pixel (north at the top), red for positive coefficients and blue for negative ones,
// the intensity by magnitude relative to the cell's largest. The register an instruction writes
// is framed; a register without a value is drawn as an empty dash.
#include <QStyledItemDelegate>

namespace tessera::views {

class CoefficientHeatmapDelegate : public QStyledItemDelegate {
    Q_OBJECT

public:
    static constexpr int kSquarePixels = 9;

    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The colour of a coefficient on a scale whose largest magnitude is `largest`, over `base`.
    static QColor colourOf(int64_t coefficient, int64_t largest, const QColor& base);
};

} // namespace tessera::views
