#pragma once
// Helpers shared by the Qt tests.
#include "ir/builder.h"
#include "ir/tensor_data.h"

#include <QByteArray>
#include <QMap>
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

// A size x size convolution of `kernels` over `channels` ("same" padding, random weights in
// [-0.2, 0.2) and bias in [-0.1, 0.1) from `seed`) followed by a ReLU named name + "_relu".
TensorId convRelu(GraphBuilder& builder, TensorId in, int64_t kernels, int64_t channels, int64_t size,
                  const std::string& name, uint32_t seed);

// What a run of the `tessera` command gave: exit code (-1 when it crashed or took more than ten
// minutes), standard output and standard error.
struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};
CliResult runCli(const QStringList& arguments);
// The same with variables added to its environment ("NAME=value").
CliResult runCli(const QStringList& arguments, const QStringList& environment);

// Every file under `folder` (hidden ones too), by path relative to it, with its bytes.
QMap<QString, QByteArray> folderFiles(const QString& folder);
// The same project: the same files with the same bytes, except the reports' compile times.
bool sameProject(const QMap<QString, QByteArray>& a, const QMap<QString, QByteArray>& b);

// The sanitized build (TESSERA_SANITIZE) runs the suites on the smaller models only: a 224x224
// network takes minutes there and goes through the same code as its smaller variants, which the
// release build runs too.
#ifdef TESSERA_SANITIZED
constexpr bool kSanitizedBuild = true;
#else
constexpr bool kSanitizedBuild = false;
#endif

} // namespace tessera::test
