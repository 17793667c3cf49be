#pragma once
// Checks shared by the shape rules of every operator family: accepted element types, the opset an
// operator first appeared in, inputs that must agree in type.
#include "ir/shape_inference.h"

#include <string>

namespace tessera::rules {

// Sets of element types an operator accepts.
enum TypeSet : unsigned {
    kFloats = 1u,
    kSignedInts = 2u,
    kUnsignedInts = 4u,
    kBool = 8u,
    kInts = kSignedInts | kUnsignedInts,
    kNumeric = kFloats | kInts,
    kAnyType = kNumeric | kBool,
};

inline bool inSet(DType type, unsigned set)
{
    if (isFloat(type))
        return (set & kFloats) != 0;
    if (type == DType::Bool)
        return (set & kBool) != 0;
    if (type == DType::UInt8)
        return (set & kUnsignedInts) != 0;
    return (set & kSignedInts) != 0;
}

inline std::string setName(unsigned set)
{
    switch (set) {
    case kFloats: return "a float type (float32, float16, bfloat16)";
    case kFloats | kSignedInts: return "a float or signed integer type";
    case kNumeric: return "a numeric type";
    case kBool: return "bool";
    case kUnsignedInts: return "an unsigned integer type (uint8)";
    default: return "a numeric or bool type";
    }
}

inline void requireType(const InferContext& ctx, size_t index, unsigned set)
{
    const DType type = ctx.dtype(index);
    ctx.require(inSet(type, set), "input " + std::to_string(index) + " has type " +
                                      std::string(dtypeName(type)) + ", " + ctx.node().opType +
                                      " needs " + setName(set));
}

inline void requireOpset(const InferContext& ctx, int64_t since)
{
    if (ctx.opset() < since)
        ctx.fail(ctx.node().opType + " exists from opset " + std::to_string(since) +
                 ", the model uses opset " + std::to_string(ctx.opset()));
}

inline void requireSameType(const InferContext& ctx, size_t a, size_t b)
{
    if (ctx.dtype(a) != ctx.dtype(b))
        ctx.fail("inputs " + std::to_string(a) + " and " + std::to_string(b) +
                 " must have the same data type, got " + std::string(dtypeName(ctx.dtype(a))) +
                 " and " + std::string(dtypeName(ctx.dtype(b))) + " (insert a Cast)");
}

} // namespace tessera::rules
