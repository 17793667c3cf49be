#pragma once
// Shape and type inference: every supported operator has a rule that gives its output types from
// its input types, attributes and, where the operator needs them, constant input values.
// The same rules serve static inference over a graph (values known only for constants) and the
// interpreter (every value known), so data-dependent shapes such as Reshape's work in both.
#include "ir/graph.h"

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tessera {

struct TensorType {
    DType dtype = DType::Float32;
    Shape shape;
};

struct InputInfo {
    bool present = false;             // false for an absent optional input
    DType dtype = DType::Float32;
    Shape shape;
    const TensorData* value = nullptr; // known contents, or nullptr
};

class InferContext {
public:
    InferContext(const Node& node, std::vector<InputInfo> inputs, int64_t opset)
        : node_(node), inputs_(std::move(inputs)), opset_(opset) {}

    const Node& node() const { return node_; }
    int64_t opset() const { return opset_; }
    size_t inputCount() const { return inputs_.size(); }
    bool hasInput(size_t index) const { return index < inputs_.size() && inputs_[index].present; }
    // Throws ShapeError naming the node when input `index` is absent.
    const InputInfo& input(size_t index) const;
    const Shape& shape(size_t index) const { return input(index).shape; }
    DType dtype(size_t index) const { return input(index).dtype; }
    int64_t rank(size_t index) const { return static_cast<int64_t>(input(index).shape.size()); }
    // Contents of a constant input; throws ShapeError "... input N (what) must be a constant".
    const TensorData& constant(size_t index, const std::string& what) const;
    std::vector<int64_t> constantInts(size_t index, const std::string& what) const;
    bool isConstant(size_t index) const { return hasInput(index) && inputs_[index].value; }

    // Throws ShapeError("node 'x' (Op): <message>").
    [[noreturn]] void fail(const std::string& message) const;
    void require(bool condition, const std::string& message) const
    {
        if (!condition)
            fail(message);
    }

private:
    const Node& node_;
    std::vector<InputInfo> inputs_;
    int64_t opset_;
};

using ShapeRule = std::function<std::vector<TensorType>(const InferContext&)>;
using ShapeRuleTable = std::unordered_map<std::string, ShapeRule>;

// Every operator Tessera knows, by ONNX op type (default domain).
const ShapeRuleTable& shapeRules();
bool isKnownOperator(std::string_view opType);

// Output types of one node: every output the rule can give (at least as many as the node lists;
// optional trailing outputs included). Throws UnsupportedError for an unknown operator and ShapeError for
// inputs that break the operator's rules.
std::vector<TensorType> inferNode(const Node& node, const std::vector<InputInfo>& inputs,
                                  int64_t opset);

// Input infos of `node` from the graph: types of typed tensors and values of constants.
std::vector<InputInfo> graphInputInfos(const Graph& graph, const Node& node);

// Infers and stores the type of every node output, in topological order. Throws on the first node
// whose inputs are untyped or break its rules.
void inferShapes(Graph& graph);

} // namespace tessera
