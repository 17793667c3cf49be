#include "ir/shape.h"

#include "base/error.h"

#include <algorithm>

namespace tessera {

int64_t elementCount(const Shape& shape, const std::string& what)
{
    int64_t count = 1;
    for (int64_t dim : shape) {
        if (dim < 0)
            throw ShapeError(what + ": negative dimension in shape " + shapeToString(shape));
        if (dim != 0 && count > kMaxElements / dim)
            throw ShapeError(what + ": shape " + shapeToString(shape) +
                             " has more elements than Tessera supports (2^40)");
        count *= dim;
    }
    return count;
}

std::string shapeToString(const Shape& shape)
{
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i)
            text += ", ";
        text += std::to_string(shape[i]);
    }
    return text + "]";
}

std::vector<int64_t> stridesOf(const Shape& shape)
{
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;)
        strides[i - 1] = strides[i] * shape[i];
    return strides;
}

int64_t normalizeAxis(int64_t axis, int64_t rank, const std::string& what)
{
    if (axis < -rank || axis >= std::max<int64_t>(rank, 1))
        throw ShapeError(what + ": axis " + std::to_string(axis) + " is out of range for rank " +
                         std::to_string(rank));
    return axis < 0 ? axis + rank : axis;
}

Shape broadcastShapes(const Shape& a, const Shape& b, const std::string& what)
{
    const size_t rank = std::max(a.size(), b.size());
    Shape result(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1)
            throw ShapeError(what + ": shapes " + shapeToString(a) + " and " + shapeToString(b) +
                             " cannot be broadcast together");
        result[i] = da == 1 ? db : da;
    }
    return result;
}

} // namespace tessera
