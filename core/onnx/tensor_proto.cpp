#include "onnx/tensor_proto.h"

#include "io/file_io.h"
#include "base/error.h"

#include <cstring>

namespace tessera {

namespace {

using onnx::TensorProto;

// Copies a repeated proto field of values into `data`, converting each with setDouble/setInt.
template <class Field> void copyInts(const Field& field, TensorData& data)
{
    for (int64_t i = 0; i < data.elements(); ++i)
        data.setInt(i, static_cast<int64_t>(field.Get(static_cast<int>(i))));
}

} // namespace

int onnxElemType(DType type)
{
    switch (type) {
    case DType::Float32: return TensorProto::FLOAT;
    case DType::Float16: return TensorProto::FLOAT16;
    case DType::BFloat16: return TensorProto::BFLOAT16;
    case DType::Int8: return TensorProto::INT8;
    case DType::UInt8: return TensorProto::UINT8;
    case DType::Int16: return TensorProto::INT16;
    case DType::Int32: return TensorProto::INT32;
    case DType::Int64: return TensorProto::INT64;
    case DType::Bool: return TensorProto::BOOL;
    }
    return TensorProto::UNDEFINED;
}

std::optional<DType> dtypeFromOnnx(int elemType)
{
    return dtypeFromOnnxCode(elemType);
}

std::string onnxElemTypeName(int elemType)
{
    switch (elemType) {
    case TensorProto::DOUBLE: return "float64";
    case TensorProto::STRING: return "string";
    case TensorProto::UINT16: return "uint16";
    case TensorProto::UINT32: return "uint32";
    case TensorProto::UINT64: return "uint64";
    case TensorProto::COMPLEX64: return "complex64";
    case TensorProto::COMPLEX128: return "complex128";
    case TensorProto::UNDEFINED: return "undefined";
    default:
        if (auto type = dtypeFromOnnx(elemType))
            return std::string(dtypeName(*type));
        return "element type " + std::to_string(elemType);
    }
}

TensorData tensorFromProto(const TensorProto& proto, const std::string& where)
{
    if (proto.data_location() == TensorProto::EXTERNAL || proto.external_data_size() > 0)
        throw UnsupportedError(where + " keeps its data in an external file; Tessera reads self-contained "
                               "models only (re-save the model with save_as_external_data=False)");
    if (proto.has_segment())
        throw UnsupportedError(where + " is a segmented tensor, which Tessera does not read");
    const std::optional<DType> type = dtypeFromOnnx(proto.data_type());
    if (!type)
        throw UnsupportedError(where + " has element type " + onnxElemTypeName(proto.data_type()) +
                               ", which Tessera does not support (convert it to float32 or an integer type)");
    Shape shape;
    for (int64_t dim : proto.dims()) {
        if (dim < 0)
            throw ModelError(where + " has a negative dimension " + std::to_string(dim));
        shape.push_back(dim);
    }
    const int64_t count = elementCount(shape, where);

    if (proto.has_raw_data()) {
        const std::string& raw = proto.raw_data();
        const size_t expected = static_cast<size_t>(count) * dtypeSize(*type);
        if (raw.size() != expected)
            throw ModelError(where + " holds " + std::to_string(raw.size()) + " bytes of data, its shape " +
                             shapeToString(shape) + " needs " + std::to_string(expected));
        return TensorData::fromBytes(*type, shape, raw.data(), raw.size());
    }

    // The values present must match the shape before anything is allocated for it (a shape of
    // [1e9] with no data would otherwise cost gigabytes before the error).
    const int available = *type == DType::Float32 ? proto.float_data_size()
                          : *type == DType::Int64 ? proto.int64_data_size()
                                                  : proto.int32_data_size();  // also float16 bit patterns
    if (available != count)
        throw ModelError(where + " holds " + std::to_string(available) + " values, its shape " +
                         shapeToString(shape) + " needs " + std::to_string(count));
    TensorData data(*type, shape);
    switch (*type) {
    case DType::Float32:
        if (count > 0)
            std::memcpy(data.bytes(), proto.float_data().data(), static_cast<size_t>(count) * sizeof(float));
        break;
    case DType::Float16:
    case DType::BFloat16: {
        // 16-bit floats travel as their bit patterns in int32_data.
        auto* bits = data.data<uint16_t>();
        for (int64_t i = 0; i < count; ++i)
            bits[i] = static_cast<uint16_t>(proto.int32_data(static_cast<int>(i)));
        break;
    }
    case DType::Int64:
        copyInts(proto.int64_data(), data);
        break;
    default: // int8, uint8, int16, int32 and bool use int32_data
        copyInts(proto.int32_data(), data);
        break;
    }
    return data;
}

void tensorToProto(const TensorData& data, const std::string& name, TensorProto& proto)
{
    proto.Clear();
    proto.set_name(name);
    proto.set_data_type(onnxElemType(data.dtype()));
    for (int64_t dim : data.shape())
        proto.add_dims(dim);
    proto.set_raw_data(reinterpret_cast<const char*>(data.bytes()), data.byteSize());
}

namespace {

TensorProto parseTensorProto(const std::string& bytes, const std::string& source)
{
    TensorProto proto;
    if (!proto.ParseFromString(bytes))
        throw ModelError(source + ": not a serialized ONNX TensorProto (protobuf parse failed)");
    return proto;
}

TensorProto parseTensorFile(const std::string& path) { return parseTensorProto(readFileBytes(path), path); }

} // namespace

TensorData parseTensorBytes(const std::string& bytes, const std::string& source)
{
    return tensorFromProto(parseTensorProto(bytes, source), source);
}

TensorData readTensorFile(const std::string& path) { return tensorFromProto(parseTensorFile(path), path); }

TensorData readTensorFileAs(const std::string& path, DType declared)
{
    TensorProto proto = parseTensorFile(path);
    if (proto.data_type() == TensorProto::UINT16 && declared == DType::BFloat16)
        proto.set_data_type(TensorProto::BFLOAT16);
    return tensorFromProto(proto, path);
}

void writeTensorFile(const std::string& path, const TensorData& data, const std::string& name)
{
    TensorProto proto;
    tensorToProto(data, name, proto);
    std::string bytes;
    if (!proto.SerializeToString(&bytes))
        throw Error(path + ": could not serialize tensor '" + name + "'");
    writeFileAtomically(path, bytes);
}

} // namespace tessera
