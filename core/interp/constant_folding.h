#pragma once
// Static preparation of an imported graph: types every tensor with the shape rules and replaces
// nodes whose inputs are all known by the constants they compute (Shape of a typed tensor counts
// as known). Shape arithmetic that exporters leave behind (Shape -> Gather -> Concat -> Reshape)
// disappears this way, and data-dependent shapes become static.
#include "ir/graph.h"

#include <cstdint>

namespace tessera {

struct FoldingReport {
    size_t foldedNodes = 0;
};

// Nodes whose folded outputs would exceed this many elements stay in the graph.
inline constexpr int64_t kMaxFoldedElements = int64_t{1} << 20;

// Throws ShapeError / UnsupportedError naming the first node that cannot be typed.
FoldingReport inferAndFoldConstants(Graph& graph);

} // namespace tessera
