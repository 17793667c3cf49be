// The project folder of a compiled GAP model: next to the generated code and constants image, the
// basic kernels and runtime headers it builds with, a host emulation program (emul_run) and its
// Makefile, sample input and expected output, and the compile report.
#pragma once

#include "gap/compile/gap_compiler.h"
#include "ir/graph.h"

#include <string>

namespace tessera::gap {

// `expectedInputs` / `expectedOutputs`: one input set and the fixed-point reference's outputs for
// it (dequantized), written to test_data/ so a user can check emul_run.
void writeGapProject(const Graph& graph, const GapCompileResult& result, const GapProjectSources& sources,
                     const std::string& folder, const std::vector<TensorData>& expectedInputs,
                     const std::vector<TensorData>& expectedOutputs);

// The C source of the host emulation program for `network` (emul/emul_main.c).
std::string emulationMainSource(const Graph& graph, const GapNetwork& network, const GapGeneration& generation);

}  // namespace tessera::gap
