#include "scamp/step_sink.h"

#include <cassert>
#include <cstdlib>

namespace tessera::scamp {

namespace {

Offset minus(Offset a) { return {-a.x, -a.y}; }
int manhattan(Offset a) { return std::abs(a.x) + std::abs(a.y); }

} // namespace

void StepSink::add(Op op, std::vector<Direction> dirs, const Goal& upper, std::vector<Goal> lowers)
{
    if (!context_.allOps && !opInfo(op).basic)
        return;
    for (size_t i = 0; i < lowers.size(); ++i) {
        if (lowers[i].isZero() || lowers[i] == upper)
            return;
        for (size_t j = 0; j < i; ++j)
            if (lowers[i] == lowers[j])
                return; // sources must be distinct registers
    }
#ifndef NDEBUG
    Instruction instruction;
    instruction.op = op;
    instruction.directions = dirs;
    assert(instruction.apply(lowers) == upper);
#endif
    out_.push_back({op, std::move(dirs), upper, std::move(lowers)});
}

void StepSink::move(const Goal& upper, Offset total)
{
    const auto dirs = directionsFor(total);
    if (dirs)
        add(dirs->size() == 1 ? Op::Movx : Op::Mov2x, *dirs, upper, {upper.shifted(minus(total))});
}

void StepSink::addShifted(const Goal& upper, const Goal& x, const Goal& y, Offset total)
{
    if (manhattan(total) == 0) {
        add(Op::Add, {}, upper, {x, y});
        return;
    }
    const auto dirs = directionsFor(total);
    if (dirs)
        add(dirs->size() == 1 ? Op::Addx : Op::Add2x, *dirs, upper, {x.shifted(minus(total)), y.shifted(minus(total))});
}

void StepSink::subShifted(const Goal& upper, const Goal& x, const Goal& y, Offset total)
{
    if (manhattan(total) == 0) {
        add(Op::Sub, {}, upper, {x, -y});
        return;
    }
    const auto dirs = directionsFor(total);
    if (dirs)
        add(dirs->size() == 1 ? Op::Subx : Op::Sub2x, *dirs, upper, {x.shifted(minus(total)), -y});
}

} // namespace tessera::scamp
