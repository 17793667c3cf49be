// Import + shape inference of a synthetic 1000-node graph. Target: under 100 ms.
// Reference measured in the same run: protobuf parsing of the same bytes alone.
#include "bench_timer.h"

#include "ir/builder.h"
#include "ir/shape_inference.h"
#include "onnx/onnx_export.h"
#include "onnx/onnx_import.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <random>

using namespace tessera;

namespace {

// Residual blocks of Conv 3x3 -> Relu -> Conv 1x1 -> Add -> Clip over 16 channels at 32x32,
// five nodes each, until `nodes` nodes exist.
Graph syntheticGraph(int nodes)
{
    GraphBuilder builder("synthetic", 13);
    std::mt19937 random(1);
    std::uniform_real_distribution<float> weight(-0.1f, 0.1f);
    auto constant = [&](const std::string& name, Shape shape) {
        TensorData data(DType::Float32, shape);
        for (int64_t i = 0; i < data.elements(); ++i)
            data.data<float>()[i] = weight(random);
        return builder.constant(name, std::move(data));
    };
    TensorId x = builder.input("x", DType::Float32, {1, 16, 32, 32});
    const TensorId low = builder.constant("low", TensorData::fromFloats({}, {0.0f}));
    const TensorId high = builder.constant("high", TensorData::fromFloats({}, {6.0f}));
    for (int block = 0; block * 5 < nodes; ++block) {
        const std::string p = "b" + std::to_string(block);
        const TensorId w3 = constant(p + ".w3", {16, 16, 3, 3});
        const TensorId w1 = constant(p + ".w1", {16, 16, 1, 1});
        TensorId y = builder.op("Conv", {x, w3}, {{"pads", Attribute::ofInts({1, 1, 1, 1})}}, p + ".conv3");
        y = builder.op("Relu", {y}, {}, p + ".relu");
        y = builder.op("Conv", {y, w1}, {}, p + ".conv1");
        y = builder.op("Add", {y, x}, {}, p + ".add");
        x = builder.op("Clip", {y, low, high}, {}, p + ".clip");
    }
    builder.output(x);
    return builder.finish();
}

} // namespace

int main()
{
    const Graph graph = syntheticGraph(1000);
    const std::string bytes = exportOnnxBytes(graph);
    const int runs = 15;

    const double parseMs = bench::medianMilliseconds(runs, [&] {
        onnx::ModelProto model;
        model.ParseFromString(bytes);
    });
    size_t typed = 0;
    const double importMs = bench::medianMilliseconds(runs, [&] {
        Graph imported = importOnnxBytes(bytes, "synthetic.onnx");
        inferShapes(imported);
        typed = imported.tensorCount();
    });
    fmt::print("bench_import: {} nodes, {} tensors, {:.1f} MB\n", graph.nodeCount(), typed, bytes.size() / 1e6);
    fmt::print("bench_import: import + shape inference {:.2f} ms (median of {}), target < 100 ms ({:.2f}x of target)\n",
               importMs, runs, importMs / 100.0);
    fmt::print("bench_import: protobuf parse alone {:.2f} ms; import + inference / parse = {:.2f}\n", parseMs,
               importMs / parseMs);
    return 0;
}
