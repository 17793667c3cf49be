// Reference kernels of the broadcasting element-wise operators: arithmetic, Pow, the variadic
// Sum/Max/Min/Mean, comparisons, logic and Where. Unary math and conversions live in
// elementwise_math_kernels.cpp and elementwise_cast_kernels.cpp.
#include "interp/kernels/elementwise_common.h"
#include "interp/kernels/kernels.h"

#include "base/error.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tessera {

namespace {

using namespace elementwise;

// A binary arithmetic kernel from its float and integer forms.
template <class FloatOp, class IntOp> Kernel arithmetic(FloatOp floatOp, IntOp intOp)
{
    return [floatOp, intOp](KernelContext& ctx) {
        const TensorData& a = ctx.input(0);
        const TensorData& b = ctx.input(1);
        if (isFloat(a.dtype()))
            zipFloats(a, b, ctx.output(0), floatOp);
        else
            zipInts(a, b, ctx.output(0), [&](int64_t x, int64_t y) { return intOp(ctx, x, y); });
    };
}

// Integer division truncates toward zero (C++ and ONNX agree); INT64_MIN / -1 wraps.
int64_t divideInts(const KernelContext& ctx, int64_t x, int64_t y)
{
    if (y == 0)
        ctx.fail("integer division by zero");
    if (y == -1)
        return wrapNeg(x);
    return x / y;
}

// x^y for integers, exact with wrap-around for y >= 0; negative y truncates 1/x^|y| toward zero.
int64_t powerInts(const KernelContext& ctx, int64_t x, int64_t y)
{
    if (y < 0) {
        if (x == 0)
            ctx.fail("integer 0 raised to a negative power");
        if (x == 1)
            return 1;
        if (x == -1)
            return (y % 2 == 0) ? 1 : -1;
        return 0;
    }
    int64_t result = 1;
    int64_t base = x;
    while (y > 0) {
        if (y & 1)
            result = wrapMul(result, base);
        base = wrapMul(base, base);
        y >>= 1;
    }
    return result;
}

void powKernel(KernelContext& ctx)
{
    const TensorData& a = ctx.input(0);
    const TensorData& b = ctx.input(1);
    TensorData& out = ctx.output(0);
    if (!isFloat(a.dtype()) && !isFloat(b.dtype())) {
        zipInts(a, b, out, [&](int64_t x, int64_t y) { return powerInts(ctx, x, y); });
        return;
    }
    // Float base or float exponent: compute in double; an integer result truncates (as numpy's
    // astype does) and saturates.
    zipFloats(a, b, out, [](double x, double y) { return std::pow(x, y); });
}

// Mod: fmod=1 is C's fmod (sign of the dividend); fmod=0 is integer modulo with the sign of the
// divisor, as Python's %.
void modKernel(KernelContext& ctx)
{
    const TensorData& a = ctx.input(0);
    const TensorData& b = ctx.input(1);
    const bool cStyle = ctx.node.attrInt("fmod", 0) == 1;
    if (isFloat(a.dtype())) {
        zipFloats(a, b, ctx.output(0), [](double x, double y) { return std::fmod(x, y); });
        return;
    }
    zipInts(a, b, ctx.output(0), [&](int64_t x, int64_t y) -> int64_t {
        if (y == 0)
            ctx.fail("integer modulo by zero");
        if (y == -1)
            return 0; // also avoids INT64_MIN % -1
        const int64_t r = x % y;
        if (!cStyle && r != 0 && ((r < 0) != (y < 0)))
            return r + y;
        return r;
    });
}

// BitShift on unsigned integers; bits shifted past the type's width are lost.
void bitShiftKernel(KernelContext& ctx)
{
    const bool left = ctx.node.attrString("direction", "") == "LEFT";
    zipInts(ctx.input(0), ctx.input(1), ctx.output(0), [left](int64_t x, int64_t y) -> int64_t {
        const uint64_t value = static_cast<uint64_t>(x);
        const uint64_t amount = static_cast<uint64_t>(y);
        if (amount >= 64)
            return 0;
        return static_cast<int64_t>(left ? value << amount : value >> amount);
    });
}

double maxPropagatingNan(double x, double y)
{
    if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::quiet_NaN();
    return x < y ? y : x;
}

double minPropagatingNan(double x, double y)
{
    if (std::isnan(x) || std::isnan(y))
        return std::numeric_limits<double>::quiet_NaN();
    return y < x ? y : x;
}

enum class Fold { Sum, Mean, Max, Min };

// Sum, Mean, Max and Min over any number of broadcast inputs. Sums accumulate in double.
Kernel variadic(Fold fold)
{
    return [fold](KernelContext& ctx) {
        TensorData& out = ctx.output(0);
        const size_t n = static_cast<size_t>(out.elements());
        const size_t count = ctx.inputs.size();
        if (isFloat(out.dtype())) {
            std::vector<double> acc(n);
            for (size_t k = 0; k < count; ++k) {
                const TensorData& in = ctx.input(k);
                const BroadcastIndex index(in.shape(), out.shape());
                for (size_t i = 0; i < n; ++i) {
                    const double v = in.getDouble(index(static_cast<int64_t>(i)));
                    if (k == 0)
                        acc[i] = v;
                    else if (fold == Fold::Max)
                        acc[i] = maxPropagatingNan(acc[i], v);
                    else if (fold == Fold::Min)
                        acc[i] = minPropagatingNan(acc[i], v);
                    else
                        acc[i] += v;
                }
            }
            const double scale = fold == Fold::Mean ? 1.0 / static_cast<double>(count) : 1.0;
            for (size_t i = 0; i < n; ++i)
                out.setDouble(static_cast<int64_t>(i), acc[i] * scale);
            return;
        }
        std::vector<int64_t> acc(n);
        for (size_t k = 0; k < count; ++k) {
            const TensorData& in = ctx.input(k);
            const BroadcastIndex index(in.shape(), out.shape());
            for (size_t i = 0; i < n; ++i) {
                const int64_t v = in.getInt(index(static_cast<int64_t>(i)));
                if (k == 0)
                    acc[i] = v;
                else if (fold == Fold::Max)
                    acc[i] = std::max(acc[i], v);
                else if (fold == Fold::Min)
                    acc[i] = std::min(acc[i], v);
                else
                    acc[i] = wrapAdd(acc[i], v);
            }
        }
        for (size_t i = 0; i < n; ++i)
            out.setInt(static_cast<int64_t>(i), acc[i]);
    };
}

// A comparison writing bool; floats compare as doubles (exact), integers and bools as int64.
template <class Compare> Kernel comparison(Compare compare)
{
    return [compare](KernelContext& ctx) {
        const TensorData& a = ctx.input(0);
        const TensorData& b = ctx.input(1);
        TensorData& out = ctx.output(0);
        const BroadcastIndex ia(a.shape(), out.shape());
        const BroadcastIndex ib(b.shape(), out.shape());
        uint8_t* result = out.data<uint8_t>();
        const bool floats = isFloat(a.dtype());
        for (int64_t i = 0; i < out.elements(); ++i) {
            const bool r = floats ? compare(a.getDouble(ia(i)), b.getDouble(ib(i)))
                                  : compare(a.getInt(ia(i)), b.getInt(ib(i)));
            result[i] = r ? 1 : 0;
        }
    };
}

template <class Logic> Kernel logical(Logic logic)
{
    return [logic](KernelContext& ctx) {
        const TensorData& a = ctx.input(0);
        const TensorData& b = ctx.input(1);
        TensorData& out = ctx.output(0);
        const BroadcastIndex ia(a.shape(), out.shape());
        const BroadcastIndex ib(b.shape(), out.shape());
        const uint8_t* x = a.data<uint8_t>();
        const uint8_t* y = b.data<uint8_t>();
        uint8_t* z = out.data<uint8_t>();
        for (int64_t i = 0; i < out.elements(); ++i)
            z[i] = logic(x[ia(i)] != 0, y[ib(i)] != 0) ? 1 : 0;
    };
}

void notKernel(KernelContext& ctx)
{
    const uint8_t* x = ctx.input(0).data<uint8_t>();
    TensorData& out = ctx.output(0);
    uint8_t* y = out.data<uint8_t>();
    for (int64_t i = 0; i < out.elements(); ++i)
        y[i] = x[i] ? 0 : 1;
}

// Copies whole elements, so it serves every dtype.
void whereKernel(KernelContext& ctx)
{
    const TensorData& condition = ctx.input(0);
    const TensorData& x = ctx.input(1);
    const TensorData& y = ctx.input(2);
    TensorData& out = ctx.output(0);
    const BroadcastIndex ic(condition.shape(), out.shape());
    const BroadcastIndex ix(x.shape(), out.shape());
    const BroadcastIndex iy(y.shape(), out.shape());
    const size_t size = dtypeSize(out.dtype());
    const uint8_t* cond = condition.data<uint8_t>();
    for (int64_t i = 0; i < out.elements(); ++i) {
        const bool pickX = cond[ic(i)] != 0;
        const std::byte* source = pickX ? x.bytes() + static_cast<size_t>(ix(i)) * size
                                        : y.bytes() + static_cast<size_t>(iy(i)) * size;
        std::memcpy(out.bytes() + static_cast<size_t>(i) * size, source, size);
    }
}

} // namespace

void registerElementwiseKernels(KernelTable& table)
{
    table["Add"] = arithmetic([](double x, double y) { return x + y; },
                              [](const KernelContext&, int64_t x, int64_t y) { return wrapAdd(x, y); });
    table["Sub"] = arithmetic([](double x, double y) { return x - y; },
                              [](const KernelContext&, int64_t x, int64_t y) { return wrapSub(x, y); });
    table["Mul"] = arithmetic([](double x, double y) { return x * y; },
                              [](const KernelContext&, int64_t x, int64_t y) { return wrapMul(x, y); });
    table["Div"] = arithmetic([](double x, double y) { return x / y; }, divideInts);
    table["Pow"] = powKernel;
    table["Mod"] = modKernel;
    table["BitShift"] = bitShiftKernel;
    table["Sum"] = variadic(Fold::Sum);
    table["Mean"] = variadic(Fold::Mean);
    table["Max"] = variadic(Fold::Max);
    table["Min"] = variadic(Fold::Min);

    table["Equal"] = comparison([](auto x, auto y) { return x == y; });
    table["Less"] = comparison([](auto x, auto y) { return x < y; });
    table["Greater"] = comparison([](auto x, auto y) { return x > y; });
    table["LessOrEqual"] = comparison([](auto x, auto y) { return x <= y; });
    table["GreaterOrEqual"] = comparison([](auto x, auto y) { return x >= y; });
    table["And"] = logical([](bool x, bool y) { return x && y; });
    table["Or"] = logical([](bool x, bool y) { return x || y; });
    table["Xor"] = logical([](bool x, bool y) { return x != y; });
    table["Not"] = notKernel;
    table["Where"] = whereKernel;

    registerMathKernels(table);
    registerConversionKernels(table);
}

} // namespace tessera
