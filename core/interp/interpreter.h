#pragma once
// The reference interpreter: executes a graph node by node with the reference kernels. It is the
// oracle every backend is checked against.
//
// Arithmetic: float tensors are computed by the float kernels (float32 accumulation unless a kernel
// says otherwise); integer tensors exactly. A fixed-point mode (Q-format tensors) plugs in as a
// separate kernel table selected per node by the tensors' quantization; the execution loop below
// does not change for it.
#include "ir/graph.h"

#include <functional>
#include <vector>

namespace tessera {

class Interpreter {
public:
    // Checks that every node has a kernel; throws UnsupportedError naming the first that has not.
    explicit Interpreter(const Graph& graph);

    // Called after each node with the step index, the node and its outputs.
    using StepObserver = std::function<void(size_t step, const Node&, const std::vector<TensorData>&)>;

    // `inputs` in graph-input order; each must match the input's dtype and shape (ShapeError
    // naming the input otherwise). Returns the outputs in graph-output order.
    std::vector<TensorData> run(const std::vector<TensorData>& inputs,
                                const StepObserver& observer = {}) const;

private:
    const Graph& graph_;
    std::vector<NodeId> order_;
};

} // namespace tessera
