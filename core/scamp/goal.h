#pragma once
// A goal is what one SCAMP-5 register must hold: an integer combination of the input image at
// offsets around each pixel, in units of 2^-d of the input. (The atoms of the Cain paper: a
// coefficient n at (x, y) stands for |n| atoms of that sign.) North is +y, east is +x.
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::scamp {

struct Offset {
    int x = 0;
    int y = 0;
    bool operator==(const Offset&) const = default;
    auto operator<=>(const Offset&) const = default;
};

enum class Direction { North, East, South, West };

Offset offsetOf(Direction direction);
std::string directionName(Direction direction); // "north", ...
bool directionFromName(const std::string& name, Direction& direction);

class Goal {
public:
    struct Term {
        Offset at;
        int64_t coefficient = 0;
        bool operator==(const Term&) const = default;
    };

    Goal() = default;
    static Goal identity(int64_t coefficient) { return Goal({{{0, 0}, coefficient}}); }

    // Terms with zero coefficients are dropped; equal offsets are summed.
    explicit Goal(std::vector<Term> terms);

    const std::vector<Term>& terms() const { return terms_; }
    bool isZero() const { return terms_.empty(); }
    int64_t coefficientAt(Offset at) const;
    int64_t atomCount() const; // sum of |coefficient|

    Goal operator+(const Goal& other) const;
    Goal operator-(const Goal& other) const;
    Goal operator-() const;
    Goal shifted(Offset by) const;    // the register read at p + by: every offset moves by `by`
    Goal doubled() const;
    bool isEven() const;              // every coefficient even (exact halving possible)
    Goal halved() const;              // requires isEven()
    Goal scaled(int64_t factor) const;

    bool operator==(const Goal&) const = default;
    size_t hash() const;
    // Rows north to south, e.g. "[1 2 1; 2 4 2; 1 2 1]" over the goal's extent.
    std::string toString() const;

private:
    std::vector<Term> terms_; // sorted by offset, no zeros
};

} // namespace tessera::scamp
