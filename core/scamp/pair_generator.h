#pragma once
// The children of a search node: every reverse step the search considers for a bag of goals.
//
// Bags with a large goal use the atom-distance generator: for each goal and each goal of the bag
// (itself included), the atoms of one that sit at a common offset (and sign flip) from atoms of the
// other. When a whole goal is a shifted copy of another, a move; otherwise a split of the goal
// into that shifted part and the rest, emitted as add/sub and their shifting variants, so that a
// common sub-expression gets computed once. Bags of small goals are split exhaustively (every
// sub-multiset of atoms, every op). Steps are unsorted; the search orders them by the heuristic.
#include "scamp/goal_bag.h"

#include <functional>

namespace tessera::scamp {

struct GenerationContext {
    Goal input;            // the input goal: 2^inputDepth atoms at the centre
    int inputDepth = 0;
    bool allOps = true;    // the "all" instruction set, else "basic"
    int registers = 6;
    int64_t exhaustiveThreshold = 10; // largest goal's atom count up to which splits are exhaustive
    // Asked between goal pairs and parts: true when the search is over (its time is up), so that
    // one node of large goals does not hold the search past its deadline. Empty: never.
    std::function<bool()> stopRequested;
};

// Every step satisfies upper == op(lowers) and uses only ops of the chosen set.
std::vector<ReverseStep> generateSteps(const Bag& bag, const GenerationContext& context);

} // namespace tessera::scamp
