#pragma once
// The static allocation problem every target shares: buffers live over half-open step intervals
// [lower, upper) and need `size` bytes; a plan gives each an offset in one arena so that no two
// buffers that are live at the same time overlap in address.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

// The largest size, alignment or fixed offset a buffer may have (1 TiB), the largest |lower| and
// |upper| (2^61, so a lifetime's length fits), the most buffers one problem may hold (2^22) and the
// largest capacity (2^62). Sums of sizes then stay far below 2^63, so the planners' arithmetic
// cannot overflow on any accepted input.
inline constexpr int64_t kMaxBufferBytes = int64_t{1} << 40;
inline constexpr int64_t kMaxBufferStep = int64_t{1} << 61;
inline constexpr size_t kMaxBuffers = size_t{1} << 22;
inline constexpr int64_t kMaxCapacity = int64_t{1} << 62;

struct Buffer {
    std::string id;
    int64_t lower = 0;     // first step the buffer is live
    int64_t upper = 0;     // first step it is no longer live (lower < upper)
    int64_t size = 0;      // bytes
    int64_t alignment = 1; // offsets must be a multiple of this power of two
    std::optional<int64_t> fixedOffset; // pinned by the user or the target

    bool overlapsInTime(const Buffer& other) const { return lower < other.upper && other.lower < upper; }
    int64_t length() const { return upper - lower; }
    // length x size, saturated at the largest int64 (an ordering key, never an address).
    int64_t area() const
    {
        const __int128 product = static_cast<__int128>(length()) * size;
        return product > INT64_MAX ? INT64_MAX : static_cast<int64_t>(product);
    }
};

// Rounds `value` up to a multiple of the power of two `alignment`.
inline int64_t alignUp(int64_t value, int64_t alignment) { return (value + alignment - 1) & ~(alignment - 1); }

// The lower bound every plan's peak is at least: the largest total size of the buffers live at
// one time (fixed buffers count with their top offset instead where that is larger).
int64_t maxLiveBytes(const std::vector<Buffer>& buffers);

// Live bytes at each distinct step boundary: pairs (step, bytes live from that step on).
std::vector<std::pair<int64_t, int64_t>> liveBytesProfile(const std::vector<Buffer>& buffers);

// Highest byte used by `offsets` (0 for no buffers).
int64_t planPeak(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets);

// Problems with the buffers themselves (lower >= upper, negative size, alignment not a power of two,
// misaligned fixed offset, duplicate ids, values past the limits above); empty when they are well
// formed.
std::vector<std::string> checkBuffers(const std::vector<Buffer>& buffers);

// Two buffers pinned to offsets whose bytes overlap while both are live, which no plan can honour:
// the first such pair found, described, or an empty string. O(n log n) in the pinned buffers.
std::string pinnedConflict(const std::vector<Buffer>& buffers);

} // namespace tessera
