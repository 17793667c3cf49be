// The DMA copies of a tiled user kernel's arguments (see kernel_emitter_class.h): L2 <-> L1 chunks,
// padded input tiles, L3 <-> L2 staging and promoted arguments, HWC planes gathered by 2-D copies.
#include "tiler/kernel_emitter_class.h"

// GCC 12 reports a false -Wrestrict on "literal" + std::string at -O2 (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"

namespace tessera::tiler::emission {

void KernelEmitter::copy(const ArgTiling& arg, const std::string& prefix, const std::string& buffer, bool in,
                         const std::string& event)
{
    const KernelArgument& model = *arg.arg;
    if (arg.padded()) {
        copyPadded(arg, prefix, buffer, event);
        return;
    }
    const std::string home = "(AT_L2_EXT_ADDR_TYPE) ((char *) " + model.cArgName + "+" + homeOffset(arg, prefix) + ")";
    const std::string local = "(AT_L2_INT_ADDR_TYPE) " + l1Buffer(arg, buffer);
    const std::string direction = in ? "AT_L2_EXT2LOC" : "AT_L2_LOC2EXT";
    const bool planesContiguous = planesAreWhole(arg);
    if (model.interleavedPlanes && arg.planeCount > 1) {
        // The plane's lines, every plane's line apart in the home memory.
        code_.line("AT_L2_COPY2D(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(interleavedLineStride(arg)) + ", " + num(arg.planeStride) + ", " + direction + ", &" + event +
                   ");");
    } else if (model.hwcPlanes && arg.planeCount > 1 && arg.planesPerChunk < arg.planeCount) {
        // HWC: the chunk's planes of each item, every item's planes apart in the home memory.
        code_.line("AT_L2_COPY2D(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(std::uint64_t(arg.planeCount) * model.itemSize) + ", " + chunkPlanes(arg, prefix) + "*" +
                   num(model.itemSize) + ", " + direction + ", &" + event + ");");
    } else if (model.hwcPlanes) {
        // HWC with every plane in the chunk: the tile's home lines, one block.
        code_.line("AT_L2_COPY(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " + direction + ", &" +
                   event + ");");
    } else if (arg.planesPerChunk > 1 && !(planesContiguous && arg.chunkPlaneStride == arg.planeBytes)) {
        // One tile from each plane of the chunk: lines of one tile, a plane apart.
        code_.line("AT_L2_COPY2D(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(arg.chunkPlaneStride) + ", " + planeChunkSize(arg, prefix) + ", " + direction + ", &" + event + ");");
    } else if (arg.tiled && arg.orientation == Orientation::Vertical && tileCount(arg) > 1) {
        const std::string length = tileSizeExpr(arg, prefix) + "*" + num(model.itemSize);
        code_.line("AT_L2_COPY2D(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(std::uint64_t(model.width) * model.itemSize) + ", " + length + ", " + direction + ", &" +
                   event + ");");
    } else {
        code_.line("AT_L2_COPY(0, " + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " + direction +
                   ", &" + event + ");");
    }
}

// The first line of a padded input's tile, counted from its first home line (negative in the top padding).
std::string KernelEmitter::padFirstExpr(const ArgTiling& arg, const std::string& prefix) const
{
    return tileCount(arg) > 1 ? tileVar(arg, prefix) + "*" + num(arg.step) + "-" + num(arg.padBefore)
                              : "-" + num(arg.padBefore);
}

// Opens a block declaring the line window of a padded input's tile: PadFirst (its first line, negative
// in the top padding), PadLines, PadSkip (padding lines before the home lines) and PadEnd (one past
// its last home line). The caller closes the block.
void KernelEmitter::openPadWindow(const ArgTiling& arg, const std::string& prefix)
{
    code_.open("{");
    code_.line("int PadFirst = " + padFirstExpr(arg, prefix) + ", PadLines = " + tileSizeExpr(arg, prefix) + ";");
    code_.line("int PadSkip = PadFirst < 0 ? -PadFirst : 0;");
    code_.line("int PadEnd = PadFirst + PadLines > " + num(arg.arg->height) + " ? " + num(arg.arg->height) +
               " : PadFirst + PadLines;");
}

// Zeroes the padding lines of the tile in its L1 buffer (inside openPadWindow's block).
void KernelEmitter::zeroPadLines(const ArgTiling& arg, const std::string& l1buffer)
{
    const std::uint64_t lineBytes = std::uint64_t(arg.crossExtent) * arg.arg->itemSize;
    code_.line("char *PadLocal = (char *) " + l1Buffer(arg, l1buffer) + ";");
    code_.line("if (PadSkip) memset(PadLocal, 0, PadSkip*" + num(lineBytes) + ");");
    code_.line("if (PadEnd - PadFirst < PadLines) memset(PadLocal + (PadEnd - PadFirst)*" + num(lineBytes) +
               ", 0, (PadLines - (PadEnd - PadFirst))*" + num(lineBytes) + ");");
}

// The home offset of the tile's first home line (inside openPadWindow's block).
std::string KernelEmitter::padHomeOffset(const ArgTiling& arg, const std::string& prefix) const
{
    const std::uint64_t lineBytes = std::uint64_t(arg.crossExtent) * arg.arg->itemSize;
    const std::string plane = planeIndex(arg, prefix);
    const std::string planeOffset = plane.empty() ? "0" : "(" + plane + ")*" + num(arg.planeStride);
    return planeOffset + "+(PadFirst + PadSkip)*" + num(lineBytes);
}

// A padded input's tile: the padding lines it covers are zeroed in L1 and only its home lines are
// copied (one plane per chunk: the solver streams padded arguments plane by plane).
void KernelEmitter::copyPadded(const ArgTiling& arg, const std::string& prefix, const std::string& buffer,
                               const std::string& event)
{
    const std::uint64_t lineBytes = std::uint64_t(arg.crossExtent) * arg.arg->itemSize;
    openPadWindow(arg, prefix);
    if (arg.planesPerChunk > 1) {
        // Several planes of an input its kernel pads itself: each plane's home lines of the tile, back
        // to back; the kernel reads no padding line, so none is zeroed.
        const std::string homeBytes = "(PadEnd - PadFirst - PadSkip)*" + num(lineBytes);
        code_.line("AT_L2_COPY2D(0, (AT_L2_EXT_ADDR_TYPE) ((char *) " + arg.arg->cArgName + "+" +
                   padHomeOffset(arg, prefix) + "), (AT_L2_INT_ADDR_TYPE) " + l1Buffer(arg, buffer) + ", " +
                   chunkPlanes(arg, prefix) + "*" + homeBytes + ", " + num(arg.chunkPlaneStride) + ", " + homeBytes +
                   ", AT_L2_EXT2LOC, &" + event + ");");
        code_.close();
        return;
    }
    zeroPadLines(arg, buffer);
    code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) ((char *) " + arg.arg->cArgName + "+" + padHomeOffset(arg, prefix) +
               "), (AT_L2_INT_ADDR_TYPE) (PadLocal + PadSkip*" + num(lineBytes) + "), (PadEnd - PadFirst - PadSkip)*" +
               num(lineBytes) + ", AT_L2_EXT2LOC, &" + event + ");");
    code_.close();
}

std::string KernelEmitter::l2Buffer(const ArgTiling& arg, const std::string& buffer) const
{
    const std::string& base = tiling_.kernel->l2StagingBase.empty() ? model_.options.l2Symbol
                                                                    : tiling_.kernel->l2StagingBase;
    std::string pointer = "(" + base + "+" + num(arg.l2Offset);
    if (!buffer.empty())
        pointer += "+" + num(arg.chunkBytes) + "*(" + buffer + ")";
    return pointer + ")";
}

// L3 home <-> L2 staging buffer (micro DMA); the staging copy is compact like the L1 one.
void KernelEmitter::copyL3(const ArgTiling& arg, const std::string& prefix, const std::string& l2buffer, bool in,
                           const std::string& event)
{
    const KernelArgument& model = *arg.arg;
    if (arg.padded()) {
        // The home lines only, at their place in the staging buffer (laid out like the L1 tile).
        const std::uint64_t lineBytes = std::uint64_t(arg.crossExtent) * model.itemSize;
        openPadWindow(arg, prefix);
        code_.line(l3CopyCall(arg, false) + "(AT_L3_EXT_ADDR_TYPE) ((char *) " + model.cArgName + "+" +
                   padHomeOffset(arg, prefix) + "), (AT_L2_INT_ADDR_TYPE) ((char *) " + l2Buffer(arg, l2buffer) +
                   "+PadSkip*" + num(lineBytes) + "), (PadEnd - PadFirst - PadSkip)*" + num(lineBytes) +
                   ", AT_L3_EXT2LOC, &" + event + ");");
        code_.close();
        return;
    }
    const std::string home = "(AT_L3_EXT_ADDR_TYPE) ((char *) " + model.cArgName + "+" + homeOffset(arg, prefix) + ")";
    const std::string local = "(AT_L2_INT_ADDR_TYPE) " + l2Buffer(arg, l2buffer);
    const std::string direction = in ? "AT_L3_EXT2LOC" : "AT_L3_LOC2EXT";
    const bool planesContiguous = planesAreWhole(arg);
    if (model.interleavedPlanes && arg.planeCount > 1) {
        code_.line(l3CopyCall(arg, true) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(interleavedLineStride(arg)) + ", " + num(arg.planeStride) + ", " + direction + ", &" + event +
                   ");");
    } else if (model.hwcPlanes && arg.planeCount > 1 && arg.planesPerChunk < arg.planeCount) {
        // HWC: the chunk's planes of each item, gathered into staging laid out like the L1 chunk.
        code_.line(l3CopyCall(arg, true) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(std::uint64_t(arg.planeCount) * model.itemSize) + ", " + chunkPlanes(arg, prefix) + "*" +
                   num(model.itemSize) + ", " + direction + ", &" + event + ");");
    } else if (model.hwcPlanes) {
        code_.line(l3CopyCall(arg, false) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " + direction +
                   ", &" + event + ");");
    } else if (arg.planesPerChunk > 1 && !(planesContiguous && arg.chunkPlaneStride == arg.planeBytes)) {
        // One tile from each plane of the chunk, a plane apart in L3, back to back in staging.
        code_.line(l3CopyCall(arg, true) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(arg.chunkPlaneStride) + ", " + planeChunkSize(arg, prefix) + ", " + direction + ", &" + event + ");");
    } else if (arg.tiled && arg.orientation == Orientation::Vertical && tileCount(arg) > 1) {
        const std::string length = tileSizeExpr(arg, prefix) + "*" + num(model.itemSize);
        code_.line(l3CopyCall(arg, true) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " +
                   num(std::uint64_t(model.width) * model.itemSize) + ", " + length + ", " + direction + ", &" +
                   event + ");");
    } else {
        code_.line(l3CopyCall(arg, false) + home + ", " + local + ", " + chunkSize(arg, prefix) + ", " + direction +
                   ", &" + event + ");");
    }
}

std::string KernelEmitter::l3CopyCall(const ArgTiling& arg, bool twoD) const
{
    if (fromFlash(arg))
        return std::string(twoD ? "AT_FLASH_FS_CL_COPY2D(" : "AT_FLASH_FS_CL_COPY(") + arg.arg->flashImage + ", ";
    return twoD ? "AT_L3_COPY2D(AT_L3_DEFAULT_DEVICE, " : "AT_L3_COPY(AT_L3_DEFAULT_DEVICE, ";
}

std::string KernelEmitter::l3Wait(const ArgTiling& arg, const std::string& event) const
{
    if (fromFlash(arg))
        return "AT_FLASH_FS_CL_WAIT(" + arg.arg->flashImage + ", &" + event + ");";
    return "AT_L3_WAIT(AT_L3_DEFAULT_DEVICE, &" + event + ");";
}

// L2 staging buffer <-> L1 buffer (cluster DMA, one contiguous block).
void KernelEmitter::copyStaged(const ArgTiling& arg, const std::string& prefix, const std::string& l2buffer,
                               const std::string& l1buffer, bool in, const std::string& event)
{
    if (arg.padded()) {
        // The home lines from staging; the padding lines are zeroed in L1.
        const std::uint64_t lineBytes = std::uint64_t(arg.crossExtent) * arg.arg->itemSize;
        openPadWindow(arg, prefix);
        zeroPadLines(arg, l1buffer);
        code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) ((char *) " + l2Buffer(arg, l2buffer) + "+PadSkip*" +
                   num(lineBytes) + "), (AT_L2_INT_ADDR_TYPE) (PadLocal + PadSkip*" + num(lineBytes) +
                   "), (PadEnd - PadFirst - PadSkip)*" + num(lineBytes) + ", AT_L2_EXT2LOC, &" + event + ");");
        code_.close();
        return;
    }
    code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) " + l2Buffer(arg, l2buffer) + ", (AT_L2_INT_ADDR_TYPE) " +
               l1Buffer(arg, l1buffer) + ", " + chunkSize(arg, prefix) + ", " +
               (in ? "AT_L2_EXT2LOC" : "AT_L2_LOC2EXT") + ", &" + event + ");");
}

// A blocking read of the chunk at `prefix` from L3 through the first staging buffer.
void KernelEmitter::readStagedChunk(const ArgTiling& arg, const std::string& prefix)
{
    const std::string& name = arg.arg->name;
    copyL3(arg, prefix, "0", true, "EvtR3_" + name);
    code_.line(l3Wait(arg, "EvtR3_" + name));
    copyStaged(arg, prefix, "0", "", true, "EvtR_" + name);
    code_.line("AT_L2_WAIT(0, &EvtR_" + name + ");");
}

// The prologue of a double-buffered argument homed in L3: chunk 0 to L2 (waited) and on to L1,
// and chunk 1 started from L3 into the second staging buffer.
void KernelEmitter::readStagedChunkAsync(const ArgTiling& arg)
{
    const std::string& name = arg.arg->name;
    copyL3(arg, "", "0", true, "EvtR3_" + name);
    code_.line(l3Wait(arg, "EvtR3_" + name));
    copyStaged(arg, "", "0", "0", true, "EvtR_" + name);
    code_.open("{");
    emitAdvance(std::size_t(arg.level), "", "Next", "NextMore");
    code_.open("if (NextMore) {");
    copyL3(arg, "Next", "1", true, "EvtR3_" + name);
    code_.close();
    code_.close();
}

// A whole argument homed in L3 (or in flash) that lives in L1 for the whole kernel (a buffer such as
// a layer's Infos, or a promoted input): one copy to its L2 staging buffer, then one to L1.
void KernelEmitter::readPromotedFromL3(const ArgTiling& arg)
{
    const std::string& name = arg.arg->name;
    code_.line(l3CopyCall(arg, false) + "(AT_L3_EXT_ADDR_TYPE) " + arg.arg->cArgName + ", (AT_L2_INT_ADDR_TYPE) " +
               l2Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L3_EXT2LOC, &EvtR3_" + name + ");");
    code_.line(l3Wait(arg, "EvtR3_" + name));
    code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) " + l2Buffer(arg, "") + ", (AT_L2_INT_ADDR_TYPE) " +
               l1Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L2_EXT2LOC, &EvtR_" + name + ");");
    code_.line("AT_L2_WAIT(0, &EvtR_" + name + ");");
}

// The output counterpart: L1 to the first staging buffer (waited), then on to L3, waited for with
// the other trips to L3 at the end of the kernel.
void KernelEmitter::writePromotedToL3(const ArgTiling& arg)
{
    const std::string& name = arg.arg->name;
    code_.line("AT_L2_COPY(0, (AT_L2_EXT_ADDR_TYPE) " + l2Buffer(arg, "") + ", (AT_L2_INT_ADDR_TYPE) " +
               l1Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L2_LOC2EXT, &EvtW_" + name + ");");
    code_.line("AT_L2_WAIT(0, &EvtW_" + name + ");");
    code_.line(l3CopyCall(arg, false) + "(AT_L3_EXT_ADDR_TYPE) " + arg.arg->cArgName + ", (AT_L2_INT_ADDR_TYPE) " +
               l2Buffer(arg, "") + ", " + num(arg.chunkBytes) + ", AT_L3_LOC2EXT, &EvtW3_" + name + "[0]);");
    code_.line("W3_" + name + "[0] = 1;");
    code_.line("(void) Stg_" + name + ";");
}

// L1 -> L2 staging (waited: the staging buffer must be whole before it leaves), then L2 -> L3
// asynchronously; each staging buffer waits for its previous trip to L3 before it is refilled.
void KernelEmitter::writeStagedChunk(const ArgTiling& arg, const std::string& l1buffer)
{
    const std::string& name = arg.arg->name;
    code_.line("if (W3_" + name + "[Stg_" + name + "]) AT_L3_WAIT(AT_L3_DEFAULT_DEVICE, &EvtW3_" + name + "[Stg_" +
               name + "]);");
    copyStaged(arg, "", "Stg_" + name, l1buffer, false, "EvtW_" + name);
    code_.line("AT_L2_WAIT(0, &EvtW_" + name + ");");
    copyL3(arg, "", "Stg_" + name, false, "EvtW3_" + name + "[Stg_" + name + "]");
    code_.line("W3_" + name + "[Stg_" + name + "] = 1;");
    code_.line("Stg_" + name + " ^= 1;");
}

}  // namespace tessera::tiler::emission
