#pragma once
// Helpers shared by the Qt tests.
#include "ir/tensor_data.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::test {

// Deterministic pseudo-random float tensor with values in [low, high).
TensorData randomFloats(const Shape& shape, uint32_t seed, float low = -1.0f, float high = 1.0f);
// Largest |a - b| / (1 + |b|) over the elements; +inf when the shapes or types differ.
double maxRelativeError(const TensorData& actual, const TensorData& expected);
std::string sourcePath(const std::string& relative);

// What a run of the `tessera` command gave: exit code (-1 when it crashed or took more than ten
// minutes), standard output and standard error.
struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};
CliResult runCli(const QStringList& arguments);

} // namespace tessera::test
