#include "scamp/program_trace.h"

#include "base/error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::scamp {

int ProgramTrace::radius() const
{
    int radius = 0;
    for (const auto& step : goals)
        for (const auto& goal : step)
            if (goal)
                for (const Goal::Term& term : goal->terms())
                    radius = std::max({radius, std::abs(term.at.x), std::abs(term.at.y)});
    return radius;
}

int ProgramTrace::registerIndex(const std::string& name) const
{
    const auto found = std::find(registers.begin(), registers.end(), name);
    return found == registers.end() ? -1 : int(found - registers.begin());
}

ProgramTrace traceProgram(const Program& program, const KernelSet& set, const ApproximatedKernels& kernels,
                          const Plane* image)
{
    ProgramTrace trace;
    trace.registers = set.registers;
    trace.inputRegister = set.inputRegister;
    trace.instructions = program.instructions;
    trace.depth = kernels.depth;
    try {
        runSymbolic(program, set.registers, set.inputRegister, kernels.input(),
                    [&](size_t, const SymbolicState& state) {
                        std::vector<std::optional<Goal>> row;
                        for (const std::string& r : set.registers)
                            row.push_back(state.at(r));
                        trace.goals.push_back(std::move(row));
                    });
    } catch (const Error& error) {
        trace.problem = error.what();
    }
    if (!image)
        return trace;
    // Only the instructions the symbolic run accepted: they name known registers and read values.
    trace.image = *image;
    Program accepted;
    accepted.instructions.assign(program.instructions.begin(),
                                 program.instructions.begin() + std::ptrdiff_t(trace.goals.size() - 1));
    runNumeric(accepted, set.registers, set.inputRegister, *image, [&](size_t, const NumericState& state) {
        std::vector<Plane> row;
        for (const std::string& r : set.registers)
            row.push_back(state.at(r));
        trace.planes.push_back(std::move(row));
    });
    return trace;
}

Plane samplePlane(int size)
{
    if (size < 1)
        throw Error("sample image: the size must be at least 1 pixel, not " + std::to_string(size));
    Plane plane{size, std::vector<double>(size_t(size) * size_t(size))};
    const double centre = (size - 1) / 2.0;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            double value = 40.0 + 120.0 * x / std::max(size - 1, 1) + 40.0 * y / std::max(size - 1, 1);
            const double dx = x - centre * 0.7, dy = y - centre * 1.2;
            if (dx * dx + dy * dy < size * size / 36.0)
                value = 250.0;
            if (x > size * 0.6 && x < size * 0.7 && y > size * 0.15 && y < size * 0.85)
                value = 10.0;
            if ((x / 4 + y / 4) % 2 == 0 && y < size / 5)
                value += 30.0; // a checker strip for the sharpening and edge kernels
            plane.values[size_t(y * size + x)] = std::round(std::min(value, 255.0));
        }
    return plane;
}

} // namespace tessera::scamp
