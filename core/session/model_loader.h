#pragma once
// Opening a model the way every Tessera command does: import the ONNX file, type every tensor,
// fold constant subgraphs, verify.
#include "ir/graph.h"

#include <string>

namespace tessera {

struct LoadOptions {
    bool foldConstants = true;
};

// Throws ModelError / UnsupportedError / ShapeError with a message naming the file and the place.
Graph loadModel(const std::string& path, const LoadOptions& options = {});
// The same for a graph already in memory (from import or the zoo).
void prepareGraph(Graph& graph, const LoadOptions& options = {});

} // namespace tessera
