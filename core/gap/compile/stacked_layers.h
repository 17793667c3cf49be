// Copy layers that move no data: Concat and Split along channels done in place. A CHW tensor is its
// channel runs one after the other, so
// - when every input of a Concat is written by a layer that can write it in the Concat's format,
//   the producers write straight into their parts of the output;
// - when the Slices of one tensor cover its channels exactly (a Split), their readers read their
//   parts of it;
// both through AddStackedTensors in the graph. The copy layers disappear: no node, no copy time,
// and no L2 for the parts besides the whole.
#pragma once

#include "gap/compile/gap_network.h"

#include <set>
#include <vector>

namespace tessera::gap {

// A tensor and the tensors that are its parts, in order (indices into GapNetwork::tensors).
struct TensorStack {
    int whole = -1;
    std::vector<int> parts;
};

// The stacks the layers marked `stacked` make: each stacked Concat's inputs in its output, and the
// outputs of a tensor's stacked Slices in that tensor, by channel.
std::vector<TensorStack> tensorStacks(const GapNetwork& network);

// Every tensor of some stack, whole or part: a tensor is in one stack at most.
std::set<int> tensorsInStacks(const GapNetwork& network);

// Marks the concatenations that can be done in place: along channels, each input written by a
// layer whose output format is free (convolutions, linear, element-wise and activation layers),
// read by no one as a graph output, and stacked into one concatenation only.
void markStackedConcats(GapNetwork& network);

// Marks the Slices of a tensor whose channel runs cover it exactly, one after the other, when the
// tensor is a buffer between layers (no graph input or output), no part is a graph output, and no
// tensor involved is a part of another stack. Slices keep their input's format: no tie is needed.
void markStackedSplits(GapNetwork& network);

// After a quantization: ties each input of a stacked concatenation to the concatenation's format.
// True when some input's format differed, so that quantizing again gives producers the tied format.
// A concatenation whose input would need a coarser format while other layers read it too goes back
// to being a copy: in place, those readers would lose the precision.
bool tieStackedFormats(GapNetwork& network);

// After the last quantization: a concatenation whose inputs still differ from its format (a
// producer that could not take it) goes back to being a copy layer.
void unstackMismatchedConcats(GapNetwork& network);

}  // namespace tessera::gap
