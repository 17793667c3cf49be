#include "plan_comparison_view.h"

#include "byte_sizes.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace tessera::views {

namespace {

QTableWidget* table(const QStringList& headers, QWidget* parent)
{
    auto* widget = new QTableWidget(0, int(headers.size()), parent);
    widget->setHorizontalHeaderLabels(headers);
    widget->verticalHeader()->hide();
    widget->setEditTriggers(QAbstractItemView::NoEditTriggers);
    widget->setSelectionBehavior(QAbstractItemView::SelectRows);
    widget->setSelectionMode(QAbstractItemView::SingleSelection);
    widget->setTabKeyNavigation(false);
    widget->horizontalHeader()->setStretchLastSection(true);
    return widget;
}

QString amount(std::int64_t value, bool bytes) { return bytes ? formatByteSize(value) : QString::number(value); }

QString where(const std::optional<TensorPlacement>& placement)
{
    if (!placement)
        return "-";
    return QString("%1 at %2 (%3)")
        .arg(QString::fromStdString(placement->level))
        .arg(placement->offset)
        .arg(formatByteSize(placement->size));
}

// Figures (every column after the first) right-aligned when `figures`.
void setRow(QTableWidget* widget, int row, const QStringList& cells, bool figures)
{
    for (int column = 0; column < cells.size(); ++column) {
        auto* item = new QTableWidgetItem(cells[column]);
        if (figures && column > 0)
            item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        widget->setItem(row, column, item);
    }
}

} // namespace

PlanComparisonView::PlanComparisonView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    layout->addWidget(header_);
    auto* split = new QSplitter(Qt::Horizontal, this);
    totals_ = table({"total", "A", "B", "change"}, split);
    changes_ = table({"tensor", "kind", "A", "B"}, split);
    split->addWidget(totals_);
    split->addWidget(changes_);
    split->setStretchFactor(1, 1);
    split->setSizes({420, 900});
    layout->addWidget(split, 1);
    connect(changes_, &QTableWidget::cellClicked, this, [this](int row) {
        if (const QTableWidgetItem* item = changes_->item(row, 0))
            emit tensorSelected(item->text());
    });
    clear();
}

void PlanComparisonView::showComparison(const PlanComparison& comparison, const QString& aLabel, const QString& bLabel)
{
    shown_ = true;
    int moved = 0;
    for (const PlacementChange& change : comparison.changes)
        moved += change.changedLevel();
    header_->setText(QString("<b>A</b>: %1<br><b>B</b>: %2<br>%3 placement(s) differ, %4 in another memory")
                         .arg(aLabel.toHtmlEscaped(), bLabel.toHtmlEscaped())
                         .arg(comparison.changes.size())
                         .arg(moved));
    totals_->setRowCount(int(comparison.totals.size()));
    for (int row = 0; row < int(comparison.totals.size()); ++row) {
        const PlanTotal& total = comparison.totals[std::size_t(row)];
        const std::int64_t delta = total.b - total.a;
        const QString change = delta == 0 ? QString("=") : (delta > 0 ? "+" : "-") + amount(std::abs(delta), total.bytes);
        setRow(totals_, row, {QString::fromStdString(total.name), amount(total.a, total.bytes), amount(total.b, total.bytes), change}, true);
    }
    totals_->resizeColumnsToContents();
    changes_->setRowCount(int(comparison.changes.size()));
    for (int row = 0; row < int(comparison.changes.size()); ++row) {
        const PlacementChange& change = comparison.changes[std::size_t(row)];
        setRow(changes_, row,
               {QString::fromStdString(change.tensor), QString::fromStdString(placementKindName(change.kind)),
                where(change.before), where(change.after)},
               false);
    }
    changes_->resizeColumnsToContents();
}

void PlanComparisonView::clear()
{
    shown_ = false;
    header_->setText("Plan > Pin plan as A (Ctrl+Shift+P) keeps the plan shown; change the budgets and B, the plan "
                     "shown then, is compared with it here.");
    totals_->setRowCount(0);
    changes_->setRowCount(0);
}

int PlanComparisonView::changeCount() const { return changes_->rowCount(); }

QString PlanComparisonView::totalCell(int row, int column) const
{
    const QTableWidgetItem* item = totals_->item(row, column);
    return item ? item->text() : QString();
}

QString PlanComparisonView::changeCell(int row, int column) const
{
    const QTableWidgetItem* item = changes_->item(row, column);
    return item ? item->text() : QString();
}

} // namespace tessera::views
