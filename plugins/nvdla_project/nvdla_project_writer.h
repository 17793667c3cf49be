// The NVDLA project exporter: the folder a user takes to the board or the virtual platform. Around
// the loadable and the compile report it writes a sample input in the forms NVIDIA's nvdla_runtime
// and Tessera take, the output Tessera's descriptor simulator computes for it, the command line that
// runs it, and a README with the input contract (what the runtime does to an image's pixels).
#pragma once

#include "nvdla/compile/nvdla_compiler.h"

#include <string>

namespace tessera::nvdla {

// Writes DIR: model.nvdla, report.txt and report.json; for a single input of 1 or 3 channels an image
// the runtime reads (input.pgm, or input.jpg whose channels the runtime orders blue, green, red);
// input.pb, the tensor the runtime makes of it (for other inputs a seeded sample in [0, 1]);
// expected_output.pb and expected_output.txt (the form `nvdla_runtime --rawdump` writes to
// output.dimg), from the descriptor simulator; run.sh; README.md. The folder is written whole
// (io/staged_folder.h). Throws tessera::Error.
void exportNvdlaProject(const NvdlaCompilation& compilation, const std::string& directory);

}  // namespace tessera::nvdla
