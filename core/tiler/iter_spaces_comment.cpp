// The "Iter Spaces" comment in front of every generated user kernel: what the solver decided, in
// words a reader of the generated C can check against the code.
#include "tiler/kernel_emitter.h"

#include <sstream>

namespace tessera::tiler {

std::string iterSpacesComment(const KernelTiling& tiling)
{
    std::ostringstream out;
    const UserKernel& kernel = *tiling.kernel;
    out << "/* Iter Spaces of " << kernel.name << ":";
    for (const LoopLevel& loop : tiling.loops) {
        const char* name = loop.space == IterationSpace::Tile        ? "Tile"
                           : loop.space == IterationSpace::InPlane   ? "InPlane"
                           : loop.space == IterationSpace::OuterTile ? "OuterTile"
                                                                     : "OutPlane";
        out << " " << name << "[" << loop.count;
        if (!kernel.runtimeBound(loop.space).empty())  // IterFixedSpaceDynBound
            out << " at most, " << kernel.runtimeBound(loop.space) << " at run time";
        if (loop.chunk > 1)  // a plane loop run in chunks
            out << (loop.count == 1 ? " chunk" : " chunks") << " of " << loop.chunk << " planes"
                << (loop.lastChunk() != loop.chunk ? ", the last of " + std::to_string(loop.lastChunk()) : "");
        out << "]";
    }
    out << ", " << (kernel.orientation == Orientation::Horizontal ? "horizontal" : "vertical") << " tiles\n";
    for (const ArgTiling& arg : tiling.args) {
        const bool horizontal = arg.orientation == Orientation::Horizontal;
        out << "     " << arg.arg->name << ": ";
        switch (arg.residence) {
        case ArgResidence::Scratch:
            out << "L1 scratch buffer";
            if (arg.carriesOutPlanes || arg.planesPerChunk > 1)
                out << " of " << arg.planesPerChunk << " planes";
            if (arg.arg->has(ArgFlag::DynTile))
                out << ", one entry per tile (" << tiling.tileCount << ")";
            break;
        case ArgResidence::Promoted:
            out << "promoted whole to L1 (" << arg.planeCount << " plane(s)), moved once";
            break;
        case ArgResidence::Streamed:
            if (arg.tiled && arg.dynamic)
                out << "dynamic tiles of up to " << arg.tileSize << (horizontal ? " lines" : " columns") << " of "
                    << arg.crossExtent << (horizontal ? " columns" : " lines") << ", tile t from "
                    << (horizontal ? "line " : "column ") << "t*" << arg.refTile << "*" << arg.effective << "/"
                    << arg.refExtent << ", last tile " << arg.lastTileSize;
            else if (arg.tiled)
                out << arg.tileSize << (horizontal ? " lines" : " columns") << " of " << arg.crossExtent
                    << (horizontal ? " columns" : " lines") << ", last tile " << arg.lastTileSize;
            else
                out << "whole " << arg.arg->width << "x" << arg.arg->height << " plane per chunk";
            if (arg.tiled && arg.outer)
                out << ", tiled by the outer tile loop";
            if (arg.planeCount > 1)
                out << ", " << arg.planeCount << " planes";
            if (arg.planeCount > 1 && (arg.arg->reverseInPlanes || arg.arg->reverseOutPlanes))
                out << " taken last to first";
            if (arg.chunkPlanes > 1)
                out << ", " << arg.chunkPlanes << " planes of the chunked loop per chunk";
            if (arg.acrossInPlanes)
                out << ", " << arg.planesPerChunk / arg.chunkPlanes << " input planes per chunk";
            if (arg.carriesOutPlanes)
                out << ", all " << arg.planesPerChunk << " output planes per chunk";
            out << (arg.bufferCount == 2 ? ", double buffered" : ", single buffer");
            break;
        }
        out << ", " << arg.l1Bytes << " B of L1 at " << arg.l1Offset;
        if (arg.roomBefore || arg.roomAfter)
            out << " (" << arg.roomBefore << " B of room before and " << arg.roomAfter << " B after each buffer)";
        if (arg.stagedInL2)
            out << ", homed in L3 through " << arg.l2BufferCount << " L2 staging buffer(s) (" << arg.l2Bytes
                << " B at " << arg.l2Offset << ")";
        if (arg.dmaRead || arg.dmaWrite)
            out << ", DMA " << arg.dmaRead << " B in / " << arg.dmaWrite << " B out";
        out << "\n";
    }
    const bool runtimeCount = !kernel.inPlanesBound.empty() || !kernel.outPlanesBound.empty();
    out << "     L1: " << tiling.l1Bytes << " B; DMA total " << (runtimeCount ? "at most " : "") << tiling.dmaRead
        << " B in / " << tiling.dmaWrite << " B out";
    if (tiling.l2Bytes)
        out << "; L2 staging " << tiling.l2Bytes << " B, L3 " << tiling.l3Read << " B in / " << tiling.l3Write
            << " B out";
    out << "; estimated " << static_cast<long long>(tiling.estimatedCycles) << " cycles\n*/\n";
    return out.str();
}

}  // namespace tessera::tiler
