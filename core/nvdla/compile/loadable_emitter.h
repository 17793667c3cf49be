// From a legalized, mapped graph and its surface plan to a loadable: bound memories and tensor
// descriptions for the network's inputs and outputs, one scratch memory, weights and biases as
// blobs in the hardware's layouts, and the operations as DLA tasks (CONV with its SDP on the fly,
// SDP, PDP) and EMU tasks (Softmax), in the order of the plan. Consecutive DLA operations share a
// task; a task starts when the one before it completed.
#pragma once

#include "ir/graph.h"
#include "nvdla/compile/int8_quantization.h"
#include "nvdla/compile/surface_plan.h"
#include "nvdla/loadable.h"
#include "target/nvdla_configs.h"

#include <string>
#include <vector>

namespace tessera::nvdla {

// What one graph node became, for the report.
// How one convolution part (the whole convolution, a group, a depthwise block) holds the CBUF:
// the banks of input lines (data, the first banks) and of kernels (weights, the last), and the
// bands of output rows it is computed in when the whole input does not fit beside the weights.
struct ConvolutionBufferUse {
    std::string part;
    unsigned dataBanks = 0, weightBanks = 0;
    unsigned bands = 1, bandRows = 0;
};

struct EmittedNode {
    std::string node;
    int task = -1;
    std::vector<std::string> operations;  // "CONV 0", "SDP 1", "EMU SOFTMAX 0"
    std::string note;                     // banks, weights
    std::vector<ConvolutionBufferUse> convolutionBuffer;  // convolutions: one per part
};

// `int8`: the quantization of an INT8 loadable (the plan's surfaces are then INT8); null for FP16.
// Throws tessera::UnsupportedError naming the node when an operation does not fit the hardware
// (a convolution whose weights and data need more CBUF banks than the configuration has).
Loadable emitLoadable(const Graph& legalized, const SurfacePlan& plan, const target::NvdlaConfig& config,
                      const Int8Quantization* int8, std::vector<EmittedNode>& emitted);

}  // namespace tessera::nvdla
