#pragma once
// States of the canonical search proven to have no completion, so that the search does not prove
// it again when it reaches the same state along another path (stacks of buffers in a different
// order leave the same skyline) or in a later restart with a larger node budget.
//
// A state is named by a 128-bit hash of what decides its future (see exact_planner.cpp); two
// different states sharing a name is a 2^-128 event per pair. Each entry keeps the lowest sweep at
// which its state failed: a higher sweep only takes choices away, so it fails too. The table is
// bounded and forgets entries when full, which loses pruning but never soundness.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace tessera {

struct StateKey {
    uint64_t high = 0;
    uint64_t low = 0;

    StateKey& operator^=(const StateKey& other)
    {
        high ^= other.high;
        low ^= other.low;
        return *this;
    }
    friend StateKey operator^(StateKey a, const StateKey& b) { return a ^= b; }
    friend bool operator==(const StateKey&, const StateKey&) = default;
};

// Placements are made at non-decreasing (offset, rank); the sweep is the last one made.
struct SweepPoint {
    int64_t offset = 0;
    uint64_t rank = 0;

    friend auto operator<=>(const SweepPoint&, const SweepPoint&) = default;
};

class FailedStateTable {
public:
    FailedStateTable() : entries_(kInitialSize) {}

    bool provenFailed(StateKey key, const SweepPoint& sweep) const
    {
        key = stored(key);
        const size_t set = setOf(key);
        for (size_t way = 0; way < kWays; ++way) {
            const Entry& entry = entries_[set + way];
            if (entry.key == key)
                return entry.sweep <= sweep;
        }
        return false;
    }

    void recordFailure(const StateKey& key, const SweepPoint& sweep)
    {
        if (used_ * 2 > entries_.size() && entries_.size() < kMaxSize)
            grow();
        insert(stored(key), sweep);
    }

private:
    struct Entry {
        StateKey key; // all zero: free
        SweepPoint sweep;
    };

    // Small sets of slots keep lookups to one or two cache lines; the table doubles while it is
    // at most half full and stays at kMaxSize entries (32 MB) after that.
    static constexpr size_t kWays = 4;
    static constexpr size_t kInitialSize = size_t(1) << 10;
    static constexpr size_t kMaxSize = size_t(1) << 20;

    // The all-zero key marks a free slot, so a state hashing to it is stored under another key
    // (one more 2^-128 coincidence).
    static StateKey stored(StateKey key)
    {
        if (key == StateKey{})
            key.low = 1;
        return key;
    }

    static bool isFree(const Entry& entry) { return entry.key == StateKey{}; }

    size_t setOf(const StateKey& key) const { return size_t(key.low) & (entries_.size() - kWays); }

    void insert(const StateKey& key, const SweepPoint& sweep)
    {
        const size_t set = setOf(key);
        Entry* victim = nullptr;
        for (size_t way = 0; way < kWays; ++way) {
            Entry& entry = entries_[set + way];
            if (entry.key == key) {
                entry.sweep = std::min(entry.sweep, sweep);
                return;
            }
            if (isFree(entry) && !victim)
                victim = &entry;
        }
        if (victim)
            ++used_;
        else // full set: overwrite a slot chosen by other bits of the key
            victim = &entries_[set + size_t(key.high % kWays)];
        *victim = {key, sweep};
    }

    void grow()
    {
        std::vector<Entry> old(entries_.size() * 2);
        old.swap(entries_);
        used_ = 0;
        for (const Entry& entry : old)
            if (!isFree(entry))
                insert(entry.key, entry.sweep);
    }

    std::vector<Entry> entries_;
    size_t used_ = 0;
};

} // namespace tessera
