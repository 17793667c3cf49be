// Placement across the memory hierarchy: lifetimes, in-place reuse, spilling to L3, constant
// prefetch and promotion, privileged flash, budget errors. Every L2 layout is checked by the
// independent validator.
#include "ir/builder.h"
#include "base/error.h"
#include "memory/hierarchy_planner.h"
#include "memory/lifetimes.h"
#include "memory/plan_validator.h"

#include <QtTest>

using namespace tessera;

namespace {

// A chain of `blocks` element-wise blocks over float32 [1, 1024] (4 KB per activation): each block
// multiplies by a weight vector, adds a bias and applies ReLU; every block also adds the block
// input of two blocks before, so some activations live long.
Graph chainGraph(int blocks)
{
    GraphBuilder builder("chain", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 1024});
    std::vector<TensorId> history{x};
    for (int b = 0; b < blocks; ++b) {
        const std::string p = "b" + std::to_string(b);
        std::vector<float> weights(1024, 0.5f + 0.01f * float(b));
        const TensorId w = builder.constant(p + ".w", TensorData::fromFloats({1024}, weights));
        const TensorId bias = builder.constant(p + ".b", TensorData::fromFloats({1024}, std::vector<float>(1024, 0.1f)));
        TensorId y = builder.op("Mul", {x, w}, {}, p + ".mul");
        y = builder.op("Add", {y, bias}, {}, p + ".add");
        y = builder.op("Relu", {y}, {}, p + ".relu");
        if (history.size() >= 2)
            y = builder.op("Add", {y, history[history.size() - 2]}, {}, p + ".skip");
        history.push_back(y);
        x = y;
    }
    builder.output(x);
    return builder.finish();
}

// The L2 rows of a plan as buffers with their offsets, for the validator.
std::pair<std::vector<Buffer>, std::vector<int64_t>> l2Layout(const HierarchyPlan& plan)
{
    std::vector<Buffer> buffers;
    std::vector<int64_t> offsets;
    for (const TensorPlacement& p : plan.placements) {
        if (p.level != "L2")
            continue;
        buffers.push_back({p.tensor + "#" + std::to_string(buffers.size()), p.lower, p.upper, p.size, 4, std::nullopt});
        offsets.push_back(p.offset);
    }
    return {buffers, offsets};
}

void requireValidL2(const HierarchyPlan& plan, int64_t budget)
{
    const auto [buffers, offsets] = l2Layout(plan);
    const auto problems = validatePlan(buffers, offsets, budget);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.front().c_str());
}

size_t countRows(const HierarchyPlan& plan, PlacementKind kind, const std::string& level)
{
    return size_t(std::count_if(plan.placements.begin(), plan.placements.end(),
                                [&](const TensorPlacement& p) { return p.kind == kind && p.level == level; }));
}

} // namespace

class TestMemoryHierarchy : public QObject {
    Q_OBJECT

private slots:
    void lifetimesFollowTheSchedule()
    {
        const Graph graph = chainGraph(3);
        const GraphLifetimes lifetimes = computeLifetimes(graph);
        QCOMPARE(lifetimes.schedule.size(), graph.nodeCount());
        QCOMPARE(lifetimes.constants.size(), size_t(6));
        for (const TensorLifetime& life : lifetimes.activations) {
            QVERIFY(life.firstStep < life.endStep);
            for (int64_t use : life.uses)
                QVERIFY(use >= life.firstStep && use < life.endStep);
        }
        // Mul's output dies at Add, which may write over it; so do Add -> Relu.
        QVERIFY(lifetimes.inPlace.size() >= 6);
        const auto separate = activationBuffers(graph, lifetimes, 4, false);
        const auto merged = activationBuffers(graph, lifetimes, 4, true);
        QVERIFY(merged.size() < separate.size());
        size_t members = 0;
        for (const ActivationBuffer& buffer : merged)
            members += buffer.members.size();
        QCOMPARE(members, separate.size());
    }

    void roomyBudgetKeepsEverythingInL2()
    {
        const Graph graph = chainGraph(8);
        HierarchyPlanOptions options;
        options.l2Budget = 512 * 1024;
        const HierarchyPlan plan = planHierarchy(graph, gap8Hierarchy(), options);
        QCOMPARE(plan.spilledTensors, size_t(0));
        QCOMPARE(plan.promotedConstants, size_t(16)); // every weight and bias
        QCOMPARE(plan.l3TrafficBytes, int64_t(0));
        QCOMPARE(plan.l2.peak, plan.l2.lowerBound);
        requireValidL2(plan, options.l2Budget);
    }

    void tightBudgetSpillsAndStillFits()
    {
        const Graph graph = chainGraph(12);
        HierarchyPlanOptions options;
        options.stagingBytes = 1024;
        options.l2Budget = 10 * 1024; // 13 KB would hold every activation
        const HierarchyPlan plan = planHierarchy(graph, gap8Hierarchy(), options);
        QVERIFY(plan.spilledTensors > 0);
        QVERIFY(plan.l2.peak <= options.l2Budget);
        QVERIFY(countRows(plan, PlacementKind::Activation, "HyperRAM") == plan.spilledTensors);
        QVERIFY(countRows(plan, PlacementKind::Staging, "L2") > 0);
        QVERIFY(plan.l3TrafficBytes > 0);
        for (const TensorPlacement& p : plan.placements)
            if (p.level == "HyperRAM")
                QVERIFY2(p.reason.find("spilled to HyperRAM") != std::string::npos, p.reason.c_str());
        requireValidL2(plan, options.l2Budget);
        // A larger budget never spills more.
        options.l2Budget = 24 * 1024;
        const HierarchyPlan roomier = planHierarchy(graph, gap8Hierarchy(), options);
        QVERIFY(roomier.spilledTensors <= plan.spilledTensors);
        requireValidL2(roomier, options.l2Budget);
    }

    void constantsArePrefetchedWhenTheyCannotAllStay()
    {
        const Graph graph = chainGraph(12);
        HierarchyPlanOptions options;
        options.stagingBytes = 1024;
        options.l2Budget = 40 * 1024;
        const HierarchyPlan plan = planHierarchy(graph, gap8Hierarchy(), options);
        QVERIFY(plan.promotedConstants < 24);
        QVERIFY(plan.prefetchedConstants > 0);
        for (const TensorPlacement& p : plan.placements)
            if (p.kind == PlacementKind::Prefetch)
                QVERIFY2(p.reason.find("prefetched from step") != std::string::npos, p.reason.c_str());
        requireValidL2(plan, options.l2Budget);
    }

    void privilegedFlashIsFilledFirst()
    {
        const Graph graph = chainGraph(12);
        HierarchyPlanOptions options;
        options.stagingBytes = 1024;
        options.l2Budget = 20 * 1024;
        MemoryHierarchy gap9 = gap9Hierarchy();
        gap9.find(MemoryKind::PrivilegedFlash)->size = 12 * 1024; // room for three 4 KB constants
        const HierarchyPlan plan = planHierarchy(graph, gap9, options);
        QCOMPARE(countRows(plan, PlacementKind::Constant, "MRAM"), size_t(3));
        QVERIFY(countRows(plan, PlacementKind::Constant, "Flash") > 0);
        QVERIFY(plan.privilegedFlashBytes <= 12 * 1024);
        requireValidL2(plan, options.l2Budget);
    }

    void budgetTooSmallNamesTheStepAndTheFix()
    {
        const Graph graph = chainGraph(4);
        HierarchyPlanOptions options;
        options.stagingBytes = 1024;
        options.l2Budget = 2000;
        try {
            planHierarchy(graph, gap8Hierarchy(), options);
            QFAIL("no error");
        } catch (const Error& error) {
            const QString message = error.what();
            QVERIFY2(message.contains("L2 budget of 2000 bytes is too small"), error.what());
            QVERIFY2(message.contains("node '"), error.what());
            QVERIFY2(message.contains("raise the L2 budget to at least"), error.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryHierarchy)
#include "tst_memory_hierarchy.moc"
