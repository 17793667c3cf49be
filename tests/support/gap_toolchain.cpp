#include "gap_toolchain.h"

#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>

#include <algorithm>

namespace tessera::test {

ProcessResult runProcess(const QString& program, const QStringList& arguments, const QProcessEnvironment& environment,
                         const QString& workingDirectory)
{
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty())
        process.setWorkingDirectory(workingDirectory);
    process.start(program, arguments);
    if (!process.waitForStarted(60000))
        return {-1, {}, QStringLiteral("cannot start %1: %2").arg(program, process.errorString())};
    if (!process.waitForFinished(600000)) {
        process.kill();
        process.waitForFinished();
        return {-1, QString::fromUtf8(process.readAllStandardOutput()),
                QStringLiteral("%1 timed out\n").arg(program) + QString::fromUtf8(process.readAllStandardError())};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

QString describe(const QString& what, const QStringList& command, const ProcessResult& result)
{
    return QStringLiteral("%1 (exit %2)\n$ %3\n--- stdout\n%4--- stderr\n%5")
        .arg(what)
        .arg(result.exitCode)
        .arg(command.join(' '), result.out.right(4000), result.err.right(4000));
}

qint64 neededL1(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("needs at least ([0-9][0-9 ,'\\x{202F}]*) bytes of L1"));
    qint64 needed = -1;
    for (auto it = pattern.globalMatch(text); it.hasNext();) {
        QString digits = it.next().captured(1);
        digits.remove(QRegularExpression(QStringLiteral("[^0-9]")));
        needed = std::max(needed, digits.toLongLong());
    }
    return needed;
}

QJsonObject readJson(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot read %1").arg(path);
        return {};
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!document.isObject()) {
        *error = QStringLiteral("%1: %2").arg(path, parseError.errorString());
        return {};
    }
    return document.object();
}

QJsonObject findByName(const QJsonArray& array, const QString& name)
{
    for (const QJsonValue& value : array)
        if (value.toObject()[QStringLiteral("name")].toString() == name)
            return value.toObject();
    return {};
}

namespace {

// The one line `tessera gap <what>` prints, split on white space; false on failure.
bool cliFlags(const QString& what, QStringList* flags, QString* error)
{
    const QStringList command{QStringLiteral("gap"), what};
    const ProcessResult r = runProcess(QStringLiteral(TESSERA_CLI_PATH), command);
    if (r.exitCode != 0) {
        *error = describe(QStringLiteral("tessera gap %1 failed").arg(what), QStringList{TESSERA_CLI_PATH} + command, r);
        return false;
    }
    *flags = r.out.trimmed().split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    return true;
}

} // namespace

bool GapToolchain::init(QString* error)
{
    cc = QStandardPaths::findExecutable(QStringLiteral("cc"));
    if (cc.isEmpty())
        cc = QStandardPaths::findExecutable(QStringLiteral("gcc"));
    if (cc.isEmpty()) {
        *error = QStringLiteral("no C compiler (cc or gcc) on PATH");
        return false;
    }
    return cliFlags(QStringLiteral("model-cflags"), &modelCflags, error) &&
           cliFlags(QStringLiteral("model-libs"), &modelLibs, error) &&
           cliFlags(QStringLiteral("emul-cflags"), &emulCflags, error) &&
           cliFlags(QStringLiteral("cnn-sources"), &cnnSources, error);
}

ProcessResult GapToolchain::compileModel(const QString& modelSource, const QString& output, QStringList* command,
                                         const QStringList& extraFlags) const
{
    *command = extraFlags + QStringList{modelSource} + modelCflags + modelLibs + QStringList{QStringLiteral("-o"), output};
    return runProcess(cc, *command);
}

} // namespace tessera::test
