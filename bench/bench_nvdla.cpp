// NVDLA: MobileNet v1 1.0/224 from the ONNX graph to the loadable's bytes (legalization, mapping,
// surfaces, emission, the validator), target under 5 s; reading, validating and explaining that
// loadable (what `tessera nvdla inspect` does), target under 200 ms; LeNet-5 run by the descriptor
// simulator, target under 1 s. The same in INT8 (MobileNet calibrated on the default four random
// input sets; LeNet-5 on nv_small). Reference measured in the same run: one float inference of the
// same model by the reference interpreter.
#include "bench_timer.h"

#include "base/error.h"
#include "interp/interpreter.h"
#include "nvdla/compile/nvdla_compiler.h"
#include "nvdla/loadable_inspector.h"
#include "nvdla/loadable_validator.h"
#include "nvdla/simulator/descriptor_simulator.h"
#include "session/model_loader.h"
#include "zoo/zoo.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

using namespace tessera;

namespace {

Graph zooModel(const std::string& name)
{
    Graph graph = buildZooModel(name, {});
    prepareGraph(graph);
    return graph;
}

TensorData ones(const Graph& graph)
{
    const Tensor& input = graph.tensor(graph.inputs.at(0));
    return TensorData::fromFloats(input.shape, std::vector<float>(std::size_t(input.elements()), 0.5f));
}

}  // namespace

int main()
{
    try {
        const Graph mobilenet = zooModel("mobilenet_v1");
        const double inferenceMs = bench::medianMilliseconds(1, [&] { Interpreter(mobilenet).run({ones(mobilenet)}); });
        nvdla::NvdlaCompilation compiled;
        const double compileMs = bench::medianMilliseconds(3, [&] { compiled = nvdla::compileForNvdla(mobilenet, {}); });
        fmt::print("bench_nvdla: MobileNet v1 1.0/224 to an nv_full FP16 loadable ({} tasks, {} bytes) in {:.0f} ms "
                   "({:.2f}x of the 5 s target; {:.2f}x one float inference by the reference interpreter, {:.0f} ms)\n",
                   compiled.loadable.tasks.size(), compiled.bytes.size(), compileMs, compileMs / 5000.0,
                   compileMs / inferenceMs, inferenceMs);

        std::size_t findings = 0;
        const double inspectMs = bench::medianMilliseconds(5, [&] {
            const nvdla::Loadable loadable = nvdla::readLoadable(compiled.bytes, "mobilenet.nvdla");
            findings = nvdla::validateLoadable(loadable).size();
            (void)nvdla::explainLoadable(loadable);
        });
        fmt::print("bench_nvdla: inspecting that loadable (read, validate, explain; {} findings) in {:.1f} ms "
                   "({:.2f}x of the 200 ms target; {:.3f}x one float inference)\n",
                   findings, inspectMs, inspectMs / 200.0, inspectMs / inferenceMs);

        const Graph lenet = zooModel("lenet5");
        const double lenetInferenceMs = bench::medianMilliseconds(5, [&] { Interpreter(lenet).run({ones(lenet)}); });
        const nvdla::NvdlaCompilation lenetCompiled = nvdla::compileForNvdla(lenet, {});
        const nvdla::Loadable lenetLoadable = nvdla::readLoadable(lenetCompiled.bytes, "lenet5.nvdla");
        const double runMs = bench::medianMilliseconds(5, [&] {
            nvdla::simulateLoadable(lenetLoadable, {ones(lenet)}, target::nvdlaConfig("nv_full"));
        });
        fmt::print("bench_nvdla: LeNet-5 run by the descriptor simulator in {:.2f} ms ({:.4f}x of the 1 s target; "
                   "{:.2f}x one float inference by the reference interpreter, {:.2f} ms)\n",
                   runMs, runMs / 1000.0, runMs / lenetInferenceMs, lenetInferenceMs);

        nvdla::NvdlaCompileOptions int8;
        int8.precision = target::NvdlaPrecision::Int8;
        nvdla::NvdlaCompilation compiledInt8;
        const double int8Ms = bench::medianMilliseconds(1, [&] { compiledInt8 = nvdla::compileForNvdla(mobilenet, int8); });
        fmt::print("bench_nvdla: MobileNet v1 1.0/224 to an nv_full INT8 loadable, calibration on {} input sets "
                   "included ({} bytes) in {:.0f} ms ({:.2f}x of the 5 s target; {:.2f}x one float inference)\n",
                   compiledInt8.calibrationSets, compiledInt8.bytes.size(), int8Ms, int8Ms / 5000.0, int8Ms / inferenceMs);
        int8.config = "nv_small";
        const nvdla::NvdlaCompilation lenetInt8 = nvdla::compileForNvdla(lenet, int8);
        const nvdla::Loadable lenetInt8Loadable = nvdla::readLoadable(lenetInt8.bytes, "lenet5-int8.nvdla");
        const TensorData quantized =
            TensorData::fromInts(DType::Int8, lenet.tensor(lenet.inputs[0]).shape,
                                 std::vector<std::int64_t>(std::size_t(lenet.tensor(lenet.inputs[0]).elements()), 64));
        const double runInt8Ms = bench::medianMilliseconds(5, [&] {
            nvdla::simulateLoadable(lenetInt8Loadable, {quantized}, target::nvdlaConfig("nv_small"));
        });
        fmt::print("bench_nvdla: LeNet-5 INT8 on nv_small run by the descriptor simulator in {:.2f} ms ({:.4f}x of the "
                   "1 s target; {:.2f}x one float inference)\n",
                   runInt8Ms, runInt8Ms / 1000.0, runInt8Ms / lenetInferenceMs);
    } catch (const std::exception& error) {
        fmt::print("bench_nvdla: failed: {}\n", error.what());
        return 1;
    }
    return 0;
}
