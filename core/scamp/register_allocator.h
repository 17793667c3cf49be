#pragma once
// Register allocation for a straight-line SCAMP-5 plan: every computed value gets a physical
// register for its lifetime (no spills), the input starts in the input register and each kernel's
// result must end in its output register.
#include "scamp/instruction.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::scamp {

// One instruction of a plan over values: value k is the input (k = 0) or the result of step k - 1.
struct PlanStep {
    Op op = Op::Mov;
    std::vector<Direction> directions;
    std::vector<size_t> sources; // value indices, in instruction operand order
    Goal result;
};

struct ValuePlan {
    Goal input;
    std::vector<PlanStep> steps;
    std::vector<size_t> outputs;  // per kernel: the value holding its result
};

// Assigns registers; the output values end in `outputRegisters` (extra mov instructions are added
// when a value has to move there). Returns nullopt when the registers do not suffice.
std::optional<std::vector<Instruction>> allocateRegisters(const ValuePlan& plan, const std::vector<std::string>& registers,
                                                          const std::string& inputRegister,
                                                          const std::vector<std::string>& outputRegisters);

} // namespace tessera::scamp
