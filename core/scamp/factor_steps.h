#pragma once
// Reverse steps read off a goal's algebra. A goal is a polynomial in the shifts: the 5x5 Gaussian
// of the Cain paper is 2 + (x + 1/x + y + 1/y)(x + 2 + 1/x)(y + 2 + 1/y) over 64. Where a goal
// divides exactly by a binomial (1 + t), t a shift of one or two steps, it is one add of a part and
// that part moved: g = q + t.q. Where it divides by (1 + t) twice it is 2q + (t + 1/t)q, and the 2q
// is free when q itself is made by halving 2q. A goal that is such a product plus or minus a power
// of two of the input at its centre is split there first. Together with undoing a halving when
// the doubled goal is already wanted, these steps let the search build products the way one
// would by hand, which the atom-matching steps (pair_generator.h) do not see: a factor's copies
// overlap.
#include "scamp/goal_bag.h"

#include <optional>

namespace tessera::scamp {

// q with (1 + t).q = g, where (t.q)(o) = q(o - t): nullopt when the division is not exact.
std::optional<Goal> divideByBinomial(const Goal& g, Offset t);

// The atoms left once every binomial factor is divided out of g, and how many factors there were:
// a product of k binomials is made from its core in 2k instructions (k adds, k moves).
struct FactorCore {
    int64_t atoms = 0;
    int factors = 0;
};
FactorCore factorCore(const Goal& g);

// b is a moved copy of a, or of a multiplied by a power of two, or the other way round: halvings
// and moves make one from the other.
bool isScaledTranslation(const Goal& a, const Goal& b);

class StepSink;

// Gives `sink` the factor steps of every goal of `bag`, and for a goal that is another goal of the
// bag halved one or more times, the halving. A part split off at a centre is the sink context's
// input over a power of two.
void appendFactorSteps(const Bag& bag, StepSink& sink);

} // namespace tessera::scamp
