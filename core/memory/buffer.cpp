#include "memory/buffer.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace tessera {

std::vector<std::pair<int64_t, int64_t>> liveBytesProfile(const std::vector<Buffer>& buffers)
{
    // Every buffer's start and end as a change of the live bytes, sorted by step (one sort of a
    // flat array: a million buffers take a fraction of a second).
    std::vector<std::pair<int64_t, int64_t>> changes;
    changes.reserve(2 * buffers.size());
    for (const Buffer& buffer : buffers) {
        changes.emplace_back(buffer.lower, buffer.size);
        changes.emplace_back(buffer.upper, -buffer.size);
    }
    std::sort(changes.begin(), changes.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<int64_t, int64_t>> profile;
    int64_t live = 0;
    for (size_t k = 0; k < changes.size(); ++k) {
        live += changes[k].second;
        if (k + 1 == changes.size() || changes[k + 1].first != changes[k].first)
            profile.emplace_back(changes[k].first, live);
    }
    return profile;
}

int64_t maxLiveBytes(const std::vector<Buffer>& buffers)
{
    int64_t best = 0;
    for (const auto& [step, live] : liveBytesProfile(buffers))
        best = std::max(best, live);
    for (const Buffer& buffer : buffers)
        if (buffer.fixedOffset)
            best = std::max(best, *buffer.fixedOffset + buffer.size);
    return best;
}

int64_t planPeak(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets)
{
    int64_t peak = 0;
    for (size_t k = 0; k < buffers.size() && k < offsets.size(); ++k)
        if (buffers[k].size > 0)
            peak = std::max(peak, offsets[k] + buffers[k].size);
    return peak;
}

std::vector<std::string> checkBuffers(const std::vector<Buffer>& buffers)
{
    std::vector<std::string> problems;
    std::unordered_set<std::string> ids;
    for (const Buffer& b : buffers) {
        const std::string name = "buffer '" + b.id + "'";
        if (!ids.insert(b.id).second)
            problems.push_back(name + ": duplicate id");
        if (b.lower >= b.upper)
            problems.push_back(name + ": lower " + std::to_string(b.lower) + " must be below upper " +
                               std::to_string(b.upper) + " (lifetimes are half-open [lower, upper))");
        if (b.size < 0)
            problems.push_back(name + ": negative size " + std::to_string(b.size));
        if (b.alignment <= 0 || (b.alignment & (b.alignment - 1)) != 0)
            problems.push_back(name + ": alignment " + std::to_string(b.alignment) + " is not a power of two");
        else if (b.fixedOffset && *b.fixedOffset % b.alignment != 0)
            problems.push_back(name + ": fixed offset " + std::to_string(*b.fixedOffset) + " is not a multiple of its alignment " +
                               std::to_string(b.alignment));
        if (b.fixedOffset && *b.fixedOffset < 0)
            problems.push_back(name + ": negative fixed offset " + std::to_string(*b.fixedOffset));
        const auto limit = [&](const char* field, int64_t value, int64_t most) {
            if (value > most || value < -most)
                problems.push_back(name + ": " + field + " " + std::to_string(value) + " is beyond the limit of " +
                                   std::to_string(most));
        };
        limit("size", b.size, kMaxBufferBytes);
        limit("alignment", b.alignment, kMaxBufferBytes);
        if (b.fixedOffset)
            limit("fixed offset", *b.fixedOffset, kMaxBufferBytes);
        limit("lower", b.lower, kMaxBufferStep);
        limit("upper", b.upper, kMaxBufferStep);
    }
    return problems;
}

std::string pinnedConflict(const std::vector<Buffer>& buffers)
{
    // Sweep the steps; the pinned buffers live at a step never overlap in memory (else the conflict
    // is already found), so a new one need only be checked against its neighbours by offset.
    struct Event {
        int64_t step;
        bool start;
        size_t buffer;
    };
    std::vector<Event> events;
    for (size_t k = 0; k < buffers.size(); ++k)
        if (buffers[k].fixedOffset && buffers[k].size > 0) {
            events.push_back({buffers[k].lower, true, k});
            events.push_back({buffers[k].upper, false, k});
        }
    // Lifetimes are half-open: at one step, what ends goes before what starts.
    std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.step != b.step ? a.step < b.step : (a.start != b.start ? !a.start : a.buffer < b.buffer);
    });
    std::map<int64_t, size_t> live;  // offset -> buffer
    const auto describe = [&](size_t a, size_t b) {
        const Buffer& x = buffers[a];
        const Buffer& y = buffers[b];
        return "buffers '" + x.id + "' and '" + y.id + "' are pinned to overlapping bytes (" +
               std::to_string(*x.fixedOffset) + ".." + std::to_string(*x.fixedOffset + x.size - 1) + " and " +
               std::to_string(*y.fixedOffset) + ".." + std::to_string(*y.fixedOffset + y.size - 1) +
               ") while both are live (steps " + std::to_string(std::max(x.lower, y.lower)) + " to " +
               std::to_string(std::min(x.upper, y.upper) - 1) + "); pin one elsewhere or leave its offset empty";
    };
    for (const Event& event : events) {
        const Buffer& b = buffers[event.buffer];
        if (!event.start) {
            const auto at = live.find(*b.fixedOffset);
            if (at != live.end() && at->second == event.buffer)
                live.erase(at);
            continue;
        }
        const auto next = live.lower_bound(*b.fixedOffset);
        if (next != live.end() && next->first < *b.fixedOffset + b.size)
            return describe(next->second, event.buffer);
        if (next != live.begin()) {
            const size_t before = std::prev(next)->second;
            if (*buffers[before].fixedOffset + buffers[before].size > *b.fixedOffset)
                return describe(before, event.buffer);
        }
        live.emplace(*b.fixedOffset, event.buffer);
    }
    return {};
}

} // namespace tessera
