// What Tessera's CNN generators take from a CNN_GenControl_T (CNN_Generators.h): the padding type
// and the arguments to home in L3. A setting that would change what a layer computes and that the
// generators do not implement stops generation with a message naming the layer and the option.
#pragma once

#include "CNN_Generators.h"

namespace tessera::gap {

struct GenControl {
    AT_PadType padType = PAD_BALANCED_LEFT;
    bool inL3 = false, filterL3 = false, biasL3 = false, outL3 = false;
    int outDataSize = 0;  // OUTPUT_DATASIZE, for the generators that read it (0: their default)
    bool hwc = false;     // HWC, for the generators that read it (tensors in HWC order)
    int tileOrientation = -1;   // TILE_HOR (0) or TILE_VER (1); -1: the generator's default
    int parallelFeatures = -1;  // 0 or 1; -1: the generator's default
};

// The control of layer `Name`; Ctrl 0 gives the defaults. OUTPUT_DATASIZE is refused unless the
// generator reads it (readsOutDataSize), HWC unless it reads that (readsHwc).
GenControl genControl(const char* Name, const CNN_GenControl_T* Ctrl, bool readsOutDataSize = false,
                      bool readsHwc = false);

} // namespace tessera::gap
