// A lone parametric space tiled as one (parametric_tiles.h).
#include "parametric_tiles.h"

#include "AutoTilerLib.h"

#include <algorithm>

namespace tessera::gap {

namespace tiler = tessera::tiler;

ParametricTiles tileLoneParametricSpace(KernelIterationSpace_S& spaces, std::vector<Object_S>& arguments,
                                        Tile_Orientation_T& orientation)
{
    if (spaces.spaces.size() != 1 || spaces.spaces[0].tiled || !spaces.spaces[0].parametric ||
        !spaces.spaces[0].runtimeBound.empty())
        return {};
    const KernelIteratorDescr_S space = spaces.spaces[0];
    const auto alongSpace = [&](const Object_S& argument) {
        return argument.space && *argument.space == std::vector<int>{space.iterator} && argument.reversedSpaces.empty();
    };
    if (std::none_of(arguments.begin(), arguments.end(), alongSpace))
        return {};
    for (Object_S& argument : arguments) {
        if (!alongSpace(argument))
            continue;
        // Its planes, one after the other, are the lines of one plane.
        tiler::KernelArgument& value = argument.value;
        value.width *= value.height;
        value.height = space.size;
        if (space.preferredDivider > 1)
            value.preferredTileSize = space.preferredDivider;
        argument.space = std::vector<int>{int(KER_ITER_TILE0)};
    }
    spaces.spaces[0] = KernelIteratorDescr_S{};
    spaces.spaces[0].iterator = int(KER_ITER_TILE0);
    spaces.spaces[0].tiled = true;
    orientation = TILE_HOR;
    return {space.iterator};
}

void resolveParametricTileCall(CKernelCall_S& call, const ParametricTiles& tiles)
{
    if (!tiles.active())
        return;
    const int first = int(LOC_D0) + 3 * (tiles.iterator - int(KER_ITER_D0));
    if (call.spaceLocation >= first && call.spaceLocation < first + 3) {
        const tiler::CallLocation locations[] = {tiler::CallLocation::InnerLoop, tiler::CallLocation::InnerLoopProlog,
                                                 tiler::CallLocation::InnerLoopEpilog};
        call.value.location = locations[call.spaceLocation - first];
        call.spaceLocation = -1;
    }
    std::erase_if(call.spaceIterators, [&](const std::pair<std::size_t, int>& bound) {
        tiler::Binding& binding = call.value.bindings[bound.first];
        if (bound.second != tiles.iterator || binding.kind != tiler::Binding::Kind::PlaneChunk)
            return false;
        // The chunk (and the part of it an argument holds, all of it here) is the tile's lines.
        binding.kind = tiler::Binding::Kind::KernelArg;
        binding.select = tiler::ArgSelect::TileHeight;
        binding.value = 0;
        return true;
    });
}

} // namespace tessera::gap
