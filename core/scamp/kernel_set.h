#pragma once
// A set of convolution kernels to compile for SCAMP-5, read from JSON:
//   {"name": "gauss3", "input_register": "A", "registers": ["A","B","C","D","E","F"],
//    "max_approximation_depth": 6, "max_approximation_error": 0,
//    "kernels": [{"output_register": "A", "scale": 0.0625, "weights": [[1,2,1],[2,4,2],[1,2,1]]}]}
// Row 0 of `weights` is the north-most row, the centre element is the pixel itself, and the
// output is the correlation: sum of weight x input at that offset.
#include "scamp/goal.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::scamp {

struct KernelSpec {
    std::string outputRegister;
    double scale = 1.0;
    std::vector<std::vector<double>> weights; // rows north to south, odd width and height
};

struct KernelSet {
    std::string name;
    std::string inputRegister = "A";
    std::vector<std::string> registers = {"A", "B", "C", "D", "E", "F"};
    int maxApproximationDepth = 6;
    double maxApproximationError = 0.0; // total |approximated - exact| allowed per kernel
    std::vector<KernelSpec> kernels;
};

// The largest |coefficient| a goal may have, in units of 2^-depth of the input (2^20). SCAMP-5's
// analog registers hold about 8 bits; far larger sums only blow up the search and its memory.
constexpr std::int64_t kMaxCoefficient = std::int64_t{1} << 20;

// The largest kernel side (15: offsets up to 7 pixels away). Every step of a program moves a
// register by one pixel, so wider kernels make programs, and their search, grow out of reach.
constexpr int kMaxKernelSide = 15;

// Throws Error "<source>: ..." for malformed files: ragged or even-sized weight rows, empty
// kernels, non-numeric weights, unknown or duplicate registers, more kernels than registers.
KernelSet parseKernelSet(const std::string& json, const std::string& source);
KernelSet readKernelSet(const std::string& path);
// The JSON form parseKernelSet reads.
std::string kernelSetToJson(const KernelSet& set);

// Kernels as goals in units of 2^-depth: the smallest depth (0..max) whose rounding stays within
// the error bound.
struct ApproximatedKernels {
    int depth = 0;
    std::vector<Goal> goals;          // one per kernel, coefficient n means n / 2^depth
    std::vector<double> errors;       // per kernel: sum of |approximated - exact| weights
    Goal input() const { return Goal::identity(int64_t{1} << depth); }
};

// Throws Error when no depth up to the maximum reaches the error bound (naming the best error).
ApproximatedKernels approximateKernels(const KernelSet& set);

} // namespace tessera::scamp
