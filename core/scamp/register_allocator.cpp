#include "scamp/register_allocator.h"

#include <algorithm>
#include <map>

namespace tessera::scamp {

std::optional<std::vector<Instruction>> allocateRegisters(const ValuePlan& plan, const std::vector<std::string>& registers,
                                                          const std::string& inputRegister,
                                                          const std::vector<std::string>& outputRegisters)
{
    const size_t values = plan.steps.size() + 1;
    // Last step reading each value; outputs live to the end.
    std::vector<int64_t> lastUse(values, -1);
    for (size_t s = 0; s < plan.steps.size(); ++s)
        for (size_t v : plan.steps[s].sources)
            lastUse[v] = int64_t(s);
    const auto end = int64_t(plan.steps.size());
    for (size_t v : plan.outputs)
        lastUse[v] = end;

    // Preferred register of each value: its output register, if it is an output.
    std::map<size_t, std::string> preferred;
    for (size_t k = 0; k < plan.outputs.size(); ++k)
        preferred.emplace(plan.outputs[k], outputRegisters[k]);

    std::map<std::string, std::optional<size_t>> holder; // register -> live value
    for (const std::string& r : registers)
        holder[r] = std::nullopt;
    std::vector<std::string> location(values);
    holder[inputRegister] = 0;
    location[0] = inputRegister;

    std::vector<Instruction> program;
    for (size_t s = 0; s < plan.steps.size(); ++s) {
        const PlanStep& step = plan.steps[s];
        const size_t value = s + 1;
        Instruction instruction;
        instruction.op = step.op;
        instruction.directions = step.directions;
        for (size_t v : step.sources)
            instruction.sources.push_back(location[v]);
        // Registers free after this step's reads: holding nothing, or a value read here for the last time.
        auto freeFor = [&](const std::string& r) {
            const auto& held = holder[r];
            if (!held)
                return true;
            if (lastUse[*held] != int64_t(s))
                return false;
            for (size_t k = 0; k < step.sources.size(); ++k)
                if (step.sources[k] == *held && !mayShareDestination(step.op, k))
                    return false;
            return true;
        };
        std::vector<std::string> candidates;
        for (const std::string& r : registers)
            if (freeFor(r))
                candidates.push_back(r);
        if (candidates.empty())
            return std::nullopt;
        // Prefer the value's output register, then registers no pending output wants, then any.
        auto wantedLater = [&](const std::string& r) {
            for (const auto& [v, want] : preferred)
                if (want == r && v > value)
                    return true;
            return false;
        };
        std::string chosen = candidates.front();
        const auto pref = preferred.find(value);
        if (pref != preferred.end() && std::count(candidates.begin(), candidates.end(), pref->second))
            chosen = pref->second;
        else
            for (const std::string& r : candidates)
                if (!wantedLater(r)) {
                    chosen = r;
                    break;
                }
        // Free the registers whose values died here, then write the destination.
        for (size_t v : step.sources)
            if (lastUse[v] == int64_t(s) && holder[location[v]] == v)
                holder[location[v]] = std::nullopt;
        instruction.dest = chosen;
        holder[chosen] = value;
        location[value] = chosen;
        program.push_back(std::move(instruction));
    }

    // Move outputs that did not land in their registers (through a free register on a cycle).
    for (int round = 0; round < int(registers.size()) * 2 + 2; ++round) {
        bool moved = false, pending = false;
        for (size_t k = 0; k < plan.outputs.size(); ++k) {
            const size_t v = plan.outputs[k];
            const std::string& want = outputRegisters[k];
            if (holder[want] == v)
                continue;
            pending = true;
            const auto& occupant = holder[want];
            const bool occupantNeeded = occupant && std::count(plan.outputs.begin(), plan.outputs.end(), *occupant) &&
                                        *occupant != v;
            if (occupantNeeded)
                continue;
            Instruction mov;
            mov.op = Op::Mov;
            mov.sources = {location[v]};
            mov.dest = want;
            program.push_back(mov);
            // The old register stays taken only if the same value is also wanted there.
            const std::string old = location[v];
            bool oldWanted = false;
            for (size_t j = 0; j < plan.outputs.size(); ++j)
                oldWanted = oldWanted || (plan.outputs[j] == v && outputRegisters[j] == old);
            if (!oldWanted && holder[old] == v)
                holder[old] = std::nullopt;
            holder[want] = v;
            location[v] = want;
            moved = true;
        }
        if (!pending)
            return program;
        if (!moved) {
            // A cycle of outputs: park one in a register nobody needs.
            std::string spare;
            for (const std::string& r : registers) {
                const auto& held = holder[r];
                if (!held || !std::count(plan.outputs.begin(), plan.outputs.end(), *held)) {
                    spare = r;
                    break;
                }
            }
            if (spare.empty())
                return std::nullopt;
            for (size_t k = 0; k < plan.outputs.size(); ++k) {
                const size_t v = plan.outputs[k];
                if (location[v] != outputRegisters[k]) {
                    Instruction mov;
                    mov.op = Op::Mov;
                    mov.sources = {location[v]};
                    mov.dest = spare;
                    program.push_back(mov);
                    holder[location[v]] = std::nullopt;
                    holder[spare] = v;
                    location[v] = spare;
                    break;
                }
            }
        }
    }
    return std::nullopt;
}

} // namespace tessera::scamp
