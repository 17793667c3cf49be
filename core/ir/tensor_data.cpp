#include "ir/tensor_data.h"

#include "base/error.h"

#include <cmath>
#include <limits>

namespace tessera {

namespace {
// Integer conversion that never invokes undefined behaviour: NaN becomes 0, out-of-range values
// saturate.
template <class T> T saturatingCast(double value)
{
    if (std::isnan(value))
        return 0;
    if (value <= static_cast<double>(std::numeric_limits<T>::lowest()))
        return std::numeric_limits<T>::lowest();
    if (value >= static_cast<double>(std::numeric_limits<T>::max()))
        return std::numeric_limits<T>::max();
    return static_cast<T>(value);
}
} // namespace

TensorData::TensorData(DType type, Shape shape)
    : dtype_(type), shape_(std::move(shape)), elements_(elementCount(shape_))
{
    bytes_.resize(static_cast<size_t>(elements_) * dtypeSize(type));
}

TensorData TensorData::fromFloats(Shape shape, const std::vector<float>& values)
{
    TensorData t(DType::Float32, std::move(shape));
    if (static_cast<int64_t>(values.size()) != t.elements_)
        throw ShapeError("tensor of shape " + shapeToString(t.shape_) + " given " +
                         std::to_string(values.size()) + " values");
    if (!values.empty())
        std::memcpy(t.bytes_.data(), values.data(), t.bytes_.size());
    return t;
}

TensorData TensorData::fromDoubles(DType type, Shape shape, const std::vector<double>& values)
{
    TensorData t(type, std::move(shape));
    if (static_cast<int64_t>(values.size()) != t.elements_)
        throw ShapeError("tensor of shape " + shapeToString(t.shape_) + " given " +
                         std::to_string(values.size()) + " values");
    for (int64_t i = 0; i < t.elements_; ++i)
        t.setDouble(i, values[static_cast<size_t>(i)]);
    return t;
}

TensorData TensorData::fromInts(DType type, Shape shape, const std::vector<int64_t>& values)
{
    TensorData t(type, std::move(shape));
    if (static_cast<int64_t>(values.size()) != t.elements_)
        throw ShapeError("tensor of shape " + shapeToString(t.shape_) + " given " +
                         std::to_string(values.size()) + " values");
    for (int64_t i = 0; i < t.elements_; ++i)
        t.setInt(i, values[static_cast<size_t>(i)]);
    return t;
}

TensorData TensorData::fromBytes(DType type, Shape shape, const void* bytes, size_t size)
{
    TensorData t(type, std::move(shape));
    if (size != t.bytes_.size())
        throw ModelError("tensor of type " + std::string(dtypeName(type)) + " and shape " +
                         shapeToString(t.shape_) + " needs " + std::to_string(t.bytes_.size()) +
                         " bytes of data, found " + std::to_string(size));
    if (size)
        std::memcpy(t.bytes_.data(), bytes, size);
    return t;
}

double TensorData::getDouble(int64_t i) const
{
    switch (dtype_) {
    case DType::Float32: return data<float>()[i];
    case DType::Float16: return halfToFloat(data<uint16_t>()[i]);
    case DType::BFloat16: return bfloat16ToFloat(data<uint16_t>()[i]);
    case DType::Int8: return data<int8_t>()[i];
    case DType::UInt8: return data<uint8_t>()[i];
    case DType::Int16: return data<int16_t>()[i];
    case DType::Int32: return data<int32_t>()[i];
    case DType::Int64: return static_cast<double>(data<int64_t>()[i]);
    case DType::Bool: return data<uint8_t>()[i] ? 1.0 : 0.0;
    }
    return 0.0;
}

int64_t TensorData::getInt(int64_t i) const
{
    switch (dtype_) {
    case DType::Int8: return data<int8_t>()[i];
    case DType::UInt8: return data<uint8_t>()[i];
    case DType::Int16: return data<int16_t>()[i];
    case DType::Int32: return data<int32_t>()[i];
    case DType::Int64: return data<int64_t>()[i];
    case DType::Bool: return data<uint8_t>()[i] ? 1 : 0;
    default: return saturatingCast<int64_t>(getDouble(i));
    }
}

void TensorData::setDouble(int64_t i, double v)
{
    switch (dtype_) {
    case DType::Float32: data<float>()[i] = static_cast<float>(v); break;
    case DType::Float16: data<uint16_t>()[i] = floatToHalf(static_cast<float>(v)); break;
    case DType::BFloat16: data<uint16_t>()[i] = floatToBfloat16(static_cast<float>(v)); break;
    case DType::Int8: data<int8_t>()[i] = saturatingCast<int8_t>(v); break;
    case DType::UInt8: data<uint8_t>()[i] = saturatingCast<uint8_t>(v); break;
    case DType::Int16: data<int16_t>()[i] = saturatingCast<int16_t>(v); break;
    case DType::Int32: data<int32_t>()[i] = saturatingCast<int32_t>(v); break;
    case DType::Int64: data<int64_t>()[i] = saturatingCast<int64_t>(v); break;
    case DType::Bool: data<uint8_t>()[i] = v != 0.0 ? 1 : 0; break;
    }
}

void TensorData::setInt(int64_t i, int64_t v)
{
    switch (dtype_) {
    case DType::Int8: data<int8_t>()[i] = static_cast<int8_t>(v); break;
    case DType::UInt8: data<uint8_t>()[i] = static_cast<uint8_t>(v); break;
    case DType::Int16: data<int16_t>()[i] = static_cast<int16_t>(v); break;
    case DType::Int32: data<int32_t>()[i] = static_cast<int32_t>(v); break;
    case DType::Int64: data<int64_t>()[i] = v; break;
    case DType::Bool: data<uint8_t>()[i] = v != 0 ? 1 : 0; break;
    default: setDouble(i, static_cast<double>(v)); break;
    }
}

std::vector<double> TensorData::toDoubles() const
{
    std::vector<double> values(static_cast<size_t>(elements_));
    for (int64_t i = 0; i < elements_; ++i)
        values[static_cast<size_t>(i)] = getDouble(i);
    return values;
}

std::vector<float> TensorData::toFloats() const
{
    std::vector<float> values(static_cast<size_t>(elements_));
    if (dtype_ == DType::Float32) {
        if (!bytes_.empty())  // an empty tensor's data() may be null, which memcpy must not get
            std::memcpy(values.data(), bytes_.data(), bytes_.size());
        return values;
    }
    for (int64_t i = 0; i < elements_; ++i)
        values[static_cast<size_t>(i)] = static_cast<float>(getDouble(i));
    return values;
}

std::vector<int64_t> TensorData::toInts() const
{
    std::vector<int64_t> values(static_cast<size_t>(elements_));
    for (int64_t i = 0; i < elements_; ++i)
        values[static_cast<size_t>(i)] = getInt(i);
    return values;
}

void TensorData::reshape(Shape shape)
{
    if (elementCount(shape) != elements_)
        throw ShapeError("cannot reshape " + shapeToString(shape_) + " to " + shapeToString(shape));
    shape_ = std::move(shape);
}

bool TensorData::operator==(const TensorData& other) const
{
    return dtype_ == other.dtype_ && shape_ == other.shape_ && bytes_ == other.bytes_;
}

} // namespace tessera
