// The GAP project exporter: completes the folder tessera compile generated into (code and constants
// image) with the basic kernels and runtime headers it builds with, a host emulation program
// (emul_run) and its Makefile, the sample input and expected output, and the compile report.
#pragma once

#include "gap/compile/gap_compiler.h"
#include "ir/graph.h"
#include "session/session.h"

#include <string>

namespace tessera::gap {

// Where the files a project copies live (the build tree's sources or an installed share/tessera).
struct GapProjectSources {
    std::string runtimeDir;     // at_api.h and the emulation runtime
    std::string cnnKernelsDir;  // CNN_BasicKernels.c/.h
    std::string emulDir;        // tensor_file.c/.h of the host emulation program
};

// Writes the project around the result of compileForGap(graph, ..., folder).
void writeGapProject(const Graph& graph, const GapCompileResult& result, const GapProjectSources& sources,
                     const std::string& folder);

// File > Export GAP project and `tessera compile`: the session's compilation with these choices,
// then the project around it, with this build's or installation's sources. The folder is written
// whole (io/staged_folder.h): it must be new, empty or a project Tessera wrote, and it holds the
// old project or the new one, never a mix. Throws tessera::Error.
GapCompileResult exportGapProject(const Session& session, const SessionChoices& choices, const std::string& folder,
                                  const GapProgress& progress = {});

// The C source of the host emulation program for `network` (emul/emul_main.c).
std::string emulationMainSource(const Graph& graph, const GapNetwork& network, const GapGeneration& generation);

}  // namespace tessera::gap
