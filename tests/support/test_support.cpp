#include "test_support.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QProcess>

#include <cmath>
#include <limits>
#include <random>

namespace tessera::test {

TensorData randomFloats(const Shape& shape, uint32_t seed, float low, float high)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<float> distribution(low, high);
    TensorData data(DType::Float32, shape);
    float* values = data.data<float>();
    for (int64_t i = 0; i < data.elements(); ++i)
        values[i] = distribution(generator);
    return data;
}

TensorId convRelu(GraphBuilder& builder, TensorId in, int64_t kernels, int64_t channels, int64_t size,
                  const std::string& name, uint32_t seed)
{
    const TensorId w = builder.constant(name + "_w", randomFloats({kernels, channels, size, size}, seed, -0.2f, 0.2f));
    const TensorId b = builder.constant(name + "_b", randomFloats({kernels}, seed + 1, -0.1f, 0.1f));
    const int64_t pad = size / 2;
    return builder.op("Relu", {builder.op("Conv", {in, w, b}, {{"pads", Attribute::ofInts({pad, pad, pad, pad})}}, name)},
                      {}, name + "_relu");
}

double maxRelativeError(const TensorData& actual, const TensorData& expected)
{
    if (actual.dtype() != expected.dtype() || actual.shape() != expected.shape())
        return std::numeric_limits<double>::infinity();
    double worst = 0.0;
    for (int64_t i = 0; i < actual.elements(); ++i) {
        const double a = actual.getDouble(i);
        const double b = expected.getDouble(i);
        if (std::isnan(a) && std::isnan(b))
            continue;
        worst = std::max(worst, std::abs(a - b) / (1.0 + std::abs(b)));
        if (std::isnan(a) != std::isnan(b))
            return std::numeric_limits<double>::infinity();
    }
    return worst;
}

std::string sourcePath(const std::string& relative) { return std::string(TESSERA_SOURCE_DIR) + "/" + relative; }

CliResult runCli(const QStringList& arguments) { return runCli(arguments, {}); }

CliResult runCli(const QStringList& arguments, const QStringList& environment)
{
    QProcess process;
    if (!environment.isEmpty())
        process.setEnvironment(QProcess::systemEnvironment() + environment);
    process.start(QStringLiteral(TESSERA_CLI_PATH), arguments);
    if (!process.waitForFinished(600000))
        return {};
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

QMap<QString, QByteArray> folderFiles(const QString& folder)
{
    QMap<QString, QByteArray> files;
    QDirIterator it(folder, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            files.insert(QDir(folder).relativeFilePath(path), file.readAll());
    }
    return files;
}

bool sameProject(const QMap<QString, QByteArray>& a, const QMap<QString, QByteArray>& b)
{
    if (a.keys() != b.keys())
        return false;
    for (auto it = a.begin(); it != a.end(); ++it)
        if (!it.key().startsWith("report.") && it.value() != b.value(it.key()))
            return false;
    return true;
}

} // namespace tessera::test
