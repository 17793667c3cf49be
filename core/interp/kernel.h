#pragma once
// A reference kernel computes one node's outputs from its input values. Outputs arrive allocated
// (zero-filled) with the types the node's shape rule inferred from the same inputs.
#include "ir/graph.h"

#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

struct KernelContext {
    const Node& node;
    int64_t opset;
    std::vector<const TensorData*> inputs; // nullptr for an absent optional input
    std::vector<TensorData>& outputs;

    bool hasInput(size_t index) const { return index < inputs.size() && inputs[index]; }
    const TensorData& input(size_t index) const;  // throws ShapeError when absent
    TensorData& output(size_t index) { return outputs.at(index); }
    [[noreturn]] void fail(const std::string& message) const; // ShapeError naming the node
};

using Kernel = std::function<void(KernelContext&)>;
using KernelTable = std::unordered_map<std::string, Kernel>;

// Every reference kernel, by ONNX op type.
const KernelTable& kernels();
bool hasKernel(const std::string& opType);

} // namespace tessera
