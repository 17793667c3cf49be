#pragma once
// The local heuristic that orders a node's children (lower is better), after the Cain paper's
// cost: atoms and their distance from the centre (relieved for goals contained in another goal),
// the square of the atom count of each distinct pattern (a goal that is a translation of another
// goal is free: one move makes it), and the divisions still needed between the input and the
// smallest and largest coefficients.
#include "scamp/goal_bag.h"

namespace tessera::scamp {

// `inputDepth` is d: the input is 2^d atoms at the centre.
double patternCost(const Bag& bag, int inputDepth);

// Goals equal up to a translation (same coefficients in the same arrangement).
bool isTranslationOf(const Goal& a, const Goal& b);

} // namespace tessera::scamp
