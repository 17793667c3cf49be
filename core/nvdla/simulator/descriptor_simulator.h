// Runs a loadable on the host from the loadable alone: the memories it declares (SET blobs copied
// in), the inputs written where the application would bind them, then the tasks in submit order —
// DLA tasks operation by operation as their descriptors say (CONV direct convolution, SDP bias /
// scale / ReLU stages, PDP pooling), EMU tasks as NVIDIA's runtime emulator computes them (Softmax,
// Power) — and the bound outputs read back. FP16 data is rounded to half precision wherever the
// hardware writes memory; accumulation is in single precision. INT8 data goes through the units'
// integer arithmetic exactly (interp/fixed_point/dla_arithmetic.h).
#pragma once

#include "ir/tensor_data.h"
#include "nvdla/loadable.h"
#include "target/nvdla_configs.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tessera::nvdla {

struct SimulationResult {
    std::vector<TensorData> outputs;  // [N,C,H,W] in output bind order: float32 (FP16 data) or int8
    std::vector<std::string> names;   // the outputs' tensor names
    std::vector<std::string> trace;   // one line per operation run
};

// Called after each DLA operation that writes a feature cube to memory (SDP, PDP, CDP; RUBIK's
// contract and merge) with what it wrote: [1,C,H,W], float32 for FP16 data, int8 for INT8 data.
using OperationObserver = std::function<void(std::uint16_t task, std::size_t operation, const TensorData& written)>;

// `inputs` in input bind order with C*H*W elements of the input's tensor description: real values
// for FP16 inputs, the int8 values themselves for INT8 inputs (rounded and saturated if given as
// floats).
// Throws tessera::ModelError naming the task, operation and field when the loadable asks for
// something outside its memories or a unit mode the simulator does not model.
SimulationResult simulateLoadable(const Loadable& loadable, const std::vector<TensorData>& inputs,
                                  const target::NvdlaConfig& config, const OperationObserver& observer = {});

// The inputs' tensor descriptions, in bind order (what `inputs` must match).
std::vector<TensorDesc> loadableInputs(const Loadable& loadable);

}  // namespace tessera::nvdla
