#pragma once
// Finishing a search node without searching: when every goal of a bag is the input halved,
// negated and moved (a single position), the instructions that make them follow directly. Chains
// share their common prefixes (halvings and the negation happen at the centre, before the moves).
#include "scamp/goal_bag.h"

#include <optional>

namespace tessera::scamp {

// Forward-ordered steps producing every goal of `bag` from `input`; nullopt when a goal is not of
// that form. Each step's upper appears once.
std::optional<std::vector<ReverseStep>> solveDirectly(const Bag& bag, const Goal& input, bool allOps);

} // namespace tessera::scamp
