// Tessera at scale: the plan of a model (`tessera plan --model`: lowering for GAP8, tiling, placing
// every tensor across L2/L3) on chains of 10^3 .. 5·10^4 convolutions (with their ReLU: 2 nodes each), and the memory planner on a CSV of
// 10^4 .. 10^6 buffers, each in a child process so its time and peak memory (getrusage) are its own.
// The figures: time and peak memory per node or buffer, and the ratio of the largest size's per-item
// cost to the smallest's (1 when the cost grows linearly; 10 would be quadratic over a decade).
// Usage: bench_scale [largest model layers, default 50000 (10^5 nodes)] [largest CSV rows, default 1000000]
//        bench_scale --write-chain LAYERS FILE.onnx   (the chain model, to try `tessera plan --model` on)
#include "bench_timer.h"

#include "ir/builder.h"
#include "memory/buffer.h"
#include "memory/greedy_planner.h"
#include "memory/memory_planner.h"
#include "memory/plan_validator.h"
#include "onnx/onnx_export.h"
#include "session/model_loader.h"
#include "session/session.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tessera;

namespace {

// A chain of `layers` small convolutions, each with its ReLU (which the convolution takes in).
Graph chainModel(int layers)
{
    GraphBuilder builder("chain", 13);
    TensorId x = builder.input("x", DType::Float32, {1, 8, 8, 8});
    std::mt19937 random(7);
    std::uniform_real_distribution<float> weight(-0.3f, 0.3f);
    for (int k = 0; k < layers; ++k) {
        const std::string name = fmt::format("conv{}", k);
        std::vector<float> w(8 * 8);
        for (float& v : w)
            v = weight(random);
        x = builder.op("Conv", {x, builder.constant(name + "_w", TensorData::fromFloats({8, 8, 1, 1}, w)),
                                builder.constant(name + "_b", TensorData::fromFloats({8}, std::vector<float>(8, 0.01f)))},
                       {}, name);
        x = builder.op("Relu", {x}, {}, name + "_relu");
    }
    builder.output(x);
    Graph graph = builder.finish();
    prepareGraph(graph);
    return graph;
}

// Buffers as a long schedule makes them: each lives a few steps, a few live long.
std::vector<Buffer> csvBuffers(int rows)
{
    std::mt19937 random(11);
    std::uniform_int_distribution<int> size(64, 4096), life(1, 6), longLife(100, 2000);
    std::vector<Buffer> buffers;
    buffers.reserve(std::size_t(rows));
    for (int k = 0; k < rows; ++k) {
        const int start = k / 2;
        const int span = k % 97 == 0 ? longLife(random) : life(random);
        Buffer buffer;
        buffer.id = fmt::format("b{}", k);
        buffer.lower = start;
        buffer.upper = start + span;
        buffer.size = size(random);
        buffers.push_back(std::move(buffer));
    }
    return buffers;
}

struct Measured {
    bool ok = false;
    double seconds = 0;
    double peakMiB = 0;
    std::string detail;
};

// Runs `work` in a child process: its wall time and its peak resident memory.
template <class F> Measured inChild(F&& work)
{
    int pipeEnds[2];
    if (pipe(pipeEnds) != 0)
        return {};
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = fork();
    if (child == 0) {
        close(pipeEnds[0]);
        std::string detail;
        bool ok = false;
        try {
            detail = work();
            ok = true;
        } catch (const std::exception& error) {
            detail = error.what();
        }
        detail = (ok ? "1" : "0") + detail.substr(0, detail.find('\n'));  // the first line of a long message
        [[maybe_unused]] const ssize_t written = write(pipeEnds[1], detail.data(), detail.size());
        close(pipeEnds[1]);
        _exit(0);
    }
    close(pipeEnds[1]);
    std::string detail;
    char chunk[512];
    for (ssize_t got; (got = read(pipeEnds[0], chunk, sizeof chunk)) > 0;)
        detail.append(chunk, std::size_t(got));
    close(pipeEnds[0]);
    int status = 0;
    rusage usage{};
    wait4(child, &status, 0, &usage);
    Measured result;
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.peakMiB = double(usage.ru_maxrss) / 1024.0;
    result.ok = !detail.empty() && detail[0] == '1' && WIFEXITED(status);
    result.detail = detail.empty() ? "the child died" : detail.substr(1);
    return result;
}

// smallest, 10x smallest, ... below largest, then largest itself (50000 layers: 10^5 nodes).
std::vector<int> sizesUpTo(int smallest, int largest)
{
    std::vector<int> sizes;
    for (long long size = smallest; size < largest; size *= 10)
        sizes.push_back(int(size));
    sizes.push_back(std::max(largest, 1));
    return sizes;
}

void report(const char* what, const std::vector<std::pair<int, Measured>>& rows, const char* unit)
{
    for (const auto& [count, m] : rows)
        fmt::print("bench_scale: {} {:>8} {}: {} in {:.2f} s, peak {:.0f} MiB ({:.1f} us and {:.2f} KiB per {})\n", what,
                   count, unit, m.ok ? m.detail : "FAILED: " + m.detail, m.seconds, m.peakMiB,
                   1e6 * m.seconds / count, 1024.0 * m.peakMiB / count, unit);
    if (rows.size() >= 2) {
        const auto& [small, a] = rows.front();
        const auto& [large, b] = rows.back();
        fmt::print("bench_scale: {}: {}x the {} cost {:.2f}x the time and {:.2f}x the memory per {} (1 is linear)\n",
                   what, large / small, unit, (b.seconds / large) / (a.seconds / small),
                   (b.peakMiB / large) / (a.peakMiB / small), unit);
    }
}

}  // namespace

int main(int argc, char** argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each figure as soon as it is measured
    if (argc == 4 && std::string(argv[1]) == "--write-chain") {  // the chain model, to try the CLI on
        exportOnnxFile(chainModel(std::atoi(argv[2])), argv[3]);
        return 0;
    }
    const int largestModel = argc > 1 ? std::atoi(argv[1]) : 50000;
    const int largestCsv = argc > 2 ? std::atoi(argv[2]) : 1000000;
    std::vector<std::pair<int, Measured>> models;
    for (const int layers : sizesUpTo(1000, largestModel)) {
        models.emplace_back(layers, inChild([layers] {
            const Session session(std::make_shared<const Graph>(chainModel(layers)));
            const gap::GapPlan plan = session.plan(SessionChoices{});
            if (!plan.ok())
                throw std::runtime_error(plan.error());
            return fmt::format("L2 {} B, L3 traffic {} B", plan.allocation().l2Total(), plan.allocation().l3Traffic);
        }));
    }
    report("plan --model, a chain of", models, "layers");

    std::vector<std::pair<int, Measured>> csvs;
    for (const int rows : sizesUpTo(10000, largestCsv)) {
        csvs.emplace_back(rows, inChild([rows] {
            const std::vector<Buffer> buffers = csvBuffers(rows);
            // The greedy placement (the plan every search starts from), then the planner with a
            // 10 s limit as `tessera plan --timeout 10` runs it.
            const auto start = std::chrono::steady_clock::now();
            const std::vector<std::int64_t> greedy = bestGreedyPlan(buffers);
            const double greedySeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            PlanOptions options;
            options.timeoutSeconds = 10;
            const PlanResult result = planMemory(buffers, options);
            const bool planned = result.status == PlanStatus::Optimal || result.status == PlanStatus::Feasible;
            if (planned && !validatePlan(buffers, result.offsets, result.peak).empty())
                throw std::runtime_error("INVALID plan");
            return fmt::format("greedy placement {:.2f} s (peak {:.4f}x the lower bound), planner {} at {:.4f}x",
                               greedySeconds, double(planPeak(buffers, greedy)) / double(result.lowerBound),
                               planStatusName(result.status), result.ratio());
        }));
    }
    report("plan, a CSV of", csvs, "buffers");
    return 0;
}
