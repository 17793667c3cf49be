#include "scamp/factor_steps.h"

#include "scamp/step_sink.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>

namespace tessera::scamp {

namespace {

// One shift of each binomial up to sign: (1 + t) and (1 + 1/t) differ by a shift of the quotient.
const Offset kFactorShifts[] = {{1, 0}, {0, 1}, {2, 0}, {0, 2}, {1, 1}, {1, -1}};

int stepCount(Offset o) { return std::abs(o.x) + std::abs(o.y); }

// upper = q + q moved by t. The sum is taken without a shift and with the shifts (of at most two
// steps) that bring the two parts nearest the centre, where the moves that make them are shortest.
void addBinomial(StepSink& sink, const Goal& upper, const Goal& q, Offset t)
{
    const Goal moved = q.shifted(t);
    sink.addShifted(upper, q, moved, {0, 0});
    if (!sink.context().allOps)
        return;
    const MeanOffset mean = meanOffset(q);
    const double cx = mean.x + t.x / 2.0, cy = mean.y + t.y / 2.0;
    double best = INFINITY;
    std::vector<Offset> nearest;
    for (int x = -2; x <= 2; ++x)
        for (int y = -2; y <= 2; ++y) {
            const Offset s{x, y};
            if (stepCount(s) == 0 || stepCount(s) > 2)
                continue;
            const double d = std::abs(cx - x) + std::abs(cy - y);
            if (d < best - 1e-9) {
                best = d;
                nearest.clear();
            }
            if (d < best + 1e-9)
                nearest.push_back(s);
        }
    if (best < std::abs(cx) + std::abs(cy) - 1e-9)
        for (Offset s : nearest)
            sink.addShifted(upper, q, moved, s);
}

// A necessary condition, cheap to test: g vanishes where t = -1. For a unit or diagonal t that
// is the point x = -1 (or y = -1); for t of two straight steps, x = i (or y = i).
bool mayDivide(const Goal& g, Offset t)
{
    const bool alongY = t.x == 0;
    const int span = std::abs(alongY ? t.y : t.x);
    int64_t real = 0, imaginary = 0;
    for (const Goal::Term& term : g.terms()) {
        const int k = alongY ? term.at.y : term.at.x;
        if (span == 1) {
            real += (k & 1) ? -term.coefficient : term.coefficient;
            continue;
        }
        switch (k & 3) {  // i^k
        case 0: real += term.coefficient; break;
        case 1: imaginary += term.coefficient; break;
        case 2: real -= term.coefficient; break;
        default: imaginary -= term.coefficient; break;
        }
    }
    return real == 0 && imaginary == 0;
}

bool hasBinomialFactor(const Goal& g)
{
    for (Offset t : kFactorShifts)
        if (divideByBinomial(g, t))
            return true;
    return false;
}

// b is a with every coefficient multiplied by the same power of two (at least 2).
bool isPowerOfTwoMultiple(const Goal& b, const Goal& a)
{
    const auto& ta = a.terms();
    const auto& tb = b.terms();
    if (ta.empty() || ta.size() != tb.size() || tb[0].coefficient % ta[0].coefficient != 0)
        return false;
    const int64_t ratio = tb[0].coefficient / ta[0].coefficient;
    if (ratio < 2 || (ratio & (ratio - 1)) != 0)
        return false;
    for (size_t i = 0; i < ta.size(); ++i)
        if (!(ta[i].at == tb[i].at) || ta[i].coefficient * ratio != tb[i].coefficient)
            return false;
    return true;
}

void addGoalFactorSteps(const Goal& g, StepSink& sink)
{
    bool factored = false;
    for (Offset t : kFactorShifts) {
        const auto q = divideByBinomial(g, t);
        if (!q)
            continue;
        factored = true;
        addBinomial(sink, g, *q, t);
        // (1 + t)^2 q2 = 2m + (1/t + t) m with m = t.q2: the 2m comes free when m is 2m halved.
        if (stepCount(t) != 1)
            continue;
        if (const auto q2 = divideByBinomial(*q, t)) {
            const Goal middle = q2->shifted(t);
            sink.add(Op::Add, {}, g, {middle.doubled(), middle.shifted({-t.x, -t.y}) + middle.shifted(t)});
        }
    }
    if (factored)
        return;
    // A product plus or minus the input over a power of two at the goal's centre (the 5x5
    // Gaussian is 2 plus a product; a difference of Gaussians 16 minus one): split that part off.
    const Offset centre = centreOf(g);
    const int64_t inputAtoms = sink.context().input.atomCount();
    for (int64_t part = 1; part <= inputAtoms; part *= 2)
        for (int64_t sign : {1, -1}) {
            const Goal single({{centre, sign * part}});
            const Goal rest = g - single;
            if (rest.terms().size() < 2 || !hasBinomialFactor(rest))
                continue;
            if (sign > 0) {
                sink.add(Op::Add, {}, g, {rest, single});
                sink.add(Op::Sub, {}, g, {single, -rest});  // rest may be a negated product
            } else {
                sink.add(Op::Sub, {}, g, {rest, -single});
            }
        }
}

} // namespace

std::optional<Goal> divideByBinomial(const Goal& g, Offset t)
{
    if (g.terms().size() < 2 || (t.x == 0 && t.y == 0) || !mayDivide(g, t))
        return std::nullopt;
    int minX = INT32_MAX, maxX = INT32_MIN, minY = INT32_MAX, maxY = INT32_MIN;
    for (const Goal::Term& term : g.terms()) {
        minX = std::min(minX, term.at.x);
        maxX = std::max(maxX, term.at.x);
        minY = std::min(minY, term.at.y);
        maxY = std::max(maxY, term.at.y);
    }
    const int width = maxX - minX + 1, height = maxY - minY + 1;
    constexpr int kCells = 1024;
    if (width * height > kCells)
        return std::nullopt;
    auto inside = [&](Offset o) { return o.x >= minX && o.x <= maxX && o.y >= minY && o.y <= maxY; };
    auto index = [&](Offset o) { return size_t(o.y - minY) * size_t(width) + size_t(o.x - minX); };
    std::array<int64_t, kCells> coefficient{};
    for (const Goal::Term& term : g.terms())
        coefficient[index(term.at)] = term.coefficient;
    // Along each line o, o + t, o + 2t, ... the quotient follows from g(o) = q(o) + q(o - t), and
    // must come back to zero where the line leaves g's extent.
    std::vector<Goal::Term> quotient;
    for (int y = minY; y <= maxY; ++y)
        for (int x = minX; x <= maxX; ++x) {
            Offset o{x, y};
            if (inside({o.x - t.x, o.y - t.y}))
                continue;  // not the start of a line
            int64_t carried = 0;
            for (; inside(o); o = {o.x + t.x, o.y + t.y}) {
                carried = coefficient[index(o)] - carried;
                if (carried != 0)
                    quotient.push_back({o, carried});
            }
            if (carried != 0)
                return std::nullopt;
        }
    Goal q(std::move(quotient));
    if (q.atomCount() >= g.atomCount())
        return std::nullopt;  // cancelling signs: no saving in computing it this way
    return q;
}

FactorCore factorCore(const Goal& g)
{
    FactorCore core{g.atomCount(), 0};
    Goal rest = g;
    for (bool divided = true; divided;) {
        divided = false;
        for (Offset t : kFactorShifts)
            if (const auto q = divideByBinomial(rest, t)) {
                rest = *q;
                ++core.factors;
                divided = true;
                break;
            }
    }
    core.atoms = rest.atomCount();
    return core;
}

bool isScaledTranslation(const Goal& a, const Goal& b)
{
    const auto& ta = a.terms();
    const auto& tb = b.terms();
    if (ta.empty() || ta.size() != tb.size())
        return false;
    // Which is the larger, and by what power of two.
    const bool aLarger = std::llabs(ta[0].coefficient) >= std::llabs(tb[0].coefficient);
    const auto& large = aLarger ? ta : tb;
    const auto& small = aLarger ? tb : ta;
    if (large[0].coefficient % small[0].coefficient != 0)
        return false;
    const int64_t ratio = large[0].coefficient / small[0].coefficient;
    if (ratio < 1 || (ratio & (ratio - 1)) != 0)
        return false;
    const Offset d{large[0].at.x - small[0].at.x, large[0].at.y - small[0].at.y};
    for (size_t i = 0; i < ta.size(); ++i)
        if (large[i].at.x - small[i].at.x != d.x || large[i].at.y - small[i].at.y != d.y ||
            small[i].coefficient * ratio != large[i].coefficient)
            return false;
    return true;
}

void appendFactorSteps(const Bag& bag, StepSink& sink)
{
    for (const Goal& g : bag) {
        if (g.terms().size() > 1)
            addGoalFactorSteps(g, sink);
        for (const Goal& other : bag)
            if (isPowerOfTwoMultiple(other, g))  // in place: no move to undo
                sink.add(Op::Divq, {}, g, {g.doubled()});
    }
}

} // namespace tessera::scamp
