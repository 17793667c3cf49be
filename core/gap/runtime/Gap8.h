/* The GAP8 runtime's name for Gap.h, which basic kernels written for the SDK's first Autotiler
 * include: the same types, instructions (gap_* and their gap8_* spellings) and cluster helpers. */
#ifndef TESSERA_GAP8_H
#define TESSERA_GAP8_H
#include "Gap.h"
#endif
