// The LUT of SDP and CDP as the loadable stores it (dla_lut_param, 700 bytes in each DLA task's
// LUT list): the fields of dla::Lut written and read by name. In INT mode the starts and ends are
// integers of the LUT's input; in FP16 mode they are FP32 bit patterns and the table entries and
// slopes FP16 bit patterns.
#pragma once

#include "interp/fixed_point/dla_arithmetic.h"
#include "nvdla/descriptor_layout.h"

#include <cstdint>
#include <vector>

namespace tessera::nvdla {

std::vector<std::uint8_t> encodeLut(const dla::Lut& lut, const StructLayout& layout);
dla::Lut decodeLut(const ConstRecord& record);

// The LUT in FP16 mode, evaluated in single precision (the unit interpolates in a 17-bit float
// format; FP16 results are compared within FP16 tolerance).
float lutInFloat(float x, const dla::Lut& lut);

}  // namespace tessera::nvdla
