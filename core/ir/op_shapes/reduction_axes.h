#pragma once
// Which axes a Reduce* node reduces. The axes come from an attribute or, from the opset where each
// operator gained it (13 for ReduceSum, 18 for the others), from the optional second input.
#include "ir/graph.h"

#include <cstdint>
#include <vector>

namespace tessera {

// Opset from which `opType` reads its axes from input 1.
int64_t reductionAxesInputOpset(const std::string& opType);

// Flags the reduced axes of an input of `shape`. Empty axes reduce everything, or nothing when
// noop_with_empty_axes is set (all flags false then). `axesInput` is the value of input 1 when the
// node has it. Throws ShapeError naming the node for an axis out of range or repeated.
std::vector<bool> reducedAxes(const Node& node, int64_t opset, const Shape& shape, const TensorData* axesInput);

} // namespace tessera
