#pragma once
// The reverse search's vocabulary: a bag of goals that must all be in registers at one point of a
// program, and a reverse step that replaces one goal of a bag (the upper) by the goals one
// instruction computes it from (the lowers).
#include "scamp/instruction.h"

#include <optional>
#include <vector>

namespace tessera::scamp {

using Bag = std::vector<Goal>; // sorted by hash, no duplicates

struct ReverseStep {
    Op op = Op::Mov;
    std::vector<Direction> directions;
    Goal upper;
    std::vector<Goal> lowers; // instruction operand order
};

void sortBag(Bag& bag);
size_t bagHash(const Bag& bag);
struct BagHash {
    size_t operator()(const Bag& bag) const { return bagHash(bag); }
};

// The bag before `step`: its upper replaced by its lowers.
Bag applyInReverse(const Bag& bag, const ReverseStep& step);

// X is part of U: at every offset the same sign and no larger magnitude.
bool isPartOf(const Goal& x, const Goal& u);
// The atoms of `u` that are not in `x` (multiset difference; atoms of x missing from u are ignored).
Goal without(const Goal& u, const Goal& x);
// The largest and smallest |coefficient| of a goal (0 for the zero goal).
int64_t largestCount(const Goal& g);
int64_t smallestCount(const Goal& g);

// The atom-weighted mean position of a goal's atoms, and that mean rounded to a position.
struct MeanOffset {
    double x = 0.0;
    double y = 0.0;
};
MeanOffset meanOffset(const Goal& g);
Offset centreOf(const Goal& g);

// The unit step along the larger component of `d` (both components on a tie: two candidates);
// empty for d = 0.
std::vector<Offset> majorSteps(Offset d);
// The direction whose offset is `step` (a unit offset).
Direction directionOf(Offset step);

// The direction operands of a shift by `total` (one or two unit steps), as a Mov2x/Add2x/Sub2x
// takes them; nullopt when `total` is not one or two steps.
std::optional<std::vector<Direction>> directionsFor(Offset total);

} // namespace tessera::scamp
