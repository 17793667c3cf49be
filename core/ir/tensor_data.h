#pragma once
// The contents of one tensor: element type, shape and the bytes, row-major, little-endian.
// Constants in a graph and every value the interpreter computes are TensorData.
#include "ir/dtype.h"
#include "ir/shape.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace tessera {

class TensorData {
public:
    TensorData() = default;
    // Zero-filled tensor; throws ShapeError for negative or absurd shapes.
    TensorData(DType type, Shape shape);

    static TensorData fromFloats(Shape shape, const std::vector<float>& values);
    // Converts each value to `type` (rounding floats, truncating toward zero for integers).
    static TensorData fromDoubles(DType type, Shape shape, const std::vector<double>& values);
    static TensorData fromInts(DType type, Shape shape, const std::vector<int64_t>& values);
    static TensorData scalarInt64(int64_t value) { return fromInts(DType::Int64, {}, {value}); }
    // Takes `bytes` as the raw contents; throws ModelError when the size does not match.
    static TensorData fromBytes(DType type, Shape shape, const void* bytes, size_t size);

    DType dtype() const { return dtype_; }
    const Shape& shape() const { return shape_; }
    int64_t rank() const { return static_cast<int64_t>(shape_.size()); }
    int64_t elements() const { return elements_; }
    size_t byteSize() const { return bytes_.size(); }
    const std::byte* bytes() const { return bytes_.data(); }
    std::byte* bytes() { return bytes_.data(); }

    // Typed access; T must match the element size of dtype() (uint16_t for the 16-bit floats,
    // uint8_t for Bool).
    template <class T> const T* data() const { return reinterpret_cast<const T*>(bytes_.data()); }
    template <class T> T* data() { return reinterpret_cast<T*>(bytes_.data()); }

    // Element i as a number, whatever the dtype.
    double getDouble(int64_t index) const;
    int64_t getInt(int64_t index) const;
    // setDouble saturates to an integer dtype's range (NaN becomes 0); setInt wraps modulo the
    // integer width, as ONNX Cast between integer types does.
    void setDouble(int64_t index, double value);
    void setInt(int64_t index, int64_t value);

    std::vector<double> toDoubles() const;
    std::vector<float> toFloats() const;
    std::vector<int64_t> toInts() const;

    // Same bytes, new shape with the same element count (throws ShapeError otherwise).
    void reshape(Shape shape);
    bool operator==(const TensorData& other) const;

private:
    DType dtype_ = DType::Float32;
    Shape shape_;
    int64_t elements_ = 0;
    std::vector<std::byte> bytes_;
};

} // namespace tessera
