#include "onnx/onnx_import.h"

#include "io/file_io.h"
#include "base/error.h"
#include "ir/shape_inference.h"
#include "onnx/quantization_metadata.h"
#include "onnx/tensor_proto.h"

#include <google/protobuf/io/coded_stream.h>
#include <onnx/onnx_pb.h>

#include <limits>
#include <unordered_set>

namespace tessera {

namespace {

bool isDefaultDomain(const std::string& domain) { return domain.empty() || domain == "ai.onnx"; }

int64_t defaultOpset(const onnx::ModelProto& model, const std::string& source)
{
    for (const auto& entry : model.opset_import())
        if (isDefaultDomain(entry.domain()))
            return entry.version();
    if (model.opset_import_size() == 0)
        throw ModelError(source + ": the model declares no operator set (opset_import is empty)");
    return kMinOnnxOpset; // only other domains are imported; their nodes are refused below
}

class Importer {
public:
    Importer(const onnx::ModelProto& model, std::string source) : model_(model), source_(std::move(source)) {}

    Graph run()
    {
        if (!model_.has_graph())
            throw ModelError(source_ + ": not an ONNX model (no graph)");
        const onnx::GraphProto& proto = model_.graph();
        graph_.name = proto.name().empty() ? "model" : proto.name();
        graph_.opset = defaultOpset(model_, source_);
        graph_.producer = model_.producer_name();
        if (!model_.producer_version().empty())
            graph_.producer += " " + model_.producer_version();
        if (graph_.opset < kMinOnnxOpset || graph_.opset > kMaxOnnxOpset)
            throw UnsupportedError(source_ + ": operator set version " + std::to_string(graph_.opset) +
                                   " is outside the supported range " + std::to_string(kMinOnnxOpset) +
                                   "-" + std::to_string(kMaxOnnxOpset) +
                                   " (convert the model with onnx.version_converter)");

        for (const onnx::TensorProto& initializer : proto.initializer())
            addInitializer(initializer);
        for (const onnx::ValueInfoProto& input : proto.input())
            addGraphInput(input);
        if (proto.sparse_initializer_size() > 0)
            throw UnsupportedError(source_ + ": sparse initializers are not supported");

        // Node outputs are created before any node reads them, so the file's node order does not matter.
        for (int n = 0; n < proto.node_size(); ++n)
            declareOutputs(proto.node(n), n);
        for (int n = 0; n < proto.node_size(); ++n)
            addNode(proto.node(n), n);

        for (const onnx::ValueInfoProto& output : proto.output()) {
            const auto id = graph_.findTensor(output.name());
            if (!id)
                throw ModelError(source_ + ": graph output '" + output.name() + "' is not produced by any node");
            graph_.outputs.push_back(*id);
        }
        if (graph_.outputs.empty())
            throw ModelError(source_ + ": the graph has no outputs");
        applyQuantizationMetadata(model_, graph_);
        return std::move(graph_);
    }

private:
    void addInitializer(const onnx::TensorProto& initializer)
    {
        const std::string where = "initializer '" + initializer.name() + "'";
        if (initializer.name().empty())
            throw ModelError(source_ + ": an initializer has no name");
        if (graph_.findTensor(initializer.name()))
            throw ModelError(source_ + ": " + where + " is defined twice");
        addConstant(initializer.name(), tensorFromProto(initializer, source_ + ": " + where));
    }

    void addConstant(const std::string& name, TensorData value)
    {
        Tensor tensor;
        tensor.name = name;
        tensor.dtype = value.dtype();
        tensor.shape = value.shape();
        tensor.typed = true;
        tensor.constant = std::make_shared<const TensorData>(std::move(value));
        graph_.addTensor(std::move(tensor));
    }

    void addGraphInput(const onnx::ValueInfoProto& input)
    {
        // Older models list initializers among the inputs too; those stay constants.
        if (graph_.findTensor(input.name()))
            return;
        const std::string where = source_ + ": input '" + input.name() + "'";
        if (!input.type().has_tensor_type())
            throw UnsupportedError(where + " is not a tensor (sequences and maps are not supported)");
        const auto& type = input.type().tensor_type();
        const auto dtype = dtypeFromOnnx(type.elem_type());
        if (!dtype)
            throw UnsupportedError(where + " has element type " + onnxElemTypeName(type.elem_type()) +
                                   ", which Tessera does not support");
        if (!type.has_shape())
            throw ModelError(where + " has no shape (give the model a fixed input shape)");
        Tensor tensor;
        tensor.name = input.name();
        tensor.dtype = *dtype;
        tensor.typed = true;
        for (int d = 0; d < type.shape().dim_size(); ++d) {
            const auto& dim = type.shape().dim(d);
            if (dim.has_dim_value() && dim.dim_value() >= 0) {
                tensor.shape.push_back(dim.dim_value());
                continue;
            }
            const std::string symbol = dim.has_dim_param() ? "'" + dim.dim_param() + "'" : "unknown";
            graph_.notes.push_back("input '" + input.name() + "' dimension " + std::to_string(d) + " is " +
                                   symbol + "; Tessera assumes 1");
            tensor.shape.push_back(1);
        }
        elementCount(tensor.shape, where);
        graph_.inputs.push_back(graph_.addTensor(std::move(tensor)));
    }

    std::string nodeName(const onnx::NodeProto& proto, int index)
    {
        std::string name = proto.name().empty() ? proto.op_type() + "_" + std::to_string(index) : proto.name();
        while (!nodeNames_.insert(name).second)
            name += "_" + std::to_string(index);
        return name;
    }

    void declareOutputs(const onnx::NodeProto& proto, int index)
    {
        for (const std::string& output : proto.output()) {
            if (output.empty())
                continue;
            if (graph_.findTensor(output))
                throw ModelError(source_ + ": tensor '" + output + "' is written by node " + std::to_string(index) +
                                 " (" + proto.op_type() + ") but is already defined");
            if (proto.op_type() == "Constant" && isDefaultDomain(proto.domain()))
                continue; // becomes a constant when the node is read
            Tensor tensor;
            tensor.name = output;
            graph_.addTensor(std::move(tensor));
        }
    }

    void addNode(const onnx::NodeProto& proto, int index)
    {
        Node node;
        node.name = nodeName(proto, index);
        node.opType = proto.op_type();
        node.domain = isDefaultDomain(proto.domain()) ? std::string() : proto.domain();
        const std::string where = source_ + ": node '" + node.name + "' (" + node.opType + ")";
        const bool isConstant = node.domain.empty() && node.opType == "Constant";
        if (!isConstant && (!node.domain.empty() || !isKnownOperator(node.opType)))
            throw UnsupportedError("unsupported operator " + (node.domain.empty() ? "" : node.domain + ".") +
                                   node.opType + " (opset " + std::to_string(graph_.opset) + ") at node '" +
                                   node.name + "'");
        for (const onnx::AttributeProto& attribute : proto.attribute())
            node.attributes[attribute.name()] = convertAttribute(attribute, where);

        if (isConstant) {
            addConstantNode(proto, node, where);
            return;
        }
        for (const std::string& input : proto.input()) {
            if (input.empty()) {
                node.inputs.push_back(kNoTensor);
                continue;
            }
            const auto id = graph_.findTensor(input);
            if (!id)
                throw ModelError(where + " reads '" + input +
                                 "', which no graph input, initializer or node defines");
            node.inputs.push_back(*id);
        }
        // Trailing skipped outputs are not requested; a skipped one between used ones keeps a slot.
        int outputCount = proto.output_size();
        while (outputCount > 0 && proto.output(outputCount - 1).empty())
            --outputCount;
        for (int k = 0; k < outputCount; ++k) {
            if (proto.output(k).empty()) {
                Tensor unused;
                unused.name = graph_.uniqueTensorName(node.name + "_unused");
                node.outputs.push_back(graph_.addTensor(std::move(unused)));
                continue;
            }
            node.outputs.push_back(*graph_.findTensor(proto.output(k)));
        }
        graph_.addNode(std::move(node));
    }

    void addConstantNode(const onnx::NodeProto& proto, const Node& node, const std::string& where)
    {
        if (proto.output_size() != 1 || proto.output(0).empty())
            throw ModelError(where + " must have exactly one output");
        if (node.attributes.size() != 1)
            throw ModelError(where + " must have exactly one value attribute");
        const auto& [key, value] = *node.attributes.begin();
        TensorData data;
        if (key == "value" && value.kind == Attribute::Kind::Tensor)
            data = *value.tensor;
        else if (key == "value_float" && value.kind == Attribute::Kind::Float)
            data = TensorData::fromFloats({}, {value.f});
        else if (key == "value_floats" && value.kind == Attribute::Kind::Floats)
            data = TensorData::fromFloats({static_cast<int64_t>(value.floats.size())}, value.floats);
        else if (key == "value_int" && value.kind == Attribute::Kind::Int)
            data = TensorData::scalarInt64(value.i);
        else if (key == "value_ints" && value.kind == Attribute::Kind::Ints)
            data = TensorData::fromInts(DType::Int64, {static_cast<int64_t>(value.ints.size())}, value.ints);
        else
            throw UnsupportedError(where + ": value attribute '" + key + "' is not supported");
        addConstant(proto.output(0), std::move(data));
    }

    Attribute convertAttribute(const onnx::AttributeProto& proto, const std::string& where)
    {
        const std::string place = where + " attribute '" + proto.name() + "'";
        if (!proto.ref_attr_name().empty())
            throw UnsupportedError(place + " refers to a function attribute, which is not supported");
        using A = onnx::AttributeProto;
        switch (proto.type()) {
        case A::INT: return Attribute::ofInt(proto.i());
        case A::FLOAT: return Attribute::ofFloat(proto.f());
        case A::STRING: return Attribute::ofString(proto.s());
        case A::INTS: return Attribute::ofInts({proto.ints().begin(), proto.ints().end()});
        case A::FLOATS: return Attribute::ofFloats({proto.floats().begin(), proto.floats().end()});
        case A::STRINGS: return Attribute::ofStrings({proto.strings().begin(), proto.strings().end()});
        case A::TENSOR: return Attribute::ofTensor(tensorFromProto(proto.t(), place));
        case A::UNDEFINED:
            // Very old writers left the type out; infer it from the one field that is set.
            if (proto.has_i()) return Attribute::ofInt(proto.i());
            if (proto.has_f()) return Attribute::ofFloat(proto.f());
            if (proto.has_s()) return Attribute::ofString(proto.s());
            if (proto.ints_size() > 0) return Attribute::ofInts({proto.ints().begin(), proto.ints().end()});
            if (proto.floats_size() > 0) return Attribute::ofFloats({proto.floats().begin(), proto.floats().end()});
            throw ModelError(place + " has no type");
        default:
            throw UnsupportedError(place + " is a graph, sparse tensor or type attribute, which is not supported");
        }
    }

    const onnx::ModelProto& model_;
    std::string source_;
    Graph graph_;
    std::unordered_set<std::string> nodeNames_;
};

} // namespace

// Nested subgraphs (If, Loop, Scan bodies) take three message levels each, so protobuf's default
// limit of 100 stops at about 30 levels of nesting; a valid deeper model must reach the importer
// to be told what is not supported, not be called corrupt.
constexpr int kMessageNestingLimit = 1000;

namespace {

// Whether the start of a file is text (printable ASCII, whitespace or UTF-8 sequences): a README or
// a JSON file opened by mistake, which gets its own message.
bool looksLikeText(const std::string& bytes)
{
    const std::size_t checked = std::min<std::size_t>(bytes.size(), 512);
    for (std::size_t k = 0; k < checked; ++k) {
        const unsigned char c = static_cast<unsigned char>(bytes[k]);
        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return false;
        if (c == 0x7f)
            return false;
    }
    return checked > 0;
}

} // namespace

Graph importOnnxBytes(const std::string& bytes, const std::string& sourceName)
{
    onnx::ModelProto model;
    if (bytes.empty())
        throw ModelError(sourceName + ": empty file, not an ONNX model");
    if (bytes.size() > size_t(std::numeric_limits<int>::max()))
        throw ModelError(sourceName + ": " + std::to_string(bytes.size()) +
                         " bytes is beyond the 2 GB a protobuf ONNX file holds; keep large initializers in "
                         "external data files");
    google::protobuf::io::CodedInputStream input(reinterpret_cast<const uint8_t*>(bytes.data()), int(bytes.size()));
    input.SetRecursionLimit(kMessageNestingLimit);
    if (!model.ParseFromCodedStream(&input) || !input.ConsumedEntireMessage()) {
        if (looksLikeText(bytes))
            throw ModelError(sourceName + ": a text file, not an ONNX model (an ONNX model is a binary file, "
                                          "usually .onnx, written by an exporter such as torch.onnx.export)");
        throw ModelError(sourceName + ": not an ONNX model (the protobuf data is corrupt or truncated, or nests "
                                      "messages deeper than " +
                         std::to_string(kMessageNestingLimit) + " levels)");
    }
    return Importer(model, sourceName).run();
}

Graph importOnnxFile(const std::string& path) { return importOnnxBytes(readFileBytes(path), path); }

} // namespace tessera
