#include "tiler/tiling.h"

#include <algorithm>

namespace tessera::tiler {

unsigned ArgTiling::tileStartAt(unsigned tileIndex, unsigned tileCount) const
{
    if (!tiled || tileCount <= 1)
        return 0;
    if (dynamic)
        return unsigned(std::uint64_t(tileIndex) * refTile * effective / refExtent);
    return tileIndex * step;
}

unsigned ArgTiling::tileSizeAt(unsigned tileIndex, unsigned tileCount) const
{
    if (!tiled)
        return extent;
    if (dynamic && tileCount > 1 && tileIndex + 1 < tileCount) {
        const unsigned next = tileStartAt(tileIndex + 1, tileCount);
        return std::min(extent, next + arg->tileOverlap) - tileStartAt(tileIndex, tileCount);
    }
    return tileIndex + 1 == tileCount ? lastTileSize : tileSize;
}

std::uint64_t ArgTiling::largestChunkBytes(unsigned tileCount) const
{
    std::uint64_t largest = std::max(chunkBytesAt(0, tileCount), chunkBytesAt(tileCount - 1, tileCount));
    if (dynamic)
        for (unsigned t = 1; t + 1 < tileCount; ++t)
            largest = std::max(largest, chunkBytesAt(t, tileCount));
    return largest;
}

std::uint64_t ArgTiling::planeChunkBytesAt(unsigned tileIndex, unsigned tileCount) const
{
    if (!tiled)
        return planeBytes;
    return std::uint64_t(tileSizeAt(tileIndex, tileCount)) * crossExtent * arg->itemSize;
}

std::uint64_t ArgTiling::chunkBytesAt(unsigned tileIndex, unsigned tileCount) const
{
    return planeChunkBytesAt(tileIndex, tileCount) * planesPerChunk;
}

unsigned ArgTiling::realLinesAt(unsigned tileIndex, unsigned tileCount) const
{
    const unsigned lines = tileSizeAt(tileIndex, tileCount);
    if (!padded())
        return lines;
    // The tile covers virtual lines [start, start + lines); home lines are [padBefore, extent - padAfter).
    const std::int64_t start = tileStartAt(tileIndex, tileCount);
    const std::int64_t first = std::max<std::int64_t>(start, padBefore);
    const std::int64_t last = std::min<std::int64_t>(start + lines, std::int64_t(extent) - padAfter);
    return last > first ? unsigned(last - first) : 0;
}

std::uint64_t ArgTiling::movedBytesAt(unsigned tileIndex, unsigned tileCount) const
{
    if (!padded())
        return chunkBytesAt(tileIndex, tileCount);
    return std::uint64_t(realLinesAt(tileIndex, tileCount)) * crossExtent * arg->itemSize * planesPerChunk;
}

std::uint64_t ArgTiling::movedBytesOverTiles(unsigned tileCount) const
{
    // Tiles [first, last) are interior: not the last one, clear of the padding lines, so each
    // moves a full chunk. The others are summed one by one.
    unsigned first = 0, last = 0;
    if (tiled && !dynamic && tileCount > 2 && step > 0 && extent > padAfter) {
        const unsigned homeEnd = extent - padAfter;
        first = (padBefore + step - 1) / step;
        last = tileSize <= homeEnd ? std::min(tileCount - 1, (homeEnd - tileSize) / step + 1) : 0;
        if (first >= last)
            first = last = 0;
    }
    std::uint64_t total = last > first ? std::uint64_t(last - first) * chunkBytesAt(first, tileCount) : 0;
    for (unsigned t = 0; t < first; ++t)
        total += movedBytesAt(t, tileCount);
    for (unsigned t = last; t < tileCount; ++t)
        total += movedBytesAt(t, tileCount);
    return total;
}

int KernelTiling::loopIndex(IterationSpace space) const
{
    for (std::size_t i = 0; i < loops.size(); ++i)
        if (loops[i].space == space)
            return int(i);
    return -1;
}

unsigned KernelTiling::loopCount(IterationSpace space) const
{
    const int index = loopIndex(space);
    return index < 0 ? 1 : loops[std::size_t(index)].count;
}

const ArgTiling* KernelTiling::find(const std::string& name) const
{
    for (const ArgTiling& arg : args)
        if (arg.arg->name == name)
            return &arg;
    return nullptr;
}

const ArgTiling* KernelTiling::referenceArg() const
{
    // Dynamic arguments follow another one's tiles, which is the reference.
    for (const ArgTiling& arg : args)
        if (arg.tiled && arg.residence != ArgResidence::Scratch && !arg.dynamic)
            return &arg;
    for (const ArgTiling& arg : args)
        if (arg.tiled && arg.residence != ArgResidence::Scratch)
            return &arg;
    for (const ArgTiling& arg : args)
        if (arg.tiled)
            return &arg;
    return nullptr;
}

unsigned KernelTiling::planesOf(IterationSpace space) const
{
    const int index = loopIndex(space);
    return index < 0 ? 1 : loops[std::size_t(index)].planes;
}

const LoopLevel* KernelTiling::chunkedLoop() const
{
    for (const LoopLevel& loop : loops)
        if (loop.chunk > 1)
            return &loop;
    return nullptr;
}

}  // namespace tessera::tiler
