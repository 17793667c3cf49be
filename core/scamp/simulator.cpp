#include "scamp/simulator.h"

#include "base/error.h"

#include <random>
#include <set>

namespace tessera::scamp {

namespace {

void requireRegisters(const Instruction& instruction, const std::set<std::string>& known, size_t step)
{
    for (const std::string& r : instruction.registersNamed())
        if (!known.count(r))
            throw Error("instruction " + std::to_string(step + 1) + " " + instruction.toString() + ": unknown register '" + r + "'");
    const auto problems = instruction.check();
    if (!problems.empty())
        throw Error("instruction " + std::to_string(step + 1) + ": " + problems.front());
}

bool isHalving(Op op)
{
    return op == Op::Div || op == Op::Divq || op == Op::DivClobber || op == Op::Diva;
}

} // namespace

SymbolicState runSymbolic(const Program& program, const std::vector<std::string>& registers,
                          const std::string& inputRegister, const Goal& input, const SymbolicObserver& observer)
{
    const std::set<std::string> known(registers.begin(), registers.end());
    SymbolicState state;
    for (const std::string& r : registers)
        state[r] = std::nullopt;
    state[inputRegister] = input;
    if (observer)
        observer(0, state);
    for (size_t step = 0; step < program.instructions.size(); ++step) {
        const Instruction& instruction = program.instructions[step];
        requireRegisters(instruction, known, step);
        std::vector<Goal> sources;
        for (const std::string& r : instruction.sources) {
            if (!state[r])
                throw Error("instruction " + std::to_string(step + 1) + " " + instruction.toString() + " reads " + r +
                            ", which holds no value (never written, or clobbered as scratch)");
            sources.push_back(*state[r]);
        }
        if (isHalving(instruction.op) && !sources[0].isEven())
            throw Error("instruction " + std::to_string(step + 1) + " " + instruction.toString() + " halves " +
                        sources[0].toString() + ", which has odd coefficients (increase the depth d)");
        const Goal result = instruction.apply(sources);
        for (const std::string& t : instruction.clobbered())
            state[t] = std::nullopt;
        state[instruction.dest] = result;
        if (!instruction.secondDest.empty())
            state[instruction.secondDest] = Goal();
        if (observer)
            observer(step + 1, state);
    }
    return state;
}

NumericState runNumeric(const Program& program, const std::vector<std::string>& registers,
                        const std::string& inputRegister, const Plane& input, const NumericObserver& observer)
{
    NumericState state;
    for (const std::string& r : registers)
        state[r] = Plane{input.size, std::vector<double>(input.values.size(), 0.0)};
    state[inputRegister] = input;
    if (observer)
        observer(0, state);
    for (size_t step = 0; step < program.instructions.size(); ++step) {
        const Instruction& instruction = program.instructions[step];
        const Offset shift = instruction.shift();
        Plane result{input.size, std::vector<double>(input.values.size(), 0.0)};
        for (int y = 0; y < input.size; ++y) {
            for (int x = 0; x < input.size; ++x) {
                auto read = [&](const std::string& r, Offset by) { return state[r].at(x + by.x, y + by.y); };
                const std::vector<std::string>& s = instruction.sources;
                double value = 0.0;
                switch (instruction.op) {
                case Op::Res:
                case Op::Res2: value = 0.0; break;
                case Op::Mov: value = read(s[0], {}); break;
                case Op::Movx:
                case Op::Mov2x: value = read(s[0], shift); break;
                case Op::Add: value = read(s[0], {}) + read(s[1], {}); break;
                case Op::Add3: value = read(s[0], {}) + read(s[1], {}) + read(s[2], {}); break;
                case Op::Addx:
                case Op::Add2x: value = read(s[0], shift) + read(s[1], shift); break;
                case Op::Sub: value = read(s[0], {}) - read(s[1], {}); break;
                case Op::Subx:
                case Op::Sub2x: value = read(s[0], shift) - read(s[1], {}); break;
                case Op::Neg: value = -read(s[0], {}); break;
                case Op::Divq:
                case Op::Div:
                case Op::DivClobber:
                case Op::Diva: value = read(s[0], {}) / 2.0; break;
                }
                result.values[size_t(y * input.size + x)] = value;
            }
        }
        for (const std::string& t : instruction.clobbered())
            state[t] = Plane{input.size, std::vector<double>(input.values.size(), 0.0)};
        if (!instruction.secondDest.empty())
            state[instruction.secondDest] = Plane{input.size, std::vector<double>(input.values.size(), 0.0)};
        state[instruction.dest] = std::move(result);
        if (observer)
            observer(step + 1, state);
    }
    return state;
}

VerificationReport verifyProgram(const Program& program, const KernelSet& set, const ApproximatedKernels& kernels,
                                 uint32_t seed, int images)
{
    VerificationReport report;
    try {
        const auto symbolic = runSymbolic(program, set.registers, set.inputRegister, kernels.input());
        for (size_t k = 0; k < set.kernels.size(); ++k) {
            const std::string& r = set.kernels[k].outputRegister;
            const auto& value = symbolic.at(r);
            if (!value)
                report.problems.push_back("output register " + r + " holds no value at the end");
            else if (!(*value == kernels.goals[k]))
                report.problems.push_back("output register " + r + " computes " + value->toString() + ", kernel " +
                                          std::to_string(k) + " needs " + kernels.goals[k].toString() + " (units 2^-" +
                                          std::to_string(kernels.depth) + ")");
        }
    } catch (const Error& error) {
        report.problems.push_back(error.what());
        return report;
    }

    // Numerically: integer images, so every value is an exact dyadic rational in a double.
    int radius = 1;
    for (const Instruction& instruction : program.instructions)
        radius += std::abs(instruction.shift().x) + std::abs(instruction.shift().y);
    const int size = 2 * radius + 16;
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> pixel(0, 255);
    for (int image = 0; image < images; ++image) {
        Plane input{size, std::vector<double>(size_t(size * size))};
        for (double& v : input.values)
            v = pixel(random);
        const auto planes = runNumeric(program, set.registers, set.inputRegister, input);
        const double unit = std::ldexp(1.0, -kernels.depth);
        for (size_t k = 0; k < set.kernels.size(); ++k) {
            const Plane& out = planes.at(set.kernels[k].outputRegister);
            for (int y = radius; y < size - radius; ++y)
                for (int x = radius; x < size - radius; ++x) {
                    double expected = 0.0;
                    for (const Goal::Term& t : kernels.goals[k].terms())
                        expected += double(t.coefficient) * unit * input.at(x + t.at.x, y + t.at.y);
                    if (out.at(x, y) != expected) {
                        report.problems.push_back("image " + std::to_string(image) + ": register " +
                                                  set.kernels[k].outputRegister + " at (" + std::to_string(x) + ", " +
                                                  std::to_string(y) + ") is " + std::to_string(out.at(x, y)) +
                                                  ", the correlation is " + std::to_string(expected));
                        return report;
                    }
                }
        }
        ++report.imagesChecked;
    }
    report.exact = report.problems.empty();
    return report;
}

} // namespace tessera::scamp
