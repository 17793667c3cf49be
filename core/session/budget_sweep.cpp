#include "session/budget_sweep.h"

#include "tiler/graph_report.h"

#include <algorithm>
#include <cmath>

namespace tessera {

std::vector<std::uint64_t> sweepBudgets(std::uint64_t lowest, std::uint64_t highest, int count)
{
    constexpr std::uint64_t kKiB = 1024;
    std::vector<std::uint64_t> budgets;
    if (count <= 0 || highest < lowest)
        return budgets;
    const double step = count > 1 ? double(highest - lowest) / double(count - 1) : 0.0;
    for (int k = 0; k < count; ++k) {
        const double exact = double(lowest) + step * double(k);
        const std::uint64_t rounded = std::max<std::uint64_t>(kKiB, std::uint64_t(std::llround(exact / double(kKiB))) * kKiB);
        if (budgets.empty() || rounded != budgets.back())
            budgets.push_back(rounded);
    }
    return budgets;
}

std::vector<BudgetSweepPoint> sweepBudget(const Session& session, const SessionChoices& choices, SweptBudget swept,
                                          const std::vector<std::uint64_t>& budgets, const SweepProgress& progress)
{
    std::vector<BudgetSweepPoint> points;
    points.reserve(budgets.size());
    for (const std::uint64_t budget : budgets) {
        SessionChoices at = choices;
        (swept == SweptBudget::L1 ? at.budgets.l1 : at.budgets.l2) = budget;
        BudgetSweepPoint point;
        point.budget = budget;
        const gap::GapPlan plan = session.plan(at);
        point.ok = plan.ok();
        if (point.ok) {
            const tiler::GraphAllocation& allocation = plan.allocation();
            point.l2Peak = allocation.l2Total();
            point.l3Traffic = allocation.l3Traffic;
            const tiler::PlacedModel& placed = *plan.placed;
            for (const tiler::NodeFigures& figures :
                 tiler::nodeFigures({placed.generated, placed.generated.graphs.at(0), allocation, placed.tilings}))
                point.estimatedCycles += figures.cycles;
            for (const tiler::GraphTensor& tensor : allocation.tensors)
                point.tensorsInL3 += tensor.argument->direction != tiler::GraphArgDirection::ConstIn &&
                                     (tensor.placement == tiler::GraphTensor::Placement::L3Static ||
                                      tensor.placement == tiler::GraphTensor::Placement::L3Dynamic);
        } else {
            point.error = plan.error();
        }
        points.push_back(std::move(point));
        if (progress && !progress(points.size(), budgets.size()))
            break;
    }
    return points;
}

} // namespace tessera
