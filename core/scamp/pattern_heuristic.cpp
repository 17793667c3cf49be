#include "scamp/pattern_heuristic.h"

#include "scamp/factor_steps.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace tessera::scamp {

namespace {

constexpr int64_t kSmallGoalAtoms = 6;
// What a binomial factor adds to the pattern term: about its two instructions on the scale of
// the square (a pattern of two atoms, one add, counts 4). Without it, products with more factors
// and with fewer look alike, and the search loses its way toward the input.
constexpr double kFactorWeight = 8.0;

// The pattern term of one goal: its core's atoms squared, plus its factors. Goals of a few atoms
// keep their count: their factors are incidental (3 + 3 at two places), and counting them led
// AnalogNet2's search astray. Children share most of their goals with their siblings, so each
// thread remembers the cores.
double patternWeight(const Goal& g, bool byCore)
{
    if (!byCore) {
        const double atoms = double(g.atomCount());
        return atoms * atoms;
    }
    thread_local std::unordered_map<size_t, FactorCore> cores;
    if (cores.size() > (size_t(1) << 18))
        cores.clear();
    auto [it, inserted] = cores.try_emplace(g.hash());
    if (inserted)
        it->second = g.atomCount() <= kSmallGoalAtoms ? FactorCore{g.atomCount(), 0} : factorCore(g);
    const double atoms = double(it->second.atoms);
    return atoms * atoms + kFactorWeight * it->second.factors;
}

} // namespace

double patternCost(const Bag& bag, int inputDepth, bool productsByCore)
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
            repeated = isScaledTranslation(bag[j], g);
        if (!repeated && g.terms().size() > 1)
            cost += patternWeight(g, productsByCore);
        smallest = std::min(smallest, smallestCount(g));
        largest = std::max(largest, largestCount(g));
    }
    const int64_t input = int64_t{1} << inputDepth;
    cost += double(input / std::max<int64_t>(1, smallest == INT64_MAX ? 1 : smallest));
    cost += double(largest / input);
    return cost;
}

} // namespace tessera::scamp
