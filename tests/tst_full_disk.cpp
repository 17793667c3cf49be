// A disk that fills up while `tessera` writes (the fail_writes preload: the first N bytes written to
// files succeed, the write crossing N is cut short, every later one fails with ENOSPC): the command
// says so and fails, and every output a user had before is left exactly as it was, with no
// temporary or staging file beside it. With room enough the same command succeeds.
#include "gap_toolchain.h"
#include "test_support.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace tessera;

namespace {

using test::CliResult;

// `tessera arguments` on a disk with `bytes` bytes of room (none: no limit).
CliResult runOnFullDisk(const QStringList& arguments, std::optional<qint64> bytes)
{
    QStringList environment = {QStringLiteral("LD_PRELOAD=" TESSERA_FAIL_WRITES_LIBRARY),
                               // The sanitizer runtime wants to come first; the preload only wraps writes.
                               "ASAN_OPTIONS=" + qEnvironmentVariable("ASAN_OPTIONS") + ":verify_asan_link_order=0"};
    if (bytes)
        environment << "TESSERA_FAIL_WRITES_AFTER=" + QString::number(*bytes);
    return test::runCli(arguments, environment);
}

QByteArray fileBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
}

QStringList entries(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot, QDir::Name);
}

// A failure that says the disk is full, in Tessera's words.
void checkRefusal(const CliResult& result, const QString& what)
{
    QVERIFY2(result.exitCode > 0, qPrintable(what + ": exit " + QString::number(result.exitCode) + "\n" + result.err));
    QVERIFY2(result.err.contains("error: "), qPrintable(what + ": " + result.err));
    QVERIFY2(result.err.contains("No space left on device") || result.err.contains("disk full"),
             qPrintable(what + ": " + result.err));
    QVERIFY2(!result.err.contains("terminate called") && !result.err.contains("std::"), qPrintable(what + ": " + result.err));
}

} // namespace

class TestFullDisk : public QObject {
    Q_OBJECT

private slots:
    // Each command's one output file, over an earlier output of the user's: refused on a full disk
    // and when the disk fills halfway through, the earlier file intact; written with room enough.
    void singleFileOutputs_data()
    {
        QTest::addColumn<QStringList>("arguments");  // OUT stands for the output file
        const QString kernels = QString::fromStdString(test::sourcePath("resources/scamp/gauss3x3.json"));
        QTest::newRow("zoo -o") << QStringList{"zoo", "lenet5", "-o", "OUT"};
        QTest::newRow("plan -o") << QStringList{"plan", "BUFFERS", "-o", "OUT"};
        QTest::newRow("scamp -o") << QStringList{"scamp", kernels, "--nodes", "300", "--time", "60", "-o", "OUT"};  // a node budget: the same program every run
        QTest::newRow("aie plan -o") << QStringList{"aie", "plan", "RADIOML", "-o", "OUT"};
        QTest::newRow("run -o") << QStringList{"run", "MNIST", "-i", "INPUT", "-o", "FOLDER"};
    }

    void singleFileOutputs()
    {
        QFETCH(QStringList, arguments);
        QTemporaryDir inputs, outputs;
        // Inputs, written before the disk fills.
        writeBytes(inputs.filePath("buffers.csv"), "id,lower,upper,size\na,0,4,1000\nb,2,6,3000\nc,5,9,2000\n");
        QCOMPARE(test::runCli({"zoo", "radioml", "-o", inputs.filePath("radioml.onnx")}).exitCode, 0);
        const QString mnist = QString::fromStdString(test::sourcePath("resources/samples/mnist.onnx"));
        const QString input = QString::fromStdString(test::sourcePath("resources/samples/mnist_input_0.pb"));
        const bool folder = arguments.contains("FOLDER");
        const QString out = folder ? outputs.filePath("output_0.pb") : outputs.filePath("output");
        arguments.replaceInStrings("BUFFERS", inputs.filePath("buffers.csv"));
        arguments.replaceInStrings("RADIOML", inputs.filePath("radioml.onnx"));
        arguments.replaceInStrings("MNIST", mnist);
        arguments.replaceInStrings("INPUT", input);
        arguments.replaceInStrings("FOLDER", outputs.path());
        arguments.replaceInStrings("OUT", out);

        // The complete output, to know its size.
        const CliResult complete = runOnFullDisk(arguments, std::nullopt);
        QVERIFY2(complete.exitCode == 0, qPrintable(complete.err));
        const qint64 size = QFileInfo(out).size();
        QVERIFY(size > 16);

        const QByteArray earlier = "an earlier output the user keeps\n";
        for (const qint64 room : {qint64(0), size / 2, size - 1}) {
            writeBytes(out, earlier);
            const QStringList before = entries(outputs.path());
            const CliResult result = runOnFullDisk(arguments, room);
            checkRefusal(result, arguments.first() + " with " + QString::number(room) + " bytes of room");
            QCOMPARE(fileBytes(out), earlier);
            QCOMPARE(entries(outputs.path()), before);
        }
        QCOMPARE(runOnFullDisk(arguments, size + 4096).exitCode, 0);
        QCOMPARE(QFileInfo(out).size(), size);
    }

    // A project folder (GAP and NVDLA) over the project of another model: on a disk that fills at
    // any point the folder stays the old project, with no staging folder left beside it.
    void projectFolders_data()
    {
        QTest::addColumn<QStringList>("target");
        QTest::newRow("gap8") << QStringList{"--target", "gap8"};
        QTest::newRow("nvdla") << QStringList{"--target", "nvdla"};
    }

    void projectFolders()
    {
        QFETCH(QStringList, target);
        QTemporaryDir dir;
        const QString models = dir.filePath("models");
        QVERIFY(QDir(dir.path()).mkdir("models"));
        QCOMPARE(test::runCli({"zoo", "mnist", "-o", models + "/mnist.onnx"}).exitCode, 0);
        QCOMPARE(test::runCli({"zoo", "lenet5", "-o", models + "/lenet5.onnx"}).exitCode, 0);
        const QString work = dir.filePath("work");
        QVERIFY(QDir(dir.path()).mkdir("work"));
        const QString project = work + "/project";
        const QStringList compileMnist = QStringList{"compile", models + "/mnist.onnx", "-o", project} + target;
        const QStringList compileLenet = QStringList{"compile", models + "/lenet5.onnx", "-o", project} + target;

        // The new project's size, then the old project in place.
        QCOMPARE(test::runCli(compileLenet).exitCode, 0);
        qint64 size = 0;
        for (const QByteArray& bytes : test::folderFiles(project))
            size += bytes.size();
        QVERIFY(QDir(project).removeRecursively());
        const CliResult old = test::runCli(compileMnist);
        QVERIFY2(old.exitCode == 0, qPrintable(old.err));
        const QMap<QString, QByteArray> oldProject = test::folderFiles(project);

        // The report's compile time differs in length from run to run by a few characters, so the
        // last cut is a little before the measured end.
        for (const qint64 room : {qint64(0), qint64(100), size / 3, size * 2 / 3, size - 16}) {
            const CliResult result = runOnFullDisk(compileLenet, room);
            checkRefusal(result, "compile with " + QString::number(room) + " of " + QString::number(size) + " bytes");
            QVERIFY2(test::sameProject(test::folderFiles(project), oldProject),
                     qPrintable("the old project changed on a disk full after " + QString::number(room) + " bytes"));
            QCOMPARE(entries(work), QStringList{"project"});
        }
        const CliResult roomEnough = runOnFullDisk(compileLenet, size * 4);
        QVERIFY2(roomEnough.exitCode == 0, qPrintable(roomEnough.err));
        QVERIFY(!test::sameProject(test::folderFiles(project), oldProject));
        QCOMPARE(entries(work), QStringList{"project"});
    }

    // A GAP project's emulation program writes its result beside the earlier one and renames it
    // when complete. Its C library's own writes are out of the preload's reach, so the disk fills
    // for real: the file it writes first is made /dev/full. The earlier result stays as it was.
    void emulationResult()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath("project");
        QCOMPARE(test::runCli({"zoo", "mnist", "-o", dir.filePath("mnist.onnx")}).exitCode, 0);
        const CliResult compiled = test::runCli({"compile", dir.filePath("mnist.onnx"), "-o", project});
        QVERIFY2(compiled.exitCode == 0, qPrintable(compiled.err));
        const test::ProcessResult built = test::runProcess("make", {"-C", project, "emul"});
        QVERIFY2(built.exitCode == 0, qPrintable(built.err));

        const QString results = dir.filePath("results");
        const QStringList run = {project + "/test_data/input_0.pb", results};
        const test::ProcessResult good = test::runProcess(project + "/emul_run", run);
        QVERIFY2(good.exitCode == 0, qPrintable(good.err));
        const QByteArray earlier = fileBytes(results + "/output_0.pb");
        QVERIFY(earlier.size() > 16);

        QVERIFY(QFile::link("/dev/full", results + "/output_0.pb.partial"));
        const test::ProcessResult full = test::runProcess(project + "/emul_run", run);
        QVERIFY2(full.exitCode != 0, qPrintable(full.out));
        QVERIFY2(full.err.contains("cannot write") && full.err.contains("No space left on device"), qPrintable(full.err));
        QCOMPARE(fileBytes(results + "/output_0.pb"), earlier);
        QCOMPARE(entries(results), QStringList{"output_0.pb"});
    }
};

QTEST_GUILESS_MAIN(TestFullDisk)
#include "tst_full_disk.moc"
