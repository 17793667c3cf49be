#pragma once
// Where the GAP support files are: the build tree's sources, or an installed prefix's
// include/tessera, share/tessera and lib/tessera when the tessera binary runs from one.
#include "gap_project/gap_project_writer.h"

#include <string>

namespace tessera::gap {

struct GapPaths {
    std::string include;         // AutoTilerLib.h
    std::string runtime;         // at_api.h, Gap.h
    std::string cnnKernels;      // CNN_BasicKernels.h/.c
    std::string emul;            // the host emulation sources a compiled project copies
    std::string modelLibrary;
    std::string tilerLibrary;
    std::string plannerLibrary;

    // What a compiled project copies.
    GapProjectSources projectSources() const { return {runtime, cnnKernels, emul}; }
};

GapPaths gapPaths();

} // namespace tessera::gap
