#pragma once
// The memory planner: offsets for a set of buffers in one arena, either under a given capacity
// (decide) or as small as possible (minimize, anytime within a time limit). It always reports the
// lower bound (max live bytes) so the gap to the optimum is known.
//
// How: the problem is split at time cut-lines no buffer crosses (the parts are independent); each
// part starts from the best greedy plan and, where that is above the part's lower bound, the exact
// canonical search (exact_planner.h) decides capacities between the bound and the best plan.
#include "memory/buffer.h"

#include <atomic>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

enum class PlanStatus {
    Optimal,    // peak proven minimal (equal to the lower bound, or the search proved it)
    Feasible,   // fits the capacity (decide) or best found within the time limit (minimize)
    Infeasible, // proven: no plan fits the capacity
    Timeout,    // no plan under the capacity found in time, and none proven impossible
};

std::string planStatusName(PlanStatus status);

struct PlanOptions {
    std::optional<int64_t> capacity; // required in decide mode
    bool minimize = false;           // also true when no capacity is given
    double timeoutSeconds = 10.0;
    const std::atomic<bool>* cancel = nullptr;
};

struct PlanResult {
    std::vector<int64_t> offsets;  // per buffer; the best plan found (may exceed the capacity
                                   // when the status is Infeasible or Timeout)
    int64_t peak = 0;
    int64_t lowerBound = 0;
    PlanStatus status = PlanStatus::Timeout;
    double milliseconds = 0.0;
    uint64_t searchNodes = 0;
    size_t parts = 0;              // independent parts the problem split into
    std::string message;           // for Infeasible / Timeout: what was asked and what was found

    double ratio() const { return lowerBound > 0 ? double(peak) / double(lowerBound) : 1.0; }
};

// Throws Error listing the problems when the buffers are malformed (see checkBuffers).
PlanResult planMemory(const std::vector<Buffer>& buffers, const PlanOptions& options);

} // namespace tessera
