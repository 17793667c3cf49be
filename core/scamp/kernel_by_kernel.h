#pragma once
// A first program for a set of several kernels: each kernel compiled on its own, one after the
// other, in the registers the earlier outputs leave free, while the input stays in its register
// until the last kernel. It shares nothing between kernels, so the simultaneous search normally
// beats it; it gives that search a bound to prune against from the start, and a program at all
// when registers are so few that the simultaneous search finds none in time (four random 3x3
// kernels in SCAMP-5's six registers). The search falls back to it when it has found nothing after
// a fifth of its budget. The comparison is the Cain paper's (its Figure 4).
#include "scamp/kernel_set.h"
#include "scamp/program.h"

#include <atomic>
#include <cstdint>
#include <optional>

namespace tessera::scamp {

struct KernelByKernelOptions {
    bool allOps = true;
    uint64_t nodesPerKernel = 3000;
    double secondsPerKernel = 2.0;
    uint32_t seed = 1;
    const std::atomic<bool>* cancel = nullptr;
};

// nullopt when a kernel finds no program in the registers left to it. The program computes
// exactly `kernels` (same depth and goals) into the set's output registers.
std::optional<Program> compileKernelByKernel(const KernelSet& set, const ApproximatedKernels& kernels,
                                             const KernelByKernelOptions& options);

} // namespace tessera::scamp
