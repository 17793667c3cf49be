// The studio window's budget changes: each change is counted from where it began (the drag's
// start, not its last mouse move), kept in an undo history, and marks the project modified.
#include "studio_window.h"
#include "studio_support.h"

#include "byte_sizes.h"
#include "memory_timeline.h"

#include <QFileInfo>
#include <QLabel>
#include <QUndoCommand>
#include <QUndoStack>

namespace tessera::studio {

namespace {

// One change of the budget bar: undo puts the budgets before it back, redo the ones after.
class BudgetChange : public QUndoCommand {
public:
    BudgetChange(std::function<void(const Budgets&)> apply, const Budgets& before, const Budgets& after)
        : apply_(std::move(apply)), before_(before), after_(after)
    {
        setText(describe(before, after));
    }

    void undo() override { apply_(before_); }
    void redo() override
    {
        if (!std::exchange(firstRedo_, false))  // the first redo is the change the user just made
            apply_(after_);
    }
    const Budgets& before() const { return before_; }
    const Budgets& after() const { return after_; }

private:
    static QString describe(const Budgets& before, const Budgets& after)
    {
        QStringList parts;
        const auto part = [&](const char* name, qint64 from, qint64 to) {
            if (from != to)
                parts << QString("%1 %2 to %3").arg(name, views::formatByteSize(from), views::formatByteSize(to));
        };
        part("L1", before.l1, after.l1);
        part("L2", before.l2, after.l2);
        part("L3 RAM", before.l3, after.l3);
        part("flash", before.flash, after.flash);
        return parts.isEmpty() ? QString("budgets") : parts.join(", ");
    }

    std::function<void(const Budgets&)> apply_;
    Budgets before_, after_;
    bool firstRedo_ = true;
};

} // namespace

// A box of the bar (or the target) changed: a change begins from the plan shown now.
void StudioWindow::onBudgetEdited()
{
    if (!applyingHistory_) {
        changeBaseline_ = plan_;
        changeFromDrag_ = false;
        timeline_->markChangeStart();
        recordBudgets();
    }
    requestPlan();
}

void StudioWindow::onBudgetDragStarted()
{
    changeBaseline_ = plan_;
    changeFromDrag_ = true;
}

void StudioWindow::recordBudgets()
{
    if (applyingHistory_ || !graph_)
        return;
    const Budgets now = budgets();
    if (now == recordedBudgets_)
        return;
    budgetHistory_->push(new BudgetChange(
        [this](const Budgets& budgets) {
            applyingHistory_ = true;
            changeBaseline_ = plan_;
            changeFromDrag_ = false;
            timeline_->markChangeStart();
            setBudgets(budgets);
            recordedBudgets_ = budgets;
            applyingHistory_ = false;
            markModified(true);
        },
        recordedBudgets_, now));
    recordedBudgets_ = now;
    markModified(true);
}

QString StudioWindow::changeSummary(const HierarchyPlan& plan) const
{
    const std::optional<HierarchyPlan>& before = changeBaseline_ ? changeBaseline_ : plan_;
    if (!before)
        return {};
    const auto delta = [](qint64 now, qint64 was) { return (now >= was ? "+" : "") + QString::number(now - was); };
    return QString("; change: %1 in L3, %2 promoted, L3 traffic %3 B (%4)")
        .arg(delta(qint64(plan.spilledTensors), qint64(before->spilledTensors)),
             delta(qint64(plan.promotedConstants), qint64(before->promotedConstants)),
             delta(plan.l3TrafficBytes, before->l3TrafficBytes),
             !changeBaseline_ ? "since the last plan" : changeFromDrag_ ? "since the drag began" : "since the edit");
}

void StudioWindow::showPlanStatus()
{
    // One line in the status bar and above the timeline; the whole text (a refusal lists every
    // node) in the tooltip and the timeline's message.
    const QString firstLine = planStatus_.section('\n', 0, 0);
    statusLabel_->setText(firstLine);
    statusLabel_->setToolTip(planStatus_);
    timeline_->setSummary(firstLine);
}

void StudioWindow::markModified(bool modified)
{
    setWindowModified(modified);
    updateTitle();
}

// "mobilenet.json[*] - Tessera Studio": the project (or the model when none) and a modified mark.
void StudioWindow::updateTitle()
{
    const QString shown = !projectPath_.isEmpty() ? QFileInfo(projectPath_).fileName()
                          : !modelPath_.isEmpty() ? QFileInfo(modelPath_).fileName()
                                                  : QString();
    setWindowTitle(shown.isEmpty() ? "Tessera Studio" : shown + "[*] - Tessera Studio");
}

} // namespace tessera::studio
