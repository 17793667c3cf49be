// The C emitter: writes one tiled user kernel (or kernel group) as a C function in the structure
// the Autotiler's generated code has — a prologue that starts the first reads, a loop nest that
// waits, prefetches the next chunk into the other buffer, calls the basic kernels at their
// locations and writes results back asynchronously, and an epilogue that drains the writes.
// Memory and DMA go through the at_api.h macros (host emulation or GAP).
#pragma once

#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <string>

namespace tessera::tiler {

// "void Name(Type1 Arg1, ...)" without the trailing semicolon.
std::string functionSignature(const std::string& name, const std::vector<CArgument>& args);
// What starts a user kernel's or group's definition under AT_GRAPH_NOINLINE_NODE: the attribute
// that keeps the compiler from inlining it into the graph runner (so each node shows in profiles).
std::string noinlinePrefix(const KernelModel& model);
// The C arguments of a generated user kernel or group: its own, and the first Autotiler's trailing
// `Kernel_T *Ker` when the model asks for that form.
std::vector<CArgument> generatedArguments(const KernelModel& model, const std::vector<CArgument>& cargs);
// A C_Arg binding as C: the argument's name, plus its offset (C_ArgPlusImmOffset) when it has one.
std::string cArgumentExpr(const Binding& binding);

// A comment stating the loops, tiles, sizes, buffering and predicted DMA of a tiled kernel.
std::string iterSpacesComment(const KernelTiling& tiling);

std::string emitUserKernel(const KernelModel& model, const KernelTiling& tiling);
std::string emitKernelGroup(const KernelModel& model, const KernelGroup& group);

}  // namespace tessera::tiler
