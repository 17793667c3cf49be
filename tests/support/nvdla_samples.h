// Small NVDLA loadables built through Tessera's loadable builder, for the loadable and fuzz tests.
#pragma once

#include "nvdla/loadable.h"

namespace tessera::testing {

// nv_full FP16: input 'data' 1x4x8x8; a DLA task of CONV 3x3 (8 kernels) with SDP bias + ReLU on the
// fly, then PDP max 8x8 to 1x1x8; an EMU task of Softmax to output 'prob' 1x8x1x1.
nvdla::Loadable sampleLoadable();

}  // namespace tessera::testing
