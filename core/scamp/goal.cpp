#include "scamp/goal.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tessera::scamp {

Offset offsetOf(Direction direction)
{
    switch (direction) {
    case Direction::North: return {0, 1};
    case Direction::East: return {1, 0};
    case Direction::South: return {0, -1};
    case Direction::West: return {-1, 0};
    }
    return {};
}

std::string directionName(Direction direction)
{
    switch (direction) {
    case Direction::North: return "north";
    case Direction::East: return "east";
    case Direction::South: return "south";
    case Direction::West: return "west";
    }
    return "?";
}

bool directionFromName(const std::string& name, Direction& direction)
{
    for (Direction d : {Direction::North, Direction::East, Direction::South, Direction::West})
        if (directionName(d) == name) {
            direction = d;
            return true;
        }
    return false;
}

Goal::Goal(std::vector<Term> terms)
{
    std::sort(terms.begin(), terms.end(), [](const Term& a, const Term& b) { return a.at < b.at; });
    for (const Term& term : terms) {
        if (!terms_.empty() && terms_.back().at == term.at)
            terms_.back().coefficient += term.coefficient;
        else
            terms_.push_back(term);
    }
    std::erase_if(terms_, [](const Term& t) { return t.coefficient == 0; });
}

int64_t Goal::coefficientAt(Offset at) const
{
    const auto found = std::lower_bound(terms_.begin(), terms_.end(), at,
                                        [](const Term& t, const Offset& o) { return t.at < o; });
    return found != terms_.end() && found->at == at ? found->coefficient : 0;
}

int64_t Goal::atomCount() const
{
    int64_t count = 0;
    for (const Term& t : terms_)
        count += std::llabs(t.coefficient);
    return count;
}

Goal Goal::operator+(const Goal& other) const
{
    std::vector<Term> all = terms_;
    all.insert(all.end(), other.terms_.begin(), other.terms_.end());
    return Goal(std::move(all));
}

Goal Goal::operator-(const Goal& other) const { return *this + (-other); }

Goal Goal::operator-() const { return scaled(-1); }

Goal Goal::shifted(Offset by) const
{
    Goal result = *this;
    for (Term& t : result.terms_)
        t.at = {t.at.x + by.x, t.at.y + by.y};
    return result; // a uniform shift keeps the order
}

Goal Goal::doubled() const { return scaled(2); }

bool Goal::isEven() const
{
    return std::all_of(terms_.begin(), terms_.end(), [](const Term& t) { return t.coefficient % 2 == 0; });
}

Goal Goal::halved() const
{
    Goal result = *this;
    for (Term& t : result.terms_)
        t.coefficient /= 2;
    std::erase_if(result.terms_, [](const Term& t) { return t.coefficient == 0; });
    return result;
}

Goal Goal::scaled(int64_t factor) const
{
    Goal result = *this;
    for (Term& t : result.terms_)
        t.coefficient *= factor;
    std::erase_if(result.terms_, [](const Term& t) { return t.coefficient == 0; });
    return result;
}

size_t Goal::hash() const
{
    size_t h = 1469598103934665603ull;
    for (const Term& t : terms_) {
        for (int64_t v : {int64_t(t.at.x), int64_t(t.at.y), t.coefficient}) {
            h ^= size_t(v) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        }
    }
    return h;
}

std::string Goal::toString() const
{
    if (terms_.empty())
        return "[0]";
    int minX = 0, maxX = 0, minY = 0, maxY = 0;
    for (const Term& t : terms_) {
        minX = std::min(minX, t.at.x);
        maxX = std::max(maxX, t.at.x);
        minY = std::min(minY, t.at.y);
        maxY = std::max(maxY, t.at.y);
    }
    std::string text = "[";
    for (int y = maxY; y >= minY; --y) {
        for (int x = minX; x <= maxX; ++x)
            text += std::to_string(coefficientAt({x, y})) + (x < maxX ? " " : "");
        text += y > minY ? "; " : "]";
    }
    return text;
}

} // namespace tessera::scamp
