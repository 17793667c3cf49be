#pragma once
// A sweep of the L2 or the L1 budget: the session's plan at each of a series of budgets (every
// other choice kept), with what a user weighs when picking one: the L2 the plan uses, the bytes it
// moves to and from L3 per inference, and the estimated cycles of its layers. The studio plots it;
// each point is exactly the plan `tessera plan --model` (and Export) gives at that budget. An L1
// sweep tiles every layer again at each point, so it takes longer than an L2 sweep.
#include "session/session.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera {

// Which budget a sweep varies.
enum class SweptBudget { L2, L1 };

struct BudgetSweepPoint {
    std::uint64_t budget = 0;      // of the swept memory
    bool ok = false;
    std::string error;             // why there is no plan at this budget
    std::uint64_t l2Peak = 0;      // static and dynamic blocks
    std::uint64_t l3Traffic = 0;   // bytes per inference
    double estimatedCycles = 0;    // every layer's estimate, summed
    std::size_t tensorsInL3 = 0;
};

// `count` budgets from `lowest` to `highest`, evenly spaced and rounded to whole KiB, no repeats.
std::vector<std::uint64_t> sweepBudgets(std::uint64_t lowest, std::uint64_t highest, int count);

// Called after each point with the points done and the total; returning false stops the sweep
// (the points done so far are returned).
using SweepProgress = std::function<bool(std::size_t done, std::size_t total)>;

// The session's plan at `choices` with each budget of `budgets` for the `swept` memory, in order.
std::vector<BudgetSweepPoint> sweepBudget(const Session& session, const SessionChoices& choices, SweptBudget swept,
                                          const std::vector<std::uint64_t>& budgets, const SweepProgress& progress = {});

inline std::vector<BudgetSweepPoint> sweepL2Budget(const Session& session, const SessionChoices& choices,
                                                   const std::vector<std::uint64_t>& budgets,
                                                   const SweepProgress& progress = {})
{
    return sweepBudget(session, choices, SweptBudget::L2, budgets, progress);
}

} // namespace tessera
