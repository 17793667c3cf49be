// The `tessera` command line, run as a process: output formats, files written and error handling.
#include "onnx/tensor_proto.h"
#include "test_support.h"

#include <QDirIterator>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <csignal>
#include <sys/types.h>

using namespace tessera;

namespace {

using Result = test::CliResult;
using test::runCli;

// Every file of a folder (relative path -> bytes), hidden ones included.
using test::folderFiles;
using test::sameProject;

QString nodeCase(const QString& name) { return QStringLiteral(TESSERA_ONNX_TESTDATA "/node/") + name; }

} // namespace

class TestCli : public QObject {
    Q_OBJECT

private slots:
    void inspectPrintsJsonPerNode()
    {
        const Result r = runCli({"inspect", "--json", nodeCase("test_add") + "/model.onnx"});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray nodes = doc["nodes"].toArray();
        QCOMPARE(nodes.size(), 1);
        const QJsonObject add = nodes[0].toObject();
        QCOMPARE(add["op"].toString(), QString("Add"));
        QCOMPARE(add["output_shapes"].toArray()[0].toArray().size(), 3);
        // Two float32 [3, 4, 5] inputs and one output are live while Add runs.
        QCOMPARE(add["live_activation_bytes"].toInteger(), qint64(3 * 60 * 4));
        QCOMPARE(doc["totals"].toObject()["peak_live_activation_bytes"].toInteger(), qint64(3 * 60 * 4));
    }

    void inspectZooModelTable()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("mnist.onnx");
        const Result zoo = runCli({"zoo", "mnist", "-o", model, "--seed", "3"});
        QCOMPARE(zoo.exitCode, 0);
        const Result r = runCli({"inspect", model});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("conv5x5_1"), qPrintable(r.out));
        // Parameters of the guide's MNIST: 32x1x5x5+32, 64x32x5x5+64, 10x1024+10 = 62 346.
        QVERIFY2(r.out.contains("total: 62346 params (249384 bytes)"), qPrintable(r.out));
    }

    // SqueezeNet's fire Concats are done in place by default and copied with --copy-concat-split.
    void copyConcatsTurnsInPlaceConcatsOff()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("squeezenet.onnx");
        QCOMPARE(runCli({"zoo", "squeezenet1_1", "--resolution", "32", "-o", model}).exitCode, 0);
        const Result inPlace = runCli({"compile", model, "-o", dir.filePath("in_place")});
        QCOMPARE(inPlace.exitCode, 0);
        QCOMPARE(inPlace.out.count(QStringLiteral("concatenation, in place")), 8);
        const Result copied = runCli({"compile", model, "-o", dir.filePath("copied"), "--copy-concat-split"});
        QCOMPARE(copied.exitCode, 0);
        QCOMPARE(copied.out.count(QStringLiteral("concatenation, in place")), 0);
        QCOMPARE(copied.out.count(QStringLiteral("concatenation")), 8);
    }

    void runWritesOutputFiles()
    {
        QTemporaryDir dir;
        const QString data = nodeCase("test_add") + "/test_data_set_0/";
        const Result r = runCli({"run", nodeCase("test_add") + "/model.onnx", "-i", data + "input_0.pb", "-i",
                                  data + "input_1.pb", "-o", dir.path()});
        QCOMPARE(r.exitCode, 0);
        const TensorData actual = readTensorFile(dir.filePath("output_0.pb").toStdString());
        const TensorData expected = readTensorFile((data + "output_0.pb").toStdString());
        QVERIFY(test::maxRelativeError(actual, expected) <= 1e-6);
    }

    void conformancePrintsCountsLast()
    {
        const Result r = runCli({"conformance", nodeCase("test_add"), nodeCase("test_relu"), nodeCase("test_sub")});
        QCOMPARE(r.exitCode, 0);
        const QStringList lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.last(), QString("3 passed, 0 failed, 0 skipped"));
    }

    void planPrintsFiguresAndExitCodes()
    {
        QTemporaryDir dir;
        QFile csv(dir.filePath("buffers.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("id,lower,upper,size\na,0,3,4\nb,1,4,4\nc,3,6,8\n");
        csv.close();
        const Result best = runCli({"plan", csv.fileName(), "-o", dir.filePath("out.csv")});
        QCOMPARE(best.exitCode, 0);
        QVERIFY2(best.out.contains("peak: 12\n") && best.out.contains("lower_bound: 12\n") &&
                     best.out.contains("status: optimal") && best.out.contains("time_ms: ") && best.out.contains("ratio: 1.0"),
                 qPrintable(best.out));
        QFile out(dir.filePath("out.csv"));
        QVERIFY(out.open(QIODevice::ReadOnly));
        QVERIFY(out.readLine().startsWith("id,lower,upper,size,offset"));

        const Result tooSmall = runCli({"plan", csv.fileName(), "--capacity", "11"});
        QCOMPARE(tooSmall.exitCode, 1);
        QVERIFY(tooSmall.out.contains("status: infeasible"));

        QFile bad(dir.filePath("bad.csv"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("id,lower,upper,size\na,0,3,4\nb,5,4,4\n");
        bad.close();
        const Result badInput = runCli({"plan", bad.fileName()});
        QCOMPARE(badInput.exitCode, 2);
        QVERIFY2(badInput.err.contains("line 3"), qPrintable(badInput.err));
        // Pins that overlap while both buffers live: no plan can honour them.
        QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
        bad.write("id,lower,upper,size,offset\nin,0,2,3000,0\nt1,1,5,7000,0\n");
        bad.close();
        const Result clash = runCli({"plan", bad.fileName(), "--half-open"});
        QCOMPARE(clash.exitCode, 2);
        QVERIFY2(clash.err.contains("'in' and 't1' are pinned to overlapping bytes"), qPrintable(clash.err));
    }

    // tessera plan --model: the deployed graph's plan at the chip's default budgets or the ones given.
    void planModelPrintsPlacements()
    {
        const QString sample = QStringLiteral(TESSERA_SOURCE_DIR "/resources/samples/mnist.onnx");
        const Result r = runCli({"plan", "--model", sample, "--l2", "65536", "--dump"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("conv5x5_0_Out") && r.out.contains("of the 65536 budget"), qPrintable(r.out));
        const Result defaults = runCli({"plan", "--model", sample, "--target", "gap9"});
        QCOMPARE(defaults.exitCode, 0);
        QVERIFY2(defaults.out.contains("of the 1441792 budget"), qPrintable(defaults.out));
        const Result tooSmall = runCli({"plan", "--model", sample, "--l2", "100"});
        QCOMPARE(tooSmall.exitCode, 1);
        QVERIFY2(tooSmall.err.contains("raise the L2 budget to at least"), qPrintable(tooSmall.err));
        const Result unsupported = runCli({"plan", "--model", nodeCase("test_add") + "/model.onnx"});
        QCOMPARE(unsupported.exitCode, 2);
        QVERIFY2(unsupported.err.contains("error:"), qPrintable(unsupported.err));
        const Result badTarget = runCli({"plan", "--model", sample, "--target", "gap7"});
        QVERIFY(badTarget.exitCode != 0);
        QVERIFY2(badTarget.err.contains("gap8"), qPrintable(badTarget.err));
    }

    void aiePlanPrintsTableJsonAndAdf()
    {
        QTemporaryDir dir;
        const QString model = dir.filePath("radioml.onnx");
        QCOMPARE(runCli({"zoo", "radioml", "-o", model}).exitCode, 0);
        const Result table = runCli({"aie", "plan", model});
        QCOMPARE(table.exitCode, 0);
        QVERIFY2(table.out.contains("conv1d_w3") && table.out.contains("Split I/O over samples dimension"), qPrintable(table.out));
        QVERIFY2(table.out.contains("every layer equals its unsplit result"), qPrintable(table.out));
        const Result json = runCli({"aie", "plan", model, "--format", "json", "--arch", "aie"});
        QCOMPARE(json.exitCode, 0);
        QVERIFY2(json.out.contains("\"arch\": \"aie\"") && json.out.contains("\"nsplit\""), qPrintable(json.out));
        const Result adf = runCli({"aie", "plan", model, "--format", "adf", "-o", dir.filePath("plan.txt")});
        QCOMPARE(adf.exitCode, 0);
        QVERIFY(QFile::exists(dir.filePath("plan.txt")));
        const Result badArch = runCli({"aie", "plan", model, "--arch", "aie-x"});
        QVERIFY(badArch.exitCode != 0);
        QVERIFY2(badArch.err.contains("known: aie, aie-ml, aie-ml-v2"), qPrintable(badArch.err));
    }

    void scampVerifyChecksPrograms()
    {
        QTemporaryDir dir;
        QFile program(dir.filePath("p.txt"));
        QVERIFY(program.open(QIODevice::WriteOnly));
        // The 3x3 Gaussian / 16 (d = 4). First a program that breaks a register rule (repeated source).
        program.write("divq(B, A);\ndivq(C, B);\nmovx(D, C, east);\nmovx(E, C, west);\nadd(B, D, E);\n"
                      "add(D, B, C, C);\n");
        program.close();
        const QString kernels = QStringLiteral(TESSERA_SOURCE_DIR "/resources/scamp/gauss3x3.json");
        const Result wrong = runCli({"scamp", "--verify", program.fileName(), kernels});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.out.contains("verification: FAILED"), qPrintable(wrong.out));
        QVERIFY(program.open(QIODevice::WriteOnly | QIODevice::Truncate));
        program.write("// 3x3 Gaussian\n"
                      "divq(B, A);\ndivq(C, B);\ndivq(B, C);\ndivq(C, B);\n"             // C = 1 unit at the centre
                      "movx(D, C, east);\nadd(E, C, D);\nmovx(F, E, west);\nadd(D, E, F);\n" // D = row [1 2 1]
                      "movx(E, D, north);\nadd(F, D, E);\nmovx(E, F, south);\nadd(A, F, E);\n"); // rows 1 2 1
        program.close();
        const Result right = runCli({"scamp", "--verify", program.fileName(), kernels});
        QCOMPARE(right.exitCode, 0);
        QVERIFY2(right.out.contains("verification: exact"), qPrintable(right.out + right.err));
        const Result missing = runCli({"scamp", "--verify", dir.filePath("none.txt"), kernels});
        QCOMPARE(missing.exitCode, 2);
    }

    // Option values that cannot be meant are bad input: exit status 2 and a message naming the
    // option, before any work.
    void badOptionValuesExitWith2_data()
    {
        const QString sample = QStringLiteral(TESSERA_SOURCE_DIR "/resources/samples/mnist.onnx");
        const QString kernels = QStringLiteral(TESSERA_SOURCE_DIR "/resources/scamp/gauss3x3.json");
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("negative L2") << QStringList{"plan", "--model", sample, "--l2", "-1"} << "--l2: '-1' is negative";
        QTest::newRow("negative L1") << QStringList{"compile", sample, "-o", "/tmp/never", "--l1", "-5"}
                                     << "--l1: '-5' is negative";
        QTest::newRow("capacity 2^63") << QStringList{"plan", "x.csv", "--capacity", "9223372036854775807"} << "--capacity";
        QTest::newRow("capacity -5") << QStringList{"plan", "x.csv", "--capacity", "-5"} << "--capacity";
        QTest::newRow("timeout 0") << QStringList{"plan", "x.csv", "--timeout", "0"} << "'0' is not a time limit";
        QTest::newRow("timeout nan") << QStringList{"plan", "x.csv", "--timeout", "nan"} << "'nan' is not a time limit";
        QTest::newRow("timeout inf") << QStringList{"plan", "x.csv", "--timeout", "inf"} << "'inf' is not a time limit";
        QTest::newRow("scamp time 9.3e9") << QStringList{"scamp", kernels, "--time", "9.3e9"} << "at most 604800";
        QTest::newRow("empty output folder") << QStringList{"compile", sample, "-o", ""} << "an empty name";
        QTest::newRow("empty output file") << QStringList{"zoo", "mnist", "-o", ""} << "an empty name";
        QTest::newRow("not a number") << QStringList{"scamp", kernels, "--threads", "many"} << "--threads";
        QTest::newRow("quant int4") << QStringList{"compile", sample, "-o", "/tmp/never", "--quant", "int4"} << "--quant";
        // Files that are not what the command reads, and inputs that do not match the model, are bad
        // input too.
        QTest::newRow("text file as a model") << QStringList{"inspect", QStringLiteral(TESSERA_SOURCE_DIR "/README.md")}
                                              << "not an ONNX model";
        const QString input = QStringLiteral(TESSERA_SOURCE_DIR "/resources/samples/mnist_input_0.pb");
        QTest::newRow("inputs not the model's") << QStringList{"run", sample, "-i", input, input, "-o", "/tmp/never"}
                                                << "2 given with -i";
        QTest::newRow("model as a loadable") << QStringList{"nvdla", "inspect", sample} << "not an NVDLA loadable";
    }
    void badOptionValuesExitWith2()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = runCli(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("error: ") && r.err.contains(message), qPrintable(r.err));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.out));
    }

    // "-o -" is standard output; the summary then goes to standard error. A link given to -o
    // is written through and stays a link.
    void outputsGoToStandardOutputOrThroughLinks()
    {
        QTemporaryDir dir;
        const Result zoo = runCli({"zoo", "mnist", "-o", "-"});
        QCOMPARE(zoo.exitCode, 0);
        QVERIFY2(zoo.err.contains("wrote mnist"), qPrintable(zoo.err));
        // The model's bytes on standard output are those written to a file.
        QProcess process;
        process.start(QStringLiteral(TESSERA_CLI_PATH), {"zoo", "mnist", "-o", "-"});
        QVERIFY(process.waitForFinished(60000));
        const QByteArray bytes = process.readAllStandardOutput();
        QCOMPARE(runCli({"zoo", "mnist", "-o", dir.filePath("file.onnx")}).exitCode, 0);
        QFile file(dir.filePath("file.onnx"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(bytes, file.readAll());

        QFile csv(dir.filePath("buffers.csv"));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("id,lower,upper,size\na,0,3,4\nb,1,4,4\n");
        csv.close();
        const Result toStdout = runCli({"plan", csv.fileName(), "-o", "-"});
        QCOMPARE(toStdout.exitCode, 0);
        QVERIFY2(toStdout.out.startsWith("id,lower,upper,size,offset\n"), qPrintable(toStdout.out));
        QVERIFY2(toStdout.err.contains("status: optimal"), qPrintable(toStdout.err));

        QVERIFY(QFile::link(dir.filePath("plan_target.csv"), dir.filePath("plan_link.csv")));
        QCOMPARE(runCli({"plan", csv.fileName(), "-o", dir.filePath("plan_link.csv")}).exitCode, 0);
        QVERIFY(QFileInfo(dir.filePath("plan_link.csv")).isSymLink());
        QFile target(dir.filePath("plan_target.csv"));
        QVERIFY(target.open(QIODevice::ReadOnly));
        QVERIFY(target.readAll().startsWith("id,lower,upper,size,offset\n"));
    }

    // tessera compile over a project of another model, interrupted at ten points by SIGINT or
    // SIGTERM: the folder is afterwards exactly the old project or exactly the new one. A folder
    // of the user's own is never replaced.
    void interruptedCompileLeavesTheOldOrTheNewProject()
    {
        QTemporaryDir dir;
        const QStringList models = {dir.filePath("mnist.onnx"), dir.filePath("lenet5.onnx")};
        QCOMPARE(runCli({"zoo", "mnist", "-o", models[0]}).exitCode, 0);
        QCOMPARE(runCli({"zoo", "lenet5", "-o", models[1]}).exitCode, 0);
        // Each model's project, compiled without interruption (the report says how long it took).
        std::array<QMap<QString, QByteArray>, 2> complete;
        QElapsedTimer clock;
        clock.start();
        for (int m = 0; m < 2; ++m) {
            const QString folder = dir.filePath(QString("complete_%1").arg(m));
            QCOMPARE(runCli({"compile", models[m], "-o", folder}).exitCode, 0);
            complete[size_t(m)] = folderFiles(folder);
            QVERIFY(complete[size_t(m)].contains(".tessera-project"));
        }
        const qint64 compileMs = clock.elapsed() / 2;
        const QString project = dir.filePath("project");
        QCOMPARE(runCli({"compile", models[0], "-o", project}).exitCode, 0);
        int shown = 0;  // which model's project the folder holds
        int completed = 0, interrupted = 0;
        for (int point = 0; point < 10; ++point) {
            const int next = 1 - shown;
            QProcess compile;
            compile.start(QStringLiteral(TESSERA_CLI_PATH), {"compile", models[next], "-o", project});
            QVERIFY(compile.waitForStarted());
            QTest::qWait(int(compileMs * (point + 1) / 10));
            // (Only while it runs: a pid of 0 would signal this test's own process group.)
            const qint64 pid = compile.processId();
            if (compile.state() == QProcess::Running && pid > 0)
                ::kill(pid_t(pid), point % 2 ? SIGTERM : SIGINT);
            if (compile.state() != QProcess::NotRunning)  // (waitForFinished is false for a finished one)
                QVERIFY(compile.waitForFinished(600000));
            const QMap<QString, QByteArray> files = folderFiles(project);
            const bool old = sameProject(files, complete[size_t(shown)]);
            const bool fresh = sameProject(files, complete[size_t(next)]);
            QVERIFY2(old || fresh, qPrintable(QString("after an interruption at %1/10 the folder holds %2 files of "
                                                      "neither project").arg(point + 1).arg(files.size())));
            if (fresh) {
                shown = next;
                ++completed;
            } else {
                ++interrupted;
            }
        }
        qInfo("interrupted compiles: %d left the old project, %d completed the new one", interrupted, completed);
        QVERIFY(interrupted > 0);
        // The staging folders interrupted compiles leave are beside the project, named as such.
        for (const QString& name : QDir(dir.path()).entryList(QDir::Dirs | QDir::Hidden | QDir::NoDotAndDotDot))
            QVERIFY2(!name.startsWith('.') || name.startsWith(".project.partial-"), qPrintable(name));

        // A folder of the user's own is refused, and left as it was.
        const QString own = dir.filePath("own");
        QVERIFY(QDir(dir.path()).mkdir("own"));
        QFile makefile(own + "/Makefile");
        QVERIFY(makefile.open(QIODevice::WriteOnly));
        makefile.write("all:\n\techo mine\n");
        makefile.close();
        const Result refused = runCli({"compile", models[0], "-o", own});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY2(refused.err.contains("holds files Tessera did not write"), qPrintable(refused.err));
        QCOMPARE(folderFiles(own).keys(), QStringList{"Makefile"});
    }

    // A folder without test cases is an error, not "0 passed, 0 failed".
    void conformanceWithoutCasesIsAnError()
    {
        QTemporaryDir empty;
        const Result r = runCli({"conformance", empty.path()});
        QCOMPARE(r.exitCode, 2);  // bad input
        QVERIFY2(r.err.contains("no ONNX backend test cases in " + empty.path()), qPrintable(r.err));
        QVERIFY(!r.out.contains("passed"));
    }

    void errorsGoToStderrWithNonZeroExit_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing model") << QStringList{"inspect", "/nonexistent/model.onnx"} << "no such file";
        QTest::newRow("not a model") << QStringList{"inspect", nodeCase("test_add") + "/test_data_set_0/input_0.pb"}
                                     << "not an ONNX model";
        QTest::newRow("input count") << QStringList{"run", nodeCase("test_add") + "/model.onnx", "-o", "/tmp"}
                                     << "the model has 2 inputs (x, y), 0 given with -i";
        QTest::newRow("zoo width") << QStringList{"zoo", "mobilenet_v1", "--width", "0.3", "-o", "/tmp/x.onnx"}
                                   << "width";
        QTest::newRow("zoo name") << QStringList{"zoo", "resnet", "-o", "/tmp/x.onnx"} << "available: mnist";
        QTest::newRow("no command") << QStringList{} << "subcommand";
        QTest::newRow("conformance dir") << QStringList{"conformance", "/nonexistent"} << "not a directory";
    }
    void errorsGoToStderrWithNonZeroExit()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Result r = runCli(arguments);
        QVERIFY(r.exitCode > 0);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
