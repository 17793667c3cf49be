// Spaces a user kernel runs whole, in one iteration: those declared SPACE_PROP_ONE_TILE, and the
// features of padded arguments laid out HWC (a KerArgSpace listing a parametric space after the
// tiled one: the features of each pixel side by side), as the SDK's HWC and matrix-multiply
// convolutions declare them. (The features of other HWC arguments are a plane loop like any, their
// chunks gathered pixel by pixel: tiler::KernelArgument::hwcPlanes.) A whole space is no loop of
// Tessera's nest: it is folded into its arguments' planes (an HWC argument becomes a plane of
// Width x Features columns, a constant along a whole space one of as many times its lines), and its
// calls and bindings are resolved as for a loop of one pass.
#pragma once

#include "model_registry.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::gap {

struct WholeSpaces {
    std::map<int, unsigned> counts;  // each whole space (KER_ITER_D*) and its items
    // Folded arguments, their planes as declared: the widths (and used widths) of tiled ones, the
    // heights of the others, which the calls are still told.
    struct Declared {
        bool alongWidth = false;
        unsigned size = 0;
        unsigned used = 0;
    };
    std::map<std::string, Declared> declared;

    bool empty() const { return counts.empty(); }
    bool isWhole(int iterator) const { return counts.count(iterator) != 0; }
};

// Finds the whole spaces of a kernel declared with `spaces` and `arguments` tiled in `vertical`
// orientation or not, and folds them: the spaces are removed from `spaces`, the arguments get
// their folded planes. Returns why the kernel cannot be declared so (an argument laid out with a
// whole space before its tiled one, an HWC argument tiled vertically, a padded one along a fixed
// space), empty when it can; nothing is changed then.
std::string foldWholeSpaces(KernelIterationSpace_S& spaces, std::vector<Object_S>& arguments, bool vertical,
                            WholeSpaces& whole);

// A call's bindings of whole spaces and of folded arguments, as for a loop of one pass: the chunk
// of a whole space is all its items, its index 0, its first and last iteration predicates 1; a
// folded argument's declared width or height. Removes them from call.spaceIterators.
void resolveWholeBindings(CKernelCall_S& call, const WholeSpaces& whole);

}  // namespace tessera::gap
