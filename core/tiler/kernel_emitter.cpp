#include "tiler/kernel_emitter.h"

#include "tiler/kernel_emitter_class.h"
#include "tiler/plane_chunks.h"

#include <sstream>
#include <stdexcept>
#include <vector>

// GCC 12 reports a false -Wrestrict on "literal" + std::string at -O2 (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

namespace tessera::tiler {
namespace {

// The call locations just before and after each loop of the nest. The outer tile loop of two-level
// tiling has none of its own (calls sit in the inner loops), so its are the group's: never emitted.
CallLocation locationBefore(IterationSpace space)
{
    switch (space) {
    case IterationSpace::OutPlane: return CallLocation::Prolog;
    case IterationSpace::Tile: return CallLocation::InnerLoopProlog;
    case IterationSpace::InPlane: return CallLocation::InPlaneProlog;
    case IterationSpace::OuterTile: return CallLocation::Group;
    }
    return CallLocation::Prolog;
}

CallLocation locationAfter(IterationSpace space)
{
    switch (space) {
    case IterationSpace::OutPlane: return CallLocation::Epilog;
    case IterationSpace::Tile: return CallLocation::InnerLoopEpilog;
    case IterationSpace::InPlane: return CallLocation::InPlaneEpilog;
    case IterationSpace::OuterTile: return CallLocation::Group;
    }
    return CallLocation::Epilog;
}

}  // namespace

namespace emission {

// Plane count - 1 - index of a plane loop the kernel has: where a reversed argument is in it.
std::string KernelEmitter::reversedIndex(IterationSpace space, const std::string& prefix) const
{
    const LoopLevel& loop = tiling_.loops[std::size_t(tiling_.loopIndex(space))];
    return "(" + lastIteration(loop) + "-" + var(space, prefix) + ")";
}

// The first plane of the current chunk; a loop run in chunks advances by a chunk's planes. An
// argument reversed along the loop (SPACE_PROP_REVERT) is at its plane count - 1 - index.
std::string KernelEmitter::planeIndex(const ArgTiling& arg, const std::string& prefix) const
{
    const auto chunkStart = [&](IterationSpace space) {
        const int loop = tiling_.loopIndex(space);
        const unsigned chunk = loop < 0 ? 1 : tiling_.loops[std::size_t(loop)].chunk;
        if (arg.arg->reverses(space) && loop >= 0) {
            if (chunk > 1)
                throw std::logic_error(std::string("the chunked ") + loopVariable(space) + " loop of " + kernel_.name +
                                       " reverses the planes of " + arg.arg->name);
            return reversedIndex(space, prefix);
        }
        return var(space, prefix) + (chunk > 1 ? "*" + num(chunk) : "");
    };
    std::string index;
    if (arg.usesOutPlane) {
        index = chunkStart(IterationSpace::OutPlane);
        if (arg.arg->has(ArgFlag::FourD))
            index += "*" + num(tiling_.planesOf(IterationSpace::InPlane));
    }
    if (arg.followsInPlanes())
        index += (index.empty() ? "" : "+") + chunkStart(IterationSpace::InPlane);
    return index;
}

// `last` in the last iteration of a chunked loop, `full` in the others, as a C expression.
std::string KernelEmitter::lastChunkOr(const LoopLevel& loop, const std::string& prefix, std::uint64_t last,
                                       std::uint64_t full) const
{
    if (last == full)
        return num(full);
    return "((" + var(loop.space, prefix) + "==" + num(loop.count - 1) + ")?" + num(last) + ":" + num(full) + ")";
}

// Planes in the argument's current chunk (the last chunk of a chunked loop holds the rest).
std::string KernelEmitter::chunkPlanes(const ArgTiling& arg, const std::string& prefix) const
{
    const LoopLevel* chunked = tiling_.chunkedLoop();
    if (arg.chunkPlanes == 1 || chunked == nullptr)
        return num(arg.planesPerChunk);
    const unsigned others = arg.planesPerChunk / arg.chunkPlanes;  // every input plane, when it holds them
    return lastChunkOr(*chunked, prefix, std::uint64_t(chunked->lastChunk()) * others, arg.planesPerChunk);
}

// First line (column) of the tile, as a C expression of the tile index.
std::string KernelEmitter::tileStartExpr(const ArgTiling& arg, const std::string& tile) const
{
    if (!arg.tiled || tileCount(arg) == 1)
        return "0";
    if (arg.dynamic)
        return "((" + tile + ")*" + num(std::uint64_t(arg.refTile) * arg.effective) + "/" + num(arg.refExtent) + ")";
    return "(" + tile + ")*" + num(arg.step);
}

std::string KernelEmitter::tileSizeExpr(const ArgTiling& arg, const std::string& prefix) const
{
    if (arg.dynamic && tileCount(arg) > 1) {
        // Up to the next tile's start plus the overlap; the last tile up to the end.
        const std::string tile = tileVar(arg, prefix);
        return "((" + tile + "==" + num(tileCount(arg) - 1) + ")?" + num(arg.lastTileSize) + ":(" +
               tileStartExpr(arg, tile + "+1") + "+" + num(arg.arg->tileOverlap) + "-" + tileStartExpr(arg, tile) + "))";
    }
    if (!arg.tiled || tileCount(arg) == 1 || arg.tileSize == arg.lastTileSize)
        return num(arg.tiled ? arg.tileSize : arg.extent);
    return "((" + tileVar(arg, prefix) + "==" + num(tileCount(arg) - 1) + ")?" +
           num(arg.lastTileSize) + ":" + num(arg.tileSize) + ")";
}

// Byte offset of the current chunk in the argument's home memory.
// Byte offset of the current plane in the argument's home memory, empty for the first one only.
std::string KernelEmitter::planeOffset(const ArgTiling& arg, const std::string& prefix) const
{
    const std::string plane = planeIndex(arg, prefix);
    return plane.empty() ? std::string() : "(" + plane + ")*" + num(arg.planeStride);
}

std::string KernelEmitter::homeOffset(const ArgTiling& arg, const std::string& prefix) const
{
    std::string offset = planeOffset(arg, prefix);
    if (arg.tiled && tileCount(arg) > 1) {
        // A home line of HWC planes holds every plane's items.
        const std::uint64_t lineBytes = arg.orientation == Orientation::Horizontal
                                            ? std::uint64_t(arg.crossExtent) * arg.arg->itemSize *
                                                  (arg.arg->hwcPlanes ? arg.planeCount : 1)
                                            : std::uint64_t(arg.arg->itemSize);
        const std::string tile = tileVar(arg, prefix);
        offset += (offset.empty() ? "" : "+") +
                  (arg.dynamic ? tileStartExpr(arg, tile) + "*" + num(lineBytes)
                               : tile + "*" + num(std::uint64_t(arg.step) * lineBytes));
    }
    return offset.empty() ? "0" : offset;
}

std::string KernelEmitter::planeChunkSize(const ArgTiling& arg, const std::string& prefix) const
{
    if (!arg.tiled)
        return num(arg.planeBytes);
    const std::string size = tileSizeExpr(arg, prefix);
    return size + "*" + num(std::uint64_t(arg.crossExtent) * arg.arg->itemSize);
}

std::string KernelEmitter::chunkSize(const ArgTiling& arg, const std::string& prefix) const
{
    if (arg.planesPerChunk == 1)
        return planeChunkSize(arg, prefix);
    return chunkPlanes(arg, prefix) + "*" + planeChunkSize(arg, prefix);
}

// The start of the chunk in one of the argument's L1 buffers (after the room before it, if any).
std::string KernelEmitter::l1Buffer(const ArgTiling& arg, const std::string& buffer) const
{
    std::string pointer = "(" + l1_ + "+" + num(arg.l1Offset + arg.roomBefore);
    if (!buffer.empty())
        pointer += "+" + num(arg.bufferStride()) + "*(" + buffer + ")";
    return pointer + ")";
}

// The L1 address of the current tile of an argument, as basic kernels see it.
std::string KernelEmitter::tilePointer(const ArgTiling& arg) const
{
    const KernelArgument& model = *arg.arg;
    switch (arg.residence) {
    case ArgResidence::Scratch:
        if (model.has(ArgFlag::DynTile))
            return "(" + l1_ + "+" + num(arg.l1Offset + arg.roomBefore) + "+Tile*" +
                   num(std::uint64_t(arg.crossExtent) * model.itemSize) + ")";
        return l1Buffer(arg, "");
    case ArgResidence::Promoted: {
        // The promoted copy has the home layout: the tile is at the same offset as in L2.
        return "(" + l1_ + "+" + num(arg.l1Offset) + "+" + homeOffset(arg, "") + ")";
    }
    case ArgResidence::Streamed: {
        const std::string buffer = l1Buffer(arg, doubleBuffered(arg) ? "Buf_" + model.name : "");
        if (!arg.acrossInPlanes)
            return buffer;
        // The chunk holds every input plane's part back to back, in their home order.
        const bool reversed = model.reverses(IterationSpace::InPlane) && tiling_.loopIndex(IterationSpace::InPlane) >= 0;
        const std::string plane = reversed ? reversedIndex(IterationSpace::InPlane, "") : var(IterationSpace::InPlane, "");
        return "(" + buffer + "+" + plane + "*" + planeChunkSize(arg, "") + ")";
    }
    }
    return l1Buffer(arg, "");
}

std::vector<std::string> KernelEmitter::loopVariables() const
{
    std::vector<std::string> variables;
    if (tiling_.loopIndex(IterationSpace::OuterTile) >= 0)
        variables.push_back(loopVariable(IterationSpace::OuterTile));
    for (IterationSpace space : {IterationSpace::OutPlane, IterationSpace::Tile, IterationSpace::InPlane})
        variables.push_back(loopVariable(space));
    return variables;
}

// Declares the loop variables `to` one chunk after `from`, advancing from the loop at `level`
// outwards; `more` is 0 when `from` was the last chunk.
void KernelEmitter::emitAdvance(std::size_t level, const std::string& from, const std::string& to,
                                const std::string& more)
{
    std::string declare = "int " + more + " = " + (from.empty() ? std::string("1") : from + "More");
    for (std::size_t l = 0; l <= level; ++l)
        declare += ", " + to + loopVariable(tiling_.loops[l].space) + " = " + from + loopVariable(tiling_.loops[l].space);
    code_.line(declare + ";");
    for (std::size_t l = level + 1; l-- > 0;) {
        const std::string next = to + loopVariable(tiling_.loops[l].space);
        code_.open("if (++" + next + " == " + loopBound(tiling_.loops[l]) + ") {");
        code_.line(next + " = 0;");
    }
    code_.line(more + " = 0;");
    for (std::size_t l = 0; l <= level; ++l)
        code_.close();
}

std::string KernelEmitter::bindingExpr(const Binding& binding) const
{
    switch (binding.kind) {
    case Binding::Kind::Immediate:
        return std::to_string(binding.value);
    case Binding::Kind::Ignored:
        return "0";  // sequential calls; parallel kernels leave the field unset
    case Binding::Kind::CArg:
        return cArgumentExpr(binding);
    case Binding::Kind::CArgIndex:
        return binding.name + "[(" + loopVariable(binding.iterator) + ")*" + std::to_string(binding.value) + "]";
    case Binding::Kind::Literal:
        return binding.name;
    case Binding::Kind::LoopIndex:
        return loopVariable(binding.iterator);
    case Binding::Kind::LoopPredicate: {
        const int index = tiling_.loopIndex(binding.iterator);
        const std::string last = index >= 0 ? lastIteration(tiling_.loops[std::size_t(index)])
                                            : num(tiling_.loopCount(binding.iterator) - 1);
        return std::string("(") + loopVariable(binding.iterator) + " == " + (binding.value == 0 ? "0" : last) + ")";
    }
    case Binding::Kind::PlaneChunk:
        return planeChunkBinding(binding);
    case Binding::Kind::KernelArg:
    case Binding::Kind::TileItem:
        break;
    }
    const ArgTiling* arg = tiling_.find(binding.name);
    if (!arg)
        throw std::runtime_error("user kernel " + kernel_.name + ": binding names unknown argument " + binding.name);
    if (binding.kind == Binding::Kind::TileItem)
        return "((" + binding.accessType + ") " + tilePointer(*arg) + ")[" + std::to_string(binding.value) + "]";
    const bool horizontal = arg->orientation == Orientation::Horizontal;
    if (arg->arg->kernelPadsItself) {
        // The kernel sees the tile's home lines only and is told its padding (see KernelArgument).
        const std::string first = "(" + padFirstExpr(*arg, "") + ")";
        const std::string lines = tileSizeExpr(*arg, "");
        const std::string skip = "(" + first + "<0?-" + first + ":0)";
        const std::string homeFirst = "(" + first + "<0?0:" + first + ")";
        // One past the tile's last line below a limit (the planes' height, or the used part of it).
        const auto endBelow = [&](unsigned limit) {
            return "(" + first + "+" + lines + ">" + num(limit) + "?" + num(limit) + ":" + first + "+" + lines + ")";
        };
        const std::string end = endBelow(arg->arg->height);
        const unsigned usedLines = arg->arg->usedHeight != 0 ? arg->arg->usedHeight : arg->arg->height;
        const std::uint64_t lineBytes = std::uint64_t(arg->crossExtent) * arg->arg->itemSize;
        if (binding.select == ArgSelect::Tile && arg->residence == ArgResidence::Promoted) {
            // Promoted whole, it holds the home lines only, in the home layout.
            const std::string plane = planeOffset(*arg, "");
            return "((char *) " + l1_ + "+" + num(arg->l1Offset) + (plane.empty() ? "" : "+" + plane) + "+" + homeFirst +
                   "*" + num(lineBytes) + ")";
        }
        if (binding.select == ArgSelect::Tile && arg->planesPerChunk > 1)
            return tilePointer(*arg);  // the chunk's planes hold their home lines only, back to back
        if (binding.select == ArgSelect::Tile)
            return "((char *) " + tilePointer(*arg) + "+" + skip + "*" + num(lineBytes) + ")";
        if (binding.select == ArgSelect::TileHeight)
            return "(" + end + "-" + homeFirst + ")";
        if (binding.select == ArgSelect::TileUsedHeight)
            return "(" + endBelow(usedLines) + "-" + homeFirst + ")";
        if (binding.select == ArgSelect::TilePad) {
            // The tile's padding lines, of which the kernel pads kernelPad's nearest the home lines; the
            // others (a pooling's, on a convolution's input) it leaves unread.
            const auto nearest = [&](const std::string& lines, unsigned placed, int padded) {
                return int(placed) == padded ? lines
                                             : "(" + lines + ">" + std::to_string(padded) + "?" +
                                                   std::to_string(padded) + ":" + lines + ")";
            };
            return "((v4s){" + std::to_string(arg->arg->kernelPad[0]) + "," + std::to_string(arg->arg->kernelPad[1]) +
                   "," + nearest(skip, arg->padBefore, arg->arg->kernelPad[2]) + "," +
                   nearest("(" + first + "+" + lines + "-" + end + ")", arg->padAfter, arg->arg->kernelPad[3]) + "})";
        }
    }
    // One-tile scratch buffers follow the tiles; per-tile (dynamic) ones have one entry per tile.
    const bool tiledDim = arg->tiled && !arg->arg->has(ArgFlag::DynTile);
    const auto currentSize = [&](bool alongTiles) {
        if (alongTiles && tiledDim)
            return tileSizeExpr(*arg, "");
        if (alongTiles && arg->arg->has(ArgFlag::DynTile))
            return num(tiling_.tileCount);
        return num(alongTiles ? arg->extent : arg->crossExtent);
    };
    // The used part: the whole dimension's used count across the tiles, the tile's lines below it along them.
    const auto usedSize = [&](bool alongTiles, unsigned used) {
        if (used == 0 || used >= (alongTiles ? arg->extent : arg->crossExtent) || (alongTiles && arg->arg->has(ArgFlag::DynTile)))
            return currentSize(alongTiles);
        if (!alongTiles || !tiledDim || tileCount(*arg) == 1)
            return num(used);
        const std::string start = "(" + tileStartExpr(*arg, tileVar(*arg, "")) + ")";
        const std::string end = "(" + start + "+" + tileSizeExpr(*arg, "") + ")";
        return "((" + end + ">" + num(used) + "?" + num(used) + ":" + end + ")-" + start + ")";
    };
    const auto defaultSize = [&](bool alongTiles) {
        if (alongTiles && tiledDim)
            return num(arg->tileSize);
        if (alongTiles && arg->arg->has(ArgFlag::DynTile))
            return num(tiling_.tileCount);
        return num(alongTiles ? arg->extent : arg->crossExtent);
    };
    switch (binding.select) {
    case ArgSelect::Tile: return tilePointer(*arg);
    case ArgSelect::NextTile:
        // The next chunk is read into (or written from) the other buffer; with one buffer it is this one.
        if (doubleBuffered(*arg) && !arg->acrossInPlanes)
            return l1Buffer(*arg, "Buf_" + arg->arg->name + "^1");
        return tilePointer(*arg);
    case ArgSelect::Plane:
        if (arg->residence == ArgResidence::Streamed)
            return tilePointer(*arg);
        return l1Buffer(*arg, "");
    case ArgSelect::TileWidth: return currentSize(!horizontal);
    case ArgSelect::TileWidth0: return defaultSize(!horizontal);
    case ArgSelect::TileHeight: return currentSize(horizontal);
    case ArgSelect::TileHeight0: return defaultSize(horizontal);
    case ArgSelect::TileUsedWidth: return usedSize(!horizontal, arg->arg->usedWidth);
    case ArgSelect::TileUsedHeight: return usedSize(horizontal, arg->arg->usedHeight);
    case ArgSelect::TileCount: return num(tileCount(*arg));
    case ArgSelect::TileIndex: return tileVar(*arg, "");
    case ArgSelect::TileOffset:
        return arg->dynamic ? tileStartExpr(*arg, tileVar(*arg, "")) : tileVar(*arg, "") + "*" + num(arg->step);
    case ArgSelect::Width: return num(arg->arg->width);
    case ArgSelect::Height: return num(arg->arg->height);
    case ArgSelect::TilePad: return "0";  // no padding
    }
    return "0";
}

// K_ArgPar: the current chunk's planes of a loop, or those of them the argument holds in L1.
std::string KernelEmitter::planeChunkBinding(const Binding& binding) const
{
    const int index = tiling_.loopIndex(binding.iterator);
    const bool planeLoop = binding.iterator == IterationSpace::InPlane || binding.iterator == IterationSpace::OutPlane;
    if (!planeLoop || index < 0)
        return "1";
    const LoopLevel& loop = tiling_.loops[std::size_t(index)];
    const std::string current = lastChunkOr(loop, "", loop.lastChunk(), loop.chunk);
    if (binding.value == 0)
        return current;
    const ArgTiling* arg = tiling_.find(binding.name);
    if (!arg)
        throw std::runtime_error("user kernel " + kernel_.name + ": K_ArgPar names unknown argument " + binding.name);
    if (!variesAlong(*arg, binding.iterator))
        return "1";
    const bool holdsAll = arg->residence == ArgResidence::Promoted ||
                          (binding.iterator == IterationSpace::InPlane && arg->acrossInPlanes);
    return holdsAll ? num(loop.planes) : current;
}

void KernelEmitter::emitCalls(CallLocation location)
{
    int parallelIndex = 0;
    for (const KernelCall& call : kernel_.calls) {
        const BasicKernel* callee = model_.findBasicKernel(call.callee);
        const bool parallel = callee && callee->callType == CallType::Parallel;
        const int structIndex = callee && callee->takesStruct() ? parallelIndex++ : -1;
        if (call.location != location || !callee)
            continue;
        if (callee->takesStruct()) {
            const std::string args = "KerArg" + std::to_string(structIndex);
            for (std::size_t i = 0; i < call.bindings.size() && i < callee->args.size(); ++i)
                if (call.bindings[i].kind != Binding::Kind::Ignored)
                    code_.line(args + "->" + callee->args[i].name + " = (" + callee->args[i].type + ") (" +
                               bindingExpr(call.bindings[i]) + ");");
            if (parallel) {
                code_.line("AT_FORK(gap_ncore(), (void *) " + callee->name + ", (void *) " + args + ");");
                code_.line("__CALL(" + callee->name + ", " + args + ");");
            } else {
                code_.line(callee->name + "(" + args + ");");
            }
        } else {
            std::string text = callee->name + "(";
            for (std::size_t i = 0; i < call.bindings.size() && i < callee->args.size(); ++i)
                text += std::string(i ? ", " : "") + "(" + callee->args[i].type + ") (" + bindingExpr(call.bindings[i]) +
                        ")";
            code_.line(text + ");");
        }
    }
}

// At the start of the loop body where the argument's chunk changes: wait for the chunk, then
// start moving the next one into the other buffer (or, single-buffered, move it now). Arguments
// homed in L3 also start the L3 -> L2 transfer of the chunk after next.
void KernelEmitter::beginChunk(const ArgTiling& arg, std::size_t level)
{
    const std::string& name = arg.arg->name;
    if (!arg.isInput())
        return;
    if (!doubleBuffered(arg)) {
        if (arg.stagedInL2) {
            readStagedChunk(arg, "");
        } else {
            copy(arg, "", "", true, "EvtR_" + name);
            code_.line("AT_L2_WAIT(0, &EvtR_" + name + ");");
        }
        return;
    }
    code_.line("AT_L2_WAIT(0, &EvtR_" + name + ");");
    code_.open("{");
    code_.line("/* The chunk after this one: advance the loops from the innermost that moves it */");
    emitAdvance(level, "", "Next", "NextMore");
    if (arg.stagedInL2)
        emitAdvance(level, "Next", "Next2", "Next2More");
    code_.open("if (NextMore) {");
    if (arg.isOutput())
        code_.line("if (Wr_" + name + ") AT_L2_WAIT(0, &EvtW_" + name + ");");
    if (arg.stagedInL2) {
        code_.line(l3Wait(arg, "EvtR3_" + name));
        copyStaged(arg, "Next", "Buf_" + name + "^1", "Buf_" + name + "^1", true, "EvtR_" + name);
    } else {
        copy(arg, "Next", "Buf_" + name + "^1", true, "EvtR_" + name);
    }
    code_.close();
    if (arg.stagedInL2) {
        code_.open("if (Next2More) {");
        copyL3(arg, "Next2", "Buf_" + name, true, "EvtR3_" + name);
        code_.close();
    }
    code_.close();
}

// At the end of that body: write the chunk back (asynchronously when double-buffered) and
// switch buffers.
void KernelEmitter::endChunk(const ArgTiling& arg)
{
    const std::string& name = arg.arg->name;
    if (arg.isOutput() && arg.stagedInL2) {
        writeStagedChunk(arg, doubleBuffered(arg) ? "Buf_" + name : "");
    } else if (arg.isOutput()) {
        if (doubleBuffered(arg)) {
            code_.line("if (Wr_" + name + ") AT_L2_WAIT(0, &EvtW_" + name + ");");
            copy(arg, "", "Buf_" + name, false, "EvtW_" + name);
            code_.line("Wr_" + name + " = 1;");
        } else {
            copy(arg, "", "", false, "EvtW_" + name);
            code_.line("AT_L2_WAIT(0, &EvtW_" + name + ");");
        }
    }
    if (doubleBuffered(arg))
        code_.line("Buf_" + name + " ^= 1;");
}

void KernelEmitter::emitLevel(std::size_t level)
{
    const LoopLevel& loop = tiling_.loops[level];
    const std::string variable = loopVariable(loop.space);
    emitCalls(locationBefore(loop.space));
    const bool runtimeCount = !kernel_.runtimeBound(loop.space).empty();
    if (loop.count > 1 || runtimeCount)
        code_.open("for (" + variable + "=0; " + variable + "<" + loopBound(loop) + "; " + variable + "++) {");
    else
        code_.open("{ /* one " + std::string(loop.space == IterationSpace::Tile || loop.space == IterationSpace::OuterTile
                                                 ? "tile"
                                                 : "plane") +
                   " */");
    if (loop.count == 1 && !runtimeCount)
        code_.line(variable + " = 0;");
    for (const ArgTiling& arg : tiling_.args)
        if (arg.residence == ArgResidence::Streamed && arg.level == int(level))
            beginChunk(arg, level);
    if (level + 1 < tiling_.loops.size())
        emitLevel(level + 1);
    else
        emitCalls(CallLocation::InnerLoop);
    for (const ArgTiling& arg : tiling_.args)
        if (arg.residence == ArgResidence::Streamed && arg.level == int(level))
            endChunk(arg);
    code_.close();
    emitCalls(locationAfter(loop.space));
}

std::string KernelEmitter::emit()
{
    std::ostringstream out;
    out << iterSpacesComment(tiling_) << noinlinePrefix(model_)
        << functionSignature(kernel_.name, generatedArguments(model_, kernel_.cargs)) << "\n{\n";
    code_.line("/* Local variables used by this kernel */");
    for (const ArgTiling& arg : tiling_.args) {
        if (arg.residence == ArgResidence::Scratch)
            continue;
        const std::string& name = arg.arg->name;
        if (arg.isInput())
            code_.line("AT_L2_EVENT EvtR_" + name + ";");
        if (arg.isOutput())
            code_.line("AT_L2_EVENT EvtW_" + name + ";");
        if (doubleBuffered(arg))
            code_.line("int Buf_" + name + " = 0;");
        if (doubleBuffered(arg) && arg.isOutput() && !arg.stagedInL2)
            code_.line("int Wr_" + name + " = 0;");
        if (arg.stagedInL2 && arg.isInput())
            code_.line(std::string(fromFlash(arg) ? "AT_FLASH_FS_CL_EVENT" : "AT_L3_EVENT") + " EvtR3_" + name + ";");
        if (arg.stagedInL2 && arg.isOutput()) {
            code_.line("AT_L3_EVENT EvtW3_" + name + "[2];");
            code_.line("int W3_" + name + "[2] = {0, 0}, Stg_" + name + " = 0;");
        }
    }
    std::string variables, zeros, unused;
    for (const std::string& variable : loopVariables()) {
        variables += (variables.empty() ? "" : ", ") + variable;
        zeros += (zeros.empty() ? "" : " ") + variable + " = 0;";
        unused += (unused.empty() ? "" : " ") + std::string("(void) ") + variable + ";";
    }
    code_.line("int " + variables + ";");
    int parallelIndex = 0;
    for (const KernelCall& call : kernel_.calls) {
        const BasicKernel* callee = model_.findBasicKernel(call.callee);
        if (callee && callee->takesStruct()) {
            const std::string index = std::to_string(parallelIndex++);
            code_.line(callee->parallelArgType + " S_KerArg" + index + ", *KerArg" + index + " = &S_KerArg" + index + ";");
        }
    }
    code_.line("/* ================ Read first chunks, promoted and single-chunk arguments ================ */");
    code_.line(zeros);
    for (const ArgTiling& arg : tiling_.args) {
        if (arg.residence == ArgResidence::Scratch || !arg.isInput())
            continue;
        const std::string event = "EvtR_" + arg.arg->name;
        if (arg.residence == ArgResidence::Promoted && arg.stagedInL2) {
            readPromotedFromL3(arg);
        } else if (arg.residence == ArgResidence::Promoted) {
            code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) " + arg.arg->cArgName + ", (AT_L2_INT_ADDR_TYPE) " +
                       l1Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L2_EXT2LOC, &" + event + ");");
            code_.line("AT_L2_WAIT(0, &" + event + ");");
        } else if (arg.level < 0 && arg.stagedInL2) {
            readStagedChunk(arg, "");
        } else if (arg.level < 0) {
            copy(arg, "", "", true, event);
            code_.line("AT_L2_WAIT(0, &" + event + ");");
        } else if (doubleBuffered(arg) && arg.stagedInL2) {
            // Chunk 0 through L3 -> L2 -> L1, and chunk 1 already on its way from L3.
            readStagedChunkAsync(arg);
        } else if (doubleBuffered(arg)) {
            copy(arg, "", "0", true, event);
        }
    }
    code_.line("/* ================ Iteration ================ */");
    emitLevel(0);
    code_.line("/* ================ Write last chunks ================ */");
    code_.line(zeros);
    for (const ArgTiling& arg : tiling_.args) {
        if (arg.residence == ArgResidence::Scratch || !arg.isOutput())
            continue;
        const std::string event = "EvtW_" + arg.arg->name;
        if (arg.residence == ArgResidence::Promoted && arg.stagedInL2) {
            writePromotedToL3(arg);
        } else if (arg.residence == ArgResidence::Promoted) {
            code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) " + arg.arg->cArgName + ", (AT_L2_INT_ADDR_TYPE) " +
                       l1Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L2_LOC2EXT, &" + event + ");");
            code_.line("AT_L2_WAIT(0, &" + event + ");");
        } else if (arg.level < 0 && arg.stagedInL2) {
            writeStagedChunk(arg, "");
        } else if (arg.level < 0) {
            copy(arg, "", "", false, event);
            code_.line("AT_L2_WAIT(0, &" + event + ");");
        } else if (doubleBuffered(arg) && !arg.stagedInL2) {
            code_.line("if (Wr_" + arg.arg->name + ") AT_L2_WAIT(0, &" + event + ");");
        }
        if (arg.stagedInL2)
            for (int buffer = 0; buffer < 2; ++buffer)
                code_.line("if (W3_" + arg.arg->name + "[" + std::to_string(buffer) +
                           "]) AT_L3_WAIT(AT_L3_DEFAULT_DEVICE, &EvtW3_" + arg.arg->name + "[" +
                           std::to_string(buffer) + "]);");
    }
    code_.line(unused);
    out << code_.str() << "}\n";
    return out.str();
}

}  // namespace emission

std::vector<CArgument> generatedArguments(const KernelModel& model, const std::vector<CArgument>& cargs)
{
    std::vector<CArgument> arguments = cargs;
    if (model.options.kernelDescriptorArgument)
        arguments.push_back({"Kernel_T *", "Ker"});
    return arguments;
}

std::string cArgumentExpr(const Binding& binding)
{
    if (binding.value == 0)
        return binding.name;
    return "(" + binding.name + (binding.value < 0 ? "" : "+") + std::to_string(binding.value) + ")";
}

std::string noinlinePrefix(const KernelModel& model)
{
    return model.options.noinlineKernels ? "__attribute__((noinline))\n" : "";
}

std::string functionSignature(const std::string& name, const std::vector<CArgument>& args)
{
    std::string text = "void " + name + "(";
    if (args.empty())
        return text + "void)";
    for (std::size_t i = 0; i < args.size(); ++i)
        text += std::string(i ? ",\n" : "\n") + "    " + args[i].type + " " + args[i].name;
    return text + ")";
}

std::string emitUserKernel(const KernelModel& model, const KernelTiling& tiling)
{
    return emission::KernelEmitter(model, tiling).emit();
}

std::string emitKernelGroup(const KernelModel& model, const KernelGroup& group)
{
    std::ostringstream out;
    out << "/* Kernel group " << group.name << ": calls";
    for (const KernelCall& call : group.calls)
        out << " " << call.callee;
    out << " in sequence";
    if (group.iterations > 1)
        out << ", " << group.iterations << " times";
    out << " */\n" << noinlinePrefix(model) << functionSignature(group.name, generatedArguments(model, group.cargs))
        << "\n{\n";
    std::string in = "    ";
    if (group.iterations > 1) {
        out << "    for (int " << kGroupIterationVariable << " = 0; " << kGroupIterationVariable << " < "
            << group.iterations << "; " << kGroupIterationVariable << "++) {\n";
        in += "    ";
    }
    for (const KernelCall& call : group.calls) {
        const UserKernel* callee = model.findUserKernel(call.callee);
        out << in << call.callee << "(";
        for (std::size_t i = 0; i < call.bindings.size(); ++i) {
            const Binding& binding = call.bindings[i];
            const std::string value =
                binding.kind == Binding::Kind::Immediate ? std::to_string(binding.value)
                : binding.kind == Binding::Kind::Literal ? binding.name
                                                         : cArgumentExpr(binding);
            const std::string type = callee && i < callee->cargs.size() ? callee->cargs[i].type : "";
            out << (i ? ", " : "") << (type.empty() ? "" : "(" + type + ") ") << "(" << value << ")";
        }
        if (model.options.kernelDescriptorArgument)
            out << (call.bindings.empty() ? "Ker" : ", Ker");
        out << ");\n";
    }
    if (group.iterations > 1)
        out << "    }\n";
    out << "}\n";
    return out.str();
}

}  // namespace tessera::tiler
