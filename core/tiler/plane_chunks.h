// Plane loops run in chunks of several planes: a parametric space (IterParSpace, see
// UserKernel::chunkablePlanes) whose basic kernels are told each chunk's planes. The tile solver
// tries the chunk sizes below; the arguments following the loop then carry a chunk's planes, one
// tile of each back to back, and the last chunk holds the planes left.
#pragma once

#include "tiler/kernel_model.h"
#include "tiler/tiling.h"

#include <cstdint>
#include <vector>

namespace tessera::tiler {

// The chunk sizes worth trying for the kernel's chunkable loop (`tiling` unchunked), {1} when it
// has none: 1, the whole space, multiples of the divider (a few per doubling) and powers of two
// below the divider, for budgets too small for a divider's worth.
std::vector<unsigned> planeChunkCandidates(const KernelTiling& tiling, const UserKernel& kernel);

// Whether the argument varies along the plane loop over `space` (a 3-D L1 buffer along the loop
// whose planes it holds: the input planes' for one written per input plane, else the output planes').
bool variesAlong(const ArgTiling& arg, IterationSpace space);

// Whether the argument's chunks follow the chunked plane loop.
bool followsChunkedLoop(const KernelTiling& tiling, const ArgTiling& arg);

// Runs the kernel's chunkable loop `chunk` planes at a time; false when an argument following it
// cannot be moved in chunks of several planes (padded lines the copy zeroes, interleaved planes,
// room around its buffers).
bool applyPlaneChunk(KernelTiling& tiling, IterationSpace space, unsigned chunk);

// Bytes an argument moves over the loop nest, `fullChunks` counting every chunk of the chunked loop
// as a full one: the last chunk's missing planes taken off.
std::uint64_t withLastChunk(const KernelTiling& tiling, const ArgTiling& arg, std::uint64_t fullChunks);

}  // namespace tessera::tiler
