#pragma once
// Collects the reverse steps a child generator proposes (pair_generator.h, factor_steps.h),
// dropping the ones the instruction set or the register model cannot take: an op outside the
// chosen set, a zero operand, an operand equal to the upper, two equal sources.
#include "scamp/pair_generator.h"

#include <vector>

namespace tessera::scamp {

class StepSink {
public:
    StepSink(const GenerationContext& context, std::vector<ReverseStep>& out) : context_(context), out_(out) {}

    void add(Op op, std::vector<Direction> dirs, const Goal& upper, std::vector<Goal> lowers);
    // A goal shifted by `total` (one or two unit steps): movx or mov2x, reading `lower`.
    void move(const Goal& upper, Offset total);
    // upper = x + y computed with the result shifted by `total` (0, 1 or 2 steps).
    void addShifted(const Goal& upper, const Goal& x, const Goal& y, Offset total);
    // upper = x (shifted by `total`) - y.
    void subShifted(const Goal& upper, const Goal& x, const Goal& y, Offset total);

    const GenerationContext& context() const { return context_; }

private:
    const GenerationContext& context_;
    std::vector<ReverseStep>& out_;
};

} // namespace tessera::scamp
