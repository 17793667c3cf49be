#include "scamp/direct_solver.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::scamp {

std::optional<std::vector<ReverseStep>> solveDirectly(const Bag& bag, const Goal& input, bool allOps)
{
    std::vector<ReverseStep> steps;
    std::vector<Goal> made{input};
    auto produce = [&](Op op, std::vector<Direction> dirs, const Goal& from, const Goal& to) {
        if (std::find(made.begin(), made.end(), to) == made.end()) {
            steps.push_back({op, std::move(dirs), to, {from}});
            made.push_back(to);
        }
        return to;
    };
    const int64_t full = input.atomCount();
    for (const Goal& g : bag) {
        if (std::find(made.begin(), made.end(), g) != made.end())
            continue;
        if (g.terms().size() != 1)
            return std::nullopt;
        const Goal::Term term = g.terms()[0];
        const int64_t magnitude = std::llabs(term.coefficient);
        if (magnitude > full || full % magnitude != 0 || ((full / magnitude) & (full / magnitude - 1)) != 0)
            return std::nullopt; // not the input divided by a power of two
        Goal value = input;
        while (value.atomCount() > magnitude)
            value = produce(Op::Divq, {}, value, value.halved());
        if (term.coefficient < 0)
            value = produce(Op::Neg, {}, value, -value);
        Offset at{0, 0};
        while (!(at == term.at)) {
            Offset remaining{term.at.x - at.x, term.at.y - at.y};
            Offset total = majorSteps(remaining).front();
            if (allOps && std::abs(remaining.x) + std::abs(remaining.y) >= 2) {
                const Offset second = majorSteps({remaining.x - total.x, remaining.y - total.y}).front();
                total = {total.x + second.x, total.y + second.y};
            }
            const auto dirs = directionsFor(total);
            value = produce(dirs->size() == 1 ? Op::Movx : Op::Mov2x, *dirs, value, value.shifted(total));
            at = {at.x + total.x, at.y + total.y};
        }
    }
    return steps;
}

} // namespace tessera::scamp
