#include "scamp/compact_step.h"

#include <cassert>
#include <limits>

namespace tessera::scamp {

namespace {

template <typename T>
bool fits(int64_t value)
{
    return value >= std::numeric_limits<T>::min() && value <= std::numeric_limits<T>::max();
}

Offset totalShift(const std::vector<Direction>& directions)
{
    Offset total;
    for (Direction d : directions) {
        const Offset o = offsetOf(d);
        total = {total.x + o.x, total.y + o.y};
    }
    return total;
}

} // namespace

std::optional<PackedGoals> PackedGoals::pack(const std::vector<Goal>& goals)
{
    PackedGoals packed;
    size_t entries = goals.size();
    for (const Goal& g : goals)
        entries += g.terms().size();
    packed.data_.reserve(entries);
    for (const Goal& g : goals) {
        packed.data_.push_back({0, 0, int32_t(g.terms().size())});
        for (const Goal::Term& t : g.terms()) {
            if (!fits<int16_t>(t.at.x) || !fits<int16_t>(t.at.y) || !fits<int32_t>(t.coefficient))
                return std::nullopt;
            packed.data_.push_back({int16_t(t.at.x), int16_t(t.at.y), int32_t(t.coefficient)});
        }
    }
    return packed;
}

std::vector<Goal> PackedGoals::unpack() const
{
    std::vector<Goal> goals;
    for (size_t k = 0; k < data_.size();) {
        const size_t count = size_t(data_[k].value);
        std::vector<Goal::Term> terms;
        terms.reserve(count);
        for (size_t t = 1; t <= count; ++t)
            terms.push_back({{data_[k + t].x, data_[k + t].y}, data_[k + t].value});
        goals.emplace_back(std::move(terms));
        k += count + 1;
    }
    return goals;
}

size_t keptLowerCount(Op op)
{
    switch (op) {
    case Op::Add:
    case Op::Addx:
    case Op::Add2x:
    case Op::Sub:
    case Op::Subx:
    case Op::Sub2x: return 1;
    case Op::Add3: return 2;
    default: return 0;
    }
}

std::vector<Goal> derivedLowers(Op op, const std::vector<Direction>& directions, const Goal& upper,
                                const std::vector<Goal>& kept)
{
    const Offset s = totalShift(directions);
    const Offset back{-s.x, -s.y};
    switch (op) {
    case Op::Res:
    case Op::Res2: return {};
    case Op::Mov: return {upper};
    case Op::Movx:
    case Op::Mov2x: return {upper.shifted(back)};
    case Op::Neg: return {-upper};
    case Op::Divq:
    case Op::Div:
    case Op::DivClobber:
    case Op::Diva: return {upper.doubled()};
    case Op::Add: return {kept[0], upper - kept[0]};
    case Op::Add3: return {kept[0], kept[1], upper - kept[0] - kept[1]};
    case Op::Addx:
    case Op::Add2x: return {kept[0], upper.shifted(back) - kept[0]};
    case Op::Sub: return {kept[0], kept[0] - upper};
    case Op::Subx:
    case Op::Sub2x: return {kept[0], kept[0].shifted(s) - upper};
    }
    return {};
}

std::optional<CompactStep> CompactStep::make(const ReverseStep& step, size_t upperIndex)
{
    CompactStep compact;
    compact.op = step.op;
    compact.directionCount = uint8_t(step.directions.size());
    for (size_t k = 0; k < step.directions.size() && k < 2; ++k)
        compact.directions[k] = step.directions[k];
    compact.upperIndex = uint8_t(upperIndex);
    const std::vector<Goal> kept(step.lowers.begin(), step.lowers.begin() + ptrdiff_t(keptLowerCount(step.op)));
    auto packed = PackedGoals::pack(kept);
    if (!packed || step.directions.size() > 2 || upperIndex > 255)
        return std::nullopt;
    compact.kept = std::move(*packed);
    assert(derivedLowers(step.op, step.directions, step.upper, kept) == step.lowers);
    return compact;
}

ReverseStep CompactStep::expandWith(const Goal& upper) const
{
    ReverseStep step;
    step.op = op;
    step.directions.assign(directions, directions + directionCount);
    step.upper = upper;
    step.lowers = derivedLowers(op, step.directions, step.upper, kept.unpack());
    return step;
}

} // namespace tessera::scamp
