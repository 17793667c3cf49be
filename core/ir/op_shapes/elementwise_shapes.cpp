// Shape rules of the element-wise operators: arithmetic (Add ... Pow, Mod, BitShift, the variadic
// Sum/Max/Min/Mean), math functions, activations, comparisons, logic, Where, Clip, Cast, Identity
// and Dropout.
#include "ir/op_shapes/op_shapes.h"
#include "ir/op_shapes/rule_helpers.h"

#include "base/error.h"

#include <initializer_list>
#include <optional>
#include <string>

namespace tessera {

namespace {

using namespace rules;

Shape broadcastAll(const InferContext& ctx, std::initializer_list<size_t> indices)
{
    Shape result;
    bool first = true;
    for (size_t index : indices) {
        result = first ? ctx.shape(index) : broadcastShapes(result, ctx.shape(index), ctx.node().describe());
        first = false;
    }
    return result;
}

ShapeRule unary(unsigned set, int64_t sinceOpset = 1)
{
    return [set, sinceOpset](const InferContext& ctx) -> std::vector<TensorType> {
        requireOpset(ctx, sinceOpset);
        requireType(ctx, 0, set);
        return {{ctx.dtype(0), ctx.shape(0)}};
    };
}

// Two inputs of one type from `set`, broadcast; the result has the input type or is Bool.
ShapeRule binary(unsigned set, bool boolResult, int64_t sinceOpset = 1)
{
    return [=](const InferContext& ctx) -> std::vector<TensorType> {
        requireOpset(ctx, sinceOpset);
        ctx.require(ctx.inputCount() == 2, "needs 2 inputs, has " + std::to_string(ctx.inputCount()));
        requireSameType(ctx, 0, 1);
        requireType(ctx, 0, set);
        return {{boolResult ? DType::Bool : ctx.dtype(0), broadcastAll(ctx, {0, 1})}};
    };
}

// Sum, Max, Min, Mean: one or more inputs of one type, all broadcast together.
ShapeRule variadic(unsigned set)
{
    return [set](const InferContext& ctx) -> std::vector<TensorType> {
        ctx.require(ctx.inputCount() >= 1, "needs at least one input");
        Shape shape = ctx.shape(0);
        for (size_t k = 1; k < ctx.inputCount(); ++k) {
            requireSameType(ctx, 0, k);
            shape = broadcastShapes(shape, ctx.shape(k), ctx.node().describe());
        }
        requireType(ctx, 0, set);
        return {{ctx.dtype(0), shape}};
    };
}

std::vector<TensorType> powRule(const InferContext& ctx)
{
    // The exponent may have its own type from opset 12 on.
    if (ctx.opset() < 12) {
        requireSameType(ctx, 0, 1);
        requireType(ctx, 0, kFloats);
    } else {
        requireType(ctx, 0, kNumeric);
        requireType(ctx, 1, kNumeric);
    }
    return {{ctx.dtype(0), broadcastAll(ctx, {0, 1})}};
}

std::vector<TensorType> modRule(const InferContext& ctx)
{
    const std::vector<TensorType> out = binary(kNumeric, false)(ctx);
    const int64_t fmod = ctx.node().attrInt("fmod", 0);
    ctx.require(fmod == 0 || fmod == 1, "attribute fmod must be 0 or 1, got " + std::to_string(fmod));
    ctx.require(fmod == 1 || !isFloat(ctx.dtype(0)), "float inputs need fmod=1 (C fmod semantics)");
    return out;
}

std::vector<TensorType> bitShiftRule(const InferContext& ctx)
{
    const std::vector<TensorType> out = binary(kUnsignedInts, false)(ctx);
    const std::string direction = ctx.node().attrString("direction", "");
    ctx.require(direction == "LEFT" || direction == "RIGHT",
                "attribute direction must be 'LEFT' or 'RIGHT', got '" + direction + "'");
    return out;
}

// IsNaN, IsInf: float input, bool output.
std::vector<TensorType> floatPredicateRule(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    return {{DType::Bool, ctx.shape(0)}};
}

std::vector<TensorType> preluRule(const InferContext& ctx)
{
    requireSameType(ctx, 0, 1);
    requireType(ctx, 0, kNumeric);
    const Shape out = broadcastAll(ctx, {0, 1});
    if (out != ctx.shape(0))
        ctx.fail("slope of shape " + shapeToString(ctx.shape(1)) +
                 " must broadcast to the input shape " + shapeToString(ctx.shape(0)) +
                 " (for per-channel slopes of an NCHW input use shape [C, 1, 1])");
    return {{ctx.dtype(0), out}};
}

std::vector<TensorType> clipRule(const InferContext& ctx)
{
    if (ctx.opset() < 11) {
        requireType(ctx, 0, kFloats);
        ctx.require(!ctx.hasInput(1) && !ctx.hasInput(2),
                    "before opset 11 the bounds are the attributes min and max, not inputs");
        return {{ctx.dtype(0), ctx.shape(0)}};
    }
    requireType(ctx, 0, ctx.opset() >= 12 ? kNumeric : kFloats);
    for (size_t k = 1; k <= 2; ++k) {
        if (!ctx.hasInput(k))
            continue;
        requireSameType(ctx, 0, k);
        ctx.require(elementCount(ctx.shape(k)) == 1,
                    std::string(k == 1 ? "min" : "max") + " must be a scalar, got shape " +
                        shapeToString(ctx.shape(k)));
    }
    return {{ctx.dtype(0), ctx.shape(0)}};
}

std::vector<TensorType> dropoutRule(const InferContext& ctx)
{
    requireType(ctx, 0, kFloats);
    if (ctx.opset() >= 12) {
        if (ctx.hasInput(1)) {
            requireType(ctx, 1, kFloats);
            ctx.require(elementCount(ctx.shape(1)) == 1, "ratio must be a scalar");
        }
        if (ctx.hasInput(2)) {
            requireType(ctx, 2, kBool);
            ctx.require(elementCount(ctx.shape(2)) == 1, "training_mode must be a scalar");
        }
    } else {
        ctx.require(ctx.inputCount() <= 1, "before opset 12 Dropout has one input (ratio is an attribute)");
    }
    // The mask was of the data type before opset 10, bool since.
    const DType maskType = ctx.opset() < 10 ? ctx.dtype(0) : DType::Bool;
    return {{ctx.dtype(0), ctx.shape(0)}, {maskType, ctx.shape(0)}};
}

std::vector<TensorType> whereRule(const InferContext& ctx)
{
    ctx.require(ctx.inputCount() == 3, "needs 3 inputs (condition, X, Y)");
    requireType(ctx, 0, kBool);
    requireSameType(ctx, 1, 2);
    return {{ctx.dtype(1), broadcastAll(ctx, {0, 1, 2})}};
}

std::vector<TensorType> castRule(const InferContext& ctx)
{
    const Attribute* to = ctx.node().attr("to");
    if (!to)
        ctx.fail("attribute 'to' is required");
    std::optional<DType> target;
    if (to->kind == Attribute::Kind::Int)
        target = dtypeFromOnnxCode(to->i);
    else if (to->kind == Attribute::Kind::String) // opset 6 and earlier spelled the type
        target = dtypeFromName(to->s);
    if (!target)
        throw UnsupportedError(ctx.node().describe() + ": cast to " + to->toString() +
                               " is not supported; Tessera types are float32, float16, bfloat16, "
                               "int8, uint8, int16, int32, int64 and bool");
    return {{*target, ctx.shape(0)}};
}

std::vector<TensorType> castLikeRule(const InferContext& ctx)
{
    requireOpset(ctx, 15);
    ctx.input(1);
    return {{ctx.dtype(1), ctx.shape(0)}};
}

} // namespace

void registerElementwiseShapes(ShapeRuleTable& rules)
{
    for (const char* op : {"Add", "Sub", "Mul", "Div"})
        rules[op] = binary(kNumeric, false);
    rules["Pow"] = powRule;
    for (const char* op : {"Max", "Min"})
        rules[op] = variadic(kNumeric);
    for (const char* op : {"Sum", "Mean"})
        rules[op] = variadic(kFloats);

    for (const char* op : {"Sqrt", "Exp", "Log", "Reciprocal", "Floor", "Ceil", "Round", "Sin", "Cos",
                           "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
                           "Sigmoid", "Tanh", "HardSigmoid", "LeakyRelu", "Elu", "Selu", "Softplus",
                           "Softsign", "ThresholdedRelu"})
        rules[op] = unary(kFloats);
    rules["Celu"] = unary(kFloats, 12);
    rules["HardSwish"] = unary(kFloats, 14);
    for (const char* op : {"Abs", "Sign", "Erf"})
        rules[op] = unary(kNumeric);
    rules["Neg"] = unary(kFloats | kSignedInts);
    rules["Relu"] = unary(kFloats | kSignedInts);
    rules["Shrink"] = unary(kNumeric);
    rules["Mod"] = modRule;
    rules["BitShift"] = bitShiftRule;
    rules["IsNaN"] = floatPredicateRule;
    rules["IsInf"] = floatPredicateRule;
    rules["PRelu"] = preluRule;
    rules["Clip"] = clipRule;
    rules["Identity"] = unary(kAnyType);
    rules["Dropout"] = dropoutRule;
    rules["Cast"] = castRule;
    rules["CastLike"] = castLikeRule;

    rules["Equal"] = binary(kAnyType, true);
    for (const char* op : {"Less", "Greater"})
        rules[op] = binary(kNumeric, true);
    for (const char* op : {"LessOrEqual", "GreaterOrEqual"})
        rules[op] = binary(kNumeric, true, 12);
    rules["Not"] = unary(kBool);
    for (const char* op : {"And", "Or", "Xor"})
        rules[op] = binary(kBool, true);
    rules["Where"] = whereRule;
}

} // namespace tessera
