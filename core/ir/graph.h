#pragma once
// The model IR every target reads: a graph of typed tensors and operator nodes.
#include "ir/attribute.h"
#include "ir/dtype.h"
#include "ir/quantization.h"
#include "ir/shape.h"
#include "ir/tensor_data.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

using TensorId = int32_t;
using NodeId = int32_t;
inline constexpr TensorId kNoTensor = -1; // an optional operator input that is absent

struct Tensor {
    std::string name;
    DType dtype = DType::Float32;
    Shape shape;
    bool typed = false; // dtype and shape are known (set by import or shape inference)
    std::shared_ptr<const TensorData> constant; // initializers and folded values
    Quantization quantization;

    bool isConstant() const { return constant != nullptr; }
    int64_t elements() const { return elementCount(shape, name); }
    int64_t bytes() const { return elements() * static_cast<int64_t>(dtypeSize(dtype)); }
};

struct Node {
    std::string name;
    std::string opType;
    std::string domain; // empty for the default ONNX domain
    std::vector<TensorId> inputs; // kNoTensor for an absent optional input
    std::vector<TensorId> outputs;
    AttributeMap attributes;

    bool hasAttr(const std::string& key) const { return attributes.count(key) != 0; }
    const Attribute* attr(const std::string& key) const;
    // Typed attribute reads; throw ModelError naming the node when the attribute has another kind.
    int64_t attrInt(const std::string& key, int64_t fallback) const;
    float attrFloat(const std::string& key, float fallback) const;
    std::string attrString(const std::string& key, const std::string& fallback) const;
    std::vector<int64_t> attrInts(const std::string& key, std::vector<int64_t> fallback = {}) const;
    std::vector<float> attrFloats(const std::string& key, std::vector<float> fallback = {}) const;
    // "node 'conv1' (Conv)", used at the front of error messages.
    std::string describe() const;
};

class Graph {
public:
    std::string name;
    int64_t opset = 17;              // version of the default ONNX operator set
    std::string producer;            // the tool that wrote the model ("pytorch 2.1.0"), when known
    std::vector<std::string> notes;  // things import changed that a user should know
    std::vector<TensorId> inputs;    // runtime inputs, in order (no constants)
    std::vector<TensorId> outputs;

    // Adds a tensor; throws ModelError when the name is already taken.
    TensorId addTensor(Tensor tensor);
    NodeId addNode(Node node);

    Tensor& tensor(TensorId id) { return tensors_.at(static_cast<size_t>(id)); }
    const Tensor& tensor(TensorId id) const { return tensors_.at(static_cast<size_t>(id)); }
    Node& node(NodeId id) { return nodes_.at(static_cast<size_t>(id)); }
    const Node& node(NodeId id) const { return nodes_.at(static_cast<size_t>(id)); }
    const std::vector<Tensor>& tensors() const { return tensors_; }
    const std::vector<Node>& nodes() const { return nodes_; }
    size_t tensorCount() const { return tensors_.size(); }
    size_t nodeCount() const { return nodes_.size(); }

    std::optional<TensorId> findTensor(const std::string& name) const;
    // A name not used by any tensor yet, built from `base`.
    std::string uniqueTensorName(const std::string& base) const;

    // Removes the nodes marked in `remove` (indexed by NodeId) and every tensor no longer
    // referenced by a node or the graph interface. Ids of what remains change.
    void removeNodes(const std::vector<bool>& remove);

private:
    std::vector<Tensor> tensors_;
    std::vector<Node> nodes_;
    std::unordered_map<std::string, TensorId> tensorByName_;
};

} // namespace tessera
