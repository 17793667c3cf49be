// tessera compile for GAP8 with the default budgets, from the ONNX graph to the project folder
// (lowering, calibration on 4 inputs, quantization, tiling, allocation, code, project files), each
// phase timed: MobileNet v1 0.25/128 and 1.0/224, SqueezeNet 1.1, ResNet-18, MnasNet 1.0,
// ShuffleNet v2 1.0x, MobileNet v3 Large and Small and EfficientNet-B0 at 224.
// Target: each under 10 s. Reference measured in the same run: one float inference of the same
// model by the reference interpreter. Also prints the report's memory use, L3 traffic and
// estimated cycles (for MobileNet next to GreenWaves' published 2.1 frames/s at 175 MHz in 8 bits).
#include "bench_timer.h"

#include "gap/compile/gap_compiler.h"
#include "gap/compile/gap_deployment.h"
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

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// One network from the ONNX graph to the project folder, phase by phase: lowering (until the
// calibration starts), calibration and quantization, tiling and allocation (the plan), code and
// project files. The reference is one float inference of the same model by the interpreter.
void benchModel(const std::string& model, const std::string& label, const ZooOptions& zoo, double targetSeconds,
                const std::string& quantization)
{
    Graph graph = buildZooModel(model, zoo);
    prepareGraph(graph);
    const std::vector<std::vector<TensorData>> inputs = randomInputSets(graph, 1, 3);
    const Interpreter interpreter(graph);
    const double inferenceMs = bench::medianMilliseconds(1, [&] { interpreter.run(inputs[0]); });

    const fs::path folder = fs::temp_directory_path() / ("tessera_bench_gap_compile_" + quantization);
    const gap::GapProjectSources sources{TESSERA_SOURCE_DIR "/core/gap/runtime", TESSERA_SOURCE_DIR "/core/gap/cnn_kernels",
                                         TESSERA_SOURCE_DIR "/plugins/gap_project/emul"};
    gap::GapCompileOptions options;
    options.quantization = quantization;
    double lowering = 0, calibration = 0, planning = 0, writing = 0;
    gap::GapCompileResult result;
    std::string failure;
    const auto started = Clock::now();
    try {
        auto phase = Clock::now();
        const gap::GapDeployment deployment = gap::prepareGapDeployment(graph, options, [&](const std::string& message) {
            if (message.rfind("calibrating", 0) == 0) {
                lowering = secondsSince(phase);
                phase = Clock::now();
            }
        });
        calibration = secondsSince(phase);
        phase = Clock::now();
        const gap::GapPlan plan = gap::planGapDeployment(deployment, options.budgetsOn(deployment.target));
        planning = secondsSince(phase);
        phase = Clock::now();
        result = gap::compileGapPlan(graph, deployment, plan, folder.string());
        gap::writeGapProject(graph, result, sources, folder.string());
        writing = secondsSince(phase);
    } catch (const Error& error) {
        failure = error.what();
    }
    const double total = secondsSince(started);
    std::error_code error;
    fs::remove_all(folder, error);
    const std::string phases = fmt::format("lowering {:.2f} s, calibration and quantization {:.2f} s, tiling and "
                                           "allocation {:.2f} s, code and project {:.2f} s",
                                           lowering, calibration, planning, writing);
    if (!failure.empty()) {
        fmt::print("bench_gap_compile: {} {} {} does not compile for GAP8 with the default budgets (refused after "
                   "{:.2f} s, {:.1f}x one float inference by the reference interpreter, {:.0f} ms; {}): {}\n",
                   model, label, quantization, total, total * 1000.0 / inferenceMs, inferenceMs, phases,
                   failure.substr(0, 300));
        return;
    }

    const nlohmann::json report = result.report();
    const nlohmann::json& memory = report["memory"];
    const nlohmann::json& estimate = report["estimate"];
    fmt::print("bench_gap_compile: {} {} {} compiled for GAP8 in {:.2f} s, target < {:.0f} s {}; {:.1f}x one float "
               "inference by the reference interpreter ({:.0f} ms); {} layers\n",
               model, label, quantization, total, targetSeconds, total < targetSeconds ? "(met)" : "(MISSED)",
               total * 1000.0 / inferenceMs, inferenceMs, result.network.layers.size());
    fmt::print("bench_gap_compile:   {}\n", phases);
    fmt::print("bench_gap_compile:   L2 {} B static + {} B dynamic of {} B; L3 {} B static + {} B dynamic; "
               "L3 traffic {} B per inference\n",
               memory.value("l2_static", 0), memory.value("l2_dynamic", 0), result.budgets.l2,
               memory.value("l3_static", 0), memory.value("l3_dynamic", 0), memory.value("l3_traffic", 0));
    const double cycles = estimate["cycles"].get<double>();
    const double macs = estimate["operations"].get<double>();
    fmt::print("bench_gap_compile:   estimate (cost model, not a measurement): {:.2f} Mcycles, {:.1f} MMACs, "
               "{:.2f} MAC/cycle, {:.1f} frames/s at 175 MHz\n",
               cycles / 1e6, macs / 1e6, macs / cycles, 175e6 / cycles);
    if (model == "mobilenet_v1" && zoo.width == 1.0)
        fmt::print("bench_gap_compile:   GreenWaves publishes 2.1 frames/s (about 6.8 MAC/cycle) for its 8-bit "
                   "MobileNet v1 1.0/224 on GAP8\n");
}

}  // namespace

int main()
{
    try {
        benchModel("mobilenet_v1", "0.25/128", {0.25, 128, 1}, 10.0, "int16");
        benchModel("mobilenet_v1", "1.0/224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("mobilenet_v1", "1.0/224", {1.0, 224, 1}, 10.0, "int8");
        // The architectures of real deployments: inverted residuals with ReLU6, fire modules and ceil-mode pooling, the ResNet
        // stem (its pooling split out), inverted residuals with ReduceMean. ResNet-18's 23 MB of
        // 16-bit weights do not fit GAP8's 16 MB of flash: it is compiled in 8 bits.
        benchModel("mobilenet_v2", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("mobilenet_v2", "224", {1.0, 224, 1}, 10.0, "int8");
        benchModel("squeezenet1_1", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("resnet18", "224", {1.0, 224, 1}, 10.0, "int8");
        benchModel("mnasnet1_0", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("mnasnet1_0", "224", {1.0, 224, 1}, 10.0, "int8");
        benchModel("shufflenet_v2_x1_0", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("shufflenet_v2_x1_0", "224", {1.0, 224, 1}, 10.0, "int8");
        // Hardswish, SiLU and squeeze-and-excitation gates.
        benchModel("mobilenet_v3_large", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("mobilenet_v3_large", "224", {1.0, 224, 1}, 10.0, "int8");
        benchModel("mobilenet_v3_small", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("efficientnet_b0", "224", {1.0, 224, 1}, 10.0, "int16");
        benchModel("efficientnet_b0", "224", {1.0, 224, 1}, 10.0, "int8");
    } catch (const std::exception& error) {
        fmt::print(stderr, "bench_gap_compile: {}\n", error.what());
        return 1;
    }
    return 0;
}
