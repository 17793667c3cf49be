#include "cbuf_banks_view.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

namespace tessera::views {

namespace {

constexpr int kMargin = 6;
constexpr int kRowHeight = 18;
constexpr int kMaxRows = 8;  // a depthwise convolution has a block per atom of channels; the rest is said in words
const QColor kDataColor(0x3b, 0x7d, 0xd8);
const QColor kWeightColor(0xe0, 0x8a, 0x2c);

QString bytesText(qint64 bytes)
{
    return bytes % 1024 == 0 ? QString("%1 KiB").arg(bytes / 1024) : QString("%1 B").arg(bytes);
}

}  // namespace

CbufBanksView::CbufBanksView(QWidget* parent) : QWidget(parent)
{
    setObjectName("cbufBanks");
    setToolTip("The convolution buffer of the selected convolution: input lines fill the first banks (data), "
               "kernels the last ones (weights)");
    hide();
}

void CbufBanksView::showBanks(const CbufBanks& banks)
{
    banks_ = banks;
    updateGeometry();
    setVisible(!banks_.rows.empty() && banks_.banks > 0);
    update();
}

void CbufBanksView::clear()
{
    banks_ = {};
    hide();
}

QString CbufBanksView::summary() const
{
    if (banks_.rows.empty())
        return {};
    const CbufRow& first = banks_.rows.front();
    QString text = QString("CBUF of %1 on %2: data %3, weights %4, free %5 of %6 banks of %7")
                       .arg(banks_.node, banks_.config)
                       .arg(first.dataBanks)
                       .arg(first.weightBanks)
                       .arg(std::max(0, banks_.banks - first.dataBanks - first.weightBanks))
                       .arg(banks_.banks)
                       .arg(bytesText(banks_.bankBytes));
    if (banks_.rows.size() > 1)
        text += QString("; split into %1 convolution operations").arg(banks_.rows.size());
    return text;
}

int CbufBanksView::rowsDrawn() const
{
    return std::min<int>(int(banks_.rows.size()), kMaxRows);
}

QSize CbufBanksView::sizeHint() const
{
    const int extra = int(banks_.rows.size()) > kMaxRows ? 1 : 0;
    return {360, 2 * kMargin + 2 * kRowHeight + (rowsDrawn() + extra) * kRowHeight};
}

void CbufBanksView::paintEvent(QPaintEvent*)
{
    if (banks_.rows.empty() || banks_.banks <= 0)
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& colours = palette();
    const QFontMetrics metrics(font());
    painter.setPen(colours.text().color());
    painter.drawText(QRect(kMargin, kMargin, width() - 2 * kMargin, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                     metrics.elidedText(summary(), Qt::ElideRight, width() - 2 * kMargin));

    // The legend: what each colour holds.
    int x = kMargin;
    const int legendY = kMargin + kRowHeight;
    for (const auto& [colour, label] : {std::pair{kDataColor, QString("data: input lines")},
                                        std::pair{kWeightColor, QString("weights: kernels")},
                                        std::pair{colours.midlight().color(), QString("free")}}) {
        painter.fillRect(QRect(x, legendY + 5, 10, 10), colour);
        painter.drawText(QRect(x + 14, legendY, 200, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft, label);
        x += 14 + metrics.horizontalAdvance(label) + 16;
    }

    int labelWidth = 0;
    for (int r = 0; r < rowsDrawn(); ++r)
        labelWidth = std::max(labelWidth, metrics.horizontalAdvance(banks_.rows[std::size_t(r)].part));
    labelWidth = std::min(labelWidth + 8, width() / 4);
    const int bandsWidth = metrics.horizontalAdvance("99 bands of 999 rows") + 8;
    const int bankArea = std::max(banks_.banks, width() - 2 * kMargin - labelWidth - bandsWidth);
    const double bankWidth = double(bankArea) / banks_.banks;
    for (int r = 0; r < rowsDrawn(); ++r) {
        const CbufRow& row = banks_.rows[std::size_t(r)];
        const int y = kMargin + (2 + r) * kRowHeight;
        painter.setPen(colours.text().color());
        painter.drawText(QRect(kMargin, y, labelWidth, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                         metrics.elidedText(row.part, Qt::ElideMiddle, labelWidth - 4));
        for (int bank = 0; bank < banks_.banks; ++bank) {
            const QColor colour = bank < row.dataBanks                        ? kDataColor
                                  : bank >= banks_.banks - row.weightBanks ? kWeightColor
                                                                            : colours.midlight().color();
            const QRectF box(kMargin + labelWidth + bank * bankWidth + 1, y + 2, bankWidth - 2, kRowHeight - 4);
            painter.fillRect(box, colour);
        }
        if (row.bands > 1)
            painter.drawText(QRect(kMargin + labelWidth + bankArea + 6, y, bandsWidth, kRowHeight),
                             Qt::AlignVCenter | Qt::AlignLeft, QString("%1 bands of %2 rows").arg(row.bands).arg(row.bandRows));
    }
    if (int(banks_.rows.size()) > kMaxRows)
        painter.drawText(QRect(kMargin, kMargin + (2 + kMaxRows) * kRowHeight, width() - 2 * kMargin, kRowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         QString("and %1 more operations").arg(banks_.rows.size() - std::size_t(kMaxRows)));
}

}  // namespace tessera::views
