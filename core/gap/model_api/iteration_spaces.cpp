// The current SDK's way of declaring a user kernel's loops (KernelIterSpace, IterTiledSpace,
// IterFixedSpace, IterParSpace, KerArgSpace, the 6-argument UserKernel) and the 5-argument
// LibKernel, translated into the loop nests of KernelIterationOrder(): one tiled space, and up to
// two non-tiled spaces that become the input-plane and output-plane loops (AutoTilerLib.h says
// which is which), with, for two-level tiling, a second tiled space KER_ITER_TILE1 around them all. Calls' LOC_D* locations and C_ArgIndex(KER_ITER_D*) bindings are resolved
// against the kernel's spaces here, and each argument's KerArgSpace becomes its 3-D / 4-D form. A
// kernel whose only space is parametric has its chunks tiled (parametric_tiles.h).
#include "AutoTilerLib.h"
#include "builder_support.h"
#include "parametric_tiles.h"
#include "whole_spaces.h"

#include <algorithm>
#include <cstdarg>
#include <map>

using namespace tessera::gap;
namespace tiler = tessera::tiler;

namespace {

// Fails unless `iterator` is KER_ITER_TILE0 or TILE1 (tiled) or KER_ITER_D0..D3 (not tiled).
void requireSpace(int iterator, bool tiled, const std::string& context)
{
    if (iterator == int(KER_ITER_TILE2))
        failModel(context + ": " + spaceName(iterator)
                  + " is a third tiled space, which Tessera does not support; tile KER_ITER_TILE0 and, outside it, "
                    "KER_ITER_TILE1");
    if (tiled && !isTiledSpace(iterator))
        failModel(context + ": " + spaceName(iterator)
                  + " is not a tiled space; IterTiledSpace takes KER_ITER_TILE0 or KER_ITER_TILE1");
    if (!tiled && !isPlaneSpace(iterator))
        failModel(context + ": " + spaceName(iterator) + " is not a non-tiled space; use KER_ITER_D0..KER_ITER_D3");
}

// What the kernel's spaces became: the loop nest and, per KER_ITER_D*, its plane loop and size.
struct SpaceMapping {
    std::vector<tiler::IterationSpace> order;
    bool outerTiles = false;  // KER_ITER_TILE1 is the outermost loop
    std::map<int, tiler::IterationSpace> planes;
    unsigned inPlanes = 1;
    unsigned outPlanes = 1;
    // No argument is tiled by KER_ITER_TILE0: its loop runs once (NNTool's element-wise expression
    // kernels iterate a parametric space only, their tiled space declared for form's sake).
    bool oneTile = false;
};

bool variesAlong(const Object_S& argument, int iterator)
{
    return std::find(argument.space->begin(), argument.space->end(), iterator) != argument.space->end();
}

SpaceMapping mapSpaces(const KernelIterationSpace_S& allSpaces, const std::vector<const Object_S*>& arguments,
                       const std::string& context)
{
    SpaceMapping mapping;
    // Two-level tiling: KER_ITER_TILE1 is the outer tile loop, around everything else.
    KernelIterationSpace_S spaces = allSpaces;
    const auto outer = std::find_if(spaces.spaces.begin(), spaces.spaces.end(), [](const KernelIteratorDescr_S& space) {
        return space.iterator == int(KER_ITER_TILE1);
    });
    if (outer != spaces.spaces.end()) {
        if (outer != spaces.spaces.begin())
            failModel(context + ": KER_ITER_TILE1 (the outer tile loop of two-level tiling) must be the first, "
                                "outermost space of KernelIterSpace");
        spaces.spaces.erase(outer);
        mapping.outerTiles = true;
    }
    std::vector<const KernelIteratorDescr_S*> planeSpaces;
    std::size_t tiles = 0;
    for (const KernelIteratorDescr_S& space : spaces.spaces) {
        if (space.tiled)
            ++tiles;
        else
            planeSpaces.push_back(&space);
    }
    if (tiles != 1)
        failModel(format("%s: the iteration space has %zu tiled spaces besides KER_ITER_TILE1; it needs exactly one, "
                         "IterTiledSpace(KER_ITER_TILE0)",
                         context.c_str(), tiles));
    if (planeSpaces.size() > 2)
        failModel(format("%s: the iteration space has %zu non-tiled spaces; Tessera's loop nests have at most two "
                         "(the input and the output planes)",
                         context.c_str(), planeSpaces.size()));
    const auto readByInput = [&](int iterator) {
        return std::any_of(arguments.begin(), arguments.end(), [&](const Object_S* argument) {
            return argument->value.has(tiler::ArgFlag::In) && variesAlong(*argument, iterator);
        });
    };

    if (planeSpaces.size() == 1) {
        const int iterator = planeSpaces[0]->iterator;
        const bool beforeTile = spaces.spaces.front().iterator == iterator;
        // An input varying along it makes it the input-plane loop (the only one a plane of inputs follows).
        const bool inputPlanes = readByInput(iterator) || !beforeTile;
        mapping.planes[iterator] = inputPlanes ? tiler::IterationSpace::InPlane : tiler::IterationSpace::OutPlane;
        (inputPlanes ? mapping.inPlanes : mapping.outPlanes) = planeSpaces[0]->size;
    } else if (planeSpaces.size() == 2) {
        if (spaces.spaces.front().tiled)
            failModel(context + ": with two non-tiled spaces the outer one must come first (output planes, then "
                                "input planes around or inside the tiles)");
        mapping.planes[planeSpaces[0]->iterator] = tiler::IterationSpace::OutPlane;
        mapping.planes[planeSpaces[1]->iterator] = tiler::IterationSpace::InPlane;
        mapping.outPlanes = planeSpaces[0]->size;
        mapping.inPlanes = planeSpaces[1]->size;
    }
    for (const KernelIteratorDescr_S& space : spaces.spaces)
        mapping.order.push_back(space.tiled ? tiler::IterationSpace::Tile : mapping.planes.at(space.iterator));
    mapping.oneTile = std::none_of(arguments.begin(), arguments.end(), [](const Object_S* argument) {
        return variesAlong(*argument, int(KER_ITER_TILE0)) || variesAlong(*argument, int(KER_ITER_TILE1));
    });
    return mapping;
}

tiler::CallLocation resolveLocation(int location, const SpaceMapping& mapping, const std::string& context)
{
    const int offset = location - int(LOC_D0);
    const int iterator = int(KER_ITER_D0) + offset / 3, where = offset % 3;  // body, prolog, epilog
    const auto plane = mapping.planes.find(iterator);
    if (plane == mapping.planes.end())
        failModel(context + ": the call's location refers to " + spaceName(iterator)
                  + ", which is not in the kernel's KernelIterSpace");
    if (where == 0) {
        // The body of the innermost loop; or of one only a tile loop that runs once is inside.
        const auto at = std::find(mapping.order.begin(), mapping.order.end(), plane->second);
        const bool innermost = std::all_of(at + 1, mapping.order.end(), [&](tiler::IterationSpace inside) {
            return inside == tiler::IterationSpace::Tile && mapping.oneTile;
        });
        if (!innermost)
            failModel(context + ": a call in the body of " + spaceName(iterator)
                      + " needs it to be the innermost loop; use LOC_LOOP, or its _PROLOG / _EPILOG");
        return tiler::CallLocation::InnerLoop;
    }
    // The output-plane loop is the outermost: before and after it are the kernel's prolog and epilog.
    if (plane->second == tiler::IterationSpace::OutPlane)
        return where == 1 ? tiler::CallLocation::Prolog : tiler::CallLocation::Epilog;
    return where == 1 ? tiler::CallLocation::InPlaneProlog : tiler::CallLocation::InPlaneEpilog;
}

// A call before, in or after a space the kernel runs whole (whole_spaces.h): before or after the
// outermost loop inside that space, or with none inside it, in the body of the innermost loop.
tiler::CallLocation resolveWholeLocation(int location, const KernelIterationSpace_S& declared,
                                         const SpaceMapping& mapping, const WholeSpaces& whole,
                                         const std::string& context)
{
    const int offset = location - int(LOC_D0);
    const int iterator = int(KER_ITER_D0) + offset / 3, where = offset % 3;  // body, prolog, epilog
    auto at = std::find_if(declared.spaces.begin(), declared.spaces.end(),
                           [&](const KernelIteratorDescr_S& space) { return space.iterator == iterator; });
    std::vector<tiler::IterationSpace> inside;
    for (++at; at != declared.spaces.end(); ++at)
        if (!whole.isWhole(at->iterator))
            inside.push_back(at->tiled ? tiler::IterationSpace::Tile : mapping.planes.at(at->iterator));
    if (inside.empty())
        return tiler::CallLocation::InnerLoop;
    if (where == 0) {
        if (inside.size() == 1 && inside[0] == tiler::IterationSpace::Tile && mapping.oneTile)
            return tiler::CallLocation::InnerLoop;
        failModel(context + ": a call in the body of " + spaceName(iterator) +
                  " needs it to be the innermost loop; use LOC_LOOP, or its _PROLOG / _EPILOG");
    }
    switch (inside[0]) {
    case tiler::IterationSpace::Tile:
        return where == 1 ? tiler::CallLocation::InnerLoopProlog : tiler::CallLocation::InnerLoopEpilog;
    case tiler::IterationSpace::InPlane:
        return where == 1 ? tiler::CallLocation::InPlaneProlog : tiler::CallLocation::InPlaneEpilog;
    default:
        return where == 1 ? tiler::CallLocation::Prolog : tiler::CallLocation::Epilog;
    }
}

// The argument with the flags its KerArgSpace gives in the kernel's loop nest.
tiler::KernelArgument argumentInSpace(const Object_S& argument, const SpaceMapping& mapping, const std::string& context)
{
    tiler::KernelArgument value = argument.value;
    const std::string where = context + ": kernel argument " + value.name;
    bool tiled = false, outerTiled = false, inPlanes = false, outPlanes = false;
    for (const int iterator : *argument.space) {
        if (iterator == int(KER_ITER_TILE0)) {
            tiled = true;
            continue;
        }
        if (iterator == int(KER_ITER_TILE1)) {
            if (!mapping.outerTiles)
                failModel(where + ": its KerArgSpace names KER_ITER_TILE1, which is not in the kernel's KernelIterSpace");
            outerTiled = true;
            continue;
        }
        const auto plane = mapping.planes.find(iterator);
        if (plane == mapping.planes.end())
            failModel(where + ": its KerArgSpace names " + spaceName(iterator) + ", which is not in the kernel's KernelIterSpace");
        (plane->second == tiler::IterationSpace::InPlane ? inPlanes : outPlanes) = true;
    }
    for (const int iterator : argument.reversedSpaces)
        (mapping.planes.at(iterator) == tiler::IterationSpace::InPlane ? value.reverseInPlanes : value.reverseOutPlanes) =
            true;
    if (tiled && outerTiled)
        failModel(where + ": its KerArgSpace names both KER_ITER_TILE0 and KER_ITER_TILE1; an argument is tiled by "
                          "one tile loop, the inner (TILE0) or the outer (TILE1)");
    // A plane space after the tiled one: HWC, the planes side by side in each item (an L1-only
    // buffer has no home layout: its kernels lay it out).
    const auto tiles = std::find_if(argument.space->begin(), argument.space->end(), isTiledSpace);
    const auto after = std::distance(tiles, argument.space->end()) - 1;
    if ((tiled || outerTiled) && after > 0 && (outerTiled || after > 1 || (inPlanes && outPlanes)))
        failModel(where + ": its tiled space must be the last (innermost) space of its KerArgSpace, or be followed "
                          "by one feature space (HWC) of an argument tiled by KER_ITER_TILE0");
    value.hwcPlanes = tiled && !argument.notTiled && after == 1 && !isScratchBuffer(value);
    if (outerTiled && (inPlanes || outPlanes))
        failModel(where + ": an argument tiled by KER_ITER_TILE1 varies along no other space in Tessera; drop the "
                          "non-tiled spaces from its KerArgSpace");
    if (argument.notTiled)
        tiled = outerTiled = false;
    value.outerTiled = outerTiled;
    tiled = tiled || outerTiled;
    value.flags &= ~(tiler::ArgFlag::Tiled | tiler::ArgFlag::ThreeD | tiler::ArgFlag::FourD);
    if (tiled)
        value.flags |= tiler::ArgFlag::Tiled;
    const bool output = value.has(tiler::ArgFlag::Out) && !value.has(tiler::ArgFlag::In);
    if (inPlanes && outPlanes) {
        const auto order = std::find_if(argument.space->begin(), argument.space->end(),
                                        [&](int iterator) { return mapping.planes.count(iterator) != 0; });
        if (mapping.planes.at(*order) != tiler::IterationSpace::OutPlane)
            failModel(where + ": its planes must be listed output planes first, as the kernel's spaces are nested");
        value.flags |= tiler::ArgFlag::FourD | tiler::ArgFlag::ThreeD;  // as O_4D: a 4-D argument is also 3-D
    } else if (inPlanes) {
        value.flags |= tiler::ArgFlag::ThreeD;
        value.planePerInput = output || value.has(tiler::ArgFlag::Buffer);
    } else if (outPlanes) {
        value.flags |= tiler::ArgFlag::ThreeD;
        value.planePerOutput = !output && !value.has(tiler::ArgFlag::Buffer);  // an input, such as biases
    }
    return value;
}

// The C API call that makes a binding of a loop (for messages).
const char* bindingForm(tiler::Binding::Kind kind)
{
    switch (kind) {
    case tiler::Binding::Kind::LoopIndex: return "Ker_IteratorIndex";
    case tiler::Binding::Kind::LoopPredicate: return "K_ArgPred";
    case tiler::Binding::Kind::PlaneChunk: return "K_ArgPar";
    default: return "C_ArgIndex";
    }
}

// The plane loops whose count a C argument gives at run time (IterFixedSpaceDynBound): that
// argument must be one of the kernel's, an integer.
void setRuntimeBounds(const KernelIterationSpace_S& spaces, const SpaceMapping& mapping,
                      const std::vector<tiler::CArgument>& cargs, KernelIteration_S& iteration, const std::string& context)
{
    for (const KernelIteratorDescr_S& space : spaces.spaces) {
        if (space.runtimeBound.empty())
            continue;
        const std::string where = context + ": IterFixedSpaceDynBound(" + spaceName(space.iterator) + ", " +
                                  std::to_string(space.size) + ", \"" + space.runtimeBound + "\")";
        const auto carg = std::find_if(cargs.begin(), cargs.end(),
                                       [&](const tiler::CArgument& a) { return a.name == space.runtimeBound; });
        if (carg == cargs.end())
            failModel(where + ": the kernel has no C argument " + space.runtimeBound +
                      "; add TCArg(\"int\", \"" + space.runtimeBound + "\") to its CArgs");
        if (carg->type.find('*') != std::string::npos || carg->type.find("float") != std::string::npos)
            failModel(where + ": C argument " + space.runtimeBound + " is a " + carg->type +
                      "; the count must be an integer, TCArg(\"int\", \"" + space.runtimeBound + "\")");
        const tiler::IterationSpace loop = mapping.planes.at(space.iterator);
        (loop == tiler::IterationSpace::InPlane ? iteration.inPlanesBound : iteration.outPlanesBound) = space.runtimeBound;
    }
}

// The plane loop the solver may run in chunks: a parametric space (IterParSpace) whose chunk size
// a call is told (K_ArgPar ... KER_ARG_PARTILE_SIZE), and whose index no call reads (a C_ArgIndex or
// Ker_IteratorIndex counts planes, not chunks). The output planes' loop if both qualify: GreenWaves'
// parallel-feature kernels share the output features of a call among the cores.
void chooseChunkablePlanes(const KernelIterationSpace_S& spaces, const SpaceMapping& mapping,
                           const std::vector<CKernelCall_T*>& calls, const std::vector<Object_T*>& arguments,
                           KernelIteration_S& iteration)
{
    const auto qualifies = [&](tiler::IterationSpace loop) {
        // A plane loop an argument runs through backwards (SPACE_PROP_REVERT) goes one plane at a time.
        for (const Object_T* argument : arguments)
            if (argument->value.reverses(loop))
                return false;
        bool told = false;
        for (const CKernelCall_T* call : calls)
            for (const tiler::Binding& binding : call->value.bindings) {
                if (binding.iterator != loop)
                    continue;
                if (binding.kind == tiler::Binding::Kind::PlaneChunk && binding.value == 0)
                    told = true;
                if (binding.kind == tiler::Binding::Kind::CArgIndex || binding.kind == tiler::Binding::Kind::LoopIndex)
                    return false;
            }
        return told;
    };
    for (const tiler::IterationSpace loop : {tiler::IterationSpace::OutPlane, tiler::IterationSpace::InPlane})
        for (const KernelIteratorDescr_S& space : spaces.spaces) {
            const auto plane = mapping.planes.find(space.iterator);
            if (space.tiled || !space.parametric || space.size < 2 || plane == mapping.planes.end() ||
                plane->second != loop || !qualifies(loop))
                continue;
            iteration.chunkablePlanes = loop;
            iteration.chunkDivider = space.preferredDivider;
            return;
        }
}

}  // namespace

extern "C" {

KernelIteratorDescrT* IterTiledSpace(KernelIteratorT IterSpace)
{
    requireSpace(int(IterSpace), true, "IterTiledSpace");
    KernelIteratorDescr_S space;
    space.iterator = int(IterSpace);
    space.tiled = true;
    return registry().arena.make(std::move(space));
}

KernelIteratorDescrT* IterFixedSpace(KernelIteratorT IterSpace, unsigned int Dim)
{
    // The SDK's space properties ride in the high bits of the iterator.
    const int iterator = int(IterSpace) & ITER_SPACE_MASK;
    const unsigned properties = unsigned(IterSpace) & ~unsigned(ITER_SPACE_MASK);
    if (properties != 0 && properties != SPACE_PROP_ONE_TILE)
        failModel(format("IterFixedSpace(%s | 0x%x, %u): of the SDK's space properties Tessera knows "
                         "SPACE_PROP_ONE_TILE only; declare the space without the others",
                         spaceName(iterator).c_str(), properties, Dim));
    requireSpace(iterator, false, "IterFixedSpace");
    if (Dim == 0)
        failModel("IterFixedSpace(" + spaceName(iterator) + ", 0): a space needs at least one iteration");
    KernelIteratorDescr_S space;
    space.iterator = iterator;
    space.size = Dim;
    space.oneTile = properties == SPACE_PROP_ONE_TILE;
    return registry().arena.make(std::move(space));
}

// A space the tile solver may run in chunks of several items (multiples of the preferred divider
// where the budget allows), when the kernel's calls are told the chunk's size (K_ArgPar).
KernelIteratorDescrT* IterParSpace(KernelIteratorT IterSpace, unsigned int Dim, unsigned int PrefDiv)
{
    KernelIteratorDescrT* space = IterFixedSpace(IterSpace, Dim);
    space->parametric = true;
    space->preferredDivider = std::max(1u, PrefDiv);
    return space;
}

// A fixed space of at most Dim items whose C argument Name says, at run time, how many run (the
// SDK's recurrent layers over sequences of variable length, CNN_GenControl_T DynamicIter).
KernelIteratorDescrT* IterFixedSpaceDynBound(KernelIteratorT IterSpace, unsigned int Dim, const char* Name)
{
    const std::string context = format("IterFixedSpaceDynBound(%s, %u, ...)", spaceName(int(IterSpace)).c_str(), Dim);
    const std::string bound = requireName(Name, context.c_str(), "the name of the C argument giving the count");
    KernelIteratorDescrT* space = IterFixedSpace(IterSpace, Dim);
    if (space->oneTile)
        failModel(context + ": a space with a run-time count cannot also be SPACE_PROP_ONE_TILE");
    space->runtimeBound = bound;
    return space;
}

KernelIterationSpaceT* KernelIterSpace(unsigned int Dim, ...)
{
    if (Dim < 1 || Dim > 4)
        failModel(format("KernelIterSpace(%u, ...): a kernel has 1 to 4 spaces (a tiled one, up to two others, and "
                         "KER_ITER_TILE1 around them for two-level tiling)",
                         Dim));
    KernelIterationSpace_S spaces;
    va_list args;
    va_start(args, Dim);
    for (unsigned i = 0; i < Dim; ++i) {
        const KernelIteratorDescr_S* space = va_arg(args, KernelIteratorDescr_S*);
        if (space == nullptr) {
            va_end(args);
            failModel(format("KernelIterSpace(%u, ...): space %u is NULL", Dim, i + 1));
        }
        spaces.spaces.push_back(*space);
    }
    va_end(args);
    for (std::size_t i = 0; i < spaces.spaces.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (spaces.spaces[i].iterator == spaces.spaces[j].iterator)
                failModel("KernelIterSpace: " + spaceName(spaces.spaces[i].iterator) + " is listed twice");
    return registry().arena.make(std::move(spaces));
}

KernelArgDimDescrT* KerArgSpace(unsigned int Dim, ...)
{
    if (Dim < 1 || Dim > 3)
        failModel(format("KerArgSpace(%u, ...): an argument varies along 1 to 3 spaces", Dim));
    KernelArgDimDescr_S space;
    std::vector<int> declared;
    va_list args;
    va_start(args, Dim);
    for (unsigned i = 0; i < Dim; ++i)
        declared.push_back(va_arg(args, int));  // enums are passed as int
    va_end(args);
    // The SDK's space properties ride in the high bits: SPACE_PROP_REVERT runs an argument's planes
    // backwards along the space (the SDK's recurrent layers so read a sequence from its end).
    for (const int raw : declared) {
        const int iterator = raw & ITER_SPACE_MASK;
        const unsigned properties = unsigned(raw) & ~unsigned(ITER_SPACE_MASK);
        if (properties != 0 && properties != SPACE_PROP_REVERT)
            failModel(format("KerArgSpace: %s | 0x%x: of the SDK's space properties an argument's space takes "
                             "SPACE_PROP_REVERT only; declare the space without the others",
                             spaceName(iterator).c_str(), properties));
        requireSpace(iterator, isTiledSpace(iterator), "KerArgSpace");
        if (properties == SPACE_PROP_REVERT && !isPlaneSpace(iterator))
            failModel("KerArgSpace: SPACE_PROP_REVERT reverses the planes of a non-tiled space (KER_ITER_D0..KER_ITER_D3), "
                      "not " + spaceName(iterator) + "; drop the property");
        space.iterators.push_back(iterator);
        if (properties == SPACE_PROP_REVERT)
            space.reversed.push_back(iterator);
    }
    return registry().arena.make(std::move(space));
}

Object_T* KerArgInSpace(const char* KerArgName, KernelArgDimDescrT* Space, Object_Type_T ObjType, unsigned int W,
                        unsigned int H, unsigned int ItemSize, int TileOverlap, KernelArgConstraints_T Constraint,
                        unsigned int PreferedTileSize, const char* CArgName)
{
    const std::string name = requireName(KerArgName, "KerArg", "the kernel argument name");
    if (Space == nullptr)
        failModel("KerArg(\"" + name + "\"): its KerArgSpace is NULL");
    if (TileOverlap < 0)
        failModel(format("KerArg(\"%s\"): tile overlap %d is negative", name.c_str(), TileOverlap));
    Object_S argument;
    argument.value = (KerArg)(KerArgName, ObjType, W, H, ItemSize, unsigned(TileOverlap), Constraint, PreferedTileSize,
                              CArgName, 0)->value;
    argument.space = Space->iterators;
    argument.notTiled = (ObjType & O_NTILED) != 0;
    argument.reversedSpaces = Space->reversed;
    return registry().arena.make(std::move(argument));
}

Object_T* KerArgAliased(const char* KerArgName, KernelArgDimDescrT* KerArgSpace, unsigned int Alias,
                        Object_Type_T ObjType, unsigned int W, unsigned int H, unsigned int ItemSize,
                        int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                        const char* CArgName)
{
    Object_T* argument = KerArgInSpace(KerArgName, KerArgSpace, ObjType, W, H, ItemSize, TileOverlap, Constraint,
                                       PreferedTileSize, CArgName);
    argument->sharesBufferOfIndex = Alias;  // resolved by UserKernel against its KerArgs list
    return argument;
}

Object_T* KerArgPad(const char* KerArgName, KernelArgDimDescrT* KerArgSpace, Object_Type_T ObjType, unsigned int W,
                    unsigned int H, unsigned int BottomBuffer, unsigned int TopBuffer, unsigned int ItemSize,
                    int TileOverlap, KernelArgConstraints_T Constraint, unsigned int PreferedTileSize,
                    const char* CArgName)
{
    Object_T* argument = KerArgInSpace(KerArgName, KerArgSpace, ObjType, W, H, ItemSize, TileOverlap, Constraint,
                                       PreferedTileSize, CArgName);
    setRoom(*argument, BottomBuffer, TopBuffer);
    return argument;
}

Kernel_T* UserKernelInSpace(const char* TemplateName, KernelIterationSpaceT* KerIter, Tile_Orientation_T Orientation,
                            CKernel_Arg_T** CArg, CKernelCall_T** CCalls, Object_T** KerArg)
{
    const std::string name = requireName(TemplateName, "UserKernel", "the user kernel name");
    const std::string context = "user kernel " + name;
    if (KerIter == nullptr)
        failModel(context + ": the iteration space is NULL; pass KernelIterSpace(1, IterTiledSpace(KER_ITER_TILE0)) or another");
    std::vector<Object_S> declaredArguments;
    for (const Object_T* argument : listItems(KerArg, context, "kernel argument")) {
        if (argument->groupArgument)
            failModel(context + ": kernel argument " + argument->value.name + " is a KerGroupArg(), which "
                      "describes an argument of a kernel group; declare a user kernel's arguments with KerArg()");
        if (!argument->space)
            failModel(context + ": kernel argument " + argument->value.name
                      + " has no KerArgSpace(); in a kernel declared with KernelIterSpace() every argument says its spaces");
        declaredArguments.push_back(*argument);
    }
    // Spaces run whole (SPACE_PROP_ONE_TILE, HWC features) are folded into the arguments' planes.
    KernelIterationSpace_S spaces = *KerIter;
    const ParametricTiles parametricTiles = tileLoneParametricSpace(spaces, declaredArguments, Orientation);
    WholeSpaces whole;
    if (const std::string refusal = foldWholeSpaces(spaces, declaredArguments, int(Orientation) == int(TILE_VER), whole);
        !refusal.empty()) {
        noteKernelWithoutTiling(name, refusal);
        return nullptr;
    }
    std::vector<const Object_S*> arguments;
    for (const Object_S& argument : declaredArguments)
        arguments.push_back(&argument);
    for (const Object_S* argument : arguments)
        if (argument->value.kernelPadsItself && int(Orientation) == int(TILE_VER)) {
            noteKernelWithoutTiling(name, "its padded KerArgP " + argument->value.name +
                                              " is tiled vertically; Tessera pads lines of horizontal tiles only, "
                                              "declare the layer TILE_HOR");
            return nullptr;
        }
    const SpaceMapping mapping = mapSpaces(spaces, arguments, context);

    // The same kernel in the guide's terms, checked and added by the 7-argument UserKernel.
    ModelRegistry& state = registry();
    std::vector<Object_T*> plainArguments;
    for (const Object_S* argument : arguments)
        plainArguments.push_back(state.arena.make(plainObject(argumentInSpace(*argument, mapping, context))));
    for (std::size_t a = 0; a < arguments.size(); ++a) {
        const std::optional<unsigned> shared = arguments[a]->sharesBufferOfIndex;
        if (shared && (*shared >= arguments.size() || *shared == a))
            failModel(format("%s: KerArgAliased(\"%s\", ..., %u, ...): Alias is the position (from 0) of another "
                             "argument in KerArgs(), whose L1 buffer it uses; the list has %zu arguments%s",
                             context.c_str(), arguments[a]->value.name.c_str(), *shared, arguments.size(),
                             *shared == a ? " and that one is the argument itself" : ""));
        if (shared)
            plainArguments[a]->value.sharesBufferOf = arguments[*shared]->value.name;
    }
    std::vector<CKernelCall_T*> plainCalls;
    for (const CKernelCall_T* call : listItems(CCalls, context, "call")) {
        const std::string where = context + ": Call(\"" + call->value.callee + "\")";
        CKernelCall_S plain = *call;
        resolveParametricTileCall(plain, parametricTiles);
        resolveWholeBindings(plain, whole);
        if (plain.spaceLocation >= 0 && whole.isWhole(int(KER_ITER_D0) + (plain.spaceLocation - int(LOC_D0)) / 3))
            plain.value.location = resolveWholeLocation(plain.spaceLocation, *KerIter, mapping, whole, where);
        else if (plain.spaceLocation >= 0)
            plain.value.location = resolveLocation(plain.spaceLocation, mapping, where);
        plain.spaceLocation = -1;
        const auto spaceIterators = std::move(plain.spaceIterators);
        plain.spaceIterators.clear();
        for (const auto& [index, iterator] : spaceIterators) {
            const auto plane = mapping.planes.find(iterator);
            if (plane == mapping.planes.end())
                failModel(where + ": " + bindingForm(call->value.bindings[index].kind) + " names " + spaceName(iterator) + ", which is not in the kernel's KernelIterSpace");
            plain.value.bindings[index].iterator = plane->second;
        }
        plainCalls.push_back(state.arena.make(std::move(plain)));
    }
    KernelIteration_S iteration;
    iteration.dimension = int(mapping.order.size()) + 1;  // KER_DIM2 is the tile loop alone
    iteration.order = mapping.order;
    iteration.outerTiles = mapping.outerTiles;
    chooseChunkablePlanes(spaces, mapping, plainCalls, plainArguments, iteration);
    setRuntimeBounds(spaces, mapping, cArgumentsOf(CArg, context), iteration, context);
    // The plane size the kernel reports: its first tiled argument's, as KernelDimensions would give it.
    KernelDimension_S dimensions{mapping.inPlanes, 0, 0, mapping.outPlanes};
    const auto tiled = std::find_if(arguments.begin(), arguments.end(),
                                    [](const Object_S* argument) { return variesAlong(*argument, int(KER_ITER_TILE0)); });
    if (tiled != arguments.end()) {
        const auto folded = whole.declared.find((*tiled)->value.name);
        dimensions.width = folded != whole.declared.end() ? folded->second.size : (*tiled)->value.width;
        dimensions.height = (*tiled)->value.height;
    }
    return (UserKernel)(TemplateName, state.arena.make(std::move(dimensions)), state.arena.make(std::move(iteration)),
                        Orientation, CArg, state.arena.makeList(std::move(plainCalls)),
                        state.arena.makeList(std::move(plainArguments)));
}

void LibKernelMatching(const char* KernelName, KernelCallTypeT CallType, CKernel_Arg_T** CArgs,
                       const char* ParArgTypeName, CNN_LayerOp_T* CNN_Match)
{
    (LibKernel)(KernelName, CallType, CArgs, ParArgTypeName);
    if (CNN_Match != nullptr)  // CNN_FindMatchingKernel may choose it (cnn_kernel_matching.cpp)
        registry().matchableKernels.push_back(
            {KernelName, int(CallType) & (int(CALL_FLOAT_KER) | int(CALL_HWC_KER)), CNN_Match});
}

}  // extern "C"
