// The emitter of one tiled user kernel (kernel_emitter.h): its state and its parts, internal to the
// tiler. The loop nest, the calls and the tile expressions are in kernel_emitter.cpp, the DMA
// copies between the home memories (L2, L3) and L1 in kernel_emitter_copies.cpp.
#pragma once

#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace tessera::tiler::emission {

inline const char* loopVariable(IterationSpace space)
{
    switch (space) {
    case IterationSpace::OutPlane: return "OutPlane";
    case IterationSpace::Tile: return "Tile";
    case IterationSpace::InPlane: return "InPlane";
    case IterationSpace::OuterTile: return "OuterTile";
    }
    return "Tile";
}

// Accumulates C lines with indentation.
class CodeWriter {
public:
    void line(const std::string& text) { out_ << std::string(indent_ * 4, ' ') << text << '\n'; }
    void open(const std::string& text) { line(text); ++indent_; }
    void close(const std::string& text = "}") { --indent_; line(text); }
    std::string str() const { return out_.str(); }

private:
    std::ostringstream out_;
    int indent_ = 1;
};

inline std::string num(std::uint64_t value) { return std::to_string(value); }

class KernelEmitter {
public:
    KernelEmitter(const KernelModel& model, const KernelTiling& tiling)
        : model_(model), tiling_(tiling), kernel_(*tiling.kernel), l1_(model.options.l1Symbol) {}

    std::string emit();

private:
    // Loop variables as seen from a given prefix ("" for the current iteration, "Next" for the
    // chunk being prefetched).
    std::string var(IterationSpace space, const std::string& prefix) const
    {
        return prefix + loopVariable(space);
    }
    // The loop variable of the tile loop that tiles the argument, and that loop's tile count.
    std::string tileVar(const ArgTiling& arg, const std::string& prefix) const
    {
        return var(arg.outer ? IterationSpace::OuterTile : IterationSpace::Tile, prefix);
    }
    unsigned tileCount(const ArgTiling& arg) const { return tiling_.tileCountOf(arg); }
    // The loop's iteration count as C: a constant, or the C argument giving it at run time.
    std::string loopBound(const LoopLevel& loop) const
    {
        const std::string& bound = kernel_.runtimeBound(loop.space);
        return bound.empty() ? num(loop.count) : bound;
    }
    std::string lastIteration(const LoopLevel& loop) const
    {
        const std::string& bound = kernel_.runtimeBound(loop.space);
        return bound.empty() ? num(loop.count - 1) : "(" + bound + "-1)";
    }
    // "OutPlane, Tile, InPlane" and the outer tile loop's variable when the kernel has one.
    std::vector<std::string> loopVariables() const;
    std::string planeIndex(const ArgTiling& arg, const std::string& prefix) const;
    std::string reversedIndex(IterationSpace space, const std::string& prefix) const;
    std::string lastChunkOr(const LoopLevel& loop, const std::string& prefix, std::uint64_t last,
                            std::uint64_t full) const;
    std::string chunkPlanes(const ArgTiling& arg, const std::string& prefix) const;
    // Whether each chunk holds whole planes (untiled, or one tile of all the lines): a chunk of
    // consecutive planes is then one run of the home memory.
    bool planesAreWhole(const ArgTiling& arg) const
    {
        return (!arg.tiled || tileCount(arg) == 1) && arg.planeChunkBytesAt(0, tileCount(arg)) == arg.planeBytes;
    }
    std::string planeChunkBinding(const Binding& binding) const;
    std::string tileStartExpr(const ArgTiling& arg, const std::string& tile) const;
    std::string tileSizeExpr(const ArgTiling& arg, const std::string& prefix) const;
    std::string padFirstExpr(const ArgTiling& arg, const std::string& prefix) const;
    std::string planeOffset(const ArgTiling& arg, const std::string& prefix) const;
    std::string homeOffset(const ArgTiling& arg, const std::string& prefix) const;
    std::string planeChunkSize(const ArgTiling& arg, const std::string& prefix) const;
    std::string chunkSize(const ArgTiling& arg, const std::string& prefix) const;
    std::string l1Buffer(const ArgTiling& arg, const std::string& buffer) const;
    std::string tilePointer(const ArgTiling& arg) const;
    void copy(const ArgTiling& arg, const std::string& prefix, const std::string& buffer, bool in,
              const std::string& event);
    std::string l2Buffer(const ArgTiling& arg, const std::string& buffer) const;
    void copyPadded(const ArgTiling& arg, const std::string& prefix, const std::string& buffer,
                    const std::string& event);
    void openPadWindow(const ArgTiling& arg, const std::string& prefix);
    void zeroPadLines(const ArgTiling& arg, const std::string& l1buffer);
    std::string padHomeOffset(const ArgTiling& arg, const std::string& prefix) const;
    void copyL3(const ArgTiling& arg, const std::string& prefix, const std::string& l2buffer, bool in,
                const std::string& event);
    bool fromFlash(const ArgTiling& arg) const { return arg.arg->has(ArgFlag::FlashHome); }
    // The opening of an L3 <-> L2 copy macro call for the argument ("AT_L3_COPY(AT_L3_DEFAULT_DEVICE, "),
    // and the wait for its event.
    std::string l3CopyCall(const ArgTiling& arg, bool twoD) const;
    // Bytes between two lines of one plane of an interleaved argument in its home memory.
    std::uint64_t interleavedLineStride(const ArgTiling& arg) const { return arg.planeStride * arg.planeCount; }
    std::string l3Wait(const ArgTiling& arg, const std::string& event) const;
    void copyStaged(const ArgTiling& arg, const std::string& prefix, const std::string& l2buffer,
                    const std::string& l1buffer, bool in, const std::string& event);
    void emitAdvance(std::size_t level, const std::string& from, const std::string& to, const std::string& more);
    void readStagedChunk(const ArgTiling& arg, const std::string& prefix);
    void readStagedChunkAsync(const ArgTiling& arg);
    void writeStagedChunk(const ArgTiling& arg, const std::string& l1buffer);
    void readPromotedFromL3(const ArgTiling& arg);
    void writePromotedToL3(const ArgTiling& arg);
    std::string bindingExpr(const Binding& binding) const;
    void emitCalls(CallLocation location);
    void emitLevel(std::size_t level);
    void beginChunk(const ArgTiling& arg, std::size_t level);
    void endChunk(const ArgTiling& arg);
    bool doubleBuffered(const ArgTiling& arg) const
    {
        return arg.residence == ArgResidence::Streamed && arg.bufferCount == 2;
    }

    const KernelModel& model_;
    const KernelTiling& tiling_;
    const UserKernel& kernel_;
    std::string l1_;
    CodeWriter code_;
};

}  // namespace tessera::tiler::emission
