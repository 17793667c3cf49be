#pragma once
// Executes SCAMP-5 programs in two exact models:
//  - symbolically: each register holds a goal (its coefficients on the input around a pixel), so a
//    program is checked against the kernels for every image at once;
//  - numerically: each register is a plane of pixel values, shifts read zero beyond the array edge,
//    and division halves exactly; the interior must equal the direct correlation.
#include "scamp/kernel_set.h"
#include "scamp/program.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessera::scamp {

using SymbolicState = std::map<std::string, std::optional<Goal>>;
// Called with the number of instructions executed so far (0 before the first) and the registers then.
using SymbolicObserver = std::function<void(size_t executed, const SymbolicState& state)>;

// Registers after a symbolic run. A register never written, or clobbered as scratch, has no value.
// Throws Error naming the instruction when it reads a register without a value, divides an odd
// coefficient (inexact), or breaks a register constraint.
SymbolicState runSymbolic(const Program& program, const std::vector<std::string>& registers,
                          const std::string& inputRegister, const Goal& input, const SymbolicObserver& observer = {});

// A square image plane, row-major, (x, y) with y growing northwards from the bottom row.
struct Plane {
    int size = 0;
    std::vector<double> values;
    double at(int x, int y) const { return x < 0 || y < 0 || x >= size || y >= size ? 0.0 : values[size_t(y * size + x)]; }
};

using NumericState = std::map<std::string, Plane>;
using NumericObserver = std::function<void(size_t executed, const NumericState& state)>;

NumericState runNumeric(const Program& program, const std::vector<std::string>& registers,
                        const std::string& inputRegister, const Plane& input, const NumericObserver& observer = {});

struct VerificationReport {
    bool exact = false;
    std::vector<std::string> problems; // empty when exact
    int imagesChecked = 0;
};

// Both checks for every kernel of `set` against its output register.
VerificationReport verifyProgram(const Program& program, const KernelSet& set, const ApproximatedKernels& kernels,
                                 uint32_t seed = 1, int images = 3);

} // namespace tessera::scamp
