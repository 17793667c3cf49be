#pragma once
// SCAMP-5 analogue macro instructions: their operands, their meaning on goals, their register
// constraints and their text form ("add2x(D, F, D, north, north);").
#include "scamp/goal.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::scamp {

enum class Op {
    Res,   // res(u)                     u := 0
    Mov,   // mov(u, a)                  u := a
    Movx,  // movx(u, a, d)              u := a read at p + d
    Mov2x, // mov2x(u, a, d1, d2)        u := a read at p + d1 + d2
    Add,   // add(u, a, b)               u := a + b
    Add3,  // add(u, a, b, c)            u := a + b + c
    Addx,  // addx(u, a, b, d)           u := (a + b) read at p + d
    Add2x, // add2x(u, a, b, d1, d2)     u := (a + b) read at p + d1 + d2
    Sub,   // sub(u, a, b)               u := a - b
    Subx,  // subx(u, a, d, b)           u := a read at p + d, minus b
    Sub2x, // sub2x(u, a, d1, d2, b)     u := a read at p + d1 + d2, minus b
    Neg,   // neg(u, a)                  u := -a
    Divq,  // divq(u, a)                 u := a / 2
    Div,   // div(u, t1, t2, a)          u := a / 2; t1, t2 scratch (clobbered)
    // The SDK's other forms, which Cain's programs use. The search does not generate them.
    DivClobber, // div(u, t, a)          u := a / 2; t scratch, a clobbered
    Diva,  // diva(u, t1, t2)            u := u / 2 in place; t1, t2 scratch
    Res2,  // res(u, v)                  u := 0, v := 0
};

struct OpInfo {
    Op op;
    const char* name;      // text mnemonic (Add3 prints as "add" with three sources)
    int sources;           // register operands read
    int directions;        // direction operands
    int scratch;           // scratch registers clobbered
    bool basic;            // in the "basic" instruction set ("all" has every op)
    bool generated = true; // the search may emit it (else only read from users' programs)
};

const OpInfo& opInfo(Op op);
const std::vector<OpInfo>& allOps();
// Operands in the text form, the destination included.
size_t operandCount(const OpInfo& info);

// Whether source operand `operand` of `op` may be the destination register (the bus reads it
// before it writes): not for neg, divq and div, nor for a subtrahend.
bool mayShareDestination(Op op, size_t operand);

struct Instruction {
    Op op = Op::Mov;
    std::string dest;
    std::vector<std::string> sources;
    std::vector<Direction> directions;
    std::vector<std::string> scratch;
    std::string secondDest;  // res(u, v): the second register cleared

    // Registers holding no value after the instruction: the scratch registers, and the source of
    // div(u, t, a), which the SDK leaves as "a + error".
    std::vector<std::string> clobbered() const;
    // Every register the instruction names: destinations, sources and scratch.
    std::vector<std::string> registersNamed() const;

    // The goal written to dest, from the source goals (in `sources` order).
    Goal apply(const std::vector<Goal>& sourceGoals) const;
    // Total shift applied by the direction operands.
    Offset shift() const;
    // "add2x(D, F, D, north, north);"
    std::string toString() const;
    // Problems with the operands (distinct sources, destination not a source where forbidden,
    // scratch registers distinct from everything else); empty when valid.
    std::vector<std::string> check() const;
};

// Parses one macro line (without comments). Throws Error naming the line on bad syntax, an unknown
// macro or a wrong operand count.
Instruction parseInstruction(const std::string& text, int lineNumber);

} // namespace tessera::scamp
