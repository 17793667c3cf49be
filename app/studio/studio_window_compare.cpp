// The studio window's compare and sweep: a plan pinned as A beside the plan shown, and the L2
// budget swept off the GUI thread (progress, cancel) with a click adopting a budget.
#include "studio_window.h"
#include "studio_support.h"

#include "budget_sweep_view.h"
#include "byte_sizes.h"
#include "graph_view.h"
#include "memory_timeline.h"
#include "plan_comparison_view.h"

#include "memory/plan_comparison.h"
#include "session/budget_sweep.h"
#include "target/chip_table.h"

#include <QDockWidget>
#include <QPointer>
#include <QStatusBar>

#include <atomic>

namespace tessera::studio {

namespace {

QString budgetsLabel(const Budgets& budgets, const QString& target)
{
    return QString("%1, L1 %2, L2 %3, L3 RAM %4, flash %5")
        .arg(target.toUpper(), views::formatByteSize(budgets.l1), views::formatByteSize(budgets.l2),
             views::formatByteSize(budgets.l3), views::formatByteSize(budgets.flash));
}

} // namespace

void StudioWindow::pinPlan()
{
    if (!plan_) {
        showError("Pin plan as A", "there is no plan to pin: open a model and give it budgets it fits in");
        return;
    }
    pinned_ = Pinned{*plan_, budgetsLabel(budgets(), target())};
    showComparison();
    auto* dock = findChild<QDockWidget*>("compare");
    dock->show();
    dock->raise();
}

void StudioWindow::unpinPlan()
{
    pinned_.reset();
    compareView_->clear();
}

void StudioWindow::showComparison()
{
    if (!pinned_ || !plan_) {
        if (!pinned_)
            compareView_->clear();
        return;
    }
    compareView_->showComparison(comparePlans(pinned_->plan, *plan_), pinned_->label,
                                 budgetsLabel(budgets(), target()));
}

void StudioWindow::startSweep(qint64 lowest, qint64 highest, int count)
{
    if (!session_ || parseNvdlaTarget(target())) {
        showError("Sweep a budget", "open a model with a GAP target first");
        return;
    }
    if (sweepCancel_)
        sweepCancel_->store(true);  // a sweep under way gives way to the new one
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    sweepCancel_ = cancel;
    const SweptBudget swept = sweepView_->swept();
    const std::vector<std::uint64_t> budgets = sweepBudgets(std::uint64_t(lowest), std::uint64_t(highest), count);
    sweepView_->showRunning(int(budgets.size()));
    QPointer<views::BudgetSweepView> view = sweepView_;
    const auto progress = [view, cancel](std::size_t done, std::size_t total) {
        QMetaObject::invokeMethod(
            view, [view, cancel, done, total] {
                if (view && !cancel->load())
                    view->showProgress(int(done), int(total));
            },
            Qt::QueuedConnection);
        return !cancel->load();
    };
    struct Swept {
        std::vector<BudgetSweepPoint> points;
        QString error;
    };
    runInBackground<Swept>(
        this,
        [session = session_, choices = sessionChoices(target(), this->budgets()), swept, budgets, progress] {
            Swept result;
            try {
                result.points = sweepBudget(*session, choices, swept, budgets, progress);
            } catch (const std::exception& error) {
                result.error = QString::fromStdString(error.what());
            }
            return result;
        },
        [this, cancel, swept, session = session_](const Swept& result) {
            if (cancel != sweepCancel_ || session != session_)
                return;  // superseded, or another model opened meanwhile
            sweepCancel_.reset();
            if (!result.error.isEmpty()) {
                sweepView_->showPoints({}, false, swept);
                showError("Sweep a budget", result.error);
                return;
            }
            sweepView_->showPoints(result.points, cancel->load(), swept);
            emit sweepShown();
        });
}

void StudioWindow::cancelSweep()
{
    if (sweepCancel_)
        sweepCancel_->store(true);
}

void StudioWindow::sweepNow()
{
    auto* dock = findChild<QDockWidget*>("sweep");
    dock->show();
    dock->raise();
    startSweep(sweepView_->lowest(), sweepView_->highest(), sweepView_->pointCount());
}

// A new model: nothing pinned, no sweep.
void StudioWindow::resetCompareAndSweep()
{
    cancelSweep();
    sweepCancel_.reset();
    unpinPlan();
    sweepView_->clear();
    resetSweepRange();
}

// The sweep's range: from a sixteenth of the chip's L2 to all of it; for L1, from an eighth of
// the chip's L1 to all of it (more L1 than the chip has is no choice).
void StudioWindow::resetSweepRange()
{
    if (parseNvdlaTarget(target()))
        return;
    const target::Budgets defaults = target::chip(target().toStdString()).defaultBudgets();
    if (sweepView_->swept() == SweptBudget::L1) {
        const qint64 l1 = qint64(defaults.l1);
        sweepView_->setRange(std::max<qint64>(4 * 1024, l1 / 8), l1);
    } else {
        const qint64 l2 = qint64(defaults.l2);
        sweepView_->setRange(std::max<qint64>(16 * 1024, l2 / 16), l2);
    }
}

} // namespace tessera::studio
