#include "ir/graph.h"

#include "base/error.h"

namespace tessera {

const Attribute* Node::attr(const std::string& key) const
{
    auto it = attributes.find(key);
    return it == attributes.end() ? nullptr : &it->second;
}

namespace {
const Attribute* typedAttr(const Node& node, const std::string& key, Attribute::Kind kind,
                           const char* kindName)
{
    const Attribute* a = node.attr(key);
    if (a && a->kind != kind)
        throw ModelError(node.describe() + ": attribute '" + key + "' must be " + kindName);
    return a;
}
} // namespace

int64_t Node::attrInt(const std::string& key, int64_t fallback) const
{
    const Attribute* a = typedAttr(*this, key, Attribute::Kind::Int, "an integer");
    return a ? a->i : fallback;
}

float Node::attrFloat(const std::string& key, float fallback) const
{
    const Attribute* a = attr(key);
    if (a && a->kind == Attribute::Kind::Int) // some exporters write integral floats as ints
        return static_cast<float>(a->i);
    a = typedAttr(*this, key, Attribute::Kind::Float, "a float");
    return a ? a->f : fallback;
}

std::string Node::attrString(const std::string& key, const std::string& fallback) const
{
    const Attribute* a = typedAttr(*this, key, Attribute::Kind::String, "a string");
    return a ? a->s : fallback;
}

std::vector<int64_t> Node::attrInts(const std::string& key, std::vector<int64_t> fallback) const
{
    const Attribute* a = typedAttr(*this, key, Attribute::Kind::Ints, "a list of integers");
    return a ? a->ints : fallback;
}

std::vector<float> Node::attrFloats(const std::string& key, std::vector<float> fallback) const
{
    const Attribute* a = typedAttr(*this, key, Attribute::Kind::Floats, "a list of floats");
    return a ? a->floats : fallback;
}

std::string Node::describe() const { return "node '" + name + "' (" + opType + ")"; }

TensorId Graph::addTensor(Tensor tensor)
{
    if (tensor.name.empty())
        throw ModelError("graph '" + name + "': a tensor has an empty name");
    if (tensorByName_.count(tensor.name))
        throw ModelError("graph '" + name + "': duplicate tensor name '" + tensor.name + "'");
    const auto id = static_cast<TensorId>(tensors_.size());
    tensorByName_.emplace(tensor.name, id);
    tensors_.push_back(std::move(tensor));
    return id;
}

NodeId Graph::addNode(Node node)
{
    for (TensorId id : node.inputs)
        if (id != kNoTensor && (id < 0 || static_cast<size_t>(id) >= tensors_.size()))
            throw ModelError(node.describe() + ": input refers to an unknown tensor");
    for (TensorId id : node.outputs)
        if (id < 0 || static_cast<size_t>(id) >= tensors_.size())
            throw ModelError(node.describe() + ": output refers to an unknown tensor");
    nodes_.push_back(std::move(node));
    return static_cast<NodeId>(nodes_.size() - 1);
}

std::optional<TensorId> Graph::findTensor(const std::string& tensorName) const
{
    auto it = tensorByName_.find(tensorName);
    if (it == tensorByName_.end())
        return std::nullopt;
    return it->second;
}

std::string Graph::uniqueTensorName(const std::string& base) const
{
    if (!tensorByName_.count(base))
        return base;
    for (int suffix = 1;; ++suffix) {
        std::string candidate = base + "_" + std::to_string(suffix);
        if (!tensorByName_.count(candidate))
            return candidate;
    }
}

void Graph::removeNodes(const std::vector<bool>& remove)
{
    std::vector<Node> kept;
    kept.reserve(nodes_.size());
    for (size_t n = 0; n < nodes_.size(); ++n)
        if (n >= remove.size() || !remove[n])
            kept.push_back(std::move(nodes_[n]));
    nodes_ = std::move(kept);

    std::vector<bool> used(tensors_.size(), false);
    for (const Node& node : nodes_) {
        for (TensorId id : node.inputs)
            if (id != kNoTensor)
                used[static_cast<size_t>(id)] = true;
        for (TensorId id : node.outputs)
            used[static_cast<size_t>(id)] = true;
    }
    for (TensorId id : inputs)
        used[static_cast<size_t>(id)] = true;
    for (TensorId id : outputs)
        used[static_cast<size_t>(id)] = true;

    std::vector<TensorId> remap(tensors_.size(), kNoTensor);
    std::vector<Tensor> keptTensors;
    tensorByName_.clear();
    for (size_t t = 0; t < tensors_.size(); ++t) {
        if (!used[t])
            continue;
        remap[t] = static_cast<TensorId>(keptTensors.size());
        tensorByName_.emplace(tensors_[t].name, remap[t]);
        keptTensors.push_back(std::move(tensors_[t]));
    }
    tensors_ = std::move(keptTensors);
    auto apply = [&remap](std::vector<TensorId>& ids) {
        for (TensorId& id : ids)
            if (id != kNoTensor)
                id = remap[static_cast<size_t>(id)];
    };
    for (Node& node : nodes_) {
        apply(node.inputs);
        apply(node.outputs);
    }
    apply(inputs);
    apply(outputs);
}

} // namespace tessera
