#include "scamp/pattern_heuristic.h"

#include <algorithm>
#include <cstdlib>

namespace tessera::scamp {

bool isTranslationOf(const Goal& a, const Goal& b)
{
    const auto& ta = a.terms();
    const auto& tb = b.terms();
    if (ta.size() != tb.size())
        return false;
    if (ta.empty())
        return true;
    const Offset d{tb[0].at.x - ta[0].at.x, tb[0].at.y - ta[0].at.y};
    for (size_t i = 0; i < ta.size(); ++i)
        if (ta[i].coefficient != tb[i].coefficient || tb[i].at.x - ta[i].at.x != d.x || tb[i].at.y - ta[i].at.y != d.y)
            return false;
    return true;
}

double patternCost(const Bag& bag, int inputDepth)
{
    double cost = 0.0;
    int64_t smallest = INT64_MAX, largest = 0;
    for (size_t i = 0; i < bag.size(); ++i) {
        const Goal& g = bag[i];
        // Atom distances count half when another goal of the bag contains this one.
        int containers = 0;
        for (const Goal& other : bag)
            if (isPartOf(g, other) && ++containers > 1)
                break;
        double distance = 0.0;
        int64_t atoms = 0;
        for (const Goal::Term& t : g.terms()) {
            const int64_t n = std::llabs(t.coefficient);
            atoms += n;
            distance += double(n) * (std::abs(t.at.x) + std::abs(t.at.y) + (t.coefficient < 0 ? 1 : 0));
        }
        cost += double(atoms) + distance / std::max(1, std::min(containers, 2));
        // Each distinct pattern of more than one position costs its atom count squared.
        bool repeated = false;
        for (size_t j = 0; j < i && !repeated; ++j)
            repeated = isTranslationOf(bag[j], g);
        if (!repeated && g.terms().size() > 1)
            cost += double(atoms) * double(atoms);
        smallest = std::min(smallest, smallestCount(g));
        largest = std::max(largest, largestCount(g));
    }
    const int64_t input = int64_t{1} << inputDepth;
    cost += double(input / std::max<int64_t>(1, smallest == INT64_MAX ? 1 : smallest));
    cost += double(largest / input);
    return cost;
}

} // namespace tessera::scamp
