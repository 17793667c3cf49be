#include "scamp/reverse_search.h"

#include "scamp/direct_solver.h"
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

struct Chain {
    ReverseStep step;
    std::shared_ptr<const Chain> next; // toward the root (the final goals)
};

struct Child {
    double priority = 0.0;
    uint64_t tieBreak = 0;  // orders children of equal priority, from the seed
    ReverseStep step;
};

// SplitMix64's finaliser: spreads a key and the seed over all 64 bits.
uint64_t mixed(uint64_t value)
{
    value += 0x9e3779b97f4a7c15ull;
    value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
    value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
    return value ^ (value >> 31);
}

struct Node {
    Bag bag;
    std::shared_ptr<const Chain> chain;
    int cost = 0;
    bool expanded = false;
    std::vector<Child> children;
    size_t next = 0;
};

class Searcher {
public:
    Searcher(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
             const ImprovementCallback& onImprovement)
        : set_(set), kernels_(kernels), options_(options), onImprovement_(onImprovement),
          input_(kernels.input()), registers_(int(set.registers.size()))
    {
        for (const KernelSpec& k : set.kernels)
            outputRegisters_.push_back(k.outputRegister);
        context_.input = input_;
        context_.inputDepth = kernels.depth;
        context_.allOps = options.allOps;
        context_.registers = registers_;
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
        root->bag = kernels_.goals;
        sortBag(root->bag);
        if (isComplete(root->bag))
            record(nullptr);
        finishDirectly(*root);
        const int workers = std::max(1, options_.threads);
        deques_.resize(size_t(workers));
        locks_ = std::vector<std::mutex>(size_t(workers));
        // Every worker starts at the root with its own ordering of the children; stealing
        // balances the load once a worker runs dry.
        for (int w = 0; w < workers; ++w)
            deques_[size_t(w)].push_back(w == 0 ? root : std::make_shared<Node>(*root));
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
        if (!node->expanded) {
            expand(*node, worker);
            node->expanded = true;
        }
        while (node->next < node->children.size()) {
            Child& child = node->children[node->next++];
            auto next = std::make_shared<Node>();
            next->bag = applyInReverse(node->bag, child.step);
            next->cost = node->cost + 1;
            next->chain = std::make_shared<const Chain>(Chain{std::move(child.step), node->chain});
            if (!admit(*next))
                continue;
            if (isComplete(next->bag)) {
                record(next->chain);
                continue;
            }
            finishDirectly(*next);
            std::lock_guard lock(locks_[worker]);
            if (node->next < node->children.size())
                deques_[worker].push_back(node); // siblings later, in turn
            else
                node->children = {};             // spent: free the memory
            deques_[worker].push_front(next);    // depth-first on the best child
            return;
        }
        node->children = {};
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

    bool admit(const Node& node)
    {
        if (node.cost > options_.maxDepth)
            return false;
        if (int(node.bag.size()) > registers_)
            return false;
        if (size_t(node.cost + remainingAtLeast(node.bag)) >= bestCount())
            return false;
        std::lock_guard lock(seenLock_);
        auto [it, inserted] = seen_.try_emplace(node.bag, node.cost);
        if (!inserted) {
            if (it->second <= node.cost)
                return false;
            it->second = node.cost;
        }
        return true;
    }

    // When the rest follows from the input by halvings, a negation and moves, record that program.
    void finishDirectly(const Node& node)
    {
        const auto steps = solveDirectly(node.bag, input_, options_.allOps);
        if (!steps || size_t(node.cost) + steps->size() >= bestCount())
            return;
        std::shared_ptr<const Chain> chain = node.chain;
        for (auto it = steps->rbegin(); it != steps->rend(); ++it)
            chain = std::make_shared<const Chain>(Chain{*it, chain});
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
            PlanStep step;
            step.op = c->step.op;
            step.directions = c->step.directions;
            step.result = c->step.upper;
            for (const Goal& lower : c->step.lowers) {
                const auto v = find(lower);
                if (!v)
                    return; // cannot happen for a complete chain
                step.sources.push_back(*v);
            }
            plan.steps.push_back(std::move(step));
            latest.emplace_back(c->step.upper, plan.steps.size());
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

    void expand(Node& node, size_t worker)
    {
        std::vector<ReverseStep> steps = generateSteps(node.bag, contextFor(worker));
        // Steps with the same upper and the same lowers lead to the same bag: one child.
        std::unordered_set<size_t> distinct;
        for (ReverseStep& step : steps) {
            if (stopping())
                break;  // the children so far; the search ends with this step
            std::vector<size_t> hashes;
            for (const Goal& g : step.lowers)
                hashes.push_back(g.hash());
            std::sort(hashes.begin(), hashes.end());
            size_t key = step.upper.hash();
            for (size_t h : hashes)
                key = key * 1000003u ^ h;
            if (!fitsRegisters(node.bag, step) || !distinct.insert(key).second)
                continue;
            node.children.push_back({patternCost(applyInReverse(node.bag, step), kernels_.depth),
                                     mixed(uint64_t(key) ^ mixed(options_.seed)), std::move(step)});
        }
        // Equal priorities are common (mirror images of a symmetric kernel): the seed decides their
        // order, so that different seeds explore differently and one seed always the same way.
        std::sort(node.children.begin(), node.children.end(), [](const Child& a, const Child& b) {
            return a.priority != b.priority ? a.priority < b.priority : a.tieBreak < b.tieBreak;
        });
        if (node.children.size() > kMaxChildren)
            node.children.resize(kMaxChildren);
        node.children.shrink_to_fit();
    }

    const KernelSet& set_;
    const ApproximatedKernels& kernels_;
    const SearchOptions options_;
    const ImprovementCallback onImprovement_;
    const Goal input_;
    const int registers_;
    GenerationContext context_;
    std::vector<std::string> outputRegisters_;
    Clock::time_point start_, deadline_;
    std::vector<std::deque<std::shared_ptr<Node>>> deques_;
    std::vector<std::mutex> locks_;
    std::mutex seenLock_, bestLock_;
    std::unordered_map<Bag, int, BagHash> seen_;
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
