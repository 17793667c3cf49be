#include "scamp/reverse_search.h"

#include "scamp/register_allocator.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

namespace tessera::scamp {

namespace {

using Clock = std::chrono::steady_clock;

struct ReverseStep {
    Op op = Op::Mov;
    std::vector<Direction> directions;
    Goal upper;
    std::vector<Goal> lowers; // instruction operand order
};

struct Chain {
    ReverseStep step;
    std::shared_ptr<const Chain> next; // toward the root (the final goals)
};

using Bag = std::vector<Goal>; // sorted by hash, no duplicates

struct Child {
    double priority = 0.0;
    ReverseStep step;
    Bag bag;
};

struct Node {
    Bag bag;
    std::shared_ptr<const Chain> chain;
    int cost = 0;
    bool expanded = false;
    std::vector<Child> children;
    size_t next = 0;
};

size_t bagHash(const Bag& bag)
{
    size_t h = 0;
    for (const Goal& g : bag)
        h = h * 1000003u ^ g.hash();
    return h;
}

struct BagHash {
    size_t operator()(const Bag& bag) const { return bagHash(bag); }
};

void sortBag(Bag& bag)
{
    std::sort(bag.begin(), bag.end(), [](const Goal& a, const Goal& b) {
        const size_t ha = a.hash(), hb = b.hash();
        if (ha != hb)
            return ha < hb;
        return a.terms().size() < b.terms().size();
    });
    bag.erase(std::unique(bag.begin(), bag.end()), bag.end());
}

// X is part of U: at every offset the same sign and no larger magnitude.
bool isPartOf(const Goal& x, const Goal& u)
{
    for (const Goal::Term& t : x.terms()) {
        const int64_t c = u.coefficientAt(t.at);
        if (c == 0 || (c > 0) != (t.coefficient > 0) || std::llabs(t.coefficient) > std::llabs(c))
            return false;
    }
    return true;
}

const Direction kDirections[] = {Direction::North, Direction::East, Direction::South, Direction::West};

class Searcher {
public:
    Searcher(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
             const ImprovementCallback& onImprovement)
        : set_(set), kernels_(kernels), options_(options), onImprovement_(onImprovement),
          input_(kernels.input()), registers_(int(set.registers.size()))
    {
        for (const KernelSpec& k : set.kernels)
            outputRegisters_.push_back(k.outputRegister);
    }

    CompileResult run()
    {
        start_ = Clock::now();
        deadline_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(options_.seconds));
        auto root = std::make_shared<Node>();
        root->bag = kernels_.goals;
        sortBag(root->bag);
        const int workers = std::max(1, options_.threads);
        deques_.resize(size_t(workers));
        locks_ = std::vector<std::mutex>(size_t(workers));
        deques_[0].push_back(root);
        if (workers == 1) {
            work(0);
        } else {
            std::vector<std::thread> threads;
            for (int w = 0; w < workers; ++w)
                threads.emplace_back([this, w] { work(size_t(w)); });
            for (std::thread& t : threads)
                t.join();
        }
        CompileResult result;
        result.best = best_;
        result.atBest = atBest_;
        result.nodes = nodes_.load();
        result.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
        return result;
    }

private:
    bool stopping()
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
        int idle = 0;
        while (!stopping()) {
            std::shared_ptr<Node> node = take(worker);
            if (!node) {
                // With one worker an empty deque means the space is exhausted.
                if (deques_.size() == 1 || ++idle > 2000)
                    break;
                std::this_thread::yield();
                continue;
            }
            idle = 0;
            step(worker, node);
        }
    }

    void step(size_t worker, const std::shared_ptr<Node>& node)
    {
        nodes_.fetch_add(1, std::memory_order_relaxed);
        if (!node->expanded) {
            expand(*node);
            node->expanded = true;
        }
        while (node->next < node->children.size()) {
            Child& child = node->children[node->next++];
            auto next = std::make_shared<Node>();
            next->bag = std::move(child.bag);
            next->cost = node->cost + 1;
            next->chain = std::make_shared<const Chain>(Chain{std::move(child.step), node->chain});
            if (!admit(*next))
                continue;
            if (isComplete(next->bag)) {
                record(*next);
                continue;
            }
            std::lock_guard lock(locks_[worker]);
            if (node->next < node->children.size())
                deques_[worker].push_back(node); // siblings later, in turn
            deques_[worker].push_front(next);    // depth-first on the best child
            return;
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

    bool admit(const Node& node)
    {
        if (node.cost > options_.maxDepth)
            return false;
        if (int(node.bag.size()) > registers_)
            return false;
        {
            std::lock_guard lock(bestLock_);
            if (best_ && node.cost + remainingAtLeast(node.bag) >= int(atBest_.bestCount))
                return false;
        }
        std::lock_guard lock(seenLock_);
        auto [it, inserted] = seen_.try_emplace(node.bag, node.cost);
        if (!inserted) {
            if (it->second <= node.cost)
                return false;
            it->second = node.cost;
        }
        return true;
    }

    void record(const Node& node)
    {
        // Forward order: from the complete node back toward the root.
        ValuePlan plan;
        plan.input = input_;
        std::vector<std::pair<Goal, size_t>> latest{{input_, 0}};
        auto find = [&](const Goal& g) -> std::optional<size_t> {
            for (auto it = latest.rbegin(); it != latest.rend(); ++it)
                if (it->first == g)
                    return it->second;
            return std::nullopt;
        };
        for (const Chain* c = node.chain.get(); c; c = c->next.get()) {
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

    // Estimated instructions to build `g` from the input, given the other goals of the bag.
    double estimate(const Goal& g, const Bag& bag) const
    {
        if (g == input_)
            return 0.0;
        // A shifted or negated copy of another goal costs one move.
        for (const Goal& other : bag) {
            if (other == g || other.terms().size() != g.terms().size() || other.terms().empty())
                continue;
            const Offset d{g.terms()[0].at.x - other.terms()[0].at.x, g.terms()[0].at.y - other.terms()[0].at.y};
            const Goal moved = other.shifted(d);
            if (moved == g || -moved == g)
                return 1.0 + (std::abs(d.x) + std::abs(d.y)) / (options_.allOps ? 2.0 : 1.0);
        }
        double bits = 0.0;
        int distance = 0;
        int64_t largest = 0;
        for (const Goal::Term& t : g.terms()) {
            bits += std::popcount(uint64_t(std::llabs(t.coefficient)));
            distance = std::max(distance, std::abs(t.at.x) + std::abs(t.at.y));
            largest = std::max<int64_t>(largest, std::llabs(t.coefficient));
        }
        const double halvings = std::max(0.0, double(kernels_.depth) - std::floor(std::log2(double(largest))));
        return (bits - 1.0) + double(distance) / (options_.allOps ? 2.0 : 1.0) + halvings;
    }

    // How far a goal's atoms are from the centre pixel.
    static int64_t spread(const Goal& g)
    {
        int64_t total = 0;
        for (const Goal::Term& t : g.terms())
            total += std::llabs(t.coefficient) * (std::abs(t.at.x) + std::abs(t.at.y));
        return total;
    }

    double heuristic(const Bag& bag) const
    {
        double total = 0.0;
        for (const Goal& g : bag)
            total += estimate(g, bag);
        return total;
    }

    void addChild(Node& node, const Goal& upper, Op op, std::vector<Direction> dirs, std::vector<Goal> lowers)
    {
        for (const Goal& l : lowers)
            if (l.isZero() || l == upper)
                return;
        if (lowers.size() >= 2) {
            for (size_t i = 0; i < lowers.size(); ++i)
                for (size_t j = i + 1; j < lowers.size(); ++j)
                    if (lowers[i] == lowers[j])
                        return; // sources must be distinct registers
        }
        const OpInfo& info = opInfo(op);
        if (!options_.allOps && !info.basic)
            return;
        Bag bag;
        for (const Goal& g : node.bag)
            if (!(g == upper))
                bag.push_back(g);
        bag.insert(bag.end(), lowers.begin(), lowers.end());
        sortBag(bag);
        Child child;
        child.priority = heuristic(bag);
        child.step = ReverseStep{op, std::move(dirs), upper, std::move(lowers)};
        child.bag = std::move(bag);
        node.children.push_back(std::move(child));
    }

    // More negative than positive atoms: computing its negation and subtracting is natural.
    static bool mostlyNegative(const Goal& g)
    {
        int64_t negative = 0;
        for (const Goal::Term& t : g.terms())
            negative += t.coefficient < 0 ? -t.coefficient : 0;
        return negative * 2 > g.atomCount();
    }

    void addSplit(Node& node, const Bag& sources, const Goal& u, const Goal& x)
    {
        const Goal y = u - x;
        if (x.isZero() || y.isZero())
            return;
        const auto known = [&](const Goal& g) { return std::find(sources.begin(), sources.end(), g) != sources.end(); };
        addChild(node, u, Op::Add, {}, {x, y});
        // Subtraction only where the subtrahend is wanted anyway or is mostly negative.
        const bool subtractY = mostlyNegative(y) || known(-y);
        const bool subtractX = mostlyNegative(x) || known(-x);
        if (subtractY)
            addChild(node, u, Op::Sub, {}, {x, -y});
        for (Direction d : kDirections) {
            const Offset o = offsetOf(d);
            const Offset back{-o.x, -o.y};
            addChild(node, u, Op::Addx, {d}, {x.shifted(back), y.shifted(back)});
            if (subtractY)
                addChild(node, u, Op::Subx, {d}, {x.shifted(back), -y});
            if (subtractX)
                addChild(node, u, Op::Subx, {d}, {y.shifted(back), -x});
        }
    }

    void expand(Node& node)
    {
        Bag sources = node.bag;
        sources.push_back(input_);
        for (const Goal& u : node.bag) {
            if (u == input_)
                continue;
            // Undo a halving.
            const Goal twice = u.doubled();
            bool fits = true;
            for (const Goal::Term& t : twice.terms())
                fits = fits && std::llabs(t.coefficient) <= (int64_t{1} << kernels_.depth);
            if (fits)
                addChild(node, u, Op::Divq, {}, {twice});
            // Undo moves and negation, when they lead toward the input or to a goal already needed.
            const auto useful = [&](const Goal& lower) {
                return spread(lower) < spread(u) ||
                       std::find(sources.begin(), sources.end(), lower) != sources.end();
            };
            for (Direction d : kDirections) {
                const Offset o = offsetOf(d);
                const Goal once = u.shifted({-o.x, -o.y});
                if (useful(once))
                    addChild(node, u, Op::Movx, {d}, {once});
                for (Direction e : kDirections) {
                    const Offset p = offsetOf(e);
                    const Goal twice = u.shifted({-o.x - p.x, -o.y - p.y});
                    if (int(d) <= int(e) && !(o.x + p.x == 0 && o.y + p.y == 0) && useful(twice))
                        addChild(node, u, Op::Mov2x, {d, e}, {twice});
                }
            }
            int64_t negative = 0;
            for (const Goal::Term& t : u.terms())
                negative += t.coefficient < 0 ? -t.coefficient : 0;
            if (negative * 2 > u.atomCount() || std::find(sources.begin(), sources.end(), -u) != sources.end())
                addChild(node, u, Op::Neg, {}, {-u});
            if (u.terms().size() < 2 && u.atomCount() < 2)
                continue;
            // Splits: a shifted (negated) copy of another goal, or of a part of u itself, or one position.
            for (const Goal& w : sources) {
                if (w == u)
                    continue;
                for (int dx = -2; dx <= 2; ++dx)
                    for (int dy = -2 + std::abs(dx); dy <= 2 - std::abs(dx); ++dy)
                        for (int sign : {1, -1}) {
                            const Goal x = w.shifted({dx, dy}).scaled(sign);
                            if (isPartOf(x, u) && !(x == u))
                                addSplit(node, sources, u, x);
                        }
            }
            for (int dx = -2; dx <= 2; ++dx)
                for (int dy = -2 + std::abs(dx); dy <= 2 - std::abs(dx); ++dy) {
                    if (dx == 0 && dy == 0)
                        continue;
                    // Atoms of u that pair with an atom of the same sign at +(dx, dy).
                    std::vector<Goal::Term> part;
                    for (const Goal::Term& t : u.terms()) {
                        const int64_t partner = u.coefficientAt({t.at.x + dx, t.at.y + dy});
                        if (partner != 0 && (partner > 0) == (t.coefficient > 0)) {
                            const int64_t m = std::min(std::llabs(t.coefficient), std::llabs(partner));
                            part.push_back({t.at, t.coefficient > 0 ? m : -m});
                        }
                    }
                    const Goal a(part);
                    if (!a.isZero() && isPartOf(a, u) && !(a == u))
                        addSplit(node, sources, u, a);
                }
            if (u.terms().size() >= 2)
                for (const Goal::Term& t : u.terms())
                    addSplit(node, sources, u, Goal({t}));
        }
        std::stable_sort(node.children.begin(), node.children.end(),
                         [](const Child& a, const Child& b) { return a.priority < b.priority; });
    }

    const KernelSet& set_;
    const ApproximatedKernels& kernels_;
    const SearchOptions options_;
    const ImprovementCallback onImprovement_;
    const Goal input_;
    const int registers_;
    std::vector<std::string> outputRegisters_;
    Clock::time_point start_, deadline_;
    std::vector<std::deque<std::shared_ptr<Node>>> deques_;
    std::vector<std::mutex> locks_;
    std::mutex seenLock_, bestLock_;
    std::unordered_map<Bag, int, BagHash> seen_;
    std::optional<Program> best_;
    SearchProgress atBest_;
    std::atomic<uint64_t> nodes_{0};
    std::atomic<bool> stop_{false};
};

} // namespace

CompileResult compileKernels(const KernelSet& set, const ApproximatedKernels& kernels, const SearchOptions& options,
                             const ImprovementCallback& onImprovement)
{
    return Searcher(set, kernels, options, onImprovement).run();
}

} // namespace tessera::scamp
