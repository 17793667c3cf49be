#pragma once
// A SCAMP-5 program executed step by step, for showing it: every register's goal before the first
// instruction and after each one, and, on an image, every register's plane at each of those points.
// The studio's SCAMP trace draws this; the checks are the simulator's (simulator.h).
#include "scamp/kernel_set.h"
#include "scamp/program.h"
#include "scamp/simulator.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::scamp {

struct ProgramTrace {
    std::vector<std::string> registers;
    std::string inputRegister;
    std::vector<Instruction> instructions;
    int depth = 0; // goals count in units of 2^-depth of the input
    // goals[s][r]: register r after s instructions (s = 0: before the first); nullopt when it holds
    // no value. When the program breaks a rule at instruction k, the trace stops after k - 1 steps.
    std::vector<std::vector<std::optional<Goal>>> goals;
    // planes[s][r], indexed like goals; empty when no image was given.
    std::vector<std::vector<Plane>> planes;
    Plane image;
    // Why the trace stops early (the simulator's message naming the instruction); empty otherwise.
    std::string problem;

    size_t steps() const { return goals.size(); }
    // The largest |x| or |y| of any term in any goal: the coefficient grids have side 2 * radius + 1.
    int radius() const;
    int registerIndex(const std::string& name) const; // -1 when unknown
};

// Runs `program` on the kernels' input goal and, when `image` is given, on that image too.
ProgramTrace traceProgram(const Program& program, const KernelSet& set, const ApproximatedKernels& kernels,
                          const Plane* image = nullptr);

// A deterministic picture to step a program on: soft gradients, a bright disc and a dark bar, so
// blurs and edge filters show visibly different planes. Values 0..255 in whole numbers, which keeps
// every halving exact.
Plane samplePlane(int size);

} // namespace tessera::scamp
