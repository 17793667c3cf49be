// A convolution with a pooling fused into it keeps 32-bit accumulators for every line its pooling
// windows span, so at large planes the fused layer may not tile in L1 where the convolution and the
// pooling apart would. The plan then runs them as two layers: the convolution (with its ReLU when
// the pooling is a max, which commutes with it), then a pooling layer of its own.
#pragma once

#include "gap/compile/gap_network.h"
#include "tiler/kernel_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::gap {

// Whether the user kernel `kernel` of `model` has a tiling within `l1Budget` bytes with all its
// arguments in L2 (L2 unbounded); nothing is known (true) of a kernel the model lacks or one that
// is malformed.
bool kernelTilesInL1(const tiler::KernelModel& model, const std::string& kernel, std::uint64_t l1Budget);

// The convolution layers with a fused pooling whose user kernel in `model` has no tiling within
// `l1Budget` bytes and which can be split (not a ReLU6 after an average pooling).
std::vector<std::string> fusedPoolingOverL1(const GapNetwork& network, const tiler::KernelModel& model,
                                            std::uint64_t l1Budget);

// `network` with each of `layers` split into its convolution and a pooling layer named
// <layer>_pool, which computes the same values. Q formats and scales are kept: pooling keeps them.
GapNetwork splitFusedPooling(const GapNetwork& network, const std::vector<std::string>& layers);

}  // namespace tessera::gap
