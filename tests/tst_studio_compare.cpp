// Compare and sweep in the studio, driven offscreen: a pinned plan A beside the plan shown, its
// totals and differences those of the planner's own plans at the same budgets; a sweep of the L2
// budget whose every point is the planner's plan at that budget, cancellable, a click on a point
// adopting its budget.
#include "budget_sweep_view.h"
#include "byte_sizes.h"
#include "memory_timeline.h"
#include "plan_comparison_view.h"
#include "studio_harness.h"
#include "studio_window.h"
#include "tiling_panel.h"

#include "memory/plan_comparison.h"
#include "onnx/onnx_export.h"
#include "session/budget_sweep.h"
#include "session/deployed_memory_plan.h"
#include "session/session.h"
#include "tiler/graph_report.h"
#include "zoo/zoo.h"

#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;
using namespace tessera::studio_testing;
using tessera::studio::StudioWindow;

namespace {

// The plan the session gives directly, in a session of its own, at the window's choices and `l2`.
struct DirectPlan {
    gap::GapPlan plan;
    HierarchyPlan shown;
};

DirectPlan directPlan(const StudioWindow& window, qint64 l2, qint64 l1 = 0)
{
    const Session fresh(window.session()->sharedGraph());
    studio::Budgets budgets = window.budgets();
    budgets.l2 = l2;
    if (l1 > 0)
        budgets.l1 = l1;
    const SessionChoices choices = studio::sessionChoices(window.target(), budgets);
    DirectPlan direct{fresh.plan(choices), {}};
    if (direct.plan.ok())
        direct.shown = deployedMemoryPlan(*fresh.deployment(choices), direct.plan);
    return direct;
}

} // namespace

class TestStudioCompare : public QObject {
    Q_OBJECT

private:
    ZooFiles zoo_;

private slots:
    void initTestCase() { useThrowAwaySettings("tst_studio_compare"); }

    void sweepBudgetsAreEvenAndWhole()
    {
        const std::vector<std::uint64_t> budgets = sweepBudgets(28 * 1024, 448 * 1024, 32);
        QCOMPARE(budgets.size(), std::size_t(32));
        QCOMPARE(budgets.front(), std::uint64_t(28 * 1024));
        QCOMPARE(budgets.back(), std::uint64_t(448 * 1024));
        for (std::size_t k = 1; k < budgets.size(); ++k) {
            QVERIFY(budgets[k] > budgets[k - 1]);
            QCOMPARE(budgets[k] % 1024, std::uint64_t(0));
        }
        QCOMPARE(sweepBudgets(4096, 6144, 10).size(), std::size_t(3));  // no repeats after rounding
        QVERIFY(sweepBudgets(8192, 4096, 4).empty());
    }

    // Pin A at the chip's budget, give B a quarter of it: the Compare dock lists what the planner's
    // own plans at those budgets say, the tensors moved to another memory first.
    void compareShowsThePlannersDifferences()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        const qint64 budgetA = window.l2Budget();
        window.pinPlan();
        QVERIFY(window.findChild<QDockWidget*>("compare")->isVisible());
        views::PlanComparisonView* compare = window.compareView();
        QVERIFY(compare->hasComparison());
        QCOMPARE(compare->changeCount(), 0);  // A beside itself
        QSignalSpy planned(&window, &StudioWindow::planShown);
        const qint64 budgetB = budgetA / 4;
        window.setL2Budget(budgetB);
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == budgetB, kWaitMs);

        const DirectPlan a = directPlan(window, budgetA), b = directPlan(window, budgetB);
        QVERIFY(a.plan.ok() && b.plan.ok());
        QCOMPARE(compare->totalCell(0, 0), QString("L2 peak"));
        QCOMPARE(compare->totalCell(0, 1), views::formatByteSize(qint64(a.plan.allocation().l2Total())));
        QCOMPARE(compare->totalCell(0, 2), views::formatByteSize(qint64(b.plan.allocation().l2Total())));
        QCOMPARE(compare->totalCell(3, 0), QString("L3 traffic per inference"));
        QCOMPARE(compare->totalCell(3, 2), views::formatByteSize(qint64(b.plan.allocation().l3Traffic)));
        // Every placement that differs, counted here from the two plans' placement lists.
        int differing = 0, otherMemory = 0;
        for (const TensorPlacement& p : b.shown.placements) {
            const TensorPlacement* before = nullptr;
            for (const TensorPlacement& q : a.shown.placements)
                if (q.tensor == p.tensor && q.kind == p.kind && q.lower == p.lower)
                    before = &q;
            differing += !before || before->level != p.level || before->offset != p.offset || before->size != p.size;
            otherMemory += before && before->level != p.level;
        }
        for (const TensorPlacement& q : a.shown.placements) {
            bool inB = false;
            for (const TensorPlacement& p : b.shown.placements)
                inB = inB || (q.tensor == p.tensor && q.kind == p.kind && q.lower == p.lower);
            differing += !inB;
        }
        qInfo("%d placements differ between L2 %lld and %lld bytes, %d in another memory", differing, budgetA, budgetB,
              otherMemory);
        QVERIFY(otherMemory > 0);
        QCOMPARE(compare->changeCount(), differing);
        // Moves to another memory come first: the first row names two different memories.
        QVERIFY(compare->changeCell(0, 2).section(' ', 0, 0) != compare->changeCell(0, 3).section(' ', 0, 0));
        // A row selects its tensor in the timeline.
        QTableWidget* changes = compare->changesTable();
        QTest::mouseClick(changes->viewport(), Qt::LeftButton, Qt::NoModifier,
                          changes->visualItemRect(changes->item(0, 0)).center());
        QCOMPARE(window.timeline()->selectedTensor(), compare->changeCell(0, 0));
        window.unpinPlan();
        QVERIFY(!compare->hasComparison());
    }

    // Each point of a sweep is the planner's plan at its budget; a click adopts a budget; Cancel
    // stops a sweep with the points done so far.
    void sweepPointsAreThePlannersPlans()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        views::BudgetSweepView* sweep = window.sweepView();
        QSignalSpy swept(&window, &StudioWindow::sweepShown);
        const qint64 highest = window.l2Budget();
        window.startSweep(8 * 1024, highest, 8);
        QVERIFY(swept.wait(kWaitMs));
        const std::vector<BudgetSweepPoint>& points = sweep->points();
        QCOMPARE(points.size(), std::size_t(8));
        int planned = 0;
        for (const BudgetSweepPoint& point : points) {
            const DirectPlan direct = directPlan(window, qint64(point.budget));
            QCOMPARE(point.ok, direct.plan.ok());
            if (!point.ok) {
                QCOMPARE(point.error, direct.plan.error());
                continue;
            }
            ++planned;
            QCOMPARE(point.l2Peak, direct.plan.allocation().l2Total());
            QCOMPARE(point.l3Traffic, direct.plan.allocation().l3Traffic);
            QVERIFY(point.l2Peak <= point.budget);
            QVERIFY(point.estimatedCycles > 0);
        }
        QVERIFY(planned >= 6);
        // Less L2, more traffic: the smallest planned budget moves at least as much as the largest.
        QVERIFY(points.front().l3Traffic >= points.back().l3Traffic || !points.front().ok);

        // A click on a point adopts its budget, and the plan shown is the one at that budget.
        const std::size_t pick = points.size() / 2;
        QVERIFY(points[pick].ok);
        QTest::mouseClick(sweep->plot(), Qt::LeftButton, Qt::NoModifier, sweep->pointPixel(pick));
        QCOMPARE(window.l2Budget(), qint64(points[pick].budget));
        QTRY_VERIFY_WITH_TIMEOUT(window.plan() && window.shownPlanBudget() == qint64(points[pick].budget), kWaitMs);
        QCOMPARE(window.plan()->l3TrafficBytes, qint64(points[pick].l3Traffic));

        // Cancel right after the start: the sweep stops after the point under way.
        window.startSweep(8 * 1024, highest, 64);
        window.cancelSweep();
        QVERIFY(swept.wait(kWaitMs));
        QVERIFY2(sweep->points().size() < 64, qPrintable(QString::number(sweep->points().size())));
        QVERIFY2(sweep->message().contains("cancelled"), qPrintable(sweep->message()));
    }

    // The L1 budget swept instead: each point is the planner's plan with that L1 (every layer tiled
    // again), the range is the chip's L1 and below, and a click adopts the L1 budget in the bar and
    // the Tiling dock.
    void l1SweepPointsAreThePlannersPlans()
    {
        StudioWindow window;
        window.show();
        QVERIFY(openAndWait(window, zoo_.path("mobilenet_v1", 0.25, 128)));
        views::BudgetSweepView* sweep = window.sweepView();
        sweep->setSwept(SweptBudget::L1);
        emit sweep->sweptChanged(SweptBudget::L1);  // as picking it in the box does
        const qint64 chipL1 = window.budgets().l1;
        QCOMPARE(sweep->highest(), chipL1);
        QCOMPARE(sweep->lowest(), chipL1 / 8);
        QSignalSpy swept(&window, &StudioWindow::sweepShown);
        window.startSweep(chipL1 / 8, chipL1, 4);
        QVERIFY(swept.wait(kWaitMs));
        const std::vector<BudgetSweepPoint>& points = sweep->points();
        QCOMPARE(points.size(), std::size_t(4));
        QVERIFY2(sweep->message().contains("4 L1 budgets planned"), qPrintable(sweep->message()));
        const qint64 l2 = window.l2Budget();
        for (const BudgetSweepPoint& point : points) {
            const DirectPlan direct = directPlan(window, l2, qint64(point.budget));
            QCOMPARE(point.ok, direct.plan.ok());
            QVERIFY2(point.ok, point.error.c_str());
            QCOMPARE(point.l2Peak, direct.plan.allocation().l2Total());
            QCOMPARE(point.l3Traffic, direct.plan.allocation().l3Traffic);
            double cycles = 0;
            const tiler::PlacedModel& placed = *direct.plan.placed;
            for (const tiler::NodeFigures& figures : tiler::nodeFigures(
                     {placed.generated, placed.generated.graphs.at(0), direct.plan.allocation(), placed.tilings}))
                cycles += figures.cycles;
            QCOMPARE(point.estimatedCycles, cycles);
        }
        // Less L1, smaller tiles: the layers take more cycles than with all of it.
        QVERIFY2(points.front().estimatedCycles > points.back().estimatedCycles,
                 qPrintable(QString("%1 vs %2").arg(points.front().estimatedCycles).arg(points.back().estimatedCycles)));

        const std::size_t pick = 1;
        QTest::mouseClick(sweep->plot(), Qt::LeftButton, Qt::NoModifier, sweep->pointPixel(pick));
        QCOMPARE(window.budgets().l1, qint64(points[pick].budget));
        QCOMPARE(window.l2Budget(), l2);  // the L2 budget stays
        QCOMPARE(window.tilingPanel()->l1Budget(), qint64(points[pick].budget));
    }
};

QTEST_MAIN(TestStudioCompare)
#include "tst_studio_compare.moc"
