#pragma once
// Exact placement by search over canonical solutions, in the manner of MiniMalloc (Moffitt, ASPLOS
// 2023). Any packing can be pushed down until every buffer rests on another one or on 0; sorted by
// (offset, lower) such a packing is "canonical", and the search enumerates only those, placing one
// buffer at a time at non-decreasing offsets. Pruning:
//  - section bound: in every section (time interval with a fixed set of live buffers) the unplaced
//    buffers must stack above the current floor, so floor + their sizes must fit the capacity;
//  - valley bound: a section with no spare byte must have a buffer starting at its floor, and
//    the buffers that can do so in one valley of the floors must cover those sections with
//    disjoint lifetimes;
//  - dominance: no buffer is placed at or above the top of an unplaced buffer that could still go
//    below it (that packing has a lower twin the search visits elsewhere);
//  - failed states: a state proven to fail is not searched again (failed_states.h).
// Where a section has no spare byte, the search may branch instead on which buffer fills its floor
// (the one the fewest can fill): exactly one does in every packing, which cuts the tree most on
// instances without slack. Preorders and the two ways of branching are tried round-robin.
// The answer is exact: a packing under the capacity, or a proof that none exists.
#include "memory/buffer.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>

namespace tessera {

struct SearchLimits {
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    const std::atomic<bool>* cancel = nullptr; // set from another thread to stop early
    uint64_t maxNodes = 0;                     // stop after this many search nodes (0: no limit)
};

enum class SearchOutcome { Found, Infeasible, Stopped };

struct SearchResult {
    SearchOutcome outcome = SearchOutcome::Stopped;
    std::vector<int64_t> offsets; // when Found
    uint64_t nodes = 0;           // search nodes visited
};

// Buffers of size 0 are placed at 0 (or their fixed offset) without search.
SearchResult searchPlacement(const std::vector<Buffer>& buffers, int64_t capacity, const SearchLimits& limits = {});

} // namespace tessera
