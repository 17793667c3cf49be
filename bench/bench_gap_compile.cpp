// tessera compile for GAP8 with the default budgets: MobileNet v1 0.25/128 and 1.0/224 from the
// ONNX graph to the project folder (lowering, calibration on 4 inputs, quantization, tiling,
// allocation, code, project files). Target: MobileNet v1 1.0/224 under 10 s. Reference measured
// in the same run: one float inference of the same model by the reference interpreter.
// Also prints the report's memory use, L3 traffic and estimated cycles next to GreenWaves'
// published 2.1 frames/s at 175 MHz for this network in 8 bits (about 6.8 MAC/cycle).
#include "bench_timer.h"

#include "gap/compile/gap_compiler.h"
#include "gap/compile/gap_quantizer.h"
#include "gap_project/gap_project_writer.h"
#include "interp/interpreter.h"
#include "base/error.h"
#include "session/model_loader.h"
#include "zoo/zoo.h"

#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <string>

using namespace tessera;
namespace fs = std::filesystem;

namespace {

void benchModel(const std::string& label, double width, int64_t resolution, double targetSeconds,
                const std::string& quantization)
{
    ZooOptions zoo;
    zoo.width = width;
    zoo.resolution = resolution;
    Graph graph = buildZooModel("mobilenet_v1", zoo);
    prepareGraph(graph);
    const std::vector<std::vector<TensorData>> inputs = randomInputSets(graph, 1, 3);
    const Interpreter interpreter(graph);
    const double inferenceMs = bench::medianMilliseconds(1, [&] { interpreter.run(inputs[0]); });

    const fs::path folder = fs::temp_directory_path() / ("tessera_bench_gap_compile_" + quantization);
    const gap::GapProjectSources sources{TESSERA_SOURCE_DIR "/core/gap/runtime", TESSERA_SOURCE_DIR "/core/gap/cnn_kernels",
                                         TESSERA_SOURCE_DIR "/plugins/gap_project/emul"};
    gap::GapCompileResult result;
    gap::GapCompileOptions options;
    options.quantization = quantization;
    std::string failure;
    const double compileMs = bench::medianMilliseconds(1, [&] {
        try {
            result = gap::compileForGap(graph, options, folder.string());
            gap::writeGapProject(graph, result, sources, folder.string());
        } catch (const Error& error) {
            failure = error.what();
        }
    });
    std::error_code error;
    fs::remove_all(folder, error);
    if (!failure.empty()) {
        fmt::print("bench_gap_compile: MobileNet v1 {} {} does not compile for GAP8 with the default budgets "
                   "(refused after {:.2f} s, {:.1f}x one float inference by the reference interpreter, {:.0f} ms): "
                   "{}\n",
                   label, quantization, compileMs / 1000.0, compileMs / inferenceMs, inferenceMs,
                   failure.substr(0, 300));
        return;
    }

    const nlohmann::json report = result.report();
    const nlohmann::json& memory = report["memory"];
    const nlohmann::json& estimate = report["estimate"];
    fmt::print("bench_gap_compile: MobileNet v1 {} {} compiled for GAP8 in {:.2f} s, target < {:.0f} s {}; "
               "{:.1f}x one float inference by the reference interpreter ({:.0f} ms)\n",
               label, quantization, compileMs / 1000.0, targetSeconds, compileMs / 1000.0 < targetSeconds ? "(met)" : "(MISSED)",
               compileMs / inferenceMs, inferenceMs);
    fmt::print("bench_gap_compile:   L2 {} B static + {} B dynamic of {} B; L3 {} B static + {} B dynamic; "
               "L3 traffic {} B per inference\n",
               memory.value("l2_static", 0), memory.value("l2_dynamic", 0), result.budgets.l2,
               memory.value("l3_static", 0), memory.value("l3_dynamic", 0), memory.value("l3_traffic", 0));
    const double cycles = estimate["cycles"].get<double>();
    const double macs = estimate["operations"].get<double>();
    fmt::print("bench_gap_compile:   estimate (cost model, not a measurement): {:.2f} Mcycles, {:.1f} MMACs, "
               "{:.2f} MAC/cycle, {:.1f} frames/s at 175 MHz with {} layers; GreenWaves publishes 2.1 "
               "frames/s (about 6.8 MAC/cycle) for its 8-bit 1.0/224 on GAP8\n",
               cycles / 1e6, macs / 1e6, macs / cycles, 175e6 / cycles, quantization);
}

}  // namespace

int main()
{
    try {
        benchModel("0.25/128", 0.25, 128, 10.0, "int16");
        benchModel("1.0/224", 1.0, 224, 10.0, "int16");
        benchModel("1.0/224", 1.0, 224, 10.0, "int8");
    } catch (const std::exception& error) {
        fmt::print(stderr, "bench_gap_compile: {}\n", error.what());
        return 1;
    }
    return 0;
}
