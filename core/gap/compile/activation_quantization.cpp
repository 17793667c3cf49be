// The integer parameters of an activation layer (docs/gap-fixed-point.md, "Activations"), the same
// for 16-bit and SQ8 networks: only the worth of an input and an output item differs.
#include "gap/compile/gap_quantizer.h"

#include "base/error.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace tessera::gap {

void quantizeActivation(GapLayer& layer, double inputScale, double outputScale)
{
    using fixed_point::ActivationKind;
    namespace sq8 = fixed_point::sq8;
    fixed_point::ActivationParams& p = layer.activation;
    const double alpha = layer.activationAlpha, beta = layer.activationBeta;
    // The input to Q12: an item times inputScale * 2^12.
    const double toQ12 = inputScale * 4096.0;
    if (!(toQ12 < 32768.0))
        throw UnsupportedError(fmt::format("layer {}: its input items are worth {:.4g} each, beyond the {} that the "
                                           "activation's Q12 input holds; the values before it are too large",
                                           layer.name, inputScale, 32768.0 / 4096.0));
    const sq8::Multiplier in = sq8::multiplier15For(toQ12);
    p.inScale = in.scale;
    p.inShift = in.shift;

    // The value v the function computes is worth 2^-valueQ, times alpha for the hard functions
    // (v is 1/alpha times their result: clip(x + beta / alpha, 0, 1 / alpha)).
    double valueWorth = std::ldexp(1.0, -fixed_point::activationValueQ(p.kind));
    p.offset = p.cap = p.alpha = 0;
    if (p.kind == ActivationKind::HardSigmoid || p.kind == ActivationKind::HardSwish) {
        p.offset = int(std::lround(beta / alpha * 4096.0));
        p.cap = int(std::lround(4096.0 / alpha));
        valueWorth *= alpha;
    } else if (p.kind == ActivationKind::LeakyRelu) {
        p.alpha = int(std::clamp<long>(std::lround(alpha * 32768.0), -32767, 32767));
    }
    const double factor = valueWorth / outputScale;
    if (!(factor < 32768.0))
        throw UnsupportedError(fmt::format("layer {}: the output's items are worth {:.4g} each, too fine for the "
                                           "activation's result; its calibrated range is too small",
                                           layer.name, outputScale));
    const sq8::Multiplier out = sq8::multiplier15For(factor);
    p.outScale = out.scale;
    p.outShift = out.shift;
}

}  // namespace tessera::gap
