#pragma once
// Data and flags shared by the GAP CNN tests: sanitizer builds of generated code, random int16
// tensors, raw and float32 tensor files, the filter layout the generated layers read, and the
// MNIST layers' parameters.
#include "interp/fixed_point/pow2_kernels.h"

#include <QFile>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <random>
#include <vector>

namespace tessera::test {

inline const QString kGapTests = QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap");
inline constexpr qint64 kGuideL1 = 48000;

inline QStringList sanitizerFlags(int cores)
{
    return {QStringLiteral("-O1"), QStringLiteral("-g"), QStringLiteral("-fsanitize=address,undefined"),
            QStringLiteral("-fno-sanitize-recover=undefined"), QStringLiteral("-fno-omit-frame-pointer"),
            QStringLiteral("-DAT_EMUL_CORES=%1").arg(cores)};
}

inline QProcessEnvironment sanitizerEnvironment()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("detect_leaks=1"));
    environment.insert(QStringLiteral("UBSAN_OPTIONS"), QStringLiteral("halt_on_error=1:print_stacktrace=1"));
    return environment;
}

inline std::vector<int16_t> randomValues(std::mt19937& random, std::size_t count, int limit)
{
    std::uniform_int_distribution<int> value(-limit, limit);
    std::vector<int16_t> values(count);
    for (int16_t& v : values)
        v = int16_t(value(random));
    return values;
}

inline bool writeValues(const QString& path, const std::vector<int16_t>& values)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(reinterpret_cast<const char*>(values.data()), qint64(values.size() * sizeof(int16_t))) ==
               qint64(values.size() * sizeof(int16_t));
}

inline std::vector<int16_t> readValues(const QString& path, std::size_t count)
{
    QFile file(path);
    std::vector<int16_t> values(count);
    if (!file.open(QIODevice::ReadOnly) ||
        file.read(reinterpret_cast<char*>(values.data()), qint64(count * sizeof(int16_t))) != qint64(count * sizeof(int16_t)))
        return {};
    return values;
}

// The MNIST layers as the guide's model declares them (tests/gap/MnistLayers/Model.c).
inline fixed_point::ConvPoolReluParams mnistConv(int inFeatures, int outFeatures, int size)
{
    fixed_point::ConvPoolReluParams params;
    params.inFeatures = inFeatures;
    params.outFeatures = outFeatures;
    params.width = params.height = size;
    params.filterWidth = params.filterHeight = 5;
    params.pool = fixed_point::ConvPoolReluParams::Pool::Max;
    params.poolWidth = params.poolHeight = 2;
    params.poolStrideX = params.poolStrideY = 2;
    params.relu = true;
    params.inQ = 12;
    params.filterQ = 14;
    params.biasQ = 14;
    params.outQ = 12;
    return params;
}


// Int16 values written as float32 values v / 2^14, as ConstInfo(file, 0 (float), 1 (binary), 16, 14)
// reads and converts back to exactly v.
inline bool writeQ14FloatTensor(const QString& path, const std::vector<int16_t>& values)
{
    std::vector<float> floats;
    for (int16_t v : values)
        floats.push_back(float(v) / 16384.0f);
    QFile file(path);
    return file.open(QIODevice::WriteOnly) &&
           file.write(reinterpret_cast<const char*>(floats.data()), qint64(floats.size() * sizeof(float))) ==
               qint64(floats.size() * sizeof(float));
}

} // namespace tessera::test
