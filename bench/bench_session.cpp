// The session's plan of a deployed model, the work behind every drag of the studio's L2 budget:
// MobileNet v1 1.0/224 on GAP8, prepared once (lowering, calibration, quantization), then planned
// at L2 budgets from the default down to a tight one (the model declared through the model API,
// its tensors placed across L2, L3 RAM and flash, every layer tiled). The first plan starts from
// nothing; the next ones reuse what the session's memo learnt at the other budgets. Target: each
// later plan under 100 ms, the studio's drag step. Reference measured in the same run: the
// preparation, and the first plan.
#include "bench_timer.h"

#include "session/session.h"
#include "session/model_loader.h"
#include "zoo/zoo.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

using namespace tessera;

int main()
{
    ZooOptions zoo;
    zoo.width = 1.0;
    zoo.resolution = 224;
    Graph graph = buildZooModel("mobilenet_v1", zoo);
    prepareGraph(graph);
    const Session session(std::make_shared<const Graph>(std::move(graph)));
    SessionChoices choices;
    const double prepareMs = bench::medianMilliseconds(1, [&] { session.deployment(choices); });
    const std::uint64_t defaultL2 = Session::resolveBudgets(choices).l2;
    std::vector<double> times;
    for (std::uint64_t l2 = defaultL2; l2 >= 64 * 1024; l2 -= 48 * 1024) {
        choices.budgets.l2 = l2;
        gap::GapPlan plan;
        // Once: the session keeps each plan, so asking again would only measure the look-up.
        const double ms = bench::medianMilliseconds(1, [&] { plan = session.plan(choices); });
        times.push_back(ms);
        fmt::print("bench_session: MobileNet v1 1.0/224 on GAP8 at L2 {:>7} B: {}, planned in {:.1f} ms\n", l2,
                   plan.ok() ? fmt::format("L2 {} B, L3 traffic {} B", plan.allocation().l2Total(),
                                           plan.allocation().l3Traffic)
                             : "no plan: " + plan.error(),
                   ms);
    }
    const double first = times.front();
    std::vector<double> later(times.begin() + 1, times.end());
    std::sort(later.begin(), later.end());
    const double worstLater = later.back();
    fmt::print("bench_session: first plan {:.1f} ms; each later budget median {:.1f} ms, worst {:.1f} ms ({:.2f}x the "
               "100 ms drag step, {:.3f}x the first plan); preparing the model once took {:.0f} ms\n",
               first, later[later.size() / 2], worstLater, worstLater / 100.0, worstLater / first, prepareMs);
    return 0;
}
