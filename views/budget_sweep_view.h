#pragma once
// The budget sweep: L2 used, L3 traffic per inference and estimated cycles against the L2 or the
// L1 budget, one point per budget of a sweep the studio computes off the GUI thread. The user picks
// the budget to sweep, sets the range and the number of points, starts and cancels the sweep,
// watches its progress, and clicks a point to adopt that budget. Budgets without a plan are marked
// with crosses, the reason in a tooltip.
#include "session/budget_sweep.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QCPAxisRect;
class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace tessera::views {

class ByteSizeSpinBox;

class BudgetSweepView : public QWidget {
    Q_OBJECT

public:
    explicit BudgetSweepView(QWidget* parent = nullptr);
    ~BudgetSweepView() override;

    // The budget swept (L2 unless the user picks L1) and its range; a new model starts with the
    // studio's range for it, which the user may change.
    SweptBudget swept() const;
    void setSwept(SweptBudget swept);
    void setRange(qint64 lowest, qint64 highest);
    qint64 lowest() const;
    qint64 highest() const;
    int pointCount() const;

    // A sweep is under way: Run is disabled, Cancel enabled, progress shown.
    void showRunning(int total);
    void showProgress(int done, int total);
    // The points computed (all of them, or those before a cancel).
    void showPoints(const std::vector<BudgetSweepPoint>& points, bool cancelled, SweptBudget swept);
    void clear();
    const std::vector<BudgetSweepPoint>& points() const { return points_; }
    // Marks the budget the studio shows now (that of the swept memory).
    void setCurrentBudgets(qint64 l1, qint64 l2);
    QString message() const;

    QWidget* plot() const;
    // Pixel of point `index` on the L3-traffic curve, in the plot's coordinates.
    QPoint pointPixel(std::size_t index) const;

signals:
    void runRequested(qint64 lowest, qint64 highest, int count);
    void cancelRequested();
    void budgetPicked(tessera::SweptBudget swept, qint64 bytes);
    void sweptChanged(tessera::SweptBudget swept);  // the user picked the other budget

private:
    void draw();
    void onPress(QMouseEvent* event);

    QComboBox* sweptBox_ = nullptr;
    ByteSizeSpinBox* lowestBox_ = nullptr;
    ByteSizeSpinBox* highestBox_ = nullptr;
    QSpinBox* countBox_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* cancelButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* message_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    std::vector<QCPAxisRect*> axisRects_;  // L2 used, L3 traffic, estimated cycles
    std::vector<BudgetSweepPoint> points_;
    SweptBudget pointsSwept_ = SweptBudget::L2;  // what the points shown vary
    qint64 currentL1_ = 0, currentL2_ = 0;
};

} // namespace tessera::views
