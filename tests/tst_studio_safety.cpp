// What keeps a user's work safe around the studio's edges: a background job that throws comes
// back as an error instead of ending the studio, and the export folder may be a new name.
#include "plan_job.h"
#include "project_folder_dialog.h"
#include "studio_harness.h"
#include "studio_support.h"

#include "base/error.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <new>

using namespace tessera;
using namespace tessera::studio;

class TestStudioSafety : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { studio_testing::useThrowAwaySettings("tst_studio_safety"); }

    // The export folder may be new: the typed name is created on accept; an existing folder is
    // taken as it is; the name of a file is refused with the reason.
    void exportFolderMayBeNew()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir("existing"));
        QFile file(dir.filePath("afile"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.close();
        for (const QString& name : {QString("new_project"), QString("existing"), QString("nested/deeper")}) {
            views::ProjectFolderDialog dialog(nullptr, "Folder for the GAP project");
            dialog.setDirectory(dir.path());
            dialog.selectFile(name);
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QCOMPARE(dialog.folder(), QDir::cleanPath(dir.filePath(name)));
            QVERIFY(QFileInfo(dialog.folder()).isDir());
        }
        views::ProjectFolderDialog refused(nullptr, "Folder for the GAP project");
        refused.setDirectory(dir.path());
        refused.selectFile("afile");
        refused.accept();
        QVERIFY(refused.result() != int(QDialog::Accepted));
        QVERIFY(refused.folder().isEmpty());
        QVERIFY2(refused.problem().contains("is a file, not a folder"), qPrintable(refused.problem()));
    }

    // A background job that throws what it did not expect (here bad_alloc, an unknown type and an
    // Error) hands its text back as the result's error, on the GUI thread, instead of ending the
    // studio; a failure while showing a result is reported, not raised into the event loop.
    void backgroundJobsReturnTheirFailures()
    {
        QObject owner;
        QStringList errors;
        auto collect = [&errors](const PlanOutcome& outcome) { errors << outcome.error; };
        runInBackground<PlanOutcome>(&owner, []() -> PlanOutcome { throw std::bad_alloc(); }, collect);
        QTRY_COMPARE(errors.size(), 1);
        runInBackground<PlanOutcome>(&owner, []() -> PlanOutcome { throw 42; }, collect);
        QTRY_COMPARE(errors.size(), 2);
        runInBackground<PlanOutcome>(&owner, []() -> PlanOutcome { throw Error("model.onnx: node 3: boom"); }, collect);
        QTRY_COMPARE(errors.size(), 3);
        QVERIFY2(errors[0].contains("out of memory"), qPrintable(errors[0]));
        QVERIFY2(errors[1].contains("unknown type"), qPrintable(errors[1]));
        QCOMPARE(errors[2], QString("model.onnx: node 3: boom"));
        bool shown = false;
        runInBackground<PlanOutcome>(&owner, [] { return PlanOutcome{}; }, [&shown](const PlanOutcome&) {
            shown = true;
            throw Error("while showing");
        });
        QTest::ignoreMessage(QtCriticalMsg, "tessera-studio: showing a result failed: while showing");
        QTRY_VERIFY(shown);
    }
};

QTEST_MAIN(TestStudioSafety)
#include "tst_studio_safety.moc"
