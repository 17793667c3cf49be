#pragma once
// The checks shared by the GAP compile suites: compile a graph into a project, build the project's
// host emulation and compare its output with the fixed-point reference bit for bit.
#include "gap/compile/gap_compiler.h"
#include "gap_project/gap_project_writer.h"
#include "ir/builder.h"
#include "ir/graph.h"
#include "ir/tensor_data.h"

#include <QString>

#include <random>
#include <string>
#include <vector>

namespace tessera::test {

// The runtime, basic kernels and emulation sources of the source tree.
gap::GapProjectSources projectSources();

// tessera compile: the code generated into `project`, then the GAP project exporter around it.
gap::GapCompileResult compileProject(const Graph& graph, const gap::GapCompileOptions& options, const QString& project);

// Values drawn uniformly from [low, high).
TensorData uniformTensor(const Shape& shape, std::mt19937& random, float low, float high);

// A k x k convolution with bias ("same" padding) of `in` to `out` channels: weights uniform within
// scale * sqrt(6 / fan-in), bias within 0.1, both drawn from `random` in that order.
TensorId seededConv(GraphBuilder& builder, std::mt19937& random, TensorId x, int64_t in, int64_t out, int64_t k,
                    float scale, const std::string& name);

// "name:kind" of every layer, in order.
QString layerKinds(const gap::GapNetwork& network);

// The project's emulation program run on one input: its output and the L3 bytes it moved.
struct ProjectRun {
    QString error;
    std::vector<float> output;
    qint64 l3Traffic = -1;
};

// Builds the project's emulation program for `cores` emulated cluster cores and runs it on `input`.
ProjectRun buildAndRun(const QString& project, const TensorData& input, const std::string& inputName, int cores = 1);

// The graph's first input filled from [-1, 1) with `seed`.
TensorData randomInput(const Graph& graph, unsigned seed);

// The fixed-point reference's output for `input`, dequantized.
std::vector<float> referenceOutput(const gap::GapNetwork& network, const TensorData& input);

// The generated graph sources compiled for GAP (the PMSIS branch, against the PMSIS declarations
// of tests/gap/pmsis_stub) with every warning an error: empty, or what the compiler said.
QString gapBuildProblem(const QString& project, const gap::GapCompileResult& result);

// Compiles `graph`, runs the project on a fresh input (not a calibration set) and checks it against
// the reference bit for bit, against the report's L3 traffic and against float (at least
// minimumSqnrDb). Failures are reported with QTest::qFail. Returns the compile result.
gap::GapCompileResult compileAndCheck(const Graph& graph, const gap::GapCompileOptions& options, const QString& project,
                                      double minimumSqnrDb, int cores = 1);

}  // namespace tessera::test
