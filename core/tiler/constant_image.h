// The constants flash image of a graph: every constant the graph promotes, read from the file its
// ConstInfo names, converted to its fixed-point format and written, in the file's order (the
// order the kernels read), at its flash offset (the same offset as in the static L2 block).
#pragma once

#include "tiler/graph_allocation.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tiler {

// The bytes of one constant as stored (little-endian items of constant.bits). Throws ModelError
// naming the file, the symbol and what is wrong. Relative file names start at the working folder.
std::vector<std::uint8_t> loadConstant(const GraphModel& graph, const GraphTensor& tensor);

// The whole image of the ordinary flash (flashBytes long) or of the privileged flash
// (privilegedFlashBytes long). Throws ModelError as loadConstant does.
std::vector<std::uint8_t> buildConstantImage(const GraphModel& graph,
                                             const GraphAllocation& allocation, bool privilegedFlash);

}  // namespace tessera::tiler
