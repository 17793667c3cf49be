#pragma once
// The local heuristic that orders a node's children (lower is better), after the Cain paper's
// cost: atoms and their distance from the centre (relieved for goals contained in another goal),
// the square of the atom count of each distinct pattern (a goal that is a translation of another
// goal, or of it halved or doubled, is free: moves and halvings make it), and the divisions still
// needed between the input and the smallest and largest coefficients. Tessera's change to the
// pattern term: a goal of more than a few atoms that is a product of binomials (1 + t) counts its
// core's atoms squared and a little per factor (factor_steps.h), since each factor takes two
// instructions however many atoms it spreads.
#include "scamp/goal_bag.h"

namespace tessera::scamp {

// `inputDepth` is d: the input is 2^d atoms at the centre. `productsByCore` false: every goal
// counts its atoms squared, as in the paper.
double patternCost(const Bag& bag, int inputDepth, bool productsByCore = true);

} // namespace tessera::scamp
