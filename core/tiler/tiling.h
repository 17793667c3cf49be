// What the tile solver decided for one user kernel: the loop nest, the tile sizes of every
// argument, where each buffer sits in L1, and the DMA traffic the generated code will move.
#pragma once

#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::tiler {

// One loop of the generated nest. Loops the kernel does not iterate have count 1. A plane loop
// may run in chunks (UserKernel::chunkablePlanes): `chunk` planes per iteration, the last
// iteration the rest of its `planes`.
struct LoopLevel {
    IterationSpace space = IterationSpace::Tile;
    unsigned count = 1;
    unsigned planes = 1;
    unsigned chunk = 1;

    unsigned lastChunk() const { return planes - (count - 1) * chunk; }
};

// How an argument lives in L1.
enum class ArgResidence {
    Streamed,   // chunks (tiles and/or planes) move between L2 and L1 as the loops advance
    Promoted,   // the whole argument is moved into L1 once (before the loops) and back once after
    Scratch,    // an L1-only buffer: no DMA
};

struct ArgTiling {
    const KernelArgument* arg = nullptr;
    Orientation orientation = Orientation::Horizontal;
    ArgResidence residence = ArgResidence::Streamed;
    bool tiled = false;           // takes part in the tile loop
    bool outer = false;           // ... the outer tile loop (two-level tiling) rather than the inner one
    unsigned extent = 0;          // size of the tiled dimension (lines for horizontal tiles)
    unsigned crossExtent = 0;     // the other dimension (columns for horizontal tiles)
    unsigned tileSize = 0;        // lines/columns of every tile but the last
    unsigned lastTileSize = 0;
    unsigned step = 0;            // lines/columns the tile origin advances per tile
    // OBJ_CONSTRAINTS_DYNAMIC: an argument whose tiled size is no whole multiple of the reference
    // argument's. Tile t starts at line floor(s * effective / refExtent), s being the reference's
    // first line (t * refTile), and reaches the next tile's start plus the overlap, so tile sizes
    // vary by a line; tileSize is the largest, which the L1 buffers hold.
    bool dynamic = false;
    unsigned refTile = 0;         // the reference argument's lines per tile
    unsigned refExtent = 0;       // the reference argument's extent beyond its overlap
    unsigned effective = 0;       // this argument's extent beyond its overlap
    std::uint64_t planeBytes = 0; // one data plane in its home memory
    std::uint64_t planeStride = 0;// bytes between consecutive plane indices
    unsigned planeCount = 1;      // planes held in the home memory
    bool usesInPlane = false;     // plane index follows the input-plane loop
    bool usesOutPlane = false;    // plane index follows the output-plane loop
    // Partial promotion across input planes: one chunk holds the tile (or plane) of every input
    // plane, so it changes with the outer loops only.
    bool acrossInPlanes = false;
    // In a kernel without an output-plane loop, a 3-D output (or one-tile scratch) carries all the
    // kernel's output planes in every chunk.
    bool carriesOutPlanes = false;
    unsigned planesPerChunk = 1;
    // Planes of a chunked plane loop (LoopLevel::chunk) in the argument's chunks, 1 when it does not
    // follow such a loop (its last chunk has the loop's lastChunk()). planesPerChunk includes them.
    unsigned chunkPlanes = 1;
    // Bytes between two planes of one chunk in the home memory: planeStride, or for a 4-D argument
    // in chunks of output planes one input plane at a time, a whole row of input planes.
    std::uint64_t chunkPlaneStride = 0;
    int level = -1;               // innermost loop (index into KernelTiling::loops) where the
                                  // chunk changes; -1 when it never changes (loaded once)
    unsigned bufferCount = 1;     // 2 when double-buffered
    std::uint64_t chunkBytes = 0; // bytes of one full chunk (one L1 buffer)
    std::uint64_t roomBefore = 0; // bytes of L1 room before and after each buffer (KerArgPad)
    std::uint64_t roomAfter = 0;
    std::uint64_t l1Offset = 0;
    std::uint64_t l1Bytes = 0;    // bufferCount * chunkBytes, or the promoted/scratch size
    std::uint64_t dmaRead = 0;    // predicted bytes moved L2 -> L1
    std::uint64_t dmaWrite = 0;   // predicted bytes moved L1 -> L2
    // Arguments whose home is L3 (O_L2DB) pass through staging buffers in L2.
    bool stagedInL2 = false;
    unsigned padBefore = 0;       // virtual zero lines (see KernelArgument)
    unsigned padAfter = 0;
    unsigned l2BufferCount = 0;
    std::uint64_t l2Offset = 0;
    std::uint64_t l2Bytes = 0;
    std::uint64_t l3Read = 0;     // predicted bytes moved L3 -> L2
    std::uint64_t l3Write = 0;    // predicted bytes moved L2 -> L3

    bool isInput() const { return arg->has(ArgFlag::In); }
    bool followsInPlanes() const { return usesInPlane && !acrossInPlanes; }
    bool isOutput() const { return arg->has(ArgFlag::Out); }
    // Bytes of the chunk at a given tile index (the last tile may be smaller), all its planes.
    std::uint64_t chunkBytesAt(unsigned tileIndex, unsigned tileCount) const;
    // Bytes of one plane's part of that chunk.
    std::uint64_t planeChunkBytesAt(unsigned tileIndex, unsigned tileCount) const;
    unsigned tileSizeAt(unsigned tileIndex, unsigned tileCount) const;
    // First line (column for vertical tiles) of that tile in the argument's tiled dimension.
    unsigned tileStartAt(unsigned tileIndex, unsigned tileCount) const;
    // Bytes of the largest chunk over all tiles: what one L1 buffer holds.
    std::uint64_t largestChunkBytes(unsigned tileCount) const;
    // Lines of that tile that are in home memory (all of them unless the argument is padded).
    unsigned realLinesAt(unsigned tileIndex, unsigned tileCount) const;
    // Bytes the DMA moves for that chunk: its real lines, all its planes.
    std::uint64_t movedBytesAt(unsigned tileIndex, unsigned tileCount) const;
    // movedBytesAt summed over the tileCount tiles (in constant time but for the tiles at the
    // padding, the last one and dynamic tiles).
    std::uint64_t movedBytesOverTiles(unsigned tileCount) const;
    bool padded() const { return padBefore > 0 || padAfter > 0; }
    // Bytes from one L1 buffer to the next: the chunk and the room around it.
    std::uint64_t bufferStride() const { return roomBefore + chunkBytes + roomAfter; }
};

struct KernelTiling {
    const UserKernel* kernel = nullptr;
    std::vector<LoopLevel> loops;  // outermost first; always the three spaces
    unsigned tileCount = 1;        // tiles of the (inner) tile loop
    unsigned outerTileCount = 1;   // tiles of the outer tile loop (two-level tiling), else 1
    std::vector<ArgTiling> args;   // in the kernel's argument order
    std::uint64_t l1Bytes = 0;     // total L1 used by this kernel
    std::uint64_t dmaRead = 0;
    std::uint64_t dmaWrite = 0;
    std::uint64_t l2Bytes = 0;     // L2 staging buffers of arguments homed in L3
    std::uint64_t l3Read = 0;
    std::uint64_t l3Write = 0;
    double estimatedCycles = 0;

    // The tile count of the loop that tiles the argument (pass it to the ArgTiling ...At methods).
    unsigned tileCountOf(const ArgTiling& arg) const { return arg.outer ? outerTileCount : tileCount; }
    int loopIndex(IterationSpace space) const;
    unsigned loopCount(IterationSpace space) const;
    // Planes of a plane loop (its count unless it runs in chunks), 1 for a loop the kernel lacks.
    unsigned planesOf(IterationSpace space) const;
    // The plane loop run in chunks of more than one plane, or nullptr.
    const LoopLevel* chunkedLoop() const;
    const ArgTiling* find(const std::string& name) const;
    // The first streamed input/output argument that is tiled (the kernel's "tile size").
    const ArgTiling* referenceArg() const;
};

}  // namespace tessera::tiler
