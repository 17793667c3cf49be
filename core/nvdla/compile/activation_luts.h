// The lookup tables Tessera programs into SDP's LUT for Sigmoid and Tanh, and into CDP's for local
// response normalization (LRN).
//   FP16: as NVIDIA's compiler writes them: the linear (LO) table only, Sigmoid sampled over
//   [-16, 16] in steps of 1/8, Tanh over [-4, 4] in steps of 1/32, interpolated between entries
//   and held at the end values outside.
//   INT8: an exact lookup of each of the 256 int8 inputs: the LO table from -129 in steps of 1, entry
//   i the function at (i - 129) x input scale in output units (rounded, saturated).
#pragma once

#include "interp/fixed_point/dla_arithmetic.h"
#include "ir/graph.h"

#include <string>

namespace tessera::nvdla {

// `op`: "Sigmoid" or "Tanh".
bool hasActivationLut(const std::string& op);
dla::Lut fp16ActivationLut(const std::string& op);
dla::Lut int8ActivationLut(const std::string& op, double inputScale, double outputScale);

// LRN: y = x * g(s), s the sum of the squares of `size` channels around x, g(s) = (bias + alpha /
// size * s)^-beta. CDP's LUT holds g: the exponential (LE) table one entry per power of two of s, the
// linear (LO) table the small sums one by one (INT8) or in steps of 1/64 (FP16), where g changes
// fastest. In INT8 the entries are g in units of 2^-q (q the largest that keeps g(0) in int16), and
// the output converter takes x * entry from the input's units times 2^q to the output's.
struct LrnParameters {
    unsigned size = 0;
    double alpha = 1e-4, beta = 0.75, bias = 1.0;
    static LrnParameters of(const Node& node);
};
struct LrnLookup {
    dla::Lut lut;
    dla::OutputConverter output;
};
dla::Lut fp16LrnLut(const LrnParameters& lrn);
// Throws tessera::UnsupportedError naming `node` when the scales need a larger rescale than the
// output converter has.
LrnLookup int8LrnLookup(const Node& node, double inputScale, double outputScale);

}  // namespace tessera::nvdla
