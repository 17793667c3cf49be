#pragma once
// Compare: a plan pinned as A beside the plan shown (B). The totals of both with the change, and
// every tensor placed differently (another memory first), with where A and B put it. Selecting a
// tensor selects it in the other views.
#include "memory/plan_comparison.h"

#include <QWidget>

class QLabel;
class QTableWidget;

namespace tessera::views {

class PlanComparisonView : public QWidget {
    Q_OBJECT

public:
    explicit PlanComparisonView(QWidget* parent = nullptr);

    void showComparison(const PlanComparison& comparison, const QString& aLabel, const QString& bLabel);
    // Nothing pinned (yet): says how to pin.
    void clear();
    bool hasComparison() const { return shown_; }
    int changeCount() const;
    // The totals table: a row per total; columns what, A, B, change.
    QString totalCell(int row, int column) const;
    QString changeCell(int row, int column) const;  // columns tensor, kind, A, B
    QTableWidget* changesTable() const { return changes_; }

signals:
    void tensorSelected(const QString& name);

private:
    QLabel* header_ = nullptr;
    QTableWidget* totals_ = nullptr;
    QTableWidget* changes_ = nullptr;
    bool shown_ = false;
};

} // namespace tessera::views
