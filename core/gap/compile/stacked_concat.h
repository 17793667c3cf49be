// Concatenations along channels done in place. A CHW tensor concatenated along channels is its
// inputs one after the other, so when every input is written by a layer that can write it in the
// concatenation's format, the producers write straight into their parts of the output
// (AddStackedTensors in the graph) and the copy layer disappears: no node, no L2 for the inputs
// apart from the output, no copy time.
#pragma once

#include "gap/compile/gap_network.h"

namespace tessera::gap {

// Marks the concatenations that can be done in place: along channels, each input written by a
// layer whose output format is free (convolutions, linear, element-wise and activation layers),
// read by no one as a graph output, and stacked into one concatenation only.
void markStackedConcats(GapNetwork& network);

// After a quantization: ties each input of a stacked concatenation to the concatenation's format.
// True when some input's format differed, so that quantizing again gives producers the tied format.
// A concatenation whose input would need a coarser format while other layers read it too goes back
// to being a copy: in place, those readers would lose the precision.
bool tieStackedFormats(GapNetwork& network);

// After the last quantization: a concatenation whose inputs still differ from its format (a
// producer that could not take it) goes back to being a copy layer.
void unstackMismatchedConcats(GapNetwork& network);

}  // namespace tessera::gap
