// A user kernel whose only space is a parametric one (IterParSpace), as GreenWaves' CNN_Copy
// declares its copy: one space over the items, no tiled space, arguments of 1 x 1 items along it,
// the calls told each chunk's size (K_ArgPar ... KER_ARG_PARTILE_SIZE). Its chunks are tiles: the
// space becomes the tiled space KER_ITER_TILE0, each argument along it one column of its planes,
// tiled by lines (a multiple of the space's preferred divider where the budget allows), the chunk
// size the tile's line count, the calls in the space's body, prolog and epilog those of the tile
// loop.
#pragma once

#include "model_registry.h"

#include <vector>

namespace tessera::gap {

struct ParametricTiles {
    int iterator = -1;  // the KER_ITER_D* space that became the tiled one; -1 none
    bool active() const { return iterator >= 0; }
};

// Rewrites a kernel of that form (nothing is changed for any other): its spaces, its arguments and
// its orientation (TILE_HOR: lines are tiled).
ParametricTiles tileLoneParametricSpace(KernelIterationSpace_S& spaces, std::vector<Object_S>& arguments,
                                        Tile_Orientation_T& orientation);

// A call of such a kernel: its location in the space, and its chunk sizes, in terms of the tiles.
void resolveParametricTileCall(CKernelCall_S& call, const ParametricTiles& tiles);

} // namespace tessera::gap
