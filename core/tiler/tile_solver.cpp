#include "tiler/tile_solver.h"

#include "tiler/plane_chunks.h"

#include <algorithm>
#include <limits>
#include <sstream>

namespace tessera::tiler {
namespace {

constexpr std::uint64_t kUnbounded = std::numeric_limits<std::uint64_t>::max();

std::uint64_t alignUp(std::uint64_t value, unsigned alignment)
{
    return (value + alignment - 1) / alignment * alignment;
}

// O_BUFF alone: an L1-only buffer. With O_IN or O_OUT (OBJ_BUFFER_IN_NTILED ...): the whole argument
// kept in L1 for the kernel's run, read before the loops and written after them.
bool isScratch(const KernelArgument& arg)
{
    return arg.has(ArgFlag::Buffer) && !arg.has(ArgFlag::In) && !arg.has(ArgFlag::Out);
}
bool isLoadedBuffer(const KernelArgument& arg) { return arg.has(ArgFlag::Buffer) && !isScratch(arg); }
bool isOneTileScratch(const KernelArgument& arg) { return isScratch(arg) && arg.has(ArgFlag::OneTile); }
bool isDynamicScratch(const KernelArgument& arg) { return isScratch(arg) && arg.has(ArgFlag::DynTile); }

// The loop nest always has the three spaces; the ones the kernel does not iterate count 1 and sit
// where they change nothing (output planes outermost, input planes innermost).
std::vector<LoopLevel> canonicalLoops(const UserKernel& kernel)
{
    std::vector<IterationSpace> order = kernel.order;
    const auto has = [&](IterationSpace space) {
        return std::find(order.begin(), order.end(), space) != order.end();
    };
    if (!has(IterationSpace::OutPlane))
        order.insert(order.begin(), IterationSpace::OutPlane);
    if (!has(IterationSpace::InPlane))
        order.push_back(IterationSpace::InPlane);
    if (!has(IterationSpace::Tile))
        order.push_back(IterationSpace::Tile);
    const auto declared = [&](IterationSpace space) {
        return std::find(kernel.order.begin(), kernel.order.end(), space) != kernel.order.end();
    };
    if (kernel.outerTiles)
        order.insert(order.begin(), IterationSpace::OuterTile);
    std::vector<LoopLevel> loops;
    for (IterationSpace space : order) {
        unsigned count = 1;
        if (space == IterationSpace::OutPlane && declared(space))
            count = std::max(1u, kernel.outPlanes);
        if (space == IterationSpace::InPlane && declared(space))
            count = std::max(1u, kernel.inPlanes);
        loops.push_back({space, count, count, 1});
    }
    return loops;
}

// Whether the loop moves the argument to another chunk when it advances (whatever its count).
bool loopMovesArgument(const LoopLevel& loop, const ArgTiling& arg)
{
    switch (loop.space) {
    case IterationSpace::Tile: return arg.tiled && !arg.outer;
    case IterationSpace::OuterTile: return arg.tiled && arg.outer;
    case IterationSpace::InPlane: return arg.followsInPlanes();
    case IterationSpace::OutPlane: return arg.usesOutPlane;
    }
    return false;
}

// The tile loop that tiles the argument.
IterationSpace tileSpaceOf(const ArgTiling& arg)
{
    return arg.outer ? IterationSpace::OuterTile : IterationSpace::Tile;
}

class Solver {
public:
    Solver(const UserKernel& kernel, const TilerCostModel& costModel, const PromotionPolicy& promotions)
        : kernel_(kernel), cost_(costModel), promotions_(promotions)
    {
    }

    std::string prepare();
    TileSolverResult solve(std::uint64_t budget, std::uint64_t l2Budget, bool measureMinimum);

private:
    // The arguments one tile loop tiles, in whole-number ratios of the reference extent (that of
    // the argument with the fewest lines beyond its overlap, the one with the ratio 1).
    struct TileGroup {
        IterationSpace space = IterationSpace::Tile;
        std::vector<std::size_t> args;
        unsigned refExtent = 1;
        bool onePreferredTile = false;  // an argument asks for a single tile
    };
    // How one tile loop cuts its reference extent: `count` tiles of `refTile` lines (columns).
    struct TileChoice {
        unsigned count = 1;
        unsigned refTile = 1;
    };
    // Per group (the inner tile loop first, then the outer one if any).
    using TileChoices = std::vector<TileChoice>;

    struct Config {
        std::vector<bool> doubleBuffer;    // per argument
        std::vector<bool> promote;         // per argument: whole argument in L1
        std::vector<bool> acrossInPlanes;  // per argument: chunks hold every input plane
    };

    void applyConfig(KernelTiling& tiling, const Config& config) const;
    std::string prepareGroup(TileGroup& group);
    void applyTiles(KernelTiling& tiling, const TileChoices& choices) const;
    bool constraintsHold(const TileGroup& group, const TileChoice& choice, bool withPreference) const;
    bool constraintsHold(const TileChoices& choices, bool withPreference) const;
    // Per tile count of the group, its tile sizes from the largest down.
    std::vector<std::vector<TileChoice>> choicesByCount(const TileGroup& group) const;
    // Calls visit(innerSizes, outerSizes) for every pair of tile counts of the two tile loops (the
    // outer one has the single choice of one tile when the kernel has no outer tile loop).
    template <typename Visit>
    void forEachCountPair(Visit visit) const
    {
        const std::vector<std::vector<TileChoice>> inner = choicesByCount(groups_[0]);
        const std::vector<std::vector<TileChoice>> outer =
            groups_.size() > 1 ? choicesByCount(groups_[1]) : std::vector<std::vector<TileChoice>>{{TileChoice{}}};
        for (const std::vector<TileChoice>& outerSizes : outer)
            for (const std::vector<TileChoice>& innerSizes : inner)
                visit(innerSizes, outerSizes);
    }
    TileChoices withOuter(const TileChoice& inner, const TileChoice& outer) const
    {
        return groups_.size() > 1 ? TileChoices{inner, outer} : TileChoices{inner};
    }
    std::uint64_t layout(KernelTiling& tiling, const Config& config) const;
    double estimateCycles(const KernelTiling& tiling) const;
    std::uint64_t loadsOf(const KernelTiling& tiling, const ArgTiling& arg) const;
    bool rereads(const KernelTiling& tiling, const ArgTiling& arg) const;
    std::vector<Config> configurations(bool declaredBuffering) const;
    bool everyTileHasRealLines(const KernelTiling& tiling) const;
    bool configFitsTiles(const KernelTiling& tiling, const Config& config) const;
    std::string describeMinimum(std::uint64_t budget, std::uint64_t& minimum) const;

    const UserKernel& kernel_;
    const TilerCostModel& cost_;
    const PromotionPolicy promotions_;
    KernelTiling base_;
    std::vector<TileGroup> groups_;  // the inner tile loop's, then the outer one's (two-level tiling)
    std::vector<unsigned> ratio_;    // per argument (0 when not tiled in ratio)
};

std::string Solver::prepare()
{
    base_.kernel = &kernel_;
    base_.loops = canonicalLoops(kernel_);
    const unsigned inPlanes = base_.loopCount(IterationSpace::InPlane);
    const unsigned outPlanes = base_.loopCount(IterationSpace::OutPlane);
    ratio_.assign(kernel_.args.size(), 0);
    groups_.assign(kernel_.outerTiles ? 2 : 1, TileGroup{});
    if (kernel_.outerTiles)
        groups_[1].space = IterationSpace::OuterTile;
    for (std::size_t i = 0; i < kernel_.args.size(); ++i) {
        const KernelArgument& arg = kernel_.args[i];
        ArgTiling tiling;
        tiling.arg = &arg;
        tiling.orientation = kernel_.orientation;
        if (arg.constraints & ArgConstraint::TileHorizontal)
            tiling.orientation = Orientation::Horizontal;
        if (arg.constraints & ArgConstraint::TileVertical)
            tiling.orientation = Orientation::Vertical;
        const bool horizontal = tiling.orientation == Orientation::Horizontal;
        tiling.extent = horizontal ? arg.height : arg.width;
        if (arg.padBefore > 0 || arg.padAfter > 0) {
            // A one-tile L1 buffer whose kernels pad it (a pooling's input) is placed like a padded input.
            const bool paddedInput = arg.has(ArgFlag::In) && !arg.has(ArgFlag::Out) && arg.has(ArgFlag::Tiled) &&
                                     !isScratch(arg);
            const bool paddedBuffer = isOneTileScratch(arg) && arg.kernelPadsItself;
            if (!horizontal || !(paddedInput || paddedBuffer))
                return "user kernel " + kernel_.name + ": argument " + arg.name +
                       " has padding lines; only tiled inputs and one-tile buffers their kernels pad, tiled "
                       "horizontally, can be padded";
            tiling.padBefore = arg.padBefore;
            tiling.padAfter = arg.padAfter;
            tiling.extent += arg.padBefore + arg.padAfter;
        }
        tiling.crossExtent = horizontal ? arg.width : arg.height;
        tiling.roomBefore = std::uint64_t(arg.roomBefore) * arg.itemSize;
        tiling.roomAfter = std::uint64_t(arg.roomAfter) * arg.itemSize;
        tiling.planeBytes = std::uint64_t(arg.width) * arg.height * arg.itemSize;
        tiling.planeStride = tiling.planeBytes * std::max(1u, arg.nextPlaneUpdate);
        tiling.chunkPlaneStride = tiling.planeStride;
        if (arg.interleavedPlanes) {
            // Plane p starts at line p of the home memory; its lines are planeCount lines apart.
            if (!arg.has(ArgFlag::ThreeD) || arg.has(ArgFlag::Tiled) || arg.has(ArgFlag::Out) || arg.nextPlaneUpdate > 1)
                return "user kernel " + kernel_.name + ": argument " + arg.name +
                       " has interleaved planes; only untiled 3-D inputs can be interleaved";
            tiling.planeStride = std::uint64_t(arg.width) * arg.itemSize;
        }
        if (arg.hwcPlanes) {
            // Plane p starts at item p of the home memory; a home line holds every plane's items.
            if (!arg.has(ArgFlag::ThreeD) || arg.has(ArgFlag::FourD) || arg.padBefore > 0 || arg.padAfter > 0 ||
                arg.kernelPadsItself || arg.nextPlaneUpdate > 1 ||
                (arg.has(ArgFlag::Tiled) && tiling.orientation != Orientation::Horizontal))
                return "user kernel " + kernel_.name + ": argument " + arg.name +
                       " has HWC planes (features side by side in each pixel); only 3-D arguments tiled by lines, "
                       "without padding, can";
            tiling.planeStride = tiling.chunkPlaneStride = arg.itemSize;
        }
        if (arg.outerTiled && (!kernel_.outerTiles || !arg.has(ArgFlag::Tiled)))
            return "user kernel " + kernel_.name + ": argument " + arg.name +
                   " follows the outer tile loop, but the kernel has none or the argument is not tiled";
        TileGroup& group = groups_[arg.outerTiled ? 1 : 0];
        tiling.outer = arg.outerTiled;  // buffers too: a one-tile buffer follows its loop's tiles
        // OBJ_CONSTRAINTS_ONEPREFTILE: tiles of exactly the preferred size, or without one a single tile.
        if ((arg.constraints & ArgConstraint::OnePreferredTile) && arg.preferredTileSize == 0)
            group.onePreferredTile = true;
        if (isScratch(arg)) {
            tiling.residence = ArgResidence::Scratch;
            tiling.tiled = isOneTileScratch(arg) || isDynamicScratch(arg);
            if (isOneTileScratch(arg) && arg.has(ArgFlag::ThreeD) && outPlanes == 1 && kernel_.outPlanes > 1) {
                tiling.carriesOutPlanes = true;
                tiling.planeCount = tiling.planesPerChunk = kernel_.outPlanes;
            }
        } else {
            tiling.tiled = arg.has(ArgFlag::Tiled);
            tiling.stagedInL2 = arg.has(ArgFlag::L2DoubleBuffer);
            if (tiling.stagedInL2 && arg.has(ArgFlag::In) && arg.has(ArgFlag::Out)) {
                return "user kernel " + kernel_.name + ": argument " + arg.name +
                       " is both input and output with its home in L3 (O_L2DB); declare the input and the "
                       "output as two arguments";
            }
            if (arg.has(ArgFlag::FourD)) {
                tiling.usesInPlane = inPlanes > 1;
                tiling.usesOutPlane = outPlanes > 1;
                tiling.planeCount = inPlanes * outPlanes;
            } else if (arg.has(ArgFlag::ThreeD) && arg.planePerInput) {
                tiling.usesInPlane = inPlanes > 1;
                tiling.planeCount = inPlanes;
            } else if (arg.has(ArgFlag::ThreeD) && arg.planePerOutput) {
                tiling.usesOutPlane = outPlanes > 1;
                tiling.planeCount = outPlanes;
            } else if (arg.has(ArgFlag::ThreeD)) {
                const bool outputOnly = arg.has(ArgFlag::Out) && !arg.has(ArgFlag::In);
                tiling.usesOutPlane = outputOnly && outPlanes > 1;
                tiling.usesInPlane = !outputOnly && inPlanes > 1;
                tiling.planeCount = outputOnly ? outPlanes : inPlanes;
                if (outputOnly && outPlanes == 1 && kernel_.outPlanes > 1) {
                    tiling.carriesOutPlanes = true;
                    tiling.planeCount = tiling.planesPerChunk = kernel_.outPlanes;
                }
            }
        }
        if (tiling.tiled && !isDynamicScratch(arg)) {
            if (arg.tileOverlap >= tiling.extent) {
                std::ostringstream out;
                out << "user kernel " << kernel_.name << ": argument " << arg.name << " has a tile overlap of "
                    << arg.tileOverlap << " but only " << tiling.extent << (horizontal ? " lines" : " columns")
                    << "; the overlap must be smaller than the tiled dimension";
                return out.str();
            }
            group.args.push_back(i);
        }
        base_.args.push_back(tiling);
    }
    for (TileGroup& group : groups_)
        if (std::string problem = prepareGroup(group); !problem.empty())
            return problem;
    return {};
}

// The group's reference extent and each argument's ratio to it.
std::string Solver::prepareGroup(TileGroup& group)
{
    if (group.args.empty()) {
        group.refExtent = 1;
        return {};
    }
    std::size_t refArg = group.args.front();
    unsigned& refExtent = group.refExtent;
    refExtent = std::numeric_limits<unsigned>::max();
    for (std::size_t i : group.args) {
        const unsigned effective = base_.args[i].extent - kernel_.args[i].tileOverlap;
        if (effective < refExtent) {
            refExtent = effective;
            refArg = i;
        }
    }
    for (std::size_t i : group.args) {
        const unsigned effective = base_.args[i].extent - kernel_.args[i].tileOverlap;
        const unsigned ratio = effective / refExtent;
        const KernelArgument& arg = kernel_.args[i];
        const bool dynamic = (arg.constraints & ArgConstraint::Dynamic) && effective % refExtent != 0;
        // An argument may have a few lines more than its ratio needs (a strided window that does
        // not reach the last lines, say): fewer than a step ride in its last tile, as do any number
        // with OBJ_CONSTRAINTS_PAD_REM; with OBJ_CONSTRAINTS_DROP_REM they are never moved.
        const unsigned remainder = effective - ratio * refExtent;
        const bool padRemainder = remainder < ratio || (arg.constraints & ArgConstraint::PadRemainder);
        if (!dynamic && ratio >= 1 && (padRemainder || (arg.constraints & ArgConstraint::DropRemainder))) {
            ratio_[i] = ratio;
            if (arg.constraints & ArgConstraint::DropRemainder)
                base_.args[i].extent -= remainder;
            continue;
        }
        if (dynamic) {
            // Tiles that follow the reference's by a fractional ratio (see ArgTiling::dynamic).
            constexpr std::uint32_t kFixedSizes =
                ArgConstraint::Even | ArgConstraint::Odd | ArgConstraint::OnePreferredTile;
            if ((arg.constraints & kFixedSizes) || arg.preferredTileSize > 1 || base_.args[i].padded())
                return "user kernel " + kernel_.name + ": argument " + arg.name +
                       " has OBJ_CONSTRAINTS_DYNAMIC, whose tiles vary by a line, together with a fixed tile size "
                       "(even, odd, preferred size or one preferred tile) or padding lines; drop one of them";
            ArgTiling& tiling = base_.args[i];
            tiling.dynamic = true;
            tiling.effective = effective;
            tiling.refExtent = refExtent;
            continue;
        }
        std::ostringstream out;
        out << "user kernel " << kernel_.name << ": argument " << arg.name << " has " << effective
            << " tiled lines/columns beyond its overlap, not a multiple of argument " << kernel_.args[refArg].name
            << "'s " << refExtent << "; tiles of all arguments must advance in whole-number ratios "
            << "(adjust the declared sizes or the overlap, or give the argument OBJ_CONSTRAINTS_DYNAMIC when "
            << "its basic kernel finds its lines from KER_ARG_TILE_BASE)";
        return out.str();
    }
    return {};
}

void Solver::applyConfig(KernelTiling& tiling, const Config& config) const
{
    const unsigned inPlanes = tiling.planesOf(IterationSpace::InPlane);
    for (std::size_t i = 0; i < tiling.args.size(); ++i) {
        ArgTiling& arg = tiling.args[i];
        if (arg.carriesOutPlanes)
            continue;
        arg.acrossInPlanes = config.acrossInPlanes[i];
        arg.planesPerChunk = arg.chunkPlanes * (config.acrossInPlanes[i] ? inPlanes : 1);
        // Every input plane of each output plane: the chunk's planes are consecutive in the home memory.
        if (arg.acrossInPlanes)
            arg.chunkPlaneStride = arg.planeStride;
    }
}

void Solver::applyTiles(KernelTiling& tiling, const TileChoices& choices) const
{
    for (std::size_t g = 0; g < groups_.size(); ++g) {
        (groups_[g].space == IterationSpace::OuterTile ? tiling.outerTileCount : tiling.tileCount) = choices[g].count;
        LoopLevel& loop = tiling.loops[std::size_t(tiling.loopIndex(groups_[g].space))];
        loop.count = loop.planes = choices[g].count;  // a tile loop's "planes" are its tiles
    }
    for (std::size_t i = 0; i < tiling.args.size(); ++i) {
        ArgTiling& arg = tiling.args[i];
        if (!arg.tiled)
            continue;
        const TileChoice& choice = choices[arg.outer ? 1 : 0];
        const unsigned tileCount = choice.count, refTile = choice.refTile;
        if (isDynamicScratch(*arg.arg)) {
            arg.tileSize = arg.lastTileSize = 1;
            arg.step = 1;
            continue;
        }
        if (arg.dynamic) {
            arg.refTile = refTile;
            arg.step = unsigned(std::uint64_t(refTile) * arg.effective / arg.refExtent);
            arg.tileSize = arg.lastTileSize = arg.extent;
            if (tileCount > 1) {
                arg.lastTileSize = arg.extent - arg.tileStartAt(tileCount - 1, tileCount);
                arg.tileSize = 0;
                for (unsigned t = 0; t + 1 < tileCount; ++t)
                    arg.tileSize = std::max(arg.tileSize, arg.tileSizeAt(t, tileCount));
            }
            continue;
        }
        const unsigned step = ratio_[i] * refTile;
        arg.step = step;
        if (tileCount == 1) {
            arg.tileSize = arg.lastTileSize = arg.extent;
        } else {
            arg.tileSize = std::min(arg.extent, step + arg.arg->tileOverlap);
            arg.lastTileSize = arg.extent - (tileCount - 1) * step;
        }
    }
    // The innermost loop that changes each streamed argument's chunk.
    for (ArgTiling& arg : tiling.args) {
        arg.level = -1;
        if (arg.residence == ArgResidence::Scratch)
            continue;
        for (std::size_t l = 0; l < tiling.loops.size(); ++l) {
            const LoopLevel& loop = tiling.loops[l];
            if (loop.count > 1 && loopMovesArgument(loop, arg))
                arg.level = int(l);
        }
    }
}

// A padded argument's tile made of padding alone would be a copy of nothing: such tilings are not used.
bool Solver::everyTileHasRealLines(const KernelTiling& tiling) const
{
    for (const ArgTiling& arg : tiling.args)
        if (arg.padded() && (arg.realLinesAt(0, tiling.tileCountOf(arg)) == 0 ||
                             arg.realLinesAt(tiling.tileCountOf(arg) - 1, tiling.tileCountOf(arg)) == 0))
            return false;
    return true;
}

// Whether the promotions chosen give every kernel the layout of a tile. A promoted argument keeps its
// home layout, whose lines are whole plane lines: a vertical tile of it is not laid out as one, so
// vertically tiled arguments of several tiles are not promoted. Its planes are a whole plane apart, so
// its chunks of several planes can only be of untiled (or one-tile) planes. A chunk is copied as one
// tile of each plane, a plane apart: a vertical tile of several planes, short of the whole plane,
// would need a copy in three dimensions. One holding every input plane cannot follow chunks of
// input planes.
bool Solver::configFitsTiles(const KernelTiling& tiling, const Config& config) const
{
    const LoopLevel* chunked = tiling.chunkedLoop();
    for (std::size_t i = 0; i < tiling.args.size(); ++i) {
        const ArgTiling& arg = tiling.args[i];
        const bool severalTiles = arg.tiled && tiling.tileCountOf(arg) > 1;
        if (config.promote[i] && !isLoadedBuffer(*arg.arg) && severalTiles && arg.orientation == Orientation::Vertical)
            return false;
        if (arg.chunkPlanes <= 1 || chunked == nullptr)
            continue;
        // A vertical tile short of the whole plane (several tiles, or columns dropped) is not one run.
        const bool partialColumns = arg.tiled && arg.orientation == Orientation::Vertical &&
                                    arg.planeChunkBytesAt(0, tiling.tileCountOf(arg)) != arg.planeBytes;
        if (partialColumns && arg.residence != ArgResidence::Scratch)
            return false;
        if (config.promote[i] && severalTiles)
            return false;
        if (config.acrossInPlanes[i] && chunked->space == IterationSpace::InPlane)
            return false;
    }
    return true;
}

bool Solver::constraintsHold(const TileChoices& choices, bool withPreference) const
{
    for (std::size_t g = 0; g < groups_.size(); ++g)
        if (!constraintsHold(groups_[g], choices[g], withPreference))
            return false;
    return true;
}

bool Solver::constraintsHold(const TileGroup& group, const TileChoice& choice, bool withPreference) const
{
    const unsigned tileCount = choice.count, refTile = choice.refTile;
    // Arguments whose tiles must advance by exactly their preferred size (one of them fits whole).
    for (std::size_t i : group.args) {
        const KernelArgument& arg = kernel_.args[i];
        if (!(arg.constraints & ArgConstraint::OnePreferredTile) || arg.preferredTileSize == 0)
            continue;
        const bool fits = tileCount == 1 ? base_.args[i].extent - arg.tileOverlap <= arg.preferredTileSize
                                         : ratio_[i] * refTile == arg.preferredTileSize;
        if (!fits)
            return false;
    }
    if (tileCount == 1)
        return true;
    if (group.onePreferredTile)
        return false;
    for (std::size_t i : group.args) {
        const KernelArgument& arg = kernel_.args[i];
        if ((arg.constraints & ArgConstraint::OnePreferredTile) || base_.args[i].dynamic)
            continue;  // checked above; dynamic tiles have no fixed size (prepare() refuses constraints on it)
        const unsigned size = ratio_[i] * refTile + arg.tileOverlap;
        if ((arg.constraints & ArgConstraint::Even) && size % 2 != 0)
            return false;
        if ((arg.constraints & ArgConstraint::Odd) && size % 2 != 1)
            return false;
        // The preferred size applies to the lines a tile advances by: an input overlapping its
        // neighbours by F - S lines (GreenWaves' generators prefer strided convolutions' inputs in
        // multiples of the stride) would otherwise never qualify with more than one tile.
        const unsigned preferred = arg.tileOverlap > 0 ? ratio_[i] * refTile : size;
        if (withPreference && arg.preferredTileSize > 1 && preferred % arg.preferredTileSize != 0)
            return false;
    }
    return true;
}

// How many times the argument's chunk is moved (per direction) over the whole loop nest.
std::uint64_t Solver::loadsOf(const KernelTiling& tiling, const ArgTiling& arg) const
{
    if (arg.level < 0)
        return 1;
    std::uint64_t loads = 1;
    for (int l = 0; l <= arg.level; ++l)
        loads *= tiling.loops[std::size_t(l)].count;
    return loads;
}

// True when some loop outside the argument's level repeats it without changing its data.
bool Solver::rereads(const KernelTiling& tiling, const ArgTiling& arg) const
{
    if (arg.residence == ArgResidence::Scratch || arg.level < 0)
        return false;
    std::uint64_t distinct = 1;
    for (int l = 0; l <= arg.level; ++l) {
        const LoopLevel& loop = tiling.loops[std::size_t(l)];
        if (loopMovesArgument(loop, arg))
            distinct *= loop.count;
    }
    return distinct < loadsOf(tiling, arg);
}

// The argument, laid out before argument `index`, whose L1 buffer that one uses (KerArgAliased), if any.
const ArgTiling* sharedBufferOf(const KernelTiling& tiling, std::size_t index)
{
    const std::string& name = tiling.args[index].arg->sharesBufferOf;
    if (name.empty())
        return nullptr;
    for (std::size_t i = 0; i < index; ++i)
        if (tiling.args[i].arg->name == name)
            return &tiling.args[i];
    return nullptr;
}

std::uint64_t Solver::layout(KernelTiling& tiling, const Config& config) const
{
    std::uint64_t offset = 0, l2Offset = 0;
    tiling.dmaRead = tiling.dmaWrite = tiling.l3Read = tiling.l3Write = 0;
    for (std::size_t i = 0; i < tiling.args.size(); ++i) {
        ArgTiling& arg = tiling.args[i];
        const KernelArgument& model = *arg.arg;
        arg.dmaRead = arg.dmaWrite = 0;
        arg.bufferCount = 1;
        if (isScratch(model)) {
            if (isDynamicScratch(model))
                arg.chunkBytes = std::uint64_t(arg.crossExtent) * tiling.tileCount * model.itemSize;
            else if (isOneTileScratch(model))
                arg.chunkBytes = std::uint64_t(std::max(arg.tileSize, arg.lastTileSize)) * arg.crossExtent *
                                 model.itemSize * arg.planesPerChunk;
            else
                arg.chunkBytes = arg.planeBytes * arg.planesPerChunk;
            arg.l1Bytes = arg.bufferStride();
        } else if (config.promote[i]) {
            arg.residence = ArgResidence::Promoted;
            arg.chunkBytes = arg.planeStride * (arg.planeCount - 1) + arg.planeBytes;
            arg.l1Bytes = arg.chunkBytes;
            if (model.has(ArgFlag::In))
                arg.dmaRead = arg.chunkBytes;
            if (model.has(ArgFlag::Out))
                arg.dmaWrite = arg.chunkBytes;
        } else {
            arg.residence = ArgResidence::Streamed;
            // The last tile may hold a few more lines than the others (see prepare()).
            const unsigned tileCount = tiling.tileCountOf(arg);
            arg.chunkBytes = arg.largestChunkBytes(tileCount);
            const std::uint64_t loads = loadsOf(tiling, arg);
            arg.bufferCount = (config.doubleBuffer[i] && loads > 1) ? 2 : 1;
            arg.l1Bytes = arg.bufferStride() * arg.bufferCount;
            // Bytes over all loads: the tile loop contributes the sum of its tile sizes when it is
            // at or outside the argument's level; the other loops multiply. Padding lines are not moved.
            const std::uint64_t movedChunk = tileCount == 1 ? arg.movedBytesAt(0, 1) : arg.chunkBytes;
            std::uint64_t bytes = movedChunk;
            if (arg.level >= 0) {
                std::uint64_t repeat = 1;
                bool tileLoopInside = false;
                for (int l = 0; l <= arg.level; ++l) {
                    const LoopLevel& loop = tiling.loops[std::size_t(l)];
                    if (loop.space == tileSpaceOf(arg) && arg.tiled)
                        tileLoopInside = true;
                    else
                        repeat *= loop.count;
                }
                std::uint64_t perPass = movedChunk;
                if (tileLoopInside)
                    perPass = arg.movedBytesOverTiles(tileCount);
                bytes = withLastChunk(tiling, arg, repeat * perPass);
            }
            if (model.has(ArgFlag::In))
                arg.dmaRead = bytes;
            if (model.has(ArgFlag::Out))
                arg.dmaWrite = bytes;
        }
        if (const ArgTiling* shared = sharedBufferOf(tiling, i)) {
            arg.l1Offset = shared->l1Offset;  // KerArgAliased: no buffer of its own (checkModel: same size)
        } else {
            arg.l1Offset = offset;
            offset = alignUp(offset + arg.l1Bytes, cost_.alignment);
        }
        tiling.dmaRead += arg.dmaRead;
        tiling.dmaWrite += arg.dmaWrite;
        if (arg.stagedInL2) {
            // Inputs prefetch from L3 one chunk ahead of L1, so they stage in as many L2 buffers as
            // L1 ones; outputs always get two, so a chunk leaves for L3 while the next one arrives.
            arg.l2BufferCount = arg.isOutput() ? 2 : arg.bufferCount;
            arg.l2Bytes = arg.chunkBytes * arg.l2BufferCount;
            arg.l2Offset = l2Offset;
            l2Offset = alignUp(l2Offset + arg.l2Bytes, cost_.alignment);
            arg.l3Read = arg.dmaRead;
            arg.l3Write = arg.dmaWrite;
            tiling.l3Read += arg.l3Read;
            tiling.l3Write += arg.l3Write;
        }
    }
    tiling.l1Bytes = offset;
    tiling.l2Bytes = l2Offset;
    return offset;
}

double Solver::estimateCycles(const KernelTiling& tiling) const
{
    std::uint64_t steps = 1;
    for (const LoopLevel& loop : tiling.loops)
        steps *= loop.count;
    std::uint64_t largestTileItems = 1;
    double pipelinedDma = 0, exposedDma = 0, transfers = 0, lines = 0;
    for (const ArgTiling& arg : tiling.args) {
        if (arg.residence == ArgResidence::Scratch)
            continue;
        // The work of one step follows the tile of one plane, however the argument is buffered.
        const unsigned tileCount = tiling.tileCountOf(arg);
        largestTileItems = std::max<std::uint64_t>(largestTileItems, arg.planeChunkBytesAt(0, tileCount) /
                                                                         std::max(1u, arg.arg->itemSize));
        const double bytes = double(arg.dmaRead + arg.dmaWrite);
        const double directions = (arg.isInput() ? 1 : 0) + (arg.isOutput() ? 1 : 0);
        const double loads = arg.residence == ArgResidence::Promoted ? 1.0 : double(loadsOf(tiling, arg));
        transfers += loads * directions;
        if (arg.orientation == Orientation::Vertical && arg.tiled && arg.residence == ArgResidence::Streamed)
            lines += loads * directions * arg.crossExtent;
        if (arg.residence == ArgResidence::Streamed && arg.bufferCount == 2) {
            pipelinedDma += bytes / cost_.dmaBytesPerCycle + double(arg.l3Read + arg.l3Write) / cost_.l3BytesPerCycle;
            // The first read and the last write of a pipelined argument are not hidden.
            exposedDma += double(arg.chunkBytesAt(0, tileCount)) * (arg.isInput() ? 1 : 0) /
                          cost_.dmaBytesPerCycle;
            exposedDma += double(arg.chunkBytesAt(tileCount - 1, tileCount)) *
                          (arg.isOutput() ? 1 : 0) / cost_.dmaBytesPerCycle;
        } else {
            exposedDma += bytes / cost_.dmaBytesPerCycle + double(arg.l3Read + arg.l3Write) / cost_.l3BytesPerCycle;
        }
    }
    // Kernels that declare their operations (the CNN generators) are bounded by their MACs too.
    double macsPerCoreCycle = cost_.macsPerCoreCycle;
    for (const KernelCall& call : kernel_.calls)
        if (const auto rate = cost_.macsPerCoreCycleByKernel.find(call.callee);
            call.location == CallLocation::InnerLoop && rate != cost_.macsPerCoreCycleByKernel.end()) {
            macsPerCoreCycle = rate->second;
            break;
        }
    // A kernel whose plane loop may run in chunks shares a call's planes among the cores (GreenWaves'
    // parallel-feature kernels): with fewer planes than cores some cores wait.
    const LoopLevel* chunked = tiling.chunkedLoop();
    const unsigned planesPerStep = chunked != nullptr ? chunked->chunk : 1;
    const unsigned cores = kernel_.chunkablePlanes != IterationSpace::Tile ? std::min(cost_.cores, planesPerStep)
                                                                           : cost_.cores;
    const double compute =
        std::max(double(steps) * planesPerStep * double(largestTileItems) * cost_.computeCyclesPerItem,
                 double(kernel_.operations) / macsPerCoreCycle) /
        std::max(1u, cores);
    std::size_t callsPerStep = 0;
    for (const KernelCall& call : kernel_.calls)
        if (call.location == CallLocation::InnerLoop)
            ++callsPerStep;
    const double overhead = double(steps) * double(std::max<std::size_t>(1, callsPerStep)) * cost_.callCycles;
    return std::max(compute, pipelinedDma) + exposedDma + transfers * cost_.dmaSetupCycles +
           lines * cost_.dmaLineCycles + overhead;
}

std::vector<Solver::Config> Solver::configurations(bool declaredBuffering) const
{
    // Arguments declared O_DB get their two buffers; only when nothing fits that way do they fall
    // back to one. Each streamed argument may also be promoted whole into L1, or partially: one
    // chunk for all input planes of a tile (or plane). Past a handful of such choices the arguments
    // switch together, which keeps the search small.
    enum Mode { Stream, Promote, Across };
    Config plain;
    plain.doubleBuffer.assign(base_.args.size(), false);
    plain.promote.assign(base_.args.size(), false);
    plain.acrossInPlanes.assign(base_.args.size(), false);
    std::vector<std::pair<std::size_t, std::vector<Mode>>> choices;
    for (std::size_t i = 0; i < base_.args.size(); ++i) {
        const ArgTiling& tiling = base_.args[i];
        const KernelArgument& arg = *tiling.arg;
        if (isScratch(arg))
            continue;
        if (isLoadedBuffer(arg)) {
            plain.promote[i] = true;
            continue;
        }
        plain.doubleBuffer[i] = declaredBuffering && arg.has(ArgFlag::DoubleBuffer);
        std::vector<Mode> modes{Stream};
        // Padded arguments are streamed one plane at a time: their copies skip the padding lines. One
        // whose kernel pads it itself reads home lines only, so it may be promoted whole like any input.
        // Interleaved planes are gathered one plane at a time into the layout the kernel reads
        // (a single plane is its own layout and may be promoted whole). Room around the buffers
        // (KerArgPad) belongs to one tile's buffer, so such arguments are streamed tile by tile.
        const bool regathered = (arg.interleavedPlanes || arg.hwcPlanes) && tiling.planeCount > 1;
        const bool hasRoom = tiling.roomBefore > 0 || tiling.roomAfter > 0;
        // Along a loop whose count is known at run time only, an argument is moved plane by plane:
        // a whole copy would read (or write) planes past the ones the kernel runs.
        if ((tiling.usesInPlane && !kernel_.inPlanesBound.empty()) || (tiling.usesOutPlane && !kernel_.outPlanesBound.empty()))
            continue;
        if (promotions_.whole && arg.nextPlaneUpdate <= 1 && !tiling.stagedInL2 && !tiling.carriesOutPlanes &&
            (!tiling.padded() || arg.kernelPadsItself) && !regathered && !hasRoom)
            modes.push_back(Promote);
        const bool verticalTiles = tiling.tiled && tiling.orientation == Orientation::Vertical;
        if (promotions_.acrossInputPlanes && tiling.usesInPlane && !tiling.stagedInL2 && !verticalTiles &&
            !tiling.padded() && !arg.planePerInput && !arg.interleavedPlanes && !arg.hwcPlanes && !hasRoom)
            modes.push_back(Across);
        if (modes.size() > 1)
            choices.push_back({i, modes});
    }
    std::uint64_t combinations = 1;
    for (const auto& choice : choices)
        combinations *= choice.second.size();
    std::vector<Config> configs;
    if (combinations <= 243) {
        for (std::uint64_t code = 0; code < combinations; ++code) {
            Config config = plain;
            std::uint64_t rest = code;
            for (const auto& [arg, modes] : choices) {
                const Mode mode = modes[rest % modes.size()];
                rest /= modes.size();
                config.promote[arg] = mode == Promote;
                config.acrossInPlanes[arg] = mode == Across;
            }
            configs.push_back(config);
        }
    } else {
        for (Mode together : {Stream, Promote, Across}) {
            Config config = plain;
            for (const auto& [arg, modes] : choices) {
                if (std::find(modes.begin(), modes.end(), together) == modes.end())
                    continue;
                config.promote[arg] = together == Promote;
                config.acrossInPlanes[arg] = together == Across;
            }
            configs.push_back(config);
        }
    }
    return configs;
}

std::vector<std::vector<Solver::TileChoice>> Solver::choicesByCount(const TileGroup& group) const
{
    std::vector<std::vector<TileChoice>> byCount;
    const unsigned extent = group.refExtent;
    for (unsigned count = 1; count <= extent; ++count) {
        // Every tile but the last has refTile lines, the last at least one.
        const unsigned low = (extent + count - 1) / count;
        const unsigned high = count == 1 ? extent : (extent - 1) / (count - 1);
        std::vector<TileChoice> sizes;
        for (unsigned refTile = high; refTile >= low && refTile > 0; --refTile)
            sizes.push_back({count, refTile});
        if (!sizes.empty())
            byCount.push_back(std::move(sizes));
    }
    return byCount;
}

std::string Solver::describeMinimum(std::uint64_t budget, std::uint64_t& minimum) const
{
    Config single;
    single.doubleBuffer.assign(base_.args.size(), false);
    single.promote.assign(base_.args.size(), false);
    single.acrossInPlanes.assign(base_.args.size(), false);
    for (std::size_t i = 0; i < base_.args.size(); ++i)
        single.promote[i] = isLoadedBuffer(*base_.args[i].arg);
    minimum = kUnbounded;
    KernelTiling best;
    // Preferred tile sizes are a wish the solver drops before failing, so they do not count here.
    forEachCountPair([&](const std::vector<TileChoice>& innerSizes, const std::vector<TileChoice>& outerSizes) {
        for (const TileChoice& outer : outerSizes)
            for (const TileChoice& inner : innerSizes) {
                const TileChoices choices = withOuter(inner, outer);
                if (!constraintsHold(choices, false))
                    continue;
                KernelTiling tiling = base_;
                applyTiles(tiling, choices);
                if (!everyTileHasRealLines(tiling))
                    continue;
                const std::uint64_t bytes = layout(tiling, single);
                if (bytes < minimum) {
                    minimum = bytes;
                    best = tiling;
                }
            }
    });
    std::ostringstream out;
    out << "user kernel " << kernel_.name << ": ";
    if (minimum == kUnbounded) {
        out << "no tiling satisfies the argument constraints (even/odd, one tile, preferred sizes); "
            << "relax them";
        minimum = 0;
        return out.str();
    }
    out << "needs at least " << minimum << " bytes of L1, budget is " << budget << " (smallest tiling:";
    const char* separator = " ";
    for (const ArgTiling& arg : best.args) {
        out << separator << arg.arg->name << " " << arg.l1Bytes;
        if (arg.tiled && arg.residence != ArgResidence::Scratch)
            out << " for " << arg.tileSize << (arg.orientation == Orientation::Horizontal ? "-line" : "-column")
                << " tiles";
        separator = ", ";
    }
    out << "); raise the L1 budget to at least " << minimum;
    return out.str();
}

TileSolverResult Solver::solve(std::uint64_t budget, std::uint64_t l2Budget, bool measureMinimum)
{
    std::uint64_t smallestStaging = kUnbounded;
    TileSolverResult result;
    bool found = false;
    double bestCycles = 0;
    // Passes in order of preference: preferred tile sizes honoured and declared double buffers,
    // then without the preference, then single buffers.
    const std::pair<bool, bool> passes[] = {{true, true}, {false, true}, {true, false}, {false, false}};
    const auto runPass = [&](bool withPreference, bool declaredBuffering) {
        for (const unsigned chunk : planeChunkCandidates(base_, kernel_)) {
            KernelTiling chunkedBase = base_;
            if (!applyPlaneChunk(chunkedBase, kernel_.chunkablePlanes, chunk))
                continue;
            for (const Config& config : configurations(declaredBuffering)) {
                // Whether to stop at these tile counts: a tiling was taken, or promotions are useless.
                const auto tryChoices = [&](const TileChoices& choices) {
                    if (!constraintsHold(choices, withPreference))
                        return false;
                    KernelTiling tiling = chunkedBase;
                    applyConfig(tiling, config);
                    applyTiles(tiling, choices);
                    if (!everyTileHasRealLines(tiling) || !configFitsTiles(tiling, config))
                        return false;
                    for (std::size_t i = 0; i < tiling.args.size(); ++i)
                        if (config.promote[i] && !isLoadedBuffer(*tiling.args[i].arg) && !rereads(tiling, tiling.args[i]))
                            return true;  // promotion would move the same bytes and only cost L1
                    if (layout(tiling, config) > budget)
                        return false;
                    if (tiling.l2Bytes > l2Budget) {
                        smallestStaging = std::min(smallestStaging, tiling.l2Bytes);
                        return false;
                    }
                    tiling.estimatedCycles = estimateCycles(tiling);
                    const auto tiles = [](const KernelTiling& t) { return std::uint64_t(t.tileCount) * t.outerTileCount; };
                    const bool better = !found || tiling.estimatedCycles < bestCycles - 1e-9 ||
                                        (tiling.estimatedCycles <= bestCycles + 1e-9 && tiles(tiling) < tiles(result.tiling));
                    if (better) {
                        found = true;
                        bestCycles = tiling.estimatedCycles;
                        result.tiling = tiling;
                    }
                    return true;
                };
                // At equal tile counts the largest regular tiles that fit are taken: they leave shorter
                // last tiles, whose compute and write-back no prefetch hides.
                forEachCountPair([&](const std::vector<TileChoice>& innerSizes, const std::vector<TileChoice>& outerSizes) {
                    for (const TileChoice& outer : outerSizes)
                        for (const TileChoice& inner : innerSizes)
                            if (tryChoices(withOuter(inner, outer)))
                                return;
                });
            }
        }
    };
    for (const auto& [withPreference, declaredBuffering] : passes) {
        runPass(withPreference, declaredBuffering);
        if (!found)
            continue;
        // A kernel whose planes may run in chunks weighs single buffers against its declared double
        // buffers too: more planes per call, all cores busy, may gain more than the DMA overlap.
        if (declaredBuffering && kernel_.chunkablePlanes != IterationSpace::Tile)
            runPass(withPreference, false);
        break;
    }
    if (!found) {
        result.error = describeMinimum(budget, result.minimumL1);
        if (smallestStaging != kUnbounded && result.minimumL1 <= budget) {
            result.error = "user kernel " + kernel_.name + ": its arguments homed in L3 need at least " +
                           std::to_string(smallestStaging) + " bytes of L2 staging buffers, L2 budget is " +
                           std::to_string(l2Budget) + "; raise the L2 budget or lower the L1 budget (smaller tiles)";
        }
        return result;
    }
    result.ok = true;
    if (measureMinimum) {
        std::uint64_t minimum = 0;
        describeMinimum(budget, minimum);
        result.minimumL1 = minimum;
    }
    return result;
}

}  // namespace

TileSolverResult solveWithoutL2Limit(const UserKernel& kernel, const GenerationOptions& options, bool& overL1)
{
    TileSolverResult solved = solveTiling(kernel, options.l1Size, UINT64_MAX, options.costModel, promotionPolicy(options));
    overL1 = !solved.ok && !solved.badKernel && solved.minimumL1 > options.l1Size;
    return solved;
}

PromotionPolicy promotionPolicy(const GenerationOptions& options)
{
    return {options.promoteBuffers, options.promotePartialBuffers};
}

TileSolverResult solveTiling(const UserKernel& kernel, std::uint64_t l1Budget, std::uint64_t l2Budget,
                             const TilerCostModel& costModel, const PromotionPolicy& promotions, bool measureMinimum)
{
    Solver solver(kernel, costModel, promotions);
    if (std::string problem = solver.prepare(); !problem.empty()) {
        TileSolverResult result;
        result.error = problem;
        result.badKernel = true;
        return result;
    }
    if (kernel.l2StagingLimit > 0)
        l2Budget = std::min(l2Budget, kernel.l2StagingLimit);
    return solver.solve(l1Budget, l2Budget, measureMinimum);
}

}  // namespace tessera::tiler
