// Reference kernels that convert or pass values through: Cast, CastLike, Identity, Dropout.
#include "interp/kernels/elementwise_common.h"

#include "base/error.h"

#include <cmath>
#include <cstring>

namespace tessera::elementwise {

namespace {

// ONNX's backend test data (and numpy-based exporters) cast float32 to bfloat16 by dropping the
// low 16 bits, not by rounding; Cast follows it so the interpreter agrees with that data.
uint16_t truncateToBfloat16(float value)
{
    uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value))
        return static_cast<uint16_t>(((bits >> 16) & 0x8000u) | 0x7fc0u); // keep it a NaN
    return static_cast<uint16_t>(bits >> 16);
}

// Converts `in` into the already typed `out`, following ONNX Cast: float to integer truncates
// toward zero (saturating, NaN gives 0), anything to bool is x != 0, integer to narrower integer
// wraps as numpy's astype does.
void convert(const TensorData& in, TensorData& out)
{
    if (in.dtype() == out.dtype()) {
        if (in.byteSize())
            std::memcpy(out.bytes(), in.bytes(), in.byteSize());
        return;
    }
    const int64_t n = out.elements();
    if (out.dtype() == DType::BFloat16) {
        uint16_t* values = out.data<uint16_t>();
        for (int64_t i = 0; i < n; ++i)
            values[i] = truncateToBfloat16(static_cast<float>(in.getDouble(i)));
        return;
    }
    if (isFloat(in.dtype()) || isFloat(out.dtype())) {
        for (int64_t i = 0; i < n; ++i)
            out.setDouble(i, in.getDouble(i));
        return;
    }
    for (int64_t i = 0; i < n; ++i)
        out.setInt(i, in.getInt(i));
}

void castKernel(KernelContext& ctx) { convert(ctx.input(0), ctx.output(0)); }

void identityKernel(KernelContext& ctx) { convert(ctx.input(0), ctx.output(0)); }

// Inference Dropout: the output is the input, the optional mask keeps everything.
void dropoutKernel(KernelContext& ctx)
{
    if (ctx.opset >= 12 && ctx.hasInput(2) && ctx.input(2).getInt(0) != 0) {
        const double ratio = ctx.hasInput(1) ? ctx.input(1).getDouble(0) : 0.5;
        if (ratio != 0.0)
            throw UnsupportedError(ctx.node.describe() +
                                   ": Dropout in training mode is random; Tessera runs inference only "
                                   "(set training_mode to false)");
    }
    convert(ctx.input(0), ctx.output(0));
    if (ctx.outputs.size() > 1) {
        TensorData& mask = ctx.output(1);
        for (int64_t i = 0; i < mask.elements(); ++i)
            mask.setInt(i, 1);
    }
}

} // namespace

void registerConversionKernels(KernelTable& table)
{
    table["Cast"] = castKernel;
    table["CastLike"] = castKernel;
    table["Identity"] = identityKernel;
    table["Dropout"] = dropoutKernel;
}

} // namespace tessera::elementwise
