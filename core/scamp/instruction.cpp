#include "scamp/instruction.h"

#include "base/error.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace tessera::scamp {

const std::vector<OpInfo>& allOps()
{
    static const std::vector<OpInfo> ops = {
        {Op::Res, "res", 0, 0, 0, true},     {Op::Mov, "mov", 1, 0, 0, true},
        {Op::Movx, "movx", 1, 1, 0, true},   {Op::Mov2x, "mov2x", 1, 2, 0, false},
        {Op::Add, "add", 2, 0, 0, true},     {Op::Add3, "add", 3, 0, 0, false},
        {Op::Addx, "addx", 2, 1, 0, false},  {Op::Add2x, "add2x", 2, 2, 0, false},
        {Op::Sub, "sub", 2, 0, 0, true},     {Op::Subx, "subx", 2, 1, 0, false},
        {Op::Sub2x, "sub2x", 2, 2, 0, false}, {Op::Neg, "neg", 1, 0, 0, true},
        {Op::Divq, "divq", 1, 0, 0, true},   {Op::Div, "div", 1, 0, 2, true},
        {Op::DivClobber, "div", 1, 0, 1, true, false}, {Op::Diva, "diva", 1, 0, 2, true, false},
        {Op::Res2, "res", 0, 0, 0, true, false},
    };
    return ops;
}

size_t operandCount(const OpInfo& info)
{
    if (info.op == Op::Diva)
        return 3;  // the destination is also the source
    if (info.op == Op::Res2)
        return 2;
    return 1 + size_t(info.sources + info.directions + info.scratch);
}

const OpInfo& opInfo(Op op)
{
    for (const OpInfo& info : allOps())
        if (info.op == op)
            return info;
    return allOps().front();
}

bool mayShareDestination(Op op, size_t operand)
{
    switch (op) {
    case Op::Neg:
    case Op::Divq:
    case Op::Div:
    case Op::DivClobber: return false;
    case Op::Diva: return true;
    case Op::Sub:
    case Op::Subx:
    case Op::Sub2x: return operand == 0;
    default: return true;
    }
}

Offset Instruction::shift() const
{
    Offset total;
    for (Direction d : directions) {
        const Offset o = offsetOf(d);
        total = {total.x + o.x, total.y + o.y};
    }
    return total;
}

Goal Instruction::apply(const std::vector<Goal>& in) const
{
    switch (op) {
    case Op::Res:
    case Op::Res2: return Goal();
    case Op::Mov: return in[0];
    case Op::Movx:
    case Op::Mov2x: return in[0].shifted(shift());
    case Op::Add: return in[0] + in[1];
    case Op::Add3: return in[0] + in[1] + in[2];
    case Op::Addx:
    case Op::Add2x: return (in[0] + in[1]).shifted(shift());
    case Op::Sub: return in[0] - in[1];
    case Op::Subx:
    case Op::Sub2x: return in[0].shifted(shift()) - in[1];
    case Op::Neg: return -in[0];
    case Op::Divq:
    case Op::Div:
    case Op::DivClobber:
    case Op::Diva: return in[0].halved();
    }
    return Goal();
}

std::vector<std::string> Instruction::registersNamed() const
{
    std::vector<std::string> named{dest};
    if (!secondDest.empty())
        named.push_back(secondDest);
    named.insert(named.end(), sources.begin(), sources.end());
    named.insert(named.end(), scratch.begin(), scratch.end());
    return named;
}

std::vector<std::string> Instruction::clobbered() const
{
    std::vector<std::string> registers = scratch;
    if (op == Op::DivClobber)
        registers.push_back(sources[0]);
    return registers;
}

std::string Instruction::toString() const
{
    const OpInfo& info = opInfo(op);
    std::vector<std::string> operands{dest};
    if (op == Op::Div || op == Op::DivClobber) {
        operands.insert(operands.end(), scratch.begin(), scratch.end());
        operands.push_back(sources[0]);
    } else if (op == Op::Diva) {
        operands.insert(operands.end(), scratch.begin(), scratch.end());
    } else if (op == Op::Res2) {
        operands.push_back(secondDest);
    } else if (op == Op::Subx || op == Op::Sub2x) {
        // The direction comes before the subtrahend.
        operands.push_back(sources[0]);
        for (Direction d : directions)
            operands.push_back(directionName(d));
        operands.push_back(sources[1]);
    } else {
        operands.insert(operands.end(), sources.begin(), sources.end());
        for (Direction d : directions)
            operands.push_back(directionName(d));
    }
    std::string text = std::string(info.name) + "(";
    for (size_t k = 0; k < operands.size(); ++k)
        text += (k ? ", " : "") + operands[k];
    return text + ");";
}

std::vector<std::string> Instruction::check() const
{
    std::vector<std::string> problems;
    const std::string name = toString();
    std::set<std::string> distinct(sources.begin(), sources.end());
    if (distinct.size() != sources.size())
        problems.push_back(name + ": the sources must be distinct registers");
    // Operands the bus reads after the destination is written may not be the destination.
    const bool destMustDiffer = op == Op::Neg || op == Op::Divq || op == Op::Div || op == Op::DivClobber;
    if (destMustDiffer && std::count(sources.begin(), sources.end(), dest))
        problems.push_back(name + ": the destination may not be the source");
    if (op == Op::Res2 && secondDest == dest)
        problems.push_back(name + ": the two registers must differ");
    if ((op == Op::Sub || op == Op::Subx || op == Op::Sub2x) && sources.size() == 2 && sources[1] == dest)
        problems.push_back(name + ": the destination may not be the subtrahend");
    for (const std::string& t : scratch)
        if (t == dest || distinct.count(t) || std::count(scratch.begin(), scratch.end(), t) > 1)
            problems.push_back(name + ": scratch register " + t + " must differ from every other operand");
    return problems;
}

Instruction parseInstruction(const std::string& text, int lineNumber)
{
    const std::string where = "line " + std::to_string(lineNumber);
    const size_t open = text.find('(');
    const size_t close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open)
        throw Error(where + ": expected an instruction like add(A, B, C); got '" + text + "'");
    const std::string rest = text.substr(close + 1);
    if (rest.find_first_not_of(" \t;") != std::string::npos || rest.find(';') == std::string::npos)
        throw Error(where + ": the instruction must end with ';'");
    std::string mnemonic = text.substr(0, open);
    mnemonic.erase(0, mnemonic.find_first_not_of(" \t"));
    mnemonic.erase(mnemonic.find_last_not_of(" \t") + 1);
    std::vector<std::string> operands;
    std::stringstream stream(text.substr(open + 1, close - open - 1));
    std::string operand;
    while (std::getline(stream, operand, ',')) {
        operand.erase(0, operand.find_first_not_of(" \t"));
        operand.erase(operand.find_last_not_of(" \t") + 1);
        if (operand.empty())
            throw Error(where + ": empty operand in '" + text + "'");
        operands.push_back(operand);
    }
    Instruction instruction;
    const OpInfo* match = nullptr;
    for (const OpInfo& info : allOps()) {
        if (mnemonic == info.name && operands.size() == operandCount(info))
            match = &info;
    }
    if (!match) {
        const bool known = std::any_of(allOps().begin(), allOps().end(), [&](const OpInfo& i) { return mnemonic == i.name; });
        throw Error(where + ": " + (known ? "wrong number of operands for '" + mnemonic + "'" : "unknown instruction '" + mnemonic + "'"));
    }
    instruction.op = match->op;
    instruction.dest = operands[0];
    std::vector<std::string> registers, directions;
    if (match->op == Op::Div) {
        instruction.scratch = {operands[1], operands[2]};
        registers = {operands[3]};
    } else if (match->op == Op::DivClobber) {
        instruction.scratch = {operands[1]};
        registers = {operands[2]};
    } else if (match->op == Op::Diva) {
        instruction.scratch = {operands[1], operands[2]};
        registers = {operands[0]};  // halved in place
    } else if (match->op == Op::Res2) {
        instruction.secondDest = operands[1];
    } else if (match->op == Op::Subx || match->op == Op::Sub2x) {
        registers = {operands[1], operands.back()};
        directions.assign(operands.begin() + 2, operands.end() - 1);
    } else {
        registers.assign(operands.begin() + 1, operands.begin() + 1 + match->sources);
        directions.assign(operands.begin() + 1 + match->sources, operands.end());
    }
    instruction.sources = registers;
    for (const std::string& name : directions) {
        Direction direction;
        if (!directionFromName(name, direction))
            throw Error(where + ": '" + name + "' is not a direction (north, east, south, west)");
        instruction.directions.push_back(direction);
    }
    return instruction;
}

} // namespace tessera::scamp
