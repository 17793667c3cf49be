#pragma once
// Driving the studio window in the studio tests: open a model and wait for its plan, drag the L2
// budget line as a person does. Header-only: only the tst_studio* programs (which link the studio)
// include it.
#include "studio_window.h"
#include "memory_timeline.h"

#include "onnx/onnx_export.h"
#include "zoo/zoo.h"

#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace tessera::studio_testing {

inline constexpr int kWaitMs = 60000;

// Recent files and the layout direction of a test program go to a throw-away settings location,
// not the user's, and start empty.
inline void useThrowAwaySettings(const char* program)
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("Tessera");
    QCoreApplication::setApplicationName(program);
    QSettings().clear();
}

// Networks of the zoo as ONNX files, each written once into a folder that goes with the object.
class ZooFiles {
public:
    QString path(const std::string& name, double width = 1.0, int resolution = 224)
    {
        const QString file = dir_.filePath(QString::fromStdString(name) + QString("_%1_%2.onnx").arg(width).arg(resolution));
        if (!QFile::exists(file))
            exportOnnxFile(buildZooModel(name, {width, resolution, 1}), file.toStdString());
        return file;
    }
    QString filePath(const QString& name) const { return dir_.filePath(name); }

private:
    QTemporaryDir dir_;
};

// Opens `path` and waits until the graph and a plan are shown.
// The first plan of a model lowers, calibrates and quantizes it: MobileNet 1.0/224 takes about a
// second in a release build and minutes in the sanitized debug build, hence `planWaitMs`.
inline bool openAndWait(studio::StudioWindow& window, const QString& path, int planWaitMs = kWaitMs)
{
    QSignalSpy shown(&window, &studio::StudioWindow::modelShown);
    QSignalSpy planned(&window, &studio::StudioWindow::planShown);
    window.openModel(path);
    return (shown.count() > 0 || shown.wait(kWaitMs)) && (planned.count() > 0 || planned.wait(planWaitMs));
}

// Drags the L2 budget line of `window` by `fraction` of the way down to address 0, slowly: each
// move waits until the plan for its budget is shown, as when a person drags. Returns where the
// pointer is; lets go there unless `release` is false.
inline QPoint dragBudgetDown(studio::StudioWindow& window, double fraction, bool release = true)
{
    QSignalSpy planned(&window, &studio::StudioWindow::planShown);
    QWidget* panel = window.timeline()->l2Panel();
    const QPoint start = window.timeline()->budgetLinePoint();
    const QPoint bottom = window.timeline()->l2PointOf(0, 0);
    const QPoint end(start.x(), start.y() + int((bottom.y() - start.y()) * fraction));
    QTest::mousePress(panel, Qt::LeftButton, Qt::NoModifier, start);
    for (int k = 1; k <= 5; ++k) {
        const QPoint at(start.x(), start.y() + (end.y() - start.y()) * k / 5);
        QMouseEvent move(QEvent::MouseMove, at, panel->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel, &move);
        planned.wait(kWaitMs);
    }
    if (release)
        QTest::mouseRelease(panel, Qt::LeftButton, Qt::NoModifier, end);
    return end;
}

} // namespace tessera::studio_testing
