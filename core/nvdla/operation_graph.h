// A loadable's operations as a graph to draw: one node per operation (op type the unit: "CONV",
// "SDP", ..., "EMU SOFTMAX"), named "task T op I", an edge from each operation to those that wait
// for it (the dependency graph's consumers and fused parents) and from the last operations of a
// task to the first of the next one submitted (the events between tasks). An operation's output
// carries the shape of the cube it writes. The studio shows it with the graph view.
#pragma once

#include "ir/graph.h"
#include "nvdla/loadable.h"

namespace tessera::nvdla {

// Throws tessera::ModelError when a task cannot be decoded.
Graph operationGraph(const Loadable& loadable);

}  // namespace tessera::nvdla
