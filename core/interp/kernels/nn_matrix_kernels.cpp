// Reference kernels of Gemm and MatMul (numpy semantics: 1-D operands promoted, batch dims
// broadcast). Floats accumulate in double; integers in int64 with wrap-around.
#include "interp/kernels/broadcast.h"
#include "interp/kernels/nn_common.h"

#include <cstdint>

namespace tessera::nn {

namespace {

// C[m, n] = sum_k A(m, k) * B(k, n) for row-major operands with element strides.
struct MatrixView {
    int64_t offset = 0;
    int64_t rowStride = 0;
    int64_t colStride = 0;
};

template <class T>
void multiply(const std::vector<T>& a, MatrixView va, const std::vector<T>& b, MatrixView vb, int64_t m, int64_t k,
              int64_t n, T* out)
{
    for (int64_t i = 0; i < m; ++i)
        for (int64_t j = 0; j < n; ++j) {
            T acc = 0;
            for (int64_t p = 0; p < k; ++p) {
                const T x = a[static_cast<size_t>(va.offset + i * va.rowStride + p * va.colStride)];
                const T y = b[static_cast<size_t>(vb.offset + p * vb.rowStride + j * vb.colStride)];
                if constexpr (std::is_integral_v<T>)
                    acc = static_cast<T>(static_cast<uint64_t>(acc) + static_cast<uint64_t>(x) * static_cast<uint64_t>(y));
                else
                    acc += x * y;
            }
            out[i * n + j] = acc;
        }
}

template <class T> std::vector<T> valuesAs(const TensorData& t)
{
    if constexpr (std::is_integral_v<T>)
        return t.toInts();
    else
        return t.toDoubles();
}

template <class T> void store(TensorData& out, const std::vector<T>& values)
{
    if constexpr (std::is_integral_v<T>) {
        for (int64_t i = 0; i < out.elements(); ++i)
            out.setInt(i, values[static_cast<size_t>(i)]);
    } else {
        storeValues(out, values);
    }
}

template <class T> void gemmAs(KernelContext& ctx)
{
    const TensorData& at = ctx.input(0);
    const TensorData& bt = ctx.input(1);
    const bool transA = ctx.node.attrInt("transA", 0) != 0;
    const bool transB = ctx.node.attrInt("transB", 0) != 0;
    const T alpha = static_cast<T>(ctx.node.attrFloat("alpha", 1.0f));
    const T beta = static_cast<T>(ctx.node.attrFloat("beta", 1.0f));
    const int64_t m = ctx.output(0).shape()[0];
    const int64_t n = ctx.output(0).shape()[1];
    const int64_t k = at.shape()[transA ? 0 : 1];
    const int64_t aCols = at.shape()[1];
    const int64_t bCols = bt.shape()[1];
    const MatrixView va{0, transA ? 1 : aCols, transA ? aCols : 1};
    const MatrixView vb{0, transB ? 1 : bCols, transB ? bCols : 1};
    std::vector<T> y(static_cast<size_t>(m * n));
    multiply(valuesAs<T>(at), va, valuesAs<T>(bt), vb, m, k, n, y.data());
    std::vector<int64_t> cIndex;
    std::vector<T> c;
    if (ctx.hasInput(2)) {
        c = valuesAs<T>(ctx.input(2));
        cIndex = broadcastIndexMap(ctx.input(2).shape(), ctx.output(0).shape());
    }
    for (size_t i = 0; i < y.size(); ++i)
        y[i] = alpha * y[i] + (c.empty() ? T(0) : beta * c[static_cast<size_t>(cIndex[i])]);
    store(ctx.output(0), y);
}

template <class T> void matMulAs(KernelContext& ctx)
{
    Shape a = ctx.input(0).shape();
    Shape b = ctx.input(1).shape();
    if (a.size() == 1)
        a.insert(a.begin(), 1);
    if (b.size() == 1)
        b.push_back(1);
    const int64_t m = a[a.size() - 2];
    const int64_t k = a.back();
    const int64_t n = b.back();
    const Shape batchA(a.begin(), a.end() - 2);
    const Shape batchB(b.begin(), b.end() - 2);
    const Shape batch = broadcastShapes(batchA, batchB, ctx.node.describe());
    const std::vector<int64_t> mapA = broadcastIndexMap(batchA, batch);
    const std::vector<int64_t> mapB = broadcastIndexMap(batchB, batch);
    const std::vector<T> av = valuesAs<T>(ctx.input(0));
    const std::vector<T> bv = valuesAs<T>(ctx.input(1));
    std::vector<T> y(static_cast<size_t>(elementCount(batch) * m * n));
    for (size_t i = 0; i < mapA.size(); ++i)
        multiply(av, MatrixView{mapA[i] * m * k, k, 1}, bv, MatrixView{mapB[i] * k * n, n, 1}, m, k, n,
                 y.data() + static_cast<int64_t>(i) * m * n);
    store(ctx.output(0), y);
}

void gemm(KernelContext& ctx)
{
    if (isFloat(ctx.input(0).dtype()))
        gemmAs<double>(ctx);
    else
        gemmAs<int64_t>(ctx);
}

void matMul(KernelContext& ctx)
{
    if (isFloat(ctx.input(0).dtype()))
        matMulAs<double>(ctx);
    else
        matMulAs<int64_t>(ctx);
}

} // namespace

void registerMatrixKernels(KernelTable& table)
{
    table["Gemm"] = gemm;
    table["MatMul"] = matMul;
}

} // namespace tessera::nn
