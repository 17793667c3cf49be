#include "memory/instance_generator.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace tessera {

std::vector<Buffer> randomInstance(const RandomInstanceSpec& spec, uint32_t seed)
{
    std::mt19937 random(seed);
    std::vector<Buffer> buffers;
    std::uniform_int_distribution<int64_t> start(0, std::max<int64_t>(spec.steps - 2, 0));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (size_t k = 0; k < spec.buffers; ++k) {
        Buffer b;
        b.id = "b" + std::to_string(k);
        b.lower = start(random);
        // Mostly short lifetimes with a few long ones, as in network traces.
        const double u = unit(random);
        const int64_t length = 1 + int64_t(u * u * u * double(spec.steps - b.lower - 1));
        b.upper = std::min(spec.steps, b.lower + length);
        if (spec.sizes == SizeDistribution::Uniform)
            b.size = 1 + int64_t(unit(random) * double(spec.maxSize - 1));
        else
            b.size = std::max<int64_t>(1, int64_t(std::exp(unit(random) * std::log(double(spec.maxSize)))));
        int64_t alignment = 1;
        while (alignment * 2 <= spec.maxAlignment && unit(random) < 0.5)
            alignment *= 2;
        b.alignment = alignment;
        buffers.push_back(std::move(b));
    }
    return buffers;
}

std::vector<Buffer> tightInstance(size_t buffers, int64_t capacity, int64_t steps, uint32_t seed)
{
    struct Piece {
        int64_t lower, upper, offset, size;
    };
    std::mt19937 random(seed);
    std::vector<Piece> pieces{{0, steps, 0, capacity}};
    // Cut the largest piece that can still be cut, in time or in address, at a random point.
    while (pieces.size() < buffers) {
        auto largest = std::max_element(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) {
            return (a.upper - a.lower) * a.size < (b.upper - b.lower) * b.size;
        });
        Piece piece = *largest;
        const bool canCutTime = piece.upper - piece.lower >= 2;
        const bool canCutSize = piece.size >= 2;
        if (!canCutTime && !canCutSize)
            break;
        const bool cutTime = canCutTime && (!canCutSize || random() % 2 == 0);
        pieces.erase(largest);
        if (cutTime) {
            const int64_t at = piece.lower + 1 + int64_t(random() % uint64_t(piece.upper - piece.lower - 1));
            pieces.push_back({piece.lower, at, piece.offset, piece.size});
            pieces.push_back({at, piece.upper, piece.offset, piece.size});
        } else {
            const int64_t at = 1 + int64_t(random() % uint64_t(piece.size - 1));
            pieces.push_back({piece.lower, piece.upper, piece.offset, at});
            pieces.push_back({piece.lower, piece.upper, piece.offset + at, piece.size - at});
        }
    }
    std::shuffle(pieces.begin(), pieces.end(), random);
    std::vector<Buffer> result;
    for (size_t k = 0; k < pieces.size(); ++k)
        result.push_back({"t" + std::to_string(k), pieces[k].lower, pieces[k].upper, pieces[k].size, 1, std::nullopt});
    return result;
}

} // namespace tessera
