#pragma once
// Quantization parameters attached to a tensor.
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera {

// Either affine (real = scale * (q - zeroPoint), per tensor or per channel along `axis`) or a
// power-of-two Q format as the GAP generators use (real = q * 2^-fractionalBits, zero point 0).
struct Quantization {
    std::vector<float> scale;        // one entry: per tensor; several: per channel along axis
    std::vector<int64_t> zeroPoint;  // empty or the same length as scale
    int64_t axis = -1;               // channel axis of per-channel parameters
    std::optional<int> fractionalBits; // set for Q formats: an int16 tensor with N fractional bits

    bool empty() const { return scale.empty() && !fractionalBits; }
    bool perChannel() const { return scale.size() > 1; }
    bool operator==(const Quantization&) const = default;

    static Quantization qFormat(int fractionalBits)
    {
        Quantization q;
        q.fractionalBits = fractionalBits;
        return q;
    }
};

} // namespace tessera
