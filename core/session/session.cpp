#include "session/session.h"

#include "base/error.h"
#include "session/model_loader.h"

#include <fmt/format.h>

#include <chrono>
#include <deque>
#include <mutex>
#include <vector>

namespace tessera {

namespace {
constexpr std::size_t kKeptPlans = 48;
constexpr std::size_t kKeptMemos = 4;
}

// The deployments computed so far, one per target and quantization (a studio user switching
// between GAP8 and GAP9 keeps both), and the latest plans.
struct Session::Caches {
    struct Entry {
        std::string target;
        QuantizationChoice quantization;
        std::shared_ptr<const gap::GapDeployment> deployment;
    };
    std::mutex mutex;
    std::vector<Entry> entries;
    struct KeptPlan {
        std::shared_ptr<const gap::GapDeployment> deployment;
        target::Budgets budgets;
        gap::GapPlan plan;
    };
    // What plans of one deployment at budgets differing only in L2 share (a user dragging the L2
    // line): one placement at a time uses it.
    struct Memo {
        std::shared_ptr<const gap::GapDeployment> deployment;
        target::Budgets budgets;  // l2 unused
        std::mutex mutex;
        tiler::AllocationMemo memo;
    };
    std::mutex planMutex;
    std::deque<KeptPlan> plans;  // newest first
    std::deque<std::shared_ptr<Memo>> memos;  // newest first

    std::shared_ptr<Memo> memoFor(const std::shared_ptr<const gap::GapDeployment>& deployment,
                                  const target::Budgets& budgets)
    {
        target::Budgets key = budgets;
        key.l2 = 0;
        for (const std::shared_ptr<Memo>& memo : memos)
            if (memo->deployment == deployment && memo->budgets == key)
                return memo;
        auto memo = std::make_shared<Memo>();
        memo->deployment = deployment;
        memo->budgets = key;
        memos.push_front(memo);
        if (memos.size() > kKeptMemos)
            memos.pop_back();
        return memo;
    }
};

Session Session::open(const std::string& path)
{
    return Session(std::make_shared<const Graph>(loadModel(path)));
}

Session::Session(std::shared_ptr<const Graph> graph)
    : graph_(std::move(graph)), cache_(std::make_shared<Caches>())
{
    if (!graph_)
        throw Error("a session needs a model");
}

target::Budgets Session::resolveBudgets(const SessionChoices& choices)
{
    const target::Budgets defaults = target::chip(choices.target).defaultBudgets();
    const BudgetRequest& asked = choices.budgets;
    return {asked.l1.value_or(defaults.l1), asked.l2.value_or(defaults.l2), asked.l3.value_or(defaults.l3),
            asked.flash.value_or(defaults.flash), asked.privilegedFlash.value_or(defaults.privilegedFlash)};
}

std::shared_ptr<const gap::GapDeployment> Session::deployment(const SessionChoices& choices,
                                                              const gap::GapProgress& progress) const
{
    const std::string target = target::chip(choices.target).name;
    // One preparation at a time: a second caller with the same choices waits and shares it.
    std::lock_guard lock(cache_->mutex);
    for (const Caches::Entry& entry : cache_->entries)
        if (entry.target == target && entry.quantization == choices.quantization)
            return entry.deployment;
    gap::GapCompileOptions options;
    options.target = target;
    options.quantization = choices.quantization.quantization;
    options.calibrationDir = choices.quantization.calibrationDir;
    options.calibrationMethod = choices.quantization.calibrationMethod;
    options.seed = choices.quantization.seed;
    options.concatSplitInPlace = choices.quantization.concatSplitInPlace;
    options.randomCalibrationSets = choices.quantization.randomCalibrationSets;
    auto prepared = std::make_shared<const gap::GapDeployment>(gap::prepareGapDeployment(*graph_, options, progress));
    cache_->entries.push_back({target, choices.quantization, prepared});
    return prepared;
}

gap::GapPlan Session::plan(const SessionChoices& choices, const gap::GapProgress& progress) const
{
    const std::shared_ptr<const gap::GapDeployment> deployed = deployment(choices, progress);
    const target::Budgets budgets = resolveBudgets(choices);
    std::shared_ptr<Caches::Memo> memo;
    {
        std::lock_guard lock(cache_->planMutex);
        for (const Caches::KeptPlan& kept : cache_->plans)
            if (kept.deployment == deployed && kept.budgets == budgets)
                return kept.plan;
        memo = cache_->memoFor(deployed, budgets);
    }
    gap::GapPlan plan;
    {
        std::lock_guard lock(memo->mutex);
        plan = gap::planGapDeployment(*deployed, budgets, &memo->memo);
    }
    std::lock_guard lock(cache_->planMutex);
    cache_->plans.push_front({deployed, budgets, plan});
    if (cache_->plans.size() > kKeptPlans)
        cache_->plans.pop_back();
    return plan;
}

gap::GapCompileResult Session::compile(const SessionChoices& choices, const std::string& folder,
                                       const gap::GapProgress& progress) const
{
    const auto started = std::chrono::steady_clock::now();
    const std::shared_ptr<const gap::GapDeployment> deployed = deployment(choices, progress);
    const target::Budgets budgets = resolveBudgets(choices);
    if (progress)
        progress(fmt::format("tiling and allocating {} layers for {} (L1 {} B, L2 {} B, L3 {} B, flash {} B)",
                             deployed->network.layers.size(), deployed->target.name, budgets.l1, budgets.l2,
                             budgets.l3, budgets.flash));
    gap::GapCompileResult result = gap::compileGapPlan(*graph_, *deployed, plan(choices), folder, progress);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

}  // namespace tessera
