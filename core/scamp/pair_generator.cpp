#include "scamp/pair_generator.h"

#include "scamp/factor_steps.h"
#include "scamp/step_sink.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <unordered_set>

namespace tessera::scamp {

namespace {

const Direction kDirections[] = {Direction::North, Direction::East, Direction::South, Direction::West};

Offset plus(Offset a, Offset b) { return {a.x + b.x, a.y + b.y}; }
Offset minus(Offset a) { return {-a.x, -a.y}; }
int manhattan(Offset a) { return std::abs(a.x) + std::abs(a.y); }

Direction clockwise(Direction d)
{
    switch (d) {
    case Direction::North: return Direction::East;
    case Direction::East: return Direction::South;
    case Direction::South: return Direction::West;
    case Direction::West: return Direction::North;
    }
    return d;
}

struct GoalHasher {
    size_t operator()(const Goal& g) const { return g.hash(); }
};

// One and two unit steps along the larger components of `d` (the second from what remains).
std::vector<Offset> oneStepToward(Offset d) { return majorSteps(d); }

std::vector<Offset> twoStepsToward(Offset d)
{
    std::vector<Offset> result;
    for (Offset first : majorSteps(d))
        for (Offset second : majorSteps({d.x - first.x, d.y - first.y})) {
            const Offset total = plus(first, second);
            if (std::find(result.begin(), result.end(), total) == result.end())
                result.push_back(total);
        }
    return result;
}

struct Match {
    Offset distance;  // from atoms of the upper to the matching atoms of the other goal
    bool negated = false;
    Goal to;          // the matched atoms, as they are in the other goal
};

// Atoms of `b` that match atoms of `a` at a common distance and sign relation. With `a == b` an
// atom matches itself at distance 0 only with half its count.
std::vector<Match> matchAtoms(const Goal& a, const Goal& b, bool sameGoal)
{
    std::map<std::tuple<int, int, bool>, std::vector<Goal::Term>> groups;
    for (const Goal::Term& ta : a.terms())
        for (const Goal::Term& tb : b.terms()) {
            const Offset d{tb.at.x - ta.at.x, tb.at.y - ta.at.y};
            const bool negated = (ta.coefficient > 0) != (tb.coefficient > 0);
            int64_t count = std::min(std::llabs(ta.coefficient), std::llabs(tb.coefficient));
            if (sameGoal && d.x == 0 && d.y == 0)
                count /= 2;
            if (count > 0)
                groups[{d.x, d.y, negated}].push_back({tb.at, tb.coefficient > 0 ? count : -count});
        }
    std::vector<Match> matches;
    for (auto& [key, terms] : groups) {
        Match m{{std::get<0>(key), std::get<1>(key)}, std::get<2>(key), Goal(std::move(terms))};
        if (m.to.isZero())
            continue;
        if (!sameGoal && !(m.to == b))
            continue; // only copies of the whole other goal
        matches.push_back(std::move(m));
    }
    return matches;
}

// `a` holds a shifted (negated) copy of the whole of another goal: move it there, or split it off.
void addDistanceSteps(StepSink& sink, const Goal& a, const Match& m)
{
    Goal part = m.to.shifted(minus(m.distance));
    if (m.negated)
        part = -part;
    if (part == a) {
        for (Offset total : twoStepsToward(m.distance))
            sink.move(a, minus(total));
        for (Offset step : oneStepToward(m.distance))
            sink.move(a, minus(step));
        if (manhattan(m.distance) == 0 && m.negated)
            sink.add(Op::Neg, {}, a, {m.to});
        return;
    }
    const Goal rest = a - part;
    sink.add(Op::Add, {}, a, {part, rest});
    sink.add(Op::Sub, {}, a, {part, -rest});
    for (Offset step : oneStepToward(m.distance)) {
        sink.addShifted(a, rest, part, minus(step));
        sink.subShifted(a, part, rest, minus(step));
    }
    if (manhattan(m.distance) > 1)
        for (Offset total : twoStepsToward(m.distance)) {
            sink.addShifted(a, rest, part, minus(total));
            sink.subShifted(a, part, rest, minus(total));
        }
}

// `a` holds two copies of one pattern at a distance: split the copies apart.
void addSelfSteps(StepSink& sink, const Goal& a, const Match& m)
{
    const Goal rest = without(a, m.to);
    if (!m.negated)
        sink.add(Op::Add, {}, a, {rest, m.to});
    else
        sink.add(Op::Sub, {}, a, {rest, -m.to});
    // Three parts: the rest, the copy's partner and the copy.
    Goal partner = m.to.shifted(minus(m.distance));
    if (m.negated)
        partner = -partner;
    partner = without(partner, m.to);
    const Goal others = without(rest, partner);
    if (!others.isZero() && !partner.isZero() && others + partner + m.to == a)
        sink.add(Op::Add3, {}, a, {others, partner, m.to});
    const Offset centre = centreOf(a);
    for (Offset step : oneStepToward(centre))
        sink.addShifted(a, rest, m.to, step);
    if (manhattan(centre) > 1)
        for (Offset total : twoStepsToward(centre))
            sink.addShifted(a, rest, m.to, total);
    for (Offset step : oneStepToward(m.distance))
        sink.subShifted(a, rest, m.to, minus(step));
    if (manhattan(m.distance) > 1)
        for (Offset total : twoStepsToward(m.distance))
            sink.subShifted(a, rest, m.to, minus(total));
}

void atomDistanceSteps(StepSink& sink, const Bag& bag, const GenerationContext& context)
{
    for (const Goal& a : bag) {
        if (a == context.input)
            continue;
        for (const Goal& b : bag) {
            if (context.stopRequested && context.stopRequested())
                return;
            const bool same = &a == &b;
            for (const Match& m : matchAtoms(a, b, same)) {
                if (same)
                    addSelfSteps(sink, a, m);
                else
                    addDistanceSteps(sink, a, m);
            }
        }
        // Move the goal toward the centre.
        if (int(bag.size()) < context.registers) {
            const Offset centre = centreOf(a);
            for (Offset step : oneStepToward(centre))
                sink.move(a, step);
            if (manhattan(centre) > 1)
                for (Offset total : twoStepsToward(centre))
                    sink.move(a, total);
        }
        // A part of the input at the centre: undo a halving.
        if (a.terms().size() == 1 && a.terms()[0].at == Offset{} && a.terms()[0].coefficient > 0 &&
            2 * a.terms()[0].coefficient <= context.input.atomCount())
            sink.add(Op::Divq, {}, a, {a.doubled()});
    }
}

// Every sub-multiset of a goal's atoms other than none and all.
std::vector<Goal> allParts(const Goal& u)
{
    std::vector<Goal> parts{Goal()};
    for (const Goal::Term& t : u.terms()) {
        const int64_t n = std::llabs(t.coefficient);
        const int64_t sign = t.coefficient > 0 ? 1 : -1;
        std::vector<Goal> grown;
        grown.reserve(parts.size() * size_t(n + 1));
        for (const Goal& p : parts)
            for (int64_t k = 0; k <= n; ++k)
                grown.push_back(k ? p + Goal({{t.at, sign * k}}) : p);
        parts = std::move(grown);
    }
    parts.erase(parts.begin()); // nothing
    parts.pop_back();           // everything
    return parts;
}

void exhaustiveSteps(StepSink& sink, const Bag& bag, const GenerationContext& context)
{
    for (const Goal& u : bag) {
        if (u == context.input)
            continue;
        sink.add(Op::Neg, {}, u, {-u});
        sink.add(Op::Divq, {}, u, {u.doubled()});
        for (Direction d1 : kDirections) {
            sink.move(u, offsetOf(d1));
            sink.move(u, plus(offsetOf(d1), offsetOf(d1)));
            sink.move(u, plus(offsetOf(d1), offsetOf(clockwise(d1))));
        }
        const std::vector<Goal> parts = allParts(u);
        std::unordered_set<Goal, GoalHasher> seen;
        for (const Goal& a : parts) {
            if (context.stopRequested && context.stopRequested())
                return;
            const Goal b = u - a;
            const bool mirrored = seen.count(a) > 0; // (b, a) was emitted already
            seen.insert(b);
            if (!mirrored) {
                sink.addShifted(u, a, b, {});
                for (Direction d1 : kDirections) {
                    sink.addShifted(u, a, b, offsetOf(d1));
                    sink.addShifted(u, a, b, plus(offsetOf(d1), offsetOf(d1)));
                    sink.addShifted(u, a, b, plus(offsetOf(d1), offsetOf(clockwise(d1))));
                }
            }
            sink.subShifted(u, a, b, {});
            for (Direction d1 : kDirections) {
                sink.subShifted(u, a, b, offsetOf(d1));
                sink.subShifted(u, a, b, plus(offsetOf(d1), offsetOf(d1)));
                sink.subShifted(u, a, b, plus(offsetOf(d1), offsetOf(clockwise(d1))));
            }
            if (context.allOps && parts.size() <= 64) {
                std::unordered_set<Goal, GoalHasher> subSeen;
                for (const Goal& aa : allParts(a)) {
                    const Goal ab = a - aa;
                    const bool subMirrored = subSeen.count(aa) > 0;
                    subSeen.insert(ab);
                    if (!subMirrored)
                        sink.add(Op::Add3, {}, u, {aa, ab, b});
                }
            }
        }
    }
}

} // namespace

std::vector<ReverseStep> generateSteps(const Bag& bag, const GenerationContext& context)
{
    std::vector<ReverseStep> steps;
    StepSink sink(context, steps);
    int64_t largest = 0;
    for (const Goal& g : bag)
        largest = std::max(largest, g.atomCount());
    if (largest > context.exhaustiveThreshold) {
        atomDistanceSteps(sink, bag, context);
        appendFactorSteps(bag, sink);
    } else
        exhaustiveSteps(sink, bag, context);
    return steps;
}

} // namespace tessera::scamp
