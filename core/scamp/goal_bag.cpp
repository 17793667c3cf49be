#include "scamp/goal_bag.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::scamp {

void sortBag(Bag& bag)
{
    std::vector<std::pair<size_t, Goal>> keyed;
    keyed.reserve(bag.size());
    for (Goal& g : bag)
        keyed.emplace_back(g.hash(), std::move(g));
    std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
        if (a.first != b.first)
            return a.first < b.first;
        return a.second.terms().size() < b.second.terms().size();
    });
    bag.clear();
    for (auto& [hash, goal] : keyed)
        if (bag.empty() || !(bag.back() == goal))
            bag.push_back(std::move(goal));
}

size_t bagHash(const Bag& bag)
{
    size_t h = 0;
    for (const Goal& g : bag)
        h = h * 1000003u ^ g.hash();
    return h;
}

Bag applyInReverse(const Bag& bag, const ReverseStep& step)
{
    Bag result;
    result.reserve(bag.size() + step.lowers.size());
    for (const Goal& g : bag)
        if (!(g == step.upper))
            result.push_back(g);
    result.insert(result.end(), step.lowers.begin(), step.lowers.end());
    sortBag(result);
    return result;
}

bool isPartOf(const Goal& x, const Goal& u)
{
    for (const Goal::Term& t : x.terms()) {
        const int64_t c = u.coefficientAt(t.at);
        if (c == 0 || (c > 0) != (t.coefficient > 0) || std::llabs(t.coefficient) > std::llabs(c))
            return false;
    }
    return true;
}

Goal without(const Goal& u, const Goal& x)
{
    std::vector<Goal::Term> terms;
    terms.reserve(u.terms().size());
    for (const Goal::Term& t : u.terms()) {
        const int64_t c = x.coefficientAt(t.at);
        int64_t keep = t.coefficient;
        if (c != 0 && (c > 0) == (t.coefficient > 0))
            keep = t.coefficient > 0 ? std::max<int64_t>(0, t.coefficient - c) : std::min<int64_t>(0, t.coefficient - c);
        terms.push_back({t.at, keep});
    }
    return Goal(std::move(terms));
}

int64_t largestCount(const Goal& g)
{
    int64_t m = 0;
    for (const Goal::Term& t : g.terms())
        m = std::max<int64_t>(m, std::llabs(t.coefficient));
    return m;
}

int64_t smallestCount(const Goal& g)
{
    if (g.terms().empty())
        return 0;
    int64_t m = INT64_MAX;
    for (const Goal::Term& t : g.terms())
        m = std::min<int64_t>(m, std::llabs(t.coefficient));
    return m;
}

MeanOffset meanOffset(const Goal& g)
{
    double x = 0.0, y = 0.0, n = 0.0;
    for (const Goal::Term& t : g.terms()) {
        const double w = double(std::llabs(t.coefficient));
        x += w * t.at.x;
        y += w * t.at.y;
        n += w;
    }
    if (n == 0.0)
        return {};
    return {x / n, y / n};
}

Offset centreOf(const Goal& g)
{
    const MeanOffset mean = meanOffset(g);
    return {int(std::lround(mean.x)), int(std::lround(mean.y))};
}

std::vector<Offset> majorSteps(Offset d)
{
    const int ax = std::abs(d.x), ay = std::abs(d.y);
    std::vector<Offset> steps;
    if (ax >= ay && ax > 0)
        steps.push_back({d.x > 0 ? 1 : -1, 0});
    if (ay >= ax && ay > 0)
        steps.push_back({0, d.y > 0 ? 1 : -1});
    return steps;
}

Direction directionOf(Offset step)
{
    if (step.y > 0)
        return Direction::North;
    if (step.y < 0)
        return Direction::South;
    return step.x > 0 ? Direction::East : Direction::West;
}

std::optional<std::vector<Direction>> directionsFor(Offset total)
{
    const int length = std::abs(total.x) + std::abs(total.y);
    if (length == 1)
        return std::vector<Direction>{directionOf(total)};
    if (length != 2)
        return std::nullopt;
    std::vector<Direction> dirs;
    for (int k = 0; k < std::abs(total.y); ++k)
        dirs.push_back(total.y > 0 ? Direction::North : Direction::South);
    for (int k = 0; k < std::abs(total.x); ++k)
        dirs.push_back(total.x > 0 ? Direction::East : Direction::West);
    return dirs;
}

} // namespace tessera::scamp
