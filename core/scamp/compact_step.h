#pragma once
// The search's compact memory: goals packed at 8 bytes a term (instead of 16), and reverse steps
// stored with only the lowers that cannot be derived from the upper. A search holds hundreds of
// thousands of waiting nodes, each with its bag, its path and up to a hundred untried children;
// stored in full they took gigabytes within a minute.
//
// Of a step's lowers, only the first operand of a two-source op (two for add of three) is kept:
// the other follows from upper = op(lowers), e.g. add: b = upper - a; sub: b = a - upper; a move:
// the upper shifted back; neg: -upper; a halving: the upper doubled.
#include "scamp/goal_bag.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::scamp {

class PackedGoals {
public:
    // nullopt when an offset or a coefficient does not fit the packed form (16-bit offsets, 32-bit
    // coefficients): such goals are far beyond anything a program could compute.
    static std::optional<PackedGoals> pack(const std::vector<Goal>& goals);
    std::vector<Goal> unpack() const;
    size_t bytes() const { return data_.capacity() * sizeof(Entry); }

private:
    struct Entry {
        int16_t x = 0;
        int16_t y = 0;
        int32_t value = 0;  // a coefficient, or in a goal's first entry its number of terms
    };
    std::vector<Entry> data_;
};

struct CompactStep {
    Op op = Op::Mov;
    uint8_t directionCount = 0;
    Direction directions[2] = {Direction::North, Direction::North};
    uint8_t upperIndex = 0;  // the upper's place in the bag the step applies to
    PackedGoals kept;        // the lowers that cannot be derived (see above)

    // nullopt when the step's goals do not pack.
    static std::optional<CompactStep> make(const ReverseStep& step, size_t upperIndex);
    // The full step, given the bag it applies to (or its upper).
    ReverseStep expand(const Bag& bag) const { return expandWith(bag[upperIndex]); }
    ReverseStep expandWith(const Goal& upper) const;
    size_t bytes() const { return sizeof(CompactStep) + kept.bytes(); }
};

// The lowers of `op` that are kept: the first of a two-source op, two of Add3, none otherwise.
size_t keptLowerCount(Op op);
// All lowers of a step from its upper and the kept ones.
std::vector<Goal> derivedLowers(Op op, const std::vector<Direction>& directions, const Goal& upper,
                                const std::vector<Goal>& kept);

} // namespace tessera::scamp
