#pragma once
// Seeded planning instances for tests and benchmarks.
#include "memory/buffer.h"

#include <cstdint>

namespace tessera {

enum class SizeDistribution {
    Uniform,   // sizes uniform in [1, maxSize]
    LogUniform // sizes spread over orders of magnitude, like real activation traces
};

struct RandomInstanceSpec {
    size_t buffers = 100;
    int64_t steps = 200;           // lifetimes fall in [0, steps)
    int64_t maxSize = 4096;
    SizeDistribution sizes = SizeDistribution::Uniform;
    int64_t maxAlignment = 1;      // alignments are powers of two up to this
};

// Random lifetimes and sizes.
std::vector<Buffer> randomInstance(const RandomInstanceSpec& spec, uint32_t seed);

// A perfect packing of a `capacity` x `steps` rectangle cut into `buffers` pieces at random: every
// step is fully covered, so the lower bound equals the capacity and a plan at exactly the capacity
// exists. These are the hard decision instances (no slack at all).
std::vector<Buffer> tightInstance(size_t buffers, int64_t capacity, int64_t steps, uint32_t seed);

} // namespace tessera
