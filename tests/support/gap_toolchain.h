#pragma once
// What the GAP tests need to build and run C: running processes, reading the generator's JSON, and
// the C compiler with the flags `tessera gap ...` prints for models and generated code.
#include <QJsonArray>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace tessera::test {

struct ProcessResult {
    int exitCode = -1;  // -1: did not start, crashed or timed out
    QString out;
    QString err;
};

ProcessResult runProcess(const QString& program, const QStringList& arguments,
                         const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                         const QString& workingDirectory = {});
// "What (exit N)", the command line and the tail of both outputs: a failure message.
QString describe(const QString& what, const QStringList& command, const ProcessResult& result);
// The largest N in "needs at least N bytes of L1" (digit groups may be separated), or -1.
qint64 neededL1(const QString& text);
QJsonObject readJson(const QString& path, QString* error);
QJsonObject findByName(const QJsonArray& array, const QString& name);

// The C compiler and the model / emulation flags of the tessera CLI under test.
struct GapToolchain {
    QString cc;
    QStringList modelCflags;
    QStringList modelLibs;
    QStringList emulCflags;
    QStringList cnnSources;  // the CNN basic kernels generated layers call

    // False with *error set when there is no C compiler or the CLI fails.
    bool init(QString* error);
    // cc <extra flags> Model.c <model flags> -o output
    ProcessResult compileModel(const QString& modelSource, const QString& output, QStringList* command,
                               const QStringList& extraFlags = {}) const;
};

} // namespace tessera::test
