// Reference kernels of the unary element-wise math functions and activations, Clip and PRelu.
#include "interp/kernels/elementwise_common.h"

#include "base/error.h"

#include <cmath>
#include <functional>
#include <limits>

namespace tessera::elementwise {

namespace {

using FloatFunction = std::function<double(double)>;
// Builds the function of one node (reading its attributes) once per kernel call.
using FloatFunctionFactory = std::function<FloatFunction(const KernelContext&)>;

// A kernel for float-only operators whose function does not depend on attributes.
Kernel floatUnary(double (*f)(double))
{
    return [f](KernelContext& ctx) { mapFloats(ctx.input(0), ctx.output(0), f); };
}

// A kernel for float-only operators parameterized by attributes.
Kernel floatUnaryWith(FloatFunctionFactory factory)
{
    return [factory](KernelContext& ctx) {
        const FloatFunction f = factory(ctx);
        mapFloats(ctx.input(0), ctx.output(0), f);
    };
}

// A kernel for operators defined on floats and integers.
Kernel numericUnary(double (*floatF)(double), int64_t (*intF)(int64_t))
{
    return [floatF, intF](KernelContext& ctx) {
        if (isFloat(ctx.input(0).dtype()))
            mapFloats(ctx.input(0), ctx.output(0), floatF);
        else
            mapInts(ctx.input(0), ctx.output(0), intF);
    };
}

// Round half to even, independent of the floating-point rounding mode.
double roundHalfEven(double x)
{
    const double r = std::round(x); // halves away from zero
    if (std::abs(x - std::trunc(x)) == 0.5)
        return 2.0 * std::round(x / 2.0);
    return r;
}

double sigmoid(double x)
{
    if (x >= 0)
        return 1.0 / (1.0 + std::exp(-x));
    const double e = std::exp(x);
    return e / (1.0 + e);
}

// log(1 + exp(x)) without overflow for large x.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

double sign(double x)
{
    if (std::isnan(x))
        return x;
    return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
}

int64_t signInt(int64_t x) { return x > 0 ? 1 : (x < 0 ? -1 : 0); }
int64_t absInt(int64_t x) { return x < 0 ? wrapNeg(x) : x; }
int64_t reluInt(int64_t x) { return x > 0 ? x : 0; }
int64_t erfInt(int64_t x) { return static_cast<int64_t>(std::erf(static_cast<double>(x))); }

double attr(const KernelContext& ctx, const char* name, float fallback)
{
    return static_cast<double>(ctx.node.attrFloat(name, fallback));
}

void shrinkKernel(KernelContext& ctx)
{
    const double lambd = attr(ctx, "lambd", 0.5f);
    const double bias = attr(ctx, "bias", 0.0f);
    // Integer inputs go through double too; the result is stored truncated.
    mapFloats(ctx.input(0), ctx.output(0), [lambd, bias](double x) {
        if (x < -lambd)
            return x + bias;
        if (x > lambd)
            return x - bias;
        return 0.0;
    });
}

void isNanKernel(KernelContext& ctx)
{
    const TensorData& x = ctx.input(0);
    TensorData& out = ctx.output(0);
    for (int64_t i = 0; i < out.elements(); ++i)
        out.setInt(i, std::isnan(x.getDouble(i)) ? 1 : 0);
}

void isInfKernel(KernelContext& ctx)
{
    const bool negative = ctx.node.attrInt("detect_negative", 1) != 0;
    const bool positive = ctx.node.attrInt("detect_positive", 1) != 0;
    const TensorData& x = ctx.input(0);
    TensorData& out = ctx.output(0);
    for (int64_t i = 0; i < out.elements(); ++i) {
        const double v = x.getDouble(i);
        out.setInt(i, std::isinf(v) && (v > 0 ? positive : negative) ? 1 : 0);
    }
}

void clipKernel(KernelContext& ctx)
{
    const TensorData& x = ctx.input(0);
    TensorData& out = ctx.output(0);
    if (isFloat(x.dtype())) {
        double low = -std::numeric_limits<double>::infinity();
        double high = std::numeric_limits<double>::infinity();
        if (ctx.opset < 11) {
            low = attr(ctx, "min", std::numeric_limits<float>::lowest());
            high = attr(ctx, "max", std::numeric_limits<float>::max());
        } else {
            if (ctx.hasInput(1))
                low = ctx.input(1).getDouble(0);
            if (ctx.hasInput(2))
                high = ctx.input(2).getDouble(0);
        }
        // min(max(x, low), high): when low > high every value becomes high, as ONNX specifies.
        mapFloats(x, out, [low, high](double v) {
            if (std::isnan(v))
                return v;
            return std::min(std::max(v, low), high);
        });
        return;
    }
    int64_t low = std::numeric_limits<int64_t>::lowest();
    int64_t high = std::numeric_limits<int64_t>::max();
    if (ctx.hasInput(1))
        low = ctx.input(1).getInt(0);
    if (ctx.hasInput(2))
        high = ctx.input(2).getInt(0);
    mapInts(x, out, [low, high](int64_t v) { return std::min(std::max(v, low), high); });
}

void preluKernel(KernelContext& ctx)
{
    const TensorData& x = ctx.input(0);
    const TensorData& slope = ctx.input(1);
    if (isFloat(x.dtype()))
        zipFloats(x, slope, ctx.output(0), [](double v, double s) { return v < 0 ? s * v : v; });
    else
        zipInts(x, slope, ctx.output(0), [](int64_t v, int64_t s) { return v < 0 ? wrapMul(s, v) : v; });
}

} // namespace

void registerMathKernels(KernelTable& table)
{
    table["Sqrt"] = floatUnary([](double x) { return std::sqrt(x); });
    table["Exp"] = floatUnary([](double x) { return std::exp(x); });
    table["Log"] = floatUnary([](double x) { return std::log(x); });
    table["Reciprocal"] = floatUnary([](double x) { return 1.0 / x; });
    table["Floor"] = floatUnary([](double x) { return std::floor(x); });
    table["Ceil"] = floatUnary([](double x) { return std::ceil(x); });
    table["Round"] = floatUnary(roundHalfEven);
    table["Sin"] = floatUnary([](double x) { return std::sin(x); });
    table["Cos"] = floatUnary([](double x) { return std::cos(x); });
    table["Tan"] = floatUnary([](double x) { return std::tan(x); });
    table["Asin"] = floatUnary([](double x) { return std::asin(x); });
    table["Acos"] = floatUnary([](double x) { return std::acos(x); });
    table["Atan"] = floatUnary([](double x) { return std::atan(x); });
    table["Sinh"] = floatUnary([](double x) { return std::sinh(x); });
    table["Cosh"] = floatUnary([](double x) { return std::cosh(x); });
    table["Asinh"] = floatUnary([](double x) { return std::asinh(x); });
    table["Acosh"] = floatUnary([](double x) { return std::acosh(x); });
    table["Atanh"] = floatUnary([](double x) { return std::atanh(x); });
    table["Sigmoid"] = floatUnary(sigmoid);
    table["Tanh"] = floatUnary([](double x) { return std::tanh(x); });
    table["Softplus"] = floatUnary(softplus);
    table["Softsign"] = floatUnary([](double x) { return x / (1.0 + std::abs(x)); });
    table["HardSwish"] = floatUnary([](double x) { return x * std::max(0.0, std::min(1.0, x / 6.0 + 0.5)); });

    table["Abs"] = numericUnary([](double x) { return std::abs(x); }, absInt);
    table["Neg"] = numericUnary([](double x) { return -x; }, wrapNeg);
    table["Sign"] = numericUnary(sign, signInt);
    table["Relu"] = numericUnary([](double x) { return x > 0 ? x : (std::isnan(x) ? x : 0.0); }, reluInt);
    table["Erf"] = numericUnary([](double x) { return std::erf(x); }, erfInt);

    table["LeakyRelu"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 0.01f);
        return [alpha](double x) { return x < 0 ? alpha * x : x; };
    });
    table["HardSigmoid"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 0.2f);
        const double beta = attr(ctx, "beta", 0.5f);
        return [alpha, beta](double x) { return std::max(0.0, std::min(1.0, alpha * x + beta)); };
    });
    table["Elu"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 1.0f);
        return [alpha](double x) { return x < 0 ? alpha * std::expm1(x) : x; };
    });
    table["Selu"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 1.67326319217681884765625f);
        const double gamma = attr(ctx, "gamma", 1.05070102214813232421875f);
        return [alpha, gamma](double x) { return x <= 0 ? gamma * alpha * std::expm1(x) : gamma * x; };
    });
    table["Celu"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 1.0f);
        if (alpha == 0.0)
            ctx.fail("attribute alpha must not be 0");
        return [alpha](double x) { return std::max(0.0, x) + std::min(0.0, alpha * std::expm1(x / alpha)); };
    });
    table["ThresholdedRelu"] = floatUnaryWith([](const KernelContext& ctx) -> FloatFunction {
        const double alpha = attr(ctx, "alpha", 1.0f);
        return [alpha](double x) { return x > alpha ? x : 0.0; };
    });

    table["Shrink"] = shrinkKernel;
    table["IsNaN"] = isNanKernel;
    table["IsInf"] = isInfKernel;
    table["Clip"] = clipKernel;
    table["PRelu"] = preluKernel;
}

} // namespace tessera::elementwise
