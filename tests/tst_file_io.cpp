// Writing output files: atomically through a temporary, through symbolic links, never replacing a
// device or pipe, keeping permissions, refusing names that cannot be meant.
#include "base/error.h"
#include "io/file_io.h"
#include "io/staged_folder.h"
#include "session/project.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace tessera;

class TestFileIo : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

    // Files in the folder whose name holds ".tmp-" (temporaries left behind).
    int temporaries() const
    {
        return int(QDir(dir_.path()).entryList({"*.tmp-*"}, QDir::Files | QDir::Hidden).size());
    }

private slots:
    void replacesAFileWhole()
    {
        writeFileAtomically(path("a.txt"), "first version, longer than the second");
        writeFileAtomically(path("a.txt"), "second");
        QCOMPARE(readFileBytes(path("a.txt")), std::string("second"));
        QCOMPARE(temporaries(), 0);
    }

    // A link is followed: its target gets the bytes and the link stays a link.
    void writesThroughSymbolicLinks()
    {
        QVERIFY(QFile::link(dir_.filePath("target.txt"), dir_.filePath("link.txt")));
        writeFileAtomically(path("link.txt"), "through the link");
        QVERIFY(QFileInfo(dir_.filePath("link.txt")).isSymLink());
        QCOMPARE(readFileBytes(path("target.txt")), std::string("through the link"));
        // A relative link into a subfolder, to an existing file.
        QVERIFY(QDir(dir_.path()).mkdir("sub"));
        writeFileAtomically(path("sub/real.txt"), "old");
        QVERIFY(::symlink("sub/real.txt", path("relative.txt").c_str()) == 0);
        writeFileAtomically(path("relative.txt"), "new");
        QCOMPARE(readFileBytes(path("sub/real.txt")), std::string("new"));
        QVERIFY(QFileInfo(dir_.filePath("relative.txt")).isSymLink());
        QCOMPARE(temporaries(), 0);
    }

    // A pipe (like a device) is written as it is, never replaced by a regular file.
    void writesIntoAPipeWithoutReplacingIt()
    {
        const std::string fifo = path("pipe");
        QVERIFY(::mkfifo(fifo.c_str(), 0600) == 0);
        const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
        QVERIFY(reader >= 0);
        writeFileAtomically(fifo, "into the pipe");
        char buffer[64] = {};
        const ssize_t got = ::read(reader, buffer, sizeof buffer);
        ::close(reader);
        QCOMPARE(std::string(buffer, size_t(std::max<ssize_t>(got, 0))), std::string("into the pipe"));
        struct stat status {};
        QVERIFY(::lstat(fifo.c_str(), &status) == 0);
        QVERIFY(S_ISFIFO(status.st_mode));
    }

    void keepsTheTargetsPermissions()
    {
        writeFileAtomically(path("private.txt"), "x");
        QVERIFY(::chmod(path("private.txt").c_str(), 0600) == 0);
        writeFileAtomically(path("private.txt"), "y");
        struct stat status {};
        QVERIFY(::stat(path("private.txt").c_str(), &status) == 0);
        QCOMPARE(int(status.st_mode & 0777), 0600);
    }

    void refusesNamesThatCannotBeMeant_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QString() << "no output file name given";
        QTest::newRow("directory") << "sub2" << "is a directory";
    }
    void refusesNamesThatCannotBeMeant()
    {
        QFETCH(QString, name);
        QFETCH(QString, message);
        QDir(dir_.path()).mkdir("sub2");
        const std::string target = name.isEmpty() ? std::string() : path(qPrintable(name));
        try {
            writeFileAtomically(target, "bytes");
            QFAIL("no error");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).contains(message), error.what());
        }
        QVERIFY(QFileInfo(dir_.filePath("sub2")).isDir());
    }

    // A write that fails (a full device) says so and names the file.
    void aFailedWriteIsReported()
    {
        if (!QFileInfo::exists("/dev/full"))
            QSKIP("no /dev/full on this system");
        try {
            writeFileAtomically("/dev/full", std::string(1 << 16, 'x'));
            QFAIL("a write to /dev/full succeeded");
        } catch (const Error& error) {
            QVERIFY2(QString(error.what()).startsWith("/dev/full: write failed"), error.what());
        }
        QVERIFY(!QFileInfo("/dev/full").isFile());  // still the device
    }

    // A folder written whole: new, then replacing the one it wrote; abandoned, nothing changes.
    void stagedFoldersReplaceOnlyWhenComplete()
    {
        const std::string target = path("project");
        {
            StagedFolder staged(target);
            writeFileAtomically(staged.path() + "/a.txt", "first");
            QVERIFY(!QFileInfo::exists(dir_.filePath("project")));  // nothing shows before commit
            staged.commit();
        }
        QCOMPARE(readFileBytes(target + "/a.txt"), std::string("first"));
        QVERIFY(QFileInfo::exists(dir_.filePath("project/") + kStagedFolderMarker));
        {
            StagedFolder abandoned(target);  // an exception before commit, say
            writeFileAtomically(abandoned.path() + "/b.txt", "half");
        }
        QCOMPARE(readFileBytes(target + "/a.txt"), std::string("first"));
        QVERIFY(!QFileInfo::exists(dir_.filePath("project/b.txt")));
        {
            StagedFolder staged(target + "/");  // a trailing slash names the same folder
            writeFileAtomically(staged.path() + "/b.txt", "second");
            staged.commit();
        }
        QVERIFY(!QFileInfo::exists(dir_.filePath("project/a.txt")));  // replaced whole
        QCOMPARE(readFileBytes(target + "/b.txt"), std::string("second"));
        // No staging folder is left behind.
        QCOMPARE(QDir(dir_.path()).entryList({".project.partial-*"}, QDir::Dirs | QDir::Hidden).size(), 0);
    }

    void stagedFoldersRefuseWhatTheyMustNotReplace()
    {
        QVERIFY(QDir(dir_.path()).mkdir("mine"));
        writeFileAtomically(path("mine/notes.txt"), "my own");
        writeFileAtomically(path("file.txt"), "a file");
        for (const std::string& target : {path("mine"), path("file.txt"), std::string()}) {
            try {
                StagedFolder staged(target);
                QFAIL(qPrintable(QString::fromStdString(target) + " was accepted"));
            } catch (const Error& error) {
                QVERIFY2(QString(error.what()).contains(target.empty() ? "no output folder given"
                                                        : target == path("mine") ? "holds files Tessera did not write"
                                                                                 : "is not a folder"),
                         error.what());
            }
        }
        QCOMPARE(readFileBytes(path("mine/notes.txt")), std::string("my own"));
        // An empty folder may be written.
        QVERIFY(QDir(dir_.path()).mkdir("empty"));
        StagedFolder staged(path("empty"));
        staged.commit();
        QVERIFY(QFileInfo::exists(dir_.filePath("empty/") + kStagedFolderMarker));
    }

    // Studio project files: what a hand-edited or damaged file may hold is refused with the field.
    void projectFilesAreChecked_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const QString base = R"("model": "m.onnx", "target": "%1", "l2_budget": %2)";
        auto project = [&](const QString& version, const QString& target, const QString& l2, const QString& more = {}) {
            return "{\"tessera_project\": " + version + ", " + base.arg(target, l2) + more + "}";
        };
        QTest::newRow("version 1e30") << project("1e30", "gap8", "0") << "\"tessera_project\" is 1e+30";
        QTest::newRow("version 0") << project("0", "gap8", "0") << "not a whole number from 1";
        QTest::newRow("newer") << project("7", "gap8", "0") << "written by a newer Tessera (format 7)";
        QTest::newRow("unknown chip") << project("1", "gap10", "0") << "target 'gap10' is not one Tessera knows";
        QTest::newRow("unknown nvdla") << project("1", "nvdla:nv_huge:int8", "0") << "target 'nvdla:nv_huge:int8'";
        QTest::newRow("l2 2^62") << project("1", "gap8", "4611686018427387904")
                                 << "\"l2_budget\" is 4611686018427387904, not a whole number from 1024 to 1073741824";
        QTest::newRow("l2 2^64") << project("1", "gap8", "18446744073709551615") << "\"l2_budget\" is 18446744073709551615";
        QTest::newRow("l2 fraction") << project("1", "gap8", "1500.5") << "\"l2_budget\" is 1500.5";
        QTest::newRow("l3 negative") << project("1", "gap8", "0", ", \"l3_budget\": -5") << "\"l3_budget\" is -5";
        QTest::newRow("l1 5 MiB") << project("1", "gap8", "0", ", \"l1_budget\": 5242880") << "to 4194304";
        QTest::newRow("flash text") << project("1", "gap8", "0", ", \"flash_budget\": \"16M\"") << "\"flash_budget\" is \"16M\"";
    }
    void projectFilesAreChecked()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        try {
            projectFromJson(json.toStdString(), "p.json");
            QFAIL(qPrintable("accepted: " + json));
        } catch (const ModelError& error) {
            QVERIFY2(QString(error.what()).startsWith("p.json: ") && QString(error.what()).contains(message),
                     error.what());
        }
    }

    void projectFilesRoundTrip()
    {
        for (const char* target : {"gap8", "gap9", "nvdla:nv_small:int8"}) {
            Project project;
            project.modelPath = "m.onnx";
            project.target = target;
            project.l2Budget = 300 * 1024;
            project.l1Budget = 64 * 1024;
            project.flashBudget = kProjectLargestFlash;
            const Project back = projectFromJson(projectToJson(project), "p.json");
            QCOMPARE(back.target, project.target);
            QCOMPARE(back.l2Budget, project.l2Budget);
            QCOMPARE(back.l1Budget, project.l1Budget);
            QCOMPARE(back.flashBudget, project.flashBudget);
            QVERIFY(!back.l3Budget);
        }
    }
};

QTEST_GUILESS_MAIN(TestFileIo)
#include "tst_file_io.moc"
