#pragma once
// Errors raised by the core. Every message names the place (file, node, tensor, argument)
// and, where one exists, what the user can do about it.
#include <stdexcept>
#include <string>

namespace tessera {

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

} // namespace tessera
