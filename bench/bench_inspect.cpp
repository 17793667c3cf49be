// `tessera inspect` of MobileNet v1 1.0/224: load (import, inference, folding, verification) and
// per-node statistics. Target: under 0.5 s. Reference measured in the same run: reading the file and
// parsing its protobuf alone.
#include "bench_timer.h"

#include "io/file_io.h"
#include "onnx/onnx_export.h"
#include "session/model_loader.h"
#include "session/model_stats.h"
#include "zoo/zoo.h"

#include <fmt/format.h>
#include <onnx/onnx_pb.h>

#include <filesystem>

using namespace tessera;

int main()
{
    const std::string path = (std::filesystem::temp_directory_path() / "tessera_bench_mobilenet_v1.onnx").string();
    exportOnnxFile(buildZooModel("mobilenet_v1", {1.0, 224, 1}), path);
    const int runs = 7;

    const double parseMs = bench::medianMilliseconds(runs, [&] {
        onnx::ModelProto model;
        model.ParseFromString(readFileBytes(path));
    });
    ModelStats stats;
    const double inspectMs = bench::medianMilliseconds(runs, [&] {
        const Graph graph = loadModel(path);
        stats = computeModelStats(graph);
    });
    std::filesystem::remove(path);
    fmt::print("bench_inspect: mobilenet_v1 1.0/224: {} nodes, {} params, {} MACs\n", stats.nodes.size(),
               stats.parameters, stats.macs);
    fmt::print("bench_inspect: inspect {:.1f} ms (median of {}), target < 500 ms ({:.3f}x of target)\n", inspectMs,
               runs, inspectMs / 500.0);
    fmt::print("bench_inspect: read + protobuf parse alone {:.1f} ms; inspect / parse = {:.2f}\n", parseMs,
               inspectMs / parseMs);
    return 0;
}
