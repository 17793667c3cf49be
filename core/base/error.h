#pragma once
// Errors raised by the core. Every message names the place (file, node, tensor, argument)
// and, where one exists, what the user can do about it.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace tessera {

// The message of a JSON library exception without the library's "[json.exception.type_error.302] "
// tag, for messages users read.
inline std::string jsonErrorText(const std::exception& error)
{
    std::string text = error.what();
    if (text.rfind("[json.exception.", 0) == 0)
        if (const auto end = text.find("] "); end != std::string::npos)
            text.erase(0, end + 2);
    return text;
}

// Base of every error the core reports to a user (CLI prints "error: <what>", the studio shows it).
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// A model or input file that cannot be read or is not valid.
class ModelError : public Error {
public:
    using Error::Error;
};

// An operator, attribute or data type the core does not support.
class UnsupportedError : public Error {
public:
    using Error::Error;
};

// Shapes or data types that do not agree with an operator's rules.
class ShapeError : public Error {
public:
    using Error::Error;
};

// A memory budget that cannot work, as facts a caller reads instead of the message: which memory,
// the budget given, the smallest that works (0 when unknown), and what needs it.
struct BudgetShortfall {
    std::string memory;          // "L1", "L2", "L3", "flash"
    std::uint64_t budget = 0;
    std::uint64_t smallest = 0;
    std::string place;           // the graph or kernel that needs it
};

// A budget too small for the model; the message says what to raise and to what.
class BudgetError : public Error {
public:
    BudgetError(const std::string& message, BudgetShortfall facts) : Error(message), facts_(std::move(facts)) {}
    const BudgetShortfall& facts() const { return facts_; }

private:
    BudgetShortfall facts_;
};

} // namespace tessera
