#pragma once
// Builds graphs in code (tests, the sample zoo, the Autotiler graph API). Every node's outputs are
// typed by the shape rules as it is added, so mistakes surface at the line that made them.
#include "ir/graph.h"

#include <string>
#include <vector>

namespace tessera {

class GraphBuilder {
public:
    explicit GraphBuilder(std::string graphName, int64_t opset = 17);

    TensorId input(const std::string& name, DType type, Shape shape);
    TensorId constant(const std::string& name, TensorData value);
    // Adds a node of `opType`; outputs are named "<node name>" (one output) or "<node name>_<k>".
    // An empty node name becomes "<opType>_<n>".
    std::vector<TensorId> node(const std::string& opType, const std::vector<TensorId>& inputs,
                               AttributeMap attributes = {}, size_t outputCount = 1,
                               const std::string& nodeName = {});
    TensorId op(const std::string& opType, const std::vector<TensorId>& inputs,
                AttributeMap attributes = {}, const std::string& nodeName = {})
    {
        return node(opType, inputs, std::move(attributes), 1, nodeName).front();
    }
    void output(TensorId id);

    const Graph& graph() const { return graph_; }
    const Tensor& tensor(TensorId id) const { return graph_.tensor(id); }
    // Verifies and returns the graph; throws ModelError listing the problems.
    Graph finish();

private:
    Graph graph_;
};

} // namespace tessera
