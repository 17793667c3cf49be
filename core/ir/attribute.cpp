#include "ir/attribute.h"

#include <sstream>

namespace tessera {

bool Attribute::operator==(const Attribute& o) const
{
    if (kind != o.kind)
        return false;
    switch (kind) {
    case Kind::Int: return i == o.i;
    case Kind::Float: return f == o.f;
    case Kind::String: return s == o.s;
    case Kind::Ints: return ints == o.ints;
    case Kind::Floats: return floats == o.floats;
    case Kind::Strings: return strings == o.strings;
    case Kind::Tensor: return tensor && o.tensor ? *tensor == *o.tensor : tensor == o.tensor;
    }
    return false;
}

std::string Attribute::toString() const
{
    std::ostringstream out;
    auto list = [&out](const auto& values, auto print) {
        out << '[';
        for (size_t k = 0; k < values.size(); ++k) {
            if (k)
                out << ", ";
            print(values[k]);
        }
        out << ']';
    };
    switch (kind) {
    case Kind::Int: out << i; break;
    case Kind::Float: out << f; break;
    case Kind::String: out << '\'' << s << '\''; break;
    case Kind::Ints: list(ints, [&out](int64_t v) { out << v; }); break;
    case Kind::Floats: list(floats, [&out](float v) { out << v; }); break;
    case Kind::Strings: list(strings, [&out](const std::string& v) { out << '\'' << v << '\''; }); break;
    case Kind::Tensor:
        out << "tensor " << (tensor ? dtypeName(tensor->dtype()) : "?") << ' '
            << (tensor ? shapeToString(tensor->shape()) : "[]");
        break;
    }
    return out.str();
}

} // namespace tessera
