#include "onnx/onnx_export.h"

#include "io/file_io.h"
#include "base/error.h"
#include "ir/topology.h"
#include "onnx/quantization_metadata.h"
#include "onnx/tensor_proto.h"

#include <onnx/onnx_pb.h>

namespace tessera {

namespace {

constexpr int64_t kIrVersion = 8;

void writeType(const Tensor& tensor, onnx::ValueInfoProto& info)
{
    info.set_name(tensor.name);
    auto* type = info.mutable_type()->mutable_tensor_type();
    type->set_elem_type(onnxElemType(tensor.dtype));
    auto* shape = type->mutable_shape();
    for (int64_t dim : tensor.shape)
        shape->add_dim()->set_dim_value(dim);
}

void writeAttribute(const std::string& name, const Attribute& attribute, onnx::AttributeProto& proto)
{
    using A = onnx::AttributeProto;
    proto.set_name(name);
    switch (attribute.kind) {
    case Attribute::Kind::Int:
        proto.set_type(A::INT);
        proto.set_i(attribute.i);
        break;
    case Attribute::Kind::Float:
        proto.set_type(A::FLOAT);
        proto.set_f(attribute.f);
        break;
    case Attribute::Kind::String:
        proto.set_type(A::STRING);
        proto.set_s(attribute.s);
        break;
    case Attribute::Kind::Ints:
        proto.set_type(A::INTS);
        for (int64_t v : attribute.ints)
            proto.add_ints(v);
        break;
    case Attribute::Kind::Floats:
        proto.set_type(A::FLOATS);
        for (float v : attribute.floats)
            proto.add_floats(v);
        break;
    case Attribute::Kind::Strings:
        proto.set_type(A::STRINGS);
        for (const std::string& v : attribute.strings)
            proto.add_strings(v);
        break;
    case Attribute::Kind::Tensor:
        proto.set_type(A::TENSOR);
        tensorToProto(*attribute.tensor, {}, *proto.mutable_t());
        break;
    }
}

} // namespace

std::string exportOnnxBytes(const Graph& graph)
{
    onnx::ModelProto model;
    model.set_ir_version(kIrVersion);
    model.set_producer_name("tessera");
    auto* opset = model.add_opset_import();
    opset->set_domain("");
    opset->set_version(graph.opset);

    onnx::GraphProto& proto = *model.mutable_graph();
    proto.set_name(graph.name);
    std::vector<bool> isInterface(graph.tensorCount(), false);
    for (TensorId id : graph.inputs) {
        writeType(graph.tensor(id), *proto.add_input());
        isInterface[static_cast<size_t>(id)] = true;
    }
    for (TensorId id : graph.outputs) {
        const Tensor& tensor = graph.tensor(id);
        if (!tensor.typed)
            throw ModelError("cannot export graph '" + graph.name + "': output '" + tensor.name +
                             "' has no type (run shape inference first)");
        writeType(tensor, *proto.add_output());
        isInterface[static_cast<size_t>(id)] = true;
    }
    for (const Tensor& tensor : graph.tensors())
        if (tensor.constant)
            tensorToProto(*tensor.constant, tensor.name, *proto.add_initializer());

    const TensorUses uses = computeUses(graph);
    for (NodeId n : topologicalOrder(graph)) {
        const Node& node = graph.node(n);
        onnx::NodeProto& out = *proto.add_node();
        out.set_name(node.name);
        out.set_op_type(node.opType);
        out.set_domain(node.domain);
        for (TensorId id : node.inputs)
            out.add_input(id == kNoTensor ? std::string() : graph.tensor(id).name);
        for (TensorId id : node.outputs) {
            const bool used = !uses.consumers[static_cast<size_t>(id)].empty() || isInterface[static_cast<size_t>(id)];
            // Outputs nobody reads keep their name only when they are typed; a slot for an unused
            // optional output is written as "".
            out.add_output(used || graph.tensor(id).typed ? graph.tensor(id).name : std::string());
        }
        for (const auto& [name, attribute] : node.attributes)
            writeAttribute(name, attribute, *out.add_attribute());
    }
    for (size_t t = 0; t < graph.tensorCount(); ++t) {
        const Tensor& tensor = graph.tensors()[t];
        if (tensor.typed && !tensor.constant && !isInterface[t])
            writeType(tensor, *proto.add_value_info());
    }
    writeQuantizationMetadata(graph, model);

    std::string bytes;
    if (!model.SerializeToString(&bytes))
        throw Error("cannot serialize graph '" + graph.name + "' (a model over 2 GB cannot be stored in one ONNX file)");
    return bytes;
}

void exportOnnxFile(const Graph& graph, const std::string& path)
{
    writeFileAtomically(path, exportOnnxBytes(graph));
}

} // namespace tessera
