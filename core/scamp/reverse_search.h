#pragma once
// The compiler: a reverse search from the kernels' goals back to the input, in the manner of Cain
// (Stow et al.). A search node is a bag of goals that must all be in registers at one point of
// the program; a child undoes one instruction, replacing a goal by the goals it is computed from
// (pair_generator.h), ordered by a local heuristic (pattern_heuristic.h). A node whose bag holds
// only the input is a complete program; one whose goals all follow from the input by halvings,
// a negation and moves is finished directly (direct_solver.h).
//
// Traversal (CGDS): each worker keeps a deque of nodes; it takes the front node, expands its next
// child (children are generated on first visit), pushes the child to the front and the parent to
// the back - depth-first on the best child, siblings revisited in turn. Every worker starts at the
// root; odd workers generate children differently (see contextFor), and idle workers steal from
// the back of the others' deques. Culled: bags seen before at an equal or lower cost, steps
// needing more registers than there are, nodes that cannot beat the best plan.
#include "scamp/kernel_set.h"
#include "scamp/program.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>

namespace tessera::scamp {

struct SearchOptions {
    bool allOps = true;           // the "all" instruction set, else "basic"
    int threads = 1;              // with one thread the search is deterministic for a seed
    double seconds = 10.0;
    uint64_t nodeLimit = 0;       // 0: no limit
    uint32_t seed = 1;            // orders children of equal promise; with one thread and a node
                                  // limit, a seed gives the same program every run
    int maxDepth = 80;
    // With several kernels and no program after a fifth of the node limit (or of the time),
    // compile them kernel by kernel (kernel_by_kernel.h) for a first program, then search on.
    bool kernelByKernelFallback = true;
    // Memory for the waiting nodes and their untried children; beyond it the search narrows
    // (nodes keep fewer siblings, then none) rather than grow.
    uint64_t frontierBudgetBytes = uint64_t(512) << 20;
    const std::atomic<bool>* cancel = nullptr;
};

struct SearchProgress {
    size_t bestCount = 0;   // instructions of the best program so far
    double seconds = 0.0;   // when it was found
    uint64_t nodes = 0;     // nodes explored by then
};

struct CompileResult {
    std::optional<Program> best;
    SearchProgress atBest;
    uint64_t nodes = 0;
    double seconds = 0.0;
    uint64_t peakFrontierBytes = 0;  // the most the waiting nodes took at once
    size_t seenBags = 0;             // distinct bags reached
};

using ImprovementCallback = std::function<void(const SearchProgress&, const Program&)>;

// Every program reported has passed register allocation; callers verify with verifyProgram.
CompileResult compileKernels(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
                             const ImprovementCallback& onImprovement = {});

} // namespace tessera::scamp
