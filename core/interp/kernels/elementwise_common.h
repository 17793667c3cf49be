#pragma once
// Helpers shared by the element-wise reference kernels (elementwise_*.cpp).
//
// Floats are computed in double and rounded once to the output type; integers are computed in
// int64 with wrap-around (no signed overflow) and stored modulo the output width, as numpy does.
#include "interp/kernel.h"
#include "interp/kernels/broadcast.h"

#include <cstdint>
#include <vector>

namespace tessera::elementwise {

// Registration of the parts of the family kept in separate files.
void registerMathKernels(KernelTable& table);       // unary math and activations, Clip, PRelu
void registerConversionKernels(KernelTable& table); // Cast, CastLike, Identity, Dropout

// The flat index of the input element that broadcasts onto output element i; the identity when
// the shapes are equal (no index map is built then).
class BroadcastIndex {
public:
    BroadcastIndex(const Shape& inShape, const Shape& outShape)
    {
        if (inShape != outShape)
            map_ = broadcastIndexMap(inShape, outShape);
    }
    int64_t operator()(int64_t i) const { return map_.empty() ? i : map_[static_cast<size_t>(i)]; }

private:
    std::vector<int64_t> map_;
};

// Two's-complement arithmetic on int64 without undefined behaviour.
inline int64_t wrapAdd(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
inline int64_t wrapSub(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
inline int64_t wrapMul(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}
inline int64_t wrapNeg(int64_t a) { return wrapSub(0, a); }

// y[i] = f(x[i]) over doubles; float32 in and out takes a direct path.
template <class F> void mapFloats(const TensorData& x, TensorData& y, F f)
{
    const int64_t n = y.elements();
    if (x.dtype() == DType::Float32 && y.dtype() == DType::Float32) {
        const float* in = x.data<float>();
        float* out = y.data<float>();
        for (int64_t i = 0; i < n; ++i)
            out[i] = static_cast<float>(f(static_cast<double>(in[i])));
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        y.setDouble(i, f(x.getDouble(i)));
}

// y[i] = f(x[i]) over int64.
template <class F> void mapInts(const TensorData& x, TensorData& y, F f)
{
    const int64_t n = y.elements();
    for (int64_t i = 0; i < n; ++i)
        y.setInt(i, f(x.getInt(i)));
}

// out[i] = f(a[ia], b[ib]) over doubles with broadcasting; all-float32 takes a direct path.
template <class F> void zipFloats(const TensorData& a, const TensorData& b, TensorData& out, F f)
{
    const BroadcastIndex ia(a.shape(), out.shape());
    const BroadcastIndex ib(b.shape(), out.shape());
    const int64_t n = out.elements();
    if (a.dtype() == DType::Float32 && b.dtype() == DType::Float32 && out.dtype() == DType::Float32) {
        const float* x = a.data<float>();
        const float* y = b.data<float>();
        float* z = out.data<float>();
        for (int64_t i = 0; i < n; ++i)
            z[i] = static_cast<float>(f(static_cast<double>(x[ia(i)]), static_cast<double>(y[ib(i)])));
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        out.setDouble(i, f(a.getDouble(ia(i)), b.getDouble(ib(i))));
}

// out[i] = f(a[ia], b[ib]) over int64 with broadcasting.
template <class F> void zipInts(const TensorData& a, const TensorData& b, TensorData& out, F f)
{
    const BroadcastIndex ia(a.shape(), out.shape());
    const BroadcastIndex ib(b.shape(), out.shape());
    const int64_t n = out.elements();
    for (int64_t i = 0; i < n; ++i)
        out.setInt(i, f(a.getInt(ia(i)), b.getInt(ib(i))));
}

} // namespace tessera::elementwise
