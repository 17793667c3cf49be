#pragma once
// Fast greedy placement, the seed of the exact planner and the baseline the benchmarks compare
// with: buffers in a chosen order, each at the lowest aligned gap left by the buffers already
// placed that are live at the same time (first fit, as TensorFlow Lite Micro's planner does).
#include "memory/buffer.h"
#include "memory/exact_planner.h"

#include <optional>
#include <vector>

namespace tessera {

enum class GreedyOrder { SizeDescending, LifetimeDescending, AreaDescending };

// Offsets for every buffer; fixed buffers keep their offsets. The peak may exceed any capacity.
std::vector<int64_t> greedyPlan(const std::vector<Buffer>& buffers, GreedyOrder order = GreedyOrder::SizeDescending);

// The best (lowest peak) of the greedy orders.
std::vector<int64_t> bestGreedyPlan(const std::vector<Buffer>& buffers);
// The same within `limits`: the best of the orders completed when they stop it, nullopt when not
// even one order was.
std::optional<std::vector<int64_t>> bestGreedyPlan(const std::vector<Buffer>& buffers, const SearchLimits& limits);

// Whether one of the greedy orders places every buffer within `capacity` (the same answer as
// planPeak(bestGreedyPlan) <= capacity, found faster: each order stops at its first overflow and
// the first order that fits ends the search).
bool greedyFits(const std::vector<Buffer>& buffers, int64_t capacity);

} // namespace tessera
