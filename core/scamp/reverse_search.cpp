#include "scamp/reverse_search.h"

#include "base/error.h"
#include "scamp/compact_step.h"
#include "scamp/direct_solver.h"
#include "scamp/kernel_by_kernel.h"
#include "scamp/pair_generator.h"
#include "scamp/pattern_heuristic.h"
#include "scamp/register_allocator.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace tessera::scamp {

namespace {

using Clock = std::chrono::steady_clock;

// Children kept per node, best first. The traversal rarely comes back for more; the cap bounds
// the memory of the nodes waiting in the deques.
constexpr size_t kMaxChildren = 128;
// Over the memory budget, a node going back to wait keeps only this many untried children.
constexpr size_t kChildrenKeptWhenFull = 2;
// Bags the seen set holds at most (about 50 bytes each).
constexpr size_t kMaxSeenBags = size_t(1) << 23;

// SplitMix64's finaliser: spreads a key and the seed over all 64 bits.
uint64_t mixed(uint64_t value)
{
    value += 0x9e3779b97f4a7c15ull;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
    return value ^ (value >> 31);
}

// One instruction of the path from a node back to the root (the final goals), compactly: the
// step's upper is stored beside the step's kept lowers.
struct Chain {
    CompactStep step;
    PackedGoals upper;
    std::shared_ptr<const Chain> next; // toward the root

    ReverseStep expand() const { return step.expandWith(upper.unpack().front()); }
};

// A waiting search node. Its bag and untried children are the bulk of the search's memory; their
// bytes are counted in the searcher's account while the node lives.
struct Node {
    PackedGoals bag;
    std::shared_ptr<const Chain> chain;
    int cost = 0;
    bool expanded = false;
    std::vector<CompactStep> children;
    size_t next = 0;

    Node() = default;
    Node(const Node& other) : bag(other.bag), chain(other.chain), cost(other.cost) {}  // unexpanded, unaccounted
    ~Node()
    {
        if (account_)
            account_->fetch_sub(bagBytes_ + childBytes_, std::memory_order_relaxed);
    }

    // Counts the node in `account` from now on.
    void chargeTo(std::atomic<int64_t>& account)
    {
        account_ = &account;
        bagBytes_ = int64_t(bag.bytes() + sizeof(Node) + sizeof(Chain));
        account.fetch_add(bagBytes_, std::memory_order_relaxed);
    }
    void setChildren(std::vector<CompactStep> list)
    {
        children = std::move(list);
        next = 0;
        int64_t bytes = 0;
        for (const CompactStep& c : children)
            bytes += int64_t(c.bytes());
        if (account_)
            account_->fetch_add(bytes - childBytes_, std::memory_order_relaxed);
        childBytes_ = bytes;
    }
    // Keeps the next `count` untried children only.
    void trimChildren(size_t count)
    {
        std::vector<CompactStep> kept(std::make_move_iterator(children.begin() + ptrdiff_t(next)),
                                      std::make_move_iterator(children.begin() + ptrdiff_t(std::min(children.size(), next + count))));
        setChildren(std::move(kept));
    }

private:
    std::atomic<int64_t>* account_ = nullptr;
    int64_t bagBytes_ = 0;
    int64_t childBytes_ = 0;
};

// A 64-bit fingerprint of a bag for the seen set, which keeps no goals: two different bags share
// one with a chance of about 2^-64, and then the second is only pruned, never wrongly accepted
// (every program is verified).
uint64_t fingerprint(const Bag& bag)
{
    uint64_t h = 0x243f6a8885a308d3ull;
    for (const Goal& g : bag) {
        h = mixed(h ^ 0x13198a2e03707344ull);
        for (const Goal::Term& t : g.terms())
            h = mixed(h ^ (uint64_t(uint32_t(t.at.x)) | uint64_t(uint32_t(t.at.y)) << 32)) ^ uint64_t(t.coefficient);
    }
    return mixed(h);
}

class Searcher {
public:
    Searcher(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
             const ImprovementCallback& onImprovement)
        : set_(set), kernels_(kernels), options_(options), onImprovement_(onImprovement),
          input_(kernels.input()), registers_(int(set.registers.size()))
    {
        budget_ = int64_t(options.frontierBudgetBytes);
        for (const KernelSpec& k : set.kernels)
            outputRegisters_.push_back(k.outputRegister);
        context_.input = input_;
        context_.inputDepth = kernels.depth;
        context_.allOps = options.allOps;
        context_.registers = registers_;
        // A binomial step holds a part and its moved copy in two registers until a move merges
        // them. When the outputs take most of the registers (four random 3x3 kernels in six),
        // favouring products led the search to no program in 60 s: there every goal counts its atoms.
        productsByCore_ = 2 * set.kernels.size() <= set.registers.size();
    }

    CompileResult run()
    {
        start_ = Clock::now();
        // Beyond a year is no limit (and would overflow the clock's arithmetic); no time (0,
        // negative or NaN) stops at once.
        constexpr double kYearSeconds = 365.0 * 24 * 3600;
        if (!(options_.seconds > 0))
            deadline_ = start_;
        else if (options_.seconds >= kYearSeconds)
            deadline_ = Clock::time_point::max();
        else
            deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.seconds));
        auto root = std::make_shared<Node>();
        Bag rootBag = kernels_.goals;
        sortBag(rootBag);
        auto packed = PackedGoals::pack(rootBag);
        if (!packed)
            throw Error("the kernels' coefficients or extent are too large for the search");
        root->bag = std::move(*packed);
        if (isComplete(rootBag))
            record(nullptr);
        fallbackPending_ = options_.kernelByKernelFallback && set_.kernels.size() > 1;
        finishDirectly(rootBag, 0, nullptr);
        const int workers = std::max(1, options_.threads);
        deques_.resize(size_t(workers));
        locks_ = std::vector<std::mutex>(size_t(workers));
        // Every worker starts at the root with its own ordering of the children; stealing
        // balances the load once a worker runs dry.
        for (int w = 0; w < workers; ++w) {
            auto start = w == 0 ? root : std::make_shared<Node>(*root);
            start->chargeTo(frontierBytes_);
            deques_[size_t(w)].push_back(std::move(start));
        }
        if (workers == 1) {
            work(0);
        } else {
            // A worker that throws (out of memory, a goal too large) stops the others; the first
            // exception is raised again here, in the caller's thread, where it can be reported.
            std::vector<std::thread> threads;
            for (int w = 0; w < workers; ++w)
                threads.emplace_back([this, w] {
                    try {
                        work(size_t(w));
                    } catch (...) {
                        std::lock_guard lock(failureLock_);
                        if (!failure_)
                            failure_ = std::current_exception();
                        stop_ = true;
                    }
                });
            for (std::thread& t : threads)
                t.join();
            if (failure_)
                std::rethrow_exception(failure_);
        }
        CompileResult result;
        result.best = best_;
        result.atBest = atBest_;
        result.nodes = nodes_.load();
        result.peakFrontierBytes = uint64_t(std::max<int64_t>(0, peakFrontier_.load()));
        result.seenBags = seen_.size() + seenResets_ * kMaxSeenBags;
        result.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        return result;
    }

private:
    bool stopping() const
    {
        if (stop_.load(std::memory_order_relaxed))
            return true;
        const uint64_t n = nodes_.load(std::memory_order_relaxed);
        if ((options_.nodeLimit && n >= options_.nodeLimit) || Clock::now() >= deadline_ ||
            (options_.cancel && options_.cancel->load()))
            stop_ = true;
        return stop_;
    }

    std::shared_ptr<Node> take(size_t worker)
    {
        {
            std::lock_guard lock(locks_[worker]);
            if (!deques_[worker].empty()) {
                auto node = deques_[worker].front();
                deques_[worker].pop_front();
                return node;
            }
        }
        // Steal from the back of the next non-empty deque in the ring.
        for (size_t k = 1; k < deques_.size(); ++k) {
            const size_t other = (worker + k) % deques_.size();
            std::lock_guard lock(locks_[other]);
            if (!deques_[other].empty()) {
                auto node = deques_[other].back();
                deques_[other].pop_back();
                return node;
            }
        }
        return nullptr;
    }

    void work(size_t worker)
    {
        while (!stopping()) {
            if (worker == 0 && fallbackPending_ && fallbackDue())
                fallBackToKernelByKernel();
            // Busy from before taking a node until its step is done, so that an idle worker only
            // concludes the space is exhausted when no other worker can still add nodes.
            busy_.fetch_add(1);
            std::shared_ptr<Node> node = take(worker);
            if (node) {
                step(worker, node);
                busy_.fetch_sub(1);
                continue;
            }
            if (busy_.fetch_sub(1) == 1 && allDequesEmpty())
                break;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
        }
    }

    bool allDequesEmpty()
    {
        for (size_t w = 0; w < deques_.size(); ++w) {
            std::lock_guard lock(locks_[w]);
            if (!deques_[w].empty())
                return false;
        }
        return true;
    }

    void step(size_t worker, const std::shared_ptr<Node>& node)
    {
        nodes_.fetch_add(1, std::memory_order_relaxed);
        const Bag bag = node->bag.unpack();
        if (!node->expanded) {
            expand(*node, bag, worker);
            node->expanded = true;
            notePeak();
        }
        while (node->next < node->children.size()) {
            const ReverseStep reverse = node->children[node->next++].expand(bag);
            Bag childBag = applyInReverse(bag, reverse);
            const int cost = node->cost + 1;
            auto packedBag = PackedGoals::pack(childBag);
            auto compact = CompactStep::make(reverse, 0);
            auto upper = PackedGoals::pack({reverse.upper});
            if (!packedBag || !compact || !upper || !admit(childBag, cost))
                continue;
            auto chain = std::make_shared<const Chain>(Chain{std::move(*compact), std::move(*upper), node->chain});
            if (isComplete(childBag)) {
                record(chain);
                continue;
            }
            finishDirectly(childBag, cost, chain);
            auto next = std::make_shared<Node>();
            next->bag = std::move(*packedBag);
            next->cost = cost;
            next->chain = std::move(chain);
            next->chargeTo(frontierBytes_);
            // Over the budget, waiting nodes keep fewer siblings, and far over it a node whose
            // child goes on is not kept waiting at all: the search narrows to depth first instead
            // of growing without bound.
            const int64_t held = frontierBytes_.load(std::memory_order_relaxed);
            if (held > budget_)
                node->trimChildren(held > budget_ + budget_ / 4 ? 0 : kChildrenKeptWhenFull);
            std::lock_guard lock(locks_[worker]);
            if (node->next < node->children.size())
                deques_[worker].push_back(node); // siblings later, in turn
            else
                node->setChildren({});           // spent: free the memory
            deques_[worker].push_front(next);    // depth-first on the best child
            return;
        }
        node->setChildren({});
    }

    // A fifth of the node limit, or of the time, gone without a program of several kernels.
    bool fallbackDue()
    {
        if (bestCount() != SIZE_MAX) {
            fallbackPending_ = false;  // the simultaneous search found one: no need
            return false;
        }
        if (options_.nodeLimit)
            return nodes_.load(std::memory_order_relaxed) >= options_.nodeLimit / 5;
        return Clock::now() - start_ >= std::chrono::duration<double>(options_.seconds / 5.0);
    }

    void fallBackToKernelByKernel()
    {
        fallbackPending_ = false;
        KernelByKernelOptions start;
        start.allOps = options_.allOps;
        start.seed = options_.seed;
        start.cancel = options_.cancel;
        start.secondsPerKernel = std::min(2.0, options_.seconds / 5.0 / double(set_.kernels.size()));
        if (options_.nodeLimit)
            start.nodesPerKernel = std::min<uint64_t>(start.nodesPerKernel, options_.nodeLimit / 5 / set_.kernels.size() + 1);
        auto program = compileKernelByKernel(set_, kernels_, start);
        if (!program)
            return;
        std::lock_guard lock(bestLock_);
        if (best_ && best_->instructions.size() <= program->instructions.size())
            return;  // another worker found better meanwhile
        best_ = std::move(*program);
        atBest_.bestCount = best_->instructions.size();
        atBest_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        atBest_.nodes = 0;
        if (onImprovement_)
            onImprovement_(atBest_, *best_);
    }

    void notePeak()
    {
        const int64_t now = frontierBytes_.load(std::memory_order_relaxed);
        int64_t peak = peakFrontier_.load(std::memory_order_relaxed);
        while (now > peak && !peakFrontier_.compare_exchange_weak(peak, now)) {
        }
    }

    bool isComplete(const Bag& bag) const
    {
        return std::all_of(bag.begin(), bag.end(), [&](const Goal& g) { return g == input_; });
    }

    // Lower bound on the instructions still needed: one per goal other than the input.
    int remainingAtLeast(const Bag& bag) const
    {
        return int(std::count_if(bag.begin(), bag.end(), [&](const Goal& g) { return !(g == input_); }));
    }

    size_t bestCount()
    {
        std::lock_guard lock(bestLock_);
        return best_ ? atBest_.bestCount : SIZE_MAX;
    }

    bool admit(const Bag& bag, int cost)
    {
        if (cost > options_.maxDepth)
            return false;
        if (int(bag.size()) > registers_)
            return false;
        if (size_t(cost + remainingAtLeast(bag)) >= bestCount())
            return false;
        std::lock_guard lock(seenLock_);
        // A long search forgets the bags it has seen rather than outgrow the memory: it may then
        // visit one again, never accept a wrong program.
        if (seen_.size() >= kMaxSeenBags) {
            seen_.clear();
            ++seenResets_;
        }
        auto [it, inserted] = seen_.try_emplace(fingerprint(bag), cost);
        if (!inserted) {
            if (it->second <= cost)
                return false;
            it->second = cost;
        }
        return true;
    }

    // When the rest follows from the input by halvings, a negation and moves, record that program.
    void finishDirectly(const Bag& bag, int cost, std::shared_ptr<const Chain> chain)
    {
        const auto steps = solveDirectly(bag, input_, options_.allOps);
        if (!steps || size_t(cost) + steps->size() >= bestCount())
            return;
        for (auto it = steps->rbegin(); it != steps->rend(); ++it) {
            auto compact = CompactStep::make(*it, 0);
            auto upper = PackedGoals::pack({it->upper});
            if (!compact || !upper)
                return;
            chain = std::make_shared<const Chain>(Chain{std::move(*compact), std::move(*upper), chain});
        }
        record(chain);
    }

    // `chain` runs from the first instruction of the program to the last.
    void record(const std::shared_ptr<const Chain>& head)
    {
        ValuePlan plan;
        plan.input = input_;
        std::vector<std::pair<Goal, size_t>> latest{{input_, 0}};
        auto find = [&](const Goal& g) -> std::optional<size_t> {
            for (auto it = latest.rbegin(); it != latest.rend(); ++it)
                if (it->first == g)
                    return it->second;
            return std::nullopt;
        };
        for (const Chain* c = head.get(); c; c = c->next.get()) {
            const ReverseStep reverse = c->expand();
            PlanStep step;
            step.op = reverse.op;
            step.directions = reverse.directions;
            step.result = reverse.upper;
            for (const Goal& lower : reverse.lowers) {
                const auto v = find(lower);
                if (!v)
                    return; // cannot happen for a complete chain
                step.sources.push_back(*v);
            }
            plan.steps.push_back(std::move(step));
            latest.emplace_back(reverse.upper, plan.steps.size());
        }
        for (const Goal& g : kernels_.goals) {
            const auto v = find(g);
            if (!v)
                return;
            plan.outputs.push_back(*v);
        }
        auto instructions = allocateRegisters(plan, set_.registers, set_.inputRegister, outputRegisters_);
        if (!instructions)
            return;
        std::lock_guard lock(bestLock_);
        if (best_ && instructions->size() >= atBest_.bestCount)
            return;
        best_ = Program{std::move(*instructions)};
        atBest_.bestCount = best_->instructions.size();
        atBest_.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        atBest_.nodes = nodes_.load();
        if (onImprovement_)
            onImprovement_(atBest_, *best_);
    }

    // --- children ------------------------------------------------------------------------------

    // Registers the step needs while it runs: the bag before it, plus the destination unless it
    // can take the register of a source read for the last time.
    bool fitsRegisters(const Bag& parent, const ReverseStep& step) const
    {
        int fresh = 0;
        bool shares = false;
        for (size_t k = 0; k < step.lowers.size(); ++k) {
            const bool live = std::find(parent.begin(), parent.end(), step.lowers[k]) != parent.end();
            fresh += live ? 0 : 1;
            shares = shares || (!live && mayShareDestination(step.op, k));
        }
        const int before = int(parent.size()) - 1 + fresh;
        return before + (shares ? 0 : 1) <= registers_;
    }

    // Worker 0 splits goals exhaustively only when every goal is small, as in the paper; odd
    // workers switch sooner, which leads them into a different part of the space (a portfolio of
    // two child generators sharing the culling and the best plan).
    GenerationContext contextFor(size_t worker) const
    {
        GenerationContext context = context_;
        if (worker % 2 == 1)
            context.exhaustiveThreshold = 6;
        context.stopRequested = [this] { return stopping(); };
        return context;
    }

    void expand(Node& node, const Bag& bag, size_t worker)
    {
        std::vector<ReverseStep> steps = generateSteps(bag, contextFor(worker));
        // Steps with the same upper and the same lowers lead to the same bag: one child.
        std::unordered_set<size_t> distinct;
        struct Ranked {
            double priority;
            uint64_t tieBreak;  // orders children of equal priority, from the seed
            size_t step;
        };
        std::vector<Ranked> ranked;
        for (size_t k = 0; k < steps.size(); ++k) {
            if (stopping())
                break;  // the children so far; the search ends with this step
            const ReverseStep& step = steps[k];
            std::vector<size_t> hashes;
            for (const Goal& g : step.lowers)
                hashes.push_back(g.hash());
            std::sort(hashes.begin(), hashes.end());
            size_t key = step.upper.hash();
            for (size_t h : hashes)
                key = key * 1000003u ^ h;
            if (!fitsRegisters(bag, step) || !distinct.insert(key).second)
                continue;
            ranked.push_back({patternCost(applyInReverse(bag, step), kernels_.depth, productsByCore_),
                              mixed(uint64_t(key) ^ mixed(options_.seed)), k});
        }
        // Equal priorities are common (mirror images of a symmetric kernel): the seed decides their
        // order, so that different seeds explore differently and one seed always the same way.
        std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
            return a.priority != b.priority ? a.priority < b.priority : a.tieBreak < b.tieBreak;
        });
        std::vector<CompactStep> children;
        children.reserve(std::min(ranked.size(), kMaxChildren));
        for (const Ranked& r : ranked) {
            if (children.size() == kMaxChildren)
                break;
            const ReverseStep& step = steps[r.step];
            const size_t upperIndex = size_t(std::find(bag.begin(), bag.end(), step.upper) - bag.begin());
            if (auto compact = CompactStep::make(step, upperIndex))
                children.push_back(std::move(*compact));
        }
        node.setChildren(std::move(children));
    }

    const KernelSet& set_;
    const ApproximatedKernels& kernels_;
    const SearchOptions options_;
    const ImprovementCallback onImprovement_;
    const Goal input_;
    const int registers_;
    GenerationContext context_;
    bool productsByCore_ = true;
    std::vector<std::string> outputRegisters_;
    Clock::time_point start_, deadline_;
    std::vector<std::deque<std::shared_ptr<Node>>> deques_;
    std::vector<std::mutex> locks_;
    std::mutex seenLock_, bestLock_;
    std::unordered_map<uint64_t, int> seen_;  // bag fingerprint -> lowest cost reached
    std::atomic<int64_t> frontierBytes_{0};  // untried children held by waiting nodes
    std::atomic<int64_t> peakFrontier_{0};
    int64_t budget_ = 0;
    size_t seenResets_ = 0;
    bool fallbackPending_ = false;  // worker 0 alone reads and clears it
    std::optional<Program> best_;
    SearchProgress atBest_;
    std::atomic<uint64_t> nodes_{0};
    std::atomic<int> busy_{0};
    mutable std::atomic<bool> stop_{false};  // set by stopping() when a limit is reached
    std::mutex failureLock_;
    std::exception_ptr failure_;  // the first exception a worker thread raised
};

} // namespace

CompileResult compileKernels(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
                             const ImprovementCallback& onImprovement)
{
    return Searcher(set, kernels, options, onImprovement).run();
}

} // namespace tessera::scamp
