// Planning the RadioML network's buffer splits for AIE-ML. Target: under 50 ms. Reference
// measured in the same run: loading the model (import, shape inference, folding).
#include "bench_timer.h"

#include "aie/split_check.h"
#include "aie/split_planner.h"
#include "onnx/onnx_export.h"
#include "session/model_loader.h"
#include "zoo/zoo.h"

#include <fmt/format.h>

#include <filesystem>

using namespace tessera;

int main()
{
    const std::string path = (std::filesystem::temp_directory_path() / "tessera_bench_radioml.onnx").string();
    exportOnnxFile(buildZooModel("radioml"), path);
    const int runs = 15;
    Graph graph;
    const double loadMs = bench::medianMilliseconds(runs, [&] { graph = loadModel(path); });
    std::filesystem::remove(path);
    aie::AiePlan plan;
    const double planMs =
        bench::medianMilliseconds(runs, [&] { plan = aie::planSplits(graph, aie::aieArchitecture("aie-ml")); });
    std::vector<aie::LayerCheck> checks;
    const double checkMs = bench::medianMilliseconds(3, [&] { checks = aie::checkPlan(graph, plan); });
    int passed = 0;
    for (const aie::LayerCheck& check : checks)
        passed += check.passed;
    fmt::print("bench_aie: radioml on aie-ml: {} layers planned in {:.3f} ms (median of {}), target < 50 ms ({:.4f}x of "
               "target)\n",
               plan.layers.size(), planMs, runs, planMs / 50.0);
    fmt::print("bench_aie: loading the model {:.2f} ms; plan / load = {:.3f}\n", loadMs, planMs / loadMs);
    fmt::print("bench_aie: functional check {:.1f} ms, {} of {} layers equal their unsplit result\n", checkMs, passed,
               checks.size());
    return passed == int(checks.size()) ? 0 : 1;
}
