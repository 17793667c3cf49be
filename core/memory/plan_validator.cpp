#include "memory/plan_validator.h"

#include "memory/live_index.h"

namespace tessera {

std::vector<std::string> validatePlan(const std::vector<Buffer>& buffers, const std::vector<int64_t>& offsets,
                                      int64_t capacity)
{
    std::vector<std::string> problems;
    if (offsets.size() != buffers.size()) {
        problems.push_back("plan has " + std::to_string(offsets.size()) + " offsets for " +
                           std::to_string(buffers.size()) + " buffers");
        return problems;
    }
    for (size_t i = 0; i < buffers.size(); ++i) {
        const Buffer& b = buffers[i];
        const std::string name = "buffer '" + b.id + "'";
        if (offsets[i] < 0 || offsets[i] + b.size > capacity)
            problems.push_back(name + " at [" + std::to_string(offsets[i]) + ", " + std::to_string(offsets[i] + b.size) +
                               ") is outside the capacity " + std::to_string(capacity));
        if (b.alignment > 0 && offsets[i] % b.alignment != 0)
            problems.push_back(name + " at offset " + std::to_string(offsets[i]) + " is not aligned to " +
                               std::to_string(b.alignment));
        if (b.fixedOffset && offsets[i] != *b.fixedOffset)
            problems.push_back(name + " is pinned to " + std::to_string(*b.fixedOffset) + " but placed at " +
                               std::to_string(offsets[i]));
    }
    // Each buffer against those before it that are live with it.
    LiveIndex earlier(buffers);
    for (size_t j = 0; j < buffers.size(); ++j) {
        const Buffer& b = buffers[j];
        if (b.size > 0)
            earlier.forEachOverlapping(j, [&](size_t i) {
                const Buffer& a = buffers[i];
                if (a.size > 0 && offsets[i] < offsets[j] + b.size && offsets[j] < offsets[i] + a.size)
                    problems.push_back("buffers '" + a.id + "' and '" + b.id + "' are live together and overlap in memory");
            });
        earlier.add(j);
    }
    return problems;
}

} // namespace tessera
