#pragma once
// Static tensor shapes.
#include <cstdint>
#include <string>
#include <vector>

namespace tessera {

using Shape = std::vector<int64_t>;

// Largest element count a tensor may have; beyond it the model is rejected as absurd.
inline constexpr int64_t kMaxElements = int64_t{1} << 40;

// Product of the dimensions. Throws ShapeError naming `what` when a dimension is negative or the
// product exceeds kMaxElements.
int64_t elementCount(const Shape& shape, const std::string& what = "tensor");
// "[1, 3, 224, 224]"; a scalar is "[]".
std::string shapeToString(const Shape& shape);
// Row-major strides in elements.
std::vector<int64_t> stridesOf(const Shape& shape);
// Normalizes a possibly negative axis against `rank`; throws ShapeError when out of range.
int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string& what);
// Numpy-style broadcast of two shapes; throws ShapeError naming `what` when incompatible.
Shape broadcastShapes(const Shape& a, const Shape& b, const std::string& what);

} // namespace tessera
