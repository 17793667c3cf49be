#include "tiler/plane_chunks.h"

#include <algorithm>

namespace tessera::tiler {

std::vector<unsigned> planeChunkCandidates(const KernelTiling& tiling, const UserKernel& kernel)
{
    const int index = tiling.loopIndex(kernel.chunkablePlanes);
    if (kernel.chunkablePlanes == IterationSpace::Tile || index < 0)
        return {1};
    const unsigned planes = tiling.loops[std::size_t(index)].planes;
    const unsigned divider = std::max(1u, kernel.chunkDivider);
    std::vector<unsigned> chunks{1, planes};
    for (unsigned small = 2; small < divider && small < planes; small *= 2)
        chunks.push_back(small);
    for (unsigned step = 1; step * divider < planes; step = step < 4 ? step + 1 : step * 3 / 2)
        chunks.push_back(step * divider);
    std::sort(chunks.begin(), chunks.end());
    chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
    return chunks;
}

bool variesAlong(const ArgTiling& arg, IterationSpace space)
{
    if (arg.residence == ArgResidence::Scratch) {
        const KernelArgument& model = *arg.arg;
        if (!model.has(ArgFlag::ThreeD) || arg.carriesOutPlanes)
            return false;
        return (space == IterationSpace::InPlane) == model.planePerInput;
    }
    return space == IterationSpace::InPlane ? arg.usesInPlane : arg.usesOutPlane;
}

bool followsChunkedLoop(const KernelTiling& tiling, const ArgTiling& arg)
{
    const LoopLevel* loop = tiling.chunkedLoop();
    return loop != nullptr && variesAlong(arg, loop->space);
}

bool applyPlaneChunk(KernelTiling& tiling, IterationSpace space, unsigned chunk)
{
    if (chunk <= 1)
        return true;
    LoopLevel& loop = tiling.loops[std::size_t(tiling.loopIndex(space))];
    loop.chunk = chunk;
    loop.count = (loop.planes + chunk - 1) / chunk;
    for (ArgTiling& arg : tiling.args) {
        if (!followsChunkedLoop(tiling, arg))
            continue;
        // A chunk is copied tile by tile, a plane apart: not interleaved planes gathered plane by plane,
        // nor room kept around one plane's tile. Of padded arguments only those their kernel pads
        // itself, homed in L2: the chunk holds their home lines only.
        const KernelArgument& model = *arg.arg;
        const bool paddedLines = arg.padded() && (!model.kernelPadsItself || arg.stagedInL2);
        if (paddedLines || model.interleavedPlanes || arg.roomBefore > 0 || arg.roomAfter > 0 ||
            model.has(ArgFlag::DynTile))
            return false;
        arg.chunkPlanes = chunk;
        arg.planesPerChunk = chunk;
        // A filter's planes [output][input], read in chunks of output planes one input plane at a time.
        if (model.has(ArgFlag::FourD) && loop.space == IterationSpace::OutPlane && arg.usesInPlane)
            arg.chunkPlaneStride = arg.planeStride * tiling.planesOf(IterationSpace::InPlane);
    }
    return true;
}

std::uint64_t withLastChunk(const KernelTiling& tiling, const ArgTiling& arg, std::uint64_t fullChunks)
{
    const LoopLevel* chunked = tiling.chunkedLoop();
    if (arg.chunkPlanes <= 1 || chunked == nullptr || chunked->count <= 1)
        return fullChunks;
    // Every chunk's bytes are proportional to its planes of the chunked loop.
    return fullChunks / (std::uint64_t(chunked->count) * arg.chunkPlanes) *
           (std::uint64_t(chunked->count - 1) * arg.chunkPlanes + chunked->lastChunk());
}

}  // namespace tessera::tiler
