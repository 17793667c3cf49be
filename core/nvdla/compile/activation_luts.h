// The lookup tables Tessera programs into SDP's LUT for Sigmoid and Tanh.
//   FP16: as NVIDIA's compiler writes them: the linear (LO) table only, Sigmoid sampled over
//   [-16, 16] in steps of 1/8, Tanh over [-4, 4] in steps of 1/32, interpolated between entries
//   and held at the end values outside.
//   INT8: an exact lookup of each of the 256 int8 inputs: the LO table from -129 in steps of 1, entry
//   i the function at (i - 129) x input scale in output units (rounded, saturated).
#pragma once

#include "interp/fixed_point/dla_arithmetic.h"

#include <string>

namespace tessera::nvdla {

// `op`: "Sigmoid" or "Tanh".
bool hasActivationLut(const std::string& op);
dla::Lut fp16ActivationLut(const std::string& op);
dla::Lut int8ActivationLut(const std::string& op, double inputScale, double outputScale);

}  // namespace tessera::nvdla
