// The Autotiler guide's examples (tests/gap/*) end to end: each model is compiled against the model
// API and run as a generator at several L1 budgets; the generated C is built for the host with the
// emulation runtime, AddressSanitizer and UBSan, together with the example's basic kernels and
// harness; the harness must match its untiled reference exactly and move exactly the L2<->L1 bytes
// GenKernels.tiling.json predicts.
#include "gap_toolchain.h"

#include <QDir>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <optional>

namespace {

using namespace tessera::test;
using Result = ProcessResult;

// "<Example>Spaces" is <Example> written a second time with the current SDK's iteration spaces:
// tests/gap/<Example>/ModelSpaces.c, with the same basic kernels and harness.
const QString kSpacesSuffix = QStringLiteral("Spaces");
QString exampleFolder(const QString& example)
{
    return example.endsWith(kSpacesSuffix) ? example.chopped(kSpacesSuffix.size()) : example;
}
QString exampleDir(const QString& example) { return QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap/") + exampleFolder(example); }
QString modelSource(const QString& example)
{
    return exampleDir(example) + (example.endsWith(kSpacesSuffix) ? QStringLiteral("/ModelSpaces.c") : QStringLiteral("/Model.c"));
}

const QStringList kExamples = {QStringLiteral("MatAdd"), QStringLiteral("MatMax"), QStringLiteral("MyFavoriteKernel"),
                               QStringLiteral("Conv5x5"), QStringLiteral("FFT2D"), QStringLiteral("MatAddL3"),
                               QStringLiteral("PlaneScale"), QStringLiteral("Fir"),
                               QStringLiteral("Resize"), QStringLiteral("MatMult"), QStringLiteral("CnnLibrary"),
                               QStringLiteral("Recurrence")};
// Every model sets this budget with SetL1MemorySize (the guide's figure).
constexpr qint64 kModelDefaultL1 = 51200;

// How a harness is built and run on the host.
struct HostBuild {
    QStringList flags;
    QStringList runner;  // the program (and its arguments) the harness runs under; empty: run directly
};
// A 64-bit program with AddressSanitizer and UBSan: every out-of-bounds access is an error.
HostBuild sanitizedHost()
{
    return {{QStringLiteral("-fsanitize=address,undefined"), QStringLiteral("-fno-omit-frame-pointer")}, {}};
}

} // namespace

class TestGapExamples : public QObject {
    Q_OBJECT

    QString m_cc;
    QStringList m_modelCflags;
    QStringList m_modelLibs;
    QStringList m_emulCflags;
    QTemporaryDir m_work;
    std::map<QString, QString> m_generators;  // example -> compiled generator
    std::map<QString, qint64> m_minimumL1;    // example -> N of "needs at least N bytes of L1"
    std::optional<HostBuild> m_host32;        // found on first use
    QString m_host32Error;

    // A 32-bit program (-m32), as the SDK's emulation builds are (its emul.mk files): GreenWaves' basic
    // kernels index with unsigned wrap-around (FirBasicKernels.c's In[i - NCoeffs]) that only 32-bit
    // addresses give back. Run directly where the kernel runs 32-bit programs, otherwise under
    // qemu-i386 (Debian's qemu-user, in scripts/debian-packages.txt).
    const HostBuild* thirtyTwoBitHost(QString* error)
    {
        if (!m_host32 && m_host32Error.isEmpty()) {
            const QString source = m_work.filePath(QStringLiteral("pointer_size.c"));
            const QString program = m_work.filePath(QStringLiteral("pointer_size"));
            QFile file(source);
            if (!file.open(QIODevice::WriteOnly) || file.write("int main(void) { return (int) sizeof(void *); }\n") < 0)
                m_host32Error = QStringLiteral("cannot write %1").arg(source);
            file.close();
            const QStringList command{QStringLiteral("-m32"), source, QStringLiteral("-o"), program};
            const Result built = m_host32Error.isEmpty() ? runProcess(m_cc, command) : Result{};
            if (m_host32Error.isEmpty() && built.exitCode != 0)
                m_host32Error = describe(QStringLiteral("-m32 builds fail (Debian's gcc-multilib, in scripts/debian-packages.txt, provides them)"),
                                         QStringList{m_cc} + command, built);
            if (m_host32Error.isEmpty()) {
                const QString qemu = QStandardPaths::findExecutable(QStringLiteral("qemu-i386"));
                if (runProcess(program, {}).exitCode == 4)
                    m_host32 = HostBuild{{QStringLiteral("-m32")}, {}};
                else if (!qemu.isEmpty() && runProcess(qemu, {program}).exitCode == 4)
                {
                    m_host32 = HostBuild{{QStringLiteral("-m32")}, {qemu}};
                    qInfo("32-bit programs run under %s", qPrintable(qemu));
                }
                else
                    m_host32Error = QStringLiteral("this machine runs no 32-bit program, neither directly nor under qemu-i386 "
                                                   "(Debian's qemu-user, in scripts/debian-packages.txt)");
            }
        }
        *error = m_host32Error;
        return m_host32 ? &*m_host32 : nullptr;
    }

    // The example's generator, compiled once per run; empty with *error set on failure.
    QString generator(const QString& example, QString* error)
    {
        if (auto it = m_generators.find(example); it != m_generators.end())
            return it->second;
        const QString dir = m_work.filePath(example);
        QDir().mkpath(dir);
        const QString path = dir + QStringLiteral("/gen");
        const QStringList command =
            QStringList{modelSource(example)} + m_modelCflags + m_modelLibs +
            QStringList{QStringLiteral("-o"), path};
        const Result r = runProcess(m_cc, command);
        if (r.exitCode != 0) {
            *error = describe(QStringLiteral("compiling the %1 model failed").arg(example), QStringList{m_cc} + command, r);
            return {};
        }
        m_generators[example] = path;
        return path;
    }

    Result generate(const QString& gen, const QString& outDir, qint64 budget, QStringList* command)
    {
        *command = QStringList{QStringLiteral("-o"), outDir};
        if (budget > 0)
            *command << QStringLiteral("--l1") << QString::number(budget);
        return runProcess(gen, *command);
    }

    // N for the example, found by running its generator with a 64-byte L1, which must fail.
    qint64 minimumL1(const QString& example, QString* error)
    {
        if (auto it = m_minimumL1.find(example); it != m_minimumL1.end())
            return it->second;
        const QString gen = generator(example, error);
        if (gen.isEmpty())
            return -1;
        QTemporaryDir out;
        QStringList command;
        const Result r = generate(gen, out.path(), 64, &command);
        const qint64 needed = neededL1(r.err);
        if (r.exitCode <= 0 || needed <= 64) {
            *error = describe(QStringLiteral("%1 at --l1 64 must fail with \"needs at least <N> bytes of L1\"").arg(example),
                              QStringList{gen} + command, r);
            return -1;
        }
        m_minimumL1[example] = needed;
        return needed;
    }

    // Generates at Budget (0: the model's own), builds with the harness and runs it; an empty string
    // when everything matched, otherwise what went wrong.
    // Cores: the emulated cluster cores parallel basic kernels are forked on (AT_EMUL_CORES).
    QString fullFlow(const QString& example, qint64 budget, qint64 expectedBudget, unsigned seed, int cores,
                     const HostBuild& host = sanitizedHost())
    {
        QString error;
        const QString gen = generator(example, &error);
        if (gen.isEmpty())
            return error;
        QTemporaryDir work;
        const QString failure = fullFlowIn(work.path(), gen, example, budget, expectedBudget, seed, cores, host);
        if (!failure.isEmpty()) {
            work.setAutoRemove(false);  // the generated files, for a look
            return failure + QStringLiteral("\n(generated files kept in %1)").arg(work.path());
        }
        return {};
    }

    QString fullFlowIn(const QString& workDir, const QString& gen, const QString& example, qint64 budget,
                       qint64 expectedBudget, unsigned seed, int cores, const HostBuild& host)
    {
        QString error;
        const QDir work(workDir);
        const QString out = work.filePath(QStringLiteral("out"));
        QDir().mkpath(out);

        QStringList genCommand;
        const Result generated = generate(gen, out, budget, &genCommand);
        if (generated.exitCode != 0)
            return describe(QStringLiteral("the %1 generator failed").arg(example), QStringList{gen} + genCommand, generated);
        const QJsonObject tiling = readJson(out + QStringLiteral("/GenKernels.tiling.json"), &error);
        if (!error.isEmpty())
            return error;
        const qint64 l1Budget = tiling[QStringLiteral("l1_budget")].toInteger(-1);
        const qint64 l1Used = tiling[QStringLiteral("l1_used")].toInteger(-1);
        if (l1Budget != expectedBudget || l1Used < 0 || l1Used > l1Budget)
            return QStringLiteral("tiling.json: l1_budget %1 (expected %2), l1_used %3").arg(l1Budget).arg(expectedBudget).arg(l1Used);

        const QString dir = exampleDir(example);
        const QString run = work.filePath(QStringLiteral("run"));
        const QStringList ccCommand =
            QStringList{QStringLiteral("-O1"), QStringLiteral("-g")} + host.flags +
            QStringList{QStringLiteral("-DAT_EMUL_CORES=%1").arg(cores)} + m_emulCflags +
            QStringList{QStringLiteral("-I"), out, QStringLiteral("-I"), dir, out + QStringLiteral("/GenKernels.c"),
                        dir + QStringLiteral("/%1BasicKernels.c").arg(exampleFolder(example)),
                        dir + QStringLiteral("/harness.c"), QStringLiteral("-lm"), QStringLiteral("-o"), run};
        const Result built = runProcess(m_cc, ccCommand);
        if (built.exitCode != 0)
            return describe(QStringLiteral("building the generated %1 code failed").arg(example), QStringList{m_cc} + ccCommand, built);

        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("detect_leaks=1"));
        environment.insert(QStringLiteral("UBSAN_OPTIONS"), QStringLiteral("halt_on_error=1:print_stacktrace=1"));
        const QStringList runCommand = host.runner.mid(1) + QStringList{run, QString::number(seed)};
        const Result ran = host.runner.isEmpty() ? runProcess(run, runCommand.mid(1), environment)
                                                 : runProcess(host.runner.first(), runCommand, environment);
        if (ran.exitCode != 0)
            return describe(QStringLiteral("the %1 harness failed").arg(example), host.runner.mid(0, 1) + runCommand, ran);

        // Every DMA line against the prediction: a kernel's own figures, or the sum over a group's members
        // times the group's iterations.
        const QJsonArray kernels = tiling[QStringLiteral("kernels")].toArray();
        const QJsonArray groups = tiling[QStringLiteral("groups")].toArray();
        QSet<QString> covered;
        int dmaLines = 0;
        for (const QString& line : ran.out.split('\n')) {
            const QStringList fields = line.split(' ', Qt::SkipEmptyParts);
            if (fields.size() != 6 || fields[0] != QStringLiteral("DMA"))
                continue;
            ++dmaLines;
            QStringList members{fields[1]};
            qint64 iterations = 1;
            if (findByName(kernels, fields[1]).isEmpty()) {
                const QJsonObject group = findByName(groups, fields[1]);
                if (group.isEmpty())
                    return QStringLiteral("%1 is neither a kernel nor a group of tiling.json").arg(fields[1]);
                members.clear();
                for (const QJsonValue& member : group[QStringLiteral("members")].toArray())
                    members << member.toString();
                iterations = group[QStringLiteral("iterations")].toInteger(1);
            }
            qint64 read = 0, write = 0, l3Read = 0, l3Write = 0;
            for (const QString& member : members) {
                const QJsonObject kernel = findByName(kernels, member);
                if (kernel.isEmpty())
                    return QStringLiteral("tiling.json names %1 but has no kernel of that name").arg(member);
                const QJsonObject dma = kernel[QStringLiteral("dma")].toObject();
                read += iterations * dma[QStringLiteral("l2_read")].toInteger(-1);
                write += iterations * dma[QStringLiteral("l2_write")].toInteger(-1);
                l3Read += iterations * dma[QStringLiteral("l3_read")].toInteger(-1);
                l3Write += iterations * dma[QStringLiteral("l3_write")].toInteger(-1);
                covered.insert(member);
            }
            if (fields[2].toLongLong() != read || fields[3].toLongLong() != write)
                return QStringLiteral("%1 moved %2 bytes L2->L1 and %3 bytes L1->L2; tiling.json predicts %4 and %5")
                    .arg(fields[1], fields[2], fields[3])
                    .arg(read)
                    .arg(write);
            if (fields[4].toLongLong() != l3Read || fields[5].toLongLong() != l3Write)
                return QStringLiteral("%1 moved %2 bytes L3->L2 and %3 bytes L2->L3; tiling.json predicts %4 and %5")
                    .arg(fields[1], fields[4], fields[5])
                    .arg(l3Read)
                    .arg(l3Write);
        }
        if (dmaLines == 0)
            return QStringLiteral("the harness printed no DMA line:\n") + ran.out;
        for (const QJsonValue& kernel : kernels)
            if (!covered.contains(kernel.toObject()[QStringLiteral("name")].toString()))
                return QStringLiteral("kernel %1 of tiling.json was not run by the harness")
                    .arg(kernel.toObject()[QStringLiteral("name")].toString());
        return {};
    }

    // The generated tiling of Example's kernel Kernel at Budget; empty with *error set on failure.
    QJsonObject kernelTiling(const QString& example, const QString& kernel, qint64 budget, QString* error)
    {
        const QString gen = generator(example, error);
        if (gen.isEmpty())
            return {};
        QTemporaryDir out;
        QStringList command;
        const Result r = generate(gen, out.path(), budget, &command);
        if (r.exitCode != 0) {
            *error = describe(QStringLiteral("the %1 generator failed").arg(example), QStringList{gen} + command, r);
            return {};
        }
        const QJsonObject tiling = readJson(out.filePath(QStringLiteral("GenKernels.tiling.json")), error);
        const QJsonObject found = findByName(tiling[QStringLiteral("kernels")].toArray(), kernel);
        if (found.isEmpty() && error->isEmpty())
            *error = QStringLiteral("no kernel %1 in tiling.json").arg(kernel);
        return found;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_work.isValid());
        GapToolchain toolchain;
        QString error;
        if (!toolchain.init(&error) && toolchain.cc.isEmpty())
            QSKIP("no C compiler (cc or gcc) on PATH");
        QVERIFY2(error.isEmpty(), qPrintable(error));
        m_cc = toolchain.cc;
        m_modelCflags = toolchain.modelCflags;
        m_modelLibs = toolchain.modelLibs;
        m_emulCflags = toolchain.emulCflags;
        QVERIFY2(!m_modelLibs.isEmpty(), "tessera gap model-libs printed nothing");
    }

    // Each example at: a hopeless budget (must fail and say how much it needs, N), N (runs), N - 1
    // (fails with the same N), the model's own budget and twice that (run), and the model's budget
    // again built as a 32-bit program on 8 emulated cores, as the SDK builds its emulation.
    void budgets_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<QString>("budget");
        for (const QString& example : kExamples)
            for (const char* budget : {"tiny", "minimum", "below-minimum", "model-default", "double-default", "model-default-32bit"})
                QTest::newRow(qPrintable(example + '/' + budget)) << example << QString::fromLatin1(budget);
    }
    void budgets()
    {
        QFETCH(QString, example);
        QFETCH(QString, budget);
        QString error;
        const qint64 needed = minimumL1(example, &error);  // the "tiny" probe, cached per example
        QVERIFY2(needed > 0, qPrintable(error));

        if (budget == QStringLiteral("tiny")) {
            QVERIFY2(needed <= kModelDefaultL1,
                     qPrintable(QStringLiteral("%1 needs %2 bytes of L1, more than the model's %3")
                                    .arg(example).arg(needed).arg(kModelDefaultL1)));
        } else if (budget == QStringLiteral("below-minimum")) {
            const QString gen = generator(example, &error);
            QVERIFY2(!gen.isEmpty(), qPrintable(error));
            QTemporaryDir out;
            QStringList command;
            const Result r = generate(gen, out.path(), needed - 1, &command);
            QVERIFY2(r.exitCode > 0 && neededL1(r.err) == needed,
                     qPrintable(describe(QStringLiteral("%1 at --l1 %2 must fail with \"needs at least %3 bytes of L1\"")
                                             .arg(example).arg(needed - 1).arg(needed),
                                         QStringList{gen} + command, r)));
        } else if (budget == QStringLiteral("minimum")) {
            const QString failure = fullFlow(example, needed, needed, 1, 8);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        } else if (budget == QStringLiteral("model-default")) {
            // No --l1: the budget is the model's SetL1MemorySize(51200).
            const QString failure = fullFlow(example, 0, kModelDefaultL1, 2, 1);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        } else if (budget == QStringLiteral("double-default")) {
            const QString failure = fullFlow(example, 2 * kModelDefaultL1, 2 * kModelDefaultL1, 3, 8);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        } else {
            const HostBuild* host = thirtyTwoBitHost(&error);
            QVERIFY2(host, qPrintable(error));
            const QString failure = fullFlow(example, 0, kModelDefaultL1, 4, 8, *host);
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        }
    }

    // The tilings the guide prints for its two first examples at 51200 bytes of L1.
    void guideTilings_data()
    {
        QTest::addColumn<QString>("example");
        QTest::addColumn<int>("tiles");
        QTest::addColumn<int>("tileSize");
        QTest::addColumn<int>("lastTileSize");
        // 3 double-buffered 200-wide int32 arguments: 10 lines per tile, 300 / 10 tiles.
        QTest::newRow("MatAdd") << QStringLiteral("MatAdd") << 30 << 10 << 10;
        // 2 x 31 lines x 800 bytes + 10 per-tile maxima = 49640 bytes; the last tile has 300 - 9 * 31 lines.
        QTest::newRow("MatMax") << QStringLiteral("MatMax") << 10 << 31 << 21;
    }
    void guideTilings()
    {
        QFETCH(QString, example);
        QFETCH(int, tiles);
        QFETCH(int, tileSize);
        QFETCH(int, lastTileSize);
        QString error;
        const QJsonObject kernel = kernelTiling(example, example, kModelDefaultL1, &error);
        QVERIFY2(!kernel.isEmpty(), qPrintable(error));
        QCOMPARE(kernel[QStringLiteral("tiles")].toInt(), tiles);
        QCOMPARE(kernel[QStringLiteral("tile_size")].toInt(), tileSize);
        QCOMPARE(kernel[QStringLiteral("last_tile_size")].toInt(), lastTileSize);
    }

    // Recurrence declares its state as GreenWaves' recurrent layers do: Sout with KerArgAliased on
    // Sin. One L1 buffer serves both (same offset, and the kernel's L1 is the sum of the others'
    // aligned buffers only), at the model's budget and at the smallest; the budgets rows run it.
    void aliasedArgumentSharesItsBuffer()
    {
        QString error;
        const qint64 needed = minimumL1(QStringLiteral("Recurrence"), &error);
        QVERIFY2(needed > 0, qPrintable(error));
        for (const qint64 budget : {kModelDefaultL1, needed}) {
            const QJsonObject kernel = kernelTiling(QStringLiteral("Recurrence"), QStringLiteral("Recurrence"), budget, &error);
            QVERIFY2(!kernel.isEmpty(), qPrintable(error));
            const QJsonArray args = kernel[QStringLiteral("args")].toArray();
            const QJsonObject sin = findByName(args, QStringLiteral("Sin")), sout = findByName(args, QStringLiteral("Sout"));
            QVERIFY(!sin.isEmpty() && !sout.isEmpty());
            QCOMPARE(sout[QStringLiteral("shares_buffer_of")].toString(), QStringLiteral("Sin"));
            QVERIFY(!sin.contains(QStringLiteral("shares_buffer_of")));
            QCOMPARE(sout[QStringLiteral("l1_offset")].toInteger(), sin[QStringLiteral("l1_offset")].toInteger());
            QCOMPARE(sout[QStringLiteral("l1_bytes")].toInteger(), qint64(24 * 2));
            QCOMPARE(sin[QStringLiteral("l2_read")].toInteger(), qint64(24 * 2));
            QCOMPARE(sout[QStringLiteral("l2_write")].toInteger(), qint64(24 * 2));
            // Every other buffer has its own place, 4-byte aligned; the shared one counts once.
            qint64 own = 0;
            for (const QJsonValue& value : args) {
                const QJsonObject arg = value.toObject();
                if (!arg.contains(QStringLiteral("shares_buffer_of")))
                    own += (arg[QStringLiteral("l1_bytes")].toInteger() + 3) / 4 * 4;
            }
            QCOMPARE(kernel[QStringLiteral("l1_bytes")].toInteger(), own);
            if (budget == needed)
                QVERIFY2(kernel[QStringLiteral("tiles")].toInt() > 1, "at its smallest budget the weights are tiled");
        }
    }

    // RecurrenceSplit runs the steps as two kernels of a group, as the SDK splits a recurrent sequence:
    // G1's Sout is O_NO_STORE and G2's Sin O_NO_LOAD, both bound to the group's G1O. Tessera lays out
    // each kernel on its own, so the state goes through G1O: stored by G1, loaded by G2 (the harness,
    // run by the budgets rows, checks the outputs equal the unsplit ones).
    void splitSequenceMovesItsStateThroughTheGroup()
    {
        QString error;
        const QJsonObject first = kernelTiling(QStringLiteral("Recurrence"), QStringLiteral("RecurrenceSplitG1"), kModelDefaultL1, &error);
        QVERIFY2(!first.isEmpty(), qPrintable(error));
        const QJsonObject second = kernelTiling(QStringLiteral("Recurrence"), QStringLiteral("RecurrenceSplitG2"), kModelDefaultL1, &error);
        QVERIFY2(!second.isEmpty(), qPrintable(error));
        const QJsonObject firstOut = findByName(first[QStringLiteral("args")].toArray(), QStringLiteral("Sout"));
        const QJsonObject secondIn = findByName(second[QStringLiteral("args")].toArray(), QStringLiteral("Sin"));
        QCOMPARE(firstOut[QStringLiteral("l2_write")].toInteger(), qint64(24 * 2));
        QCOMPARE(secondIn[QStringLiteral("l2_read")].toInteger(), qint64(24 * 2));
        QCOMPARE(firstOut[QStringLiteral("shares_buffer_of")].toString(), QStringLiteral("Sin"));
        const QJsonObject whole = kernelTiling(QStringLiteral("Recurrence"), QStringLiteral("Recurrence"), kModelDefaultL1, &error);
        QVERIFY2(!whole.isEmpty(), qPrintable(error));
        // At the model's budget the weights are one tile, kept in L1 across the steps: every kernel of
        // the split loads them once, as the unsplit kernel does.
        const auto weightsRead = [](const QJsonObject& kernel) {
            return findByName(kernel[QStringLiteral("args")].toArray(), QStringLiteral("Weights"))[QStringLiteral("l2_read")].toInteger();
        };
        QCOMPARE(weightsRead(whole), qint64(24 * (24 + 8) * 2));
        QCOMPARE(weightsRead(first), weightsRead(whole));
        QCOMPARE(weightsRead(second), weightsRead(whole));
    }

    // The current SDK's iteration spaces (KernelIterSpace, KerArgSpace, LOC_LOOP, LOC_D1_PROLOG,
    // C_ArgIndex(KER_ITER_D0), the 5-argument LibKernel) declare the same kernels as the guide's
    // KernelDimensions / KernelIterationOrder: the same generated files, byte for byte, at the
    // model's budget and at the smallest; and the program built from them runs bit-exact.
    void iterationSpacesDeclareTheSameKernels_data()
    {
        QTest::addColumn<QString>("example");
        QTest::newRow("MatAdd: one tiled space") << QStringLiteral("MatAdd");
        QTest::newRow("Conv5x5: output planes, tiles, input planes") << QStringLiteral("Conv5x5");
        QTest::newRow("PlaneScale: input planes around vertical tiles") << QStringLiteral("PlaneScale");
    }
    void iterationSpacesDeclareTheSameKernels()
    {
        QFETCH(QString, example);
        const QString spaces = example + kSpacesSuffix;
        QString error;
        const qint64 needed = minimumL1(example, &error);
        QVERIFY2(needed > 0, qPrintable(error));
        QCOMPARE(minimumL1(spaces, &error), needed);
        for (const qint64 budget : {qint64(0), needed}) {
            QTemporaryDir guide, current;
            QStringList command;
            const QString guideGenerator = generator(example, &error), spacesGenerator = generator(spaces, &error);
            QVERIFY2(!guideGenerator.isEmpty() && !spacesGenerator.isEmpty(), qPrintable(error));
            QCOMPARE(generate(guideGenerator, guide.path(), budget, &command).exitCode, 0);
            const Result generated = generate(spacesGenerator, current.path(), budget, &command);
            QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), QStringList{spacesGenerator} + command, generated)));
            for (const char* file : {"GenKernels.c", "GenKernels.h"}) {
                QFile a(guide.filePath(QLatin1String(file))), b(current.filePath(QLatin1String(file)));
                QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
                QVERIFY2(a.readAll() == b.readAll(), qPrintable(QStringLiteral("%1 differs at budget %2").arg(QLatin1String(file)).arg(budget)));
            }
        }
        const QString failure = fullFlow(spaces, 0, kModelDefaultL1, 5, 8);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    // The generated code of every example builds warning-free for the host emulation and for GAP
    // (the PMSIS branch of the runtime headers, against declarations of the PMSIS API in
    // tests/gap/pmsis_stub; pointer/integer size warnings are expected on a 64-bit host only).
    void buildsForBothRuntimes_data()
    {
        QTest::addColumn<QString>("example");
        for (const QString& example : kExamples)
            QTest::newRow(qPrintable(example)) << example;
    }
    void buildsForBothRuntimes()
    {
        QFETCH(QString, example);
        QString error;
        const QString gen = generator(example, &error);
        QVERIFY2(!gen.isEmpty(), qPrintable(error));
        QTemporaryDir out;
        QStringList command;
        const Result generated = generate(gen, out.path(), 0, &command);
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), QStringList{gen} + command, generated)));
        // The four-name SetGeneratedFilesNames() also writes the init files: they compile too.
        QStringList sources{out.filePath(QStringLiteral("GenKernels.c"))};
        if (QFile::exists(out.filePath(QStringLiteral("GenKernelsInit.c"))))
            sources << out.filePath(QStringLiteral("GenKernelsInit.c"));
        const QStringList common{QStringLiteral("-fsyntax-only"), QStringLiteral("-Wall"), QStringLiteral("-Wextra"),
                                 QStringLiteral("-Werror"), QStringLiteral("-I"), out.path(), QStringLiteral("-I"),
                                 exampleDir(example)};
        const QStringList host = common + m_emulCflags + sources;
        const Result hostBuild = runProcess(m_cc, host);
        QVERIFY2(hostBuild.exitCode == 0, qPrintable(describe(QStringLiteral("host build"), QStringList{m_cc} + host, hostBuild)));
        const QString runtime = QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/runtime");
        const QStringList target = common +
                                   QStringList{QStringLiteral("-DAT_FORCE_PMSIS"), QStringLiteral("-Wno-pointer-to-int-cast"),
                                               QStringLiteral("-Wno-int-to-pointer-cast"), QStringLiteral("-I"),
                                               QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap/pmsis_stub"), QStringLiteral("-I"),
                                               runtime} +
                                   sources;
        const Result targetBuild = runProcess(m_cc, target);
        QVERIFY2(targetBuild.exitCode == 0,
                 qPrintable(describe(QStringLiteral("GAP build"), QStringList{m_cc} + target, targetBuild)));

        // With a RISC-V cross compiler for GAP's cores (Debian's gcc-riscv64-unknown-elf, picolibc),
        // rv32imc, together with the CNN basic kernels: no warning at all (pointers are 32-bit), and the
        // PMSIS declarations split over pmsis.h, bsp/ram.h and bsp/fs.h as the SDK splits them.
        const QString riscv = QStandardPaths::findExecutable(QStringLiteral("riscv64-unknown-elf-gcc"));
        QVERIFY2(!riscv.isEmpty(), "riscv64-unknown-elf-gcc is not installed (scripts/setup.sh installs it)");
        QTemporaryDir objects;
        const QStringList rv32 = QStringList{QStringLiteral("-march=rv32imc"), QStringLiteral("-mabi=ilp32"),
                                             QStringLiteral("--specs=picolibc.specs"), QStringLiteral("-O2"), QStringLiteral("-c"),
                                             QStringLiteral("-Wall"), QStringLiteral("-Wextra"), QStringLiteral("-Werror"),
                                             QStringLiteral("-I"), out.path(), QStringLiteral("-I"), exampleDir(example),
                                             QStringLiteral("-I"), QStringLiteral(TESSERA_SOURCE_DIR "/tests/gap/pmsis_stub"),
                                             QStringLiteral("-I"), runtime, QStringLiteral("-I"),
                                             QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels")} +
                                 sources +
                                 QStringList{QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels/CNN_BasicKernels.c"),
                                             QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels/CNN_BasicKernels_SQ8.c"),
                                             QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels/CNN_Conv_SQ8.c"),
                                             QStringLiteral(TESSERA_SOURCE_DIR "/core/gap/cnn_kernels/CNN_Copy.c")};
        const Result riscvBuild = runProcess(riscv, rv32, QProcessEnvironment::systemEnvironment(), objects.path());
        QVERIFY2(riscvBuild.exitCode == 0, qPrintable(describe(QStringLiteral("rv32imc build"), QStringList{riscv} + rv32, riscvBuild)));
        QVERIFY(QFile::exists(objects.filePath(QStringLiteral("GenKernels.o"))));
    }

    // A model written for the SDK's first Autotiler, built with `model-cflags --first-autotiler`:
    // its kernels take the trailing Kernel_T * that applications of that Autotiler pass as 0.
    // MatAdd's model and basic kernel, called so, match the sum computed here element by element.
    void firstAutotilerForm()
    {
        const Result flags = runProcess(QStringLiteral(TESSERA_CLI_PATH),
                                        {QStringLiteral("gap"), QStringLiteral("model-cflags"), QStringLiteral("--first-autotiler")});
        QVERIFY2(flags.exitCode == 0, qPrintable(flags.err));
        const QStringList cflags = flags.out.trimmed().split(' ', Qt::SkipEmptyParts);
        QVERIFY2(cflags.contains(QStringLiteral("-DAT_FIRST_AUTOTILER")), qPrintable(flags.out));
        QTemporaryDir work;
        const QString gen = work.filePath(QStringLiteral("gen"));
        const QStringList compile = QStringList{modelSource(QStringLiteral("MatAdd"))} + cflags + m_modelLibs +
                                    QStringList{QStringLiteral("-o"), gen};
        const Result compiled = runProcess(m_cc, compile);
        QVERIFY2(compiled.exitCode == 0, qPrintable(describe(QStringLiteral("model"), QStringList{m_cc} + compile, compiled)));
        QStringList command;
        const Result generated = generate(gen, work.path(), 0, &command);
        QVERIFY2(generated.exitCode == 0, qPrintable(describe(QStringLiteral("generation"), QStringList{gen} + command, generated)));
        QFile header(work.filePath(QStringLiteral("GenKernels.h")));
        QVERIFY(header.open(QIODevice::ReadOnly));
        const QString declared = QString::fromUtf8(header.readAll());
        QVERIFY2(declared.contains(QStringLiteral("Word32 * __restrict__ Out,\n    Kernel_T * Ker);")), qPrintable(declared));

        QFile caller(work.filePath(QStringLiteral("caller.c")));
        QVERIFY(caller.open(QIODevice::WriteOnly));
        caller.write("#include <stdio.h>\n#include <stdlib.h>\n#include \"GenKernels.h\"\n"
                     "int main(void)\n{\n"
                     "    enum { N = 200 * 300 };\n"
                     "    Word32 *A = malloc(N * 4), *B = malloc(N * 4), *C = malloc(N * 4);\n"
                     "    for (int i = 0; i < N; i++) { A[i] = i * 7 - 5000; B[i] = 3 - i; C[i] = 0; }\n"
                     "    L1_Memory = malloc(_L1_Memory_SIZE);\n    L2_Memory = malloc(_L2_Memory_SIZE);\n"
                     "    MatAdd(A, B, C, 0);\n"
                     "    for (int i = 0; i < N; i++)\n"
                     "        if (C[i] != A[i] + B[i]) { printf(\"element %d: %d\\n\", i, (int) C[i]); return 1; }\n"
                     "    free(A); free(B); free(C); free(L1_Memory); free(L2_Memory);\n    puts(\"ok\");\n    return 0;\n}\n");
        caller.close();
        const QString run = work.filePath(QStringLiteral("run"));
        const QStringList build = QStringList{QStringLiteral("-O1"), QStringLiteral("-Wall"), QStringLiteral("-Werror"),
                                              QStringLiteral("-fsanitize=address,undefined")} +
                                  m_emulCflags +
                                  QStringList{QStringLiteral("-I"), work.path(), QStringLiteral("-I"), exampleDir(QStringLiteral("MatAdd")),
                                              work.filePath(QStringLiteral("GenKernels.c")),
                                              exampleDir(QStringLiteral("MatAdd")) + QStringLiteral("/MatAddBasicKernels.c"),
                                              caller.fileName(), QStringLiteral("-o"), run};
        const Result built = runProcess(m_cc, build);
        QVERIFY2(built.exitCode == 0, qPrintable(describe(QStringLiteral("build"), QStringList{m_cc} + build, built)));
        const Result ran = runProcess(run, {});
        QVERIFY2(ran.exitCode == 0 && ran.out.contains(QStringLiteral("ok")), qPrintable(describe(QStringLiteral("run"), {run}, ran)));
    }

    // Conv5x5Deep at the model's 51200 bytes: its 16 input planes (15360 bytes) are promoted whole,
    // since every output plane reads them again, and the filters come per output plane for all
    // 16 input planes at once (partial promotion), so each filter byte moves once. The budgets()
    // rows run this tiling end to end.
    void promotionInTheDeepConvolution()
    {
        QString error;
        const QJsonObject kernel = kernelTiling(QStringLiteral("Conv5x5"), QStringLiteral("Conv5x5Deep"), kModelDefaultL1, &error);
        QVERIFY2(!kernel.isEmpty(), qPrintable(error));
        const QJsonObject in = findByName(kernel[QStringLiteral("args")].toArray(), QStringLiteral("In"));
        const QJsonObject filter = findByName(kernel[QStringLiteral("args")].toArray(), QStringLiteral("Filter"));
        QCOMPARE(in[QStringLiteral("residence")].toString(), QStringLiteral("promoted"));
        QCOMPARE(in[QStringLiteral("l2_read")].toInteger(), 16 * 20 * 24 * 2);
        QCOMPARE(filter[QStringLiteral("planes_per_chunk")].toInt(), 16);
        QCOMPARE(filter[QStringLiteral("l2_read")].toInteger(), 16 * 24 * 25 * 2);
    }

    // MatAddL3's matrices live in L3: all their bytes pass L3 -> L2 -> L1 (and back), through L2
    // staging buffers, so the L3 counters the budgets() rows compare are not trivially zero.
    void l3HomedArguments()
    {
        QString error;
        for (const char* name : {"MatAddL3", "MatAddL3Ver"}) {
            const QJsonObject kernel = kernelTiling(QStringLiteral("MatAddL3"), QString::fromLatin1(name), kModelDefaultL1, &error);
            QVERIFY2(!kernel.isEmpty(), qPrintable(error));
            const qint64 plane = name == QStringLiteral("MatAddL3") ? 200 * 300 * 4 : 120 * 90 * 4;
            const QJsonObject dma = kernel[QStringLiteral("dma")].toObject();
            QCOMPARE(dma[QStringLiteral("l3_read")].toInteger(), 2 * plane);
            QCOMPARE(dma[QStringLiteral("l3_write")].toInteger(), plane);
            QCOMPARE(dma[QStringLiteral("l2_read")].toInteger(), 2 * plane);
            QVERIFY(kernel[QStringLiteral("l2_staging_bytes")].toInteger() > 0);
        }
        // A buffer homed in L3 is read from L3 once, through its staging buffer, not from its home
        // address by the cluster DMA (the harness's counters are compared with these figures).
        const QJsonObject kernel = kernelTiling(QStringLiteral("MatAddL3"), QStringLiteral("MatAddL3Buf"), kModelDefaultL1, &error);
        QVERIFY2(!kernel.isEmpty(), qPrintable(error));
        const QJsonObject in2 = findByName(kernel[QStringLiteral("args")].toArray(), QStringLiteral("In2"));
        QCOMPARE(in2[QStringLiteral("residence")].toString(), QStringLiteral("promoted"));
        const QJsonObject dma = kernel[QStringLiteral("dma")].toObject();
        QCOMPARE(dma[QStringLiteral("l3_read")].toInteger(), 2 * 40 * 30 * 4);
        QCOMPARE(kernel[QStringLiteral("tiles")].toInt(), 1);
    }
};

QTEST_GUILESS_MAIN(TestGapExamples)
#include "tst_gap_examples.moc"
