// Spaces a user kernel runs whole (see whole_spaces.h), folded into its arguments' planes.
#include "whole_spaces.h"

#include "builder_support.h"

#include <algorithm>

namespace tessera::gap {

namespace {

bool isTiledBy(const Object_S& argument)
{
    return !argument.notTiled && std::any_of(argument.space->begin(), argument.space->end(), isTiledSpace);
}

// The plane spaces an HWC argument lists after its tiled space: features side by side in each pixel.
std::vector<int> spacesAfterTiles(const Object_S& argument)
{
    const auto tiles = std::find_if(argument.space->begin(), argument.space->end(), isTiledSpace);
    if (argument.notTiled || tiles == argument.space->end())
        return {};
    return std::vector<int>(tiles + 1, argument.space->end());
}

// Whether the argument is tiled by columns: its own constraint, else the kernel's orientation.
bool vertical(const Object_S& argument, bool kernelVertical)
{
    if (argument.value.constraints & tiler::ArgConstraint::TileHorizontal)
        return false;
    return kernelVertical || (argument.value.constraints & tiler::ArgConstraint::TileVertical) != 0;
}

}  // namespace

std::string foldWholeSpaces(KernelIterationSpace_S& spaces, std::vector<Object_S>& arguments, bool kernelVertical,
                            WholeSpaces& whole)
{
    WholeSpaces found;
    for (const KernelIteratorDescr_S& space : spaces.spaces)
        if (space.oneTile)
            found.counts[space.iterator] = space.size;
    const auto spaceOf = [&](int iterator) {
        return std::find_if(spaces.spaces.begin(), spaces.spaces.end(),
                            [&](const KernelIteratorDescr_S& space) { return space.iterator == iterator; });
    };
    // Features after the tiles (HWC) are a plane loop whose chunks the DMA gathers pixel by pixel,
    // unless the argument is padded or has several such spaces: Tessera then takes them whole.
    for (const Object_S& argument : arguments) {
        if (isScratchBuffer(argument.value))
            continue;  // no home layout
        const std::vector<int> features = spacesAfterTiles(argument);
        if (features.empty())
            continue;
        if (vertical(argument, kernelVertical))
            return "its HWC argument " + argument.value.name + " is tiled vertically; Tessera tiles the pixels of HWC "
                   "arguments by lines only, declare the layer TILE_HOR";
        const tiler::KernelArgument& value = argument.value;
        const bool padded = value.kernelPadsItself || value.padBefore > 0 || value.padAfter > 0;
        if (!padded && features.size() == 1)
            continue;
        for (const int iterator : features) {
            const auto space = spaceOf(iterator);
            if (space == spaces.spaces.end() || space->tiled)
                continue;  // reported when the spaces are mapped
            if (!space->parametric && !space->oneTile)
                return "its argument " + value.name + " lists " + spaceName(iterator) + " after its tiled space " +
                       "(features side by side in each pixel, HWC) and that space is an IterFixedSpace, one feature " +
                       "per iteration; Tessera moves the features of a padded HWC argument, or of one with several " +
                       "feature spaces, whole: declare the space with IterParSpace or the argument CHW";
            found.counts[iterator] = space->size;
        }
    }
    if (found.counts.empty())
        return {};

    std::vector<Object_S> folded = arguments;
    for (Object_S& argument : folded) {
        std::vector<int>& listed = *argument.space;
        if (std::none_of(listed.begin(), listed.end(), [&](int iterator) { return found.isWhole(iterator); }))
            continue;
        const std::string& name = argument.value.name;
        for (const int iterator : argument.reversedSpaces)
            if (found.isWhole(iterator))
                return "its argument " + name + " runs backwards (SPACE_PROP_REVERT) along " + spaceName(iterator) +
                       ", which the kernel runs whole";
        // The whole spaces must be the innermost of the argument's: after its tiles (HWC), or after
        // its other planes for an untiled one, so that each of its remaining planes is one block. An
        // L1-only buffer has no home layout: its kernels lay it out (HWC DW convolutions permute
        // their input into one, CHW), only its size counts.
        const bool tiled = isTiledBy(argument);
        const bool scratch = isScratchBuffer(argument.value);
        const auto whollyListed = [&](int iterator) { return found.isWhole(iterator); };
        const auto firstWhole = scratch ? listed.begin() : std::find_if(listed.begin(), listed.end(), whollyListed);
        const auto tiles = std::find_if(listed.begin(), listed.end(), isTiledSpace);
        const bool innermost = scratch || (tiled ? std::find_if(listed.begin(), tiles, whollyListed) == tiles
                                                 : std::all_of(firstWhole, listed.end(), [&](int iterator) {
                                                       // an O_NTILED argument may list its tiles
                                                       return found.isWhole(iterator) || isTiledSpace(iterator);
                                                   }));
        if (!innermost)
            return "its argument " + name + " lists " + spaceName(*firstWhole) + ", which the kernel runs whole (" +
                   (spaceOf(*firstWhole)->oneTile ? "SPACE_PROP_ONE_TILE" : "the features of an HWC argument") +
                   "), before " + (tiled ? "its tiled space (planes one after the other, CHW)" : "another of its spaces") +
                   "; Tessera holds a whole space only as the innermost of an argument's, declare the layer HWC "
                   "or the space as a loop";
        unsigned factor = 1;
        for (auto iterator = firstWhole; iterator != listed.end(); ++iterator)
            if (found.isWhole(*iterator))
                factor *= found.counts.at(*iterator);
        tiler::KernelArgument& value = argument.value;
        WholeSpaces::Declared declared;
        declared.alongWidth = tiled;
        if (tiled) {
            if (vertical(argument, kernelVertical))
                return "its argument " + name + " is tiled vertically along a space the kernel runs whole; Tessera "
                       "tiles such arguments by lines only, declare the layer TILE_HOR";
            declared.size = value.width;
            declared.used = value.usedWidth != 0 ? value.usedWidth : value.width;
            value.width *= factor;
            value.usedWidth *= factor;
        } else {
            if (value.usedHeight != 0)
                return "its argument " + name + " uses part of its lines and is folded along a whole space; "
                       "declare it without the used part";
            declared.size = declared.used = value.height;
            value.height *= factor;
        }
        found.declared[name] = declared;
        listed.erase(std::remove_if(listed.begin(), listed.end(), [&](int iterator) { return found.isWhole(iterator); }),
                     listed.end());
    }
    spaces.spaces.erase(std::remove_if(spaces.spaces.begin(), spaces.spaces.end(),
                                       [&](const KernelIteratorDescr_S& space) { return found.isWhole(space.iterator); }),
                        spaces.spaces.end());
    arguments = std::move(folded);
    whole = std::move(found);
    return {};
}

void resolveWholeBindings(CKernelCall_S& call, const WholeSpaces& whole)
{
    using Kind = tiler::Binding::Kind;
    using tiler::ArgSelect;
    std::vector<std::pair<std::size_t, int>> kept;
    for (const auto& [index, iterator] : call.spaceIterators) {
        if (!whole.isWhole(iterator)) {
            kept.emplace_back(index, iterator);
            continue;
        }
        tiler::Binding& binding = call.value.bindings[index];
        switch (binding.kind) {
        case Kind::PlaneChunk:  // the chunk, and the planes held in L1: all of them
            binding.value = whole.counts.at(iterator);
            binding.kind = Kind::Immediate;
            break;
        case Kind::LoopIndex:
            binding.value = 0;
            binding.kind = Kind::Immediate;
            break;
        case Kind::LoopPredicate:  // its one pass is its first and its last
            binding.value = 1;
            binding.kind = Kind::Immediate;
            break;
        case Kind::CArgIndex:  // item 0 of the C argument
            binding.name += "[0]";
            binding.kind = Kind::Literal;
            break;
        default:
            break;
        }
    }
    call.spaceIterators = std::move(kept);
    for (tiler::Binding& binding : call.value.bindings) {
        if (binding.kind != Kind::KernelArg)
            continue;
        const auto declared = whole.declared.find(binding.name);
        if (declared == whole.declared.end())
            continue;
        const WholeSpaces::Declared& plane = declared->second;
        const bool size = plane.alongWidth ? (binding.select == ArgSelect::TileWidth || binding.select == ArgSelect::TileWidth0 ||
                                              binding.select == ArgSelect::Width)
                                           : (binding.select == ArgSelect::TileHeight ||
                                              binding.select == ArgSelect::TileHeight0 || binding.select == ArgSelect::Height);
        const bool used = binding.select == (plane.alongWidth ? ArgSelect::TileUsedWidth : ArgSelect::TileUsedHeight);
        if (size || used) {
            binding.kind = Kind::Immediate;
            binding.value = size ? plane.size : plane.used;
        }
    }
}

}  // namespace tessera::gap
