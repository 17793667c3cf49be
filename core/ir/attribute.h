#pragma once
// Node attributes: the typed key/value parameters of an operator (kernel_shape, axis, ...).
#include "ir/tensor_data.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tessera {

struct Attribute {
    enum class Kind { Int, Float, String, Ints, Floats, Strings, Tensor };
    Kind kind = Kind::Int;
    int64_t i = 0;
    float f = 0.0f;
    std::string s;
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<std::string> strings;
    std::shared_ptr<const TensorData> tensor;

    static Attribute ofInt(int64_t v) { Attribute a; a.kind = Kind::Int; a.i = v; return a; }
    static Attribute ofFloat(float v) { Attribute a; a.kind = Kind::Float; a.f = v; return a; }
    static Attribute ofString(std::string v) { Attribute a; a.kind = Kind::String; a.s = std::move(v); return a; }
    static Attribute ofInts(std::vector<int64_t> v) { Attribute a; a.kind = Kind::Ints; a.ints = std::move(v); return a; }
    static Attribute ofFloats(std::vector<float> v) { Attribute a; a.kind = Kind::Floats; a.floats = std::move(v); return a; }
    static Attribute ofStrings(std::vector<std::string> v) { Attribute a; a.kind = Kind::Strings; a.strings = std::move(v); return a; }
    static Attribute ofTensor(TensorData v)
    {
        Attribute a;
        a.kind = Kind::Tensor;
        a.tensor = std::make_shared<const TensorData>(std::move(v));
        return a;
    }
    bool operator==(const Attribute& other) const;
    // Short human-readable value for dumps: "3", "[1, 1]", "'SAME_UPPER'".
    std::string toString() const;
};

using AttributeMap = std::map<std::string, Attribute>;

} // namespace tessera
