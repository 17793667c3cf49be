// The studio window's files: models, projects, tiling reports and SCAMP-5 kernels opened (by
// dialog, drop or the recent list), projects saved, the step table exported, and the shortcuts.
#include "studio_window.h"
#include "studio_support.h"

#include "loadable_inspector_view.h"
#include "scamp_view.h"
#include "scamp_workbench.h"
#include "step_table_model.h"
#include "tiling_panel.h"

#include "session/project.h"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>

namespace tessera::studio {

namespace {

constexpr int kRecentFiles = 8;
const char* const kRecentKey = "recentFiles";

} // namespace

void StudioWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void StudioWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty())
        return;
    openAnyFile(urls.front().toLocalFile());
}

void StudioWindow::openAnyFile(const QString& path)
{
    if (path.endsWith(".json", Qt::CaseInsensitive))
        openProject(path);
    else if (path.endsWith(".nvdla", Qt::CaseInsensitive))
        openLoadable(path);
    else
        openModel(path);
}

bool StudioWindow::openLoadable(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("nvdla");
    dock->show();
    dock->raise();
    if (!loadableView_->openFile(path)) {
        showError("Cannot open NVDLA loadable", loadableView_->message());
        return false;
    }
    rememberRecent(path);
    if (!graph_) // nothing else to look at: give the inspector room
        resizeDocks({dock}, {height() * 2 / 3}, Qt::Vertical);
    statusLabel_->setText("NVDLA loadable " + loadableView_->fileName() + ": " +
                          QString(loadableView_->summary()).replace("<br>", "; ").remove(QRegularExpression("<[^>]*>")));
    emit loadableShown();
    return true;
}

void StudioWindow::openFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open model or loadable", {},
                                                      "ONNX models (*.onnx);;NVDLA loadables (*.nvdla);;All files (*)");
    if (!path.isEmpty())
        openAnyFile(path);
}

void StudioWindow::openProjectDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        openProject(path);
}

void StudioWindow::openTilingDialog()
{
    const QString path =
        QFileDialog::getOpenFileName(this, "Open tiling report", {}, "Autotiler tiling (*.tiling.json)");
    if (!path.isEmpty())
        openTilingReport(path);
}

void StudioWindow::openScampDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, "Open SCAMP-5 kernels", {}, "Kernels (*.json)");
    if (!path.isEmpty())
        openScampKernels(path);
}

bool StudioWindow::openScampKernels(const QString& path)
{
    auto* dock = findChild<QDockWidget*>("scamp");
    dock->show();
    dock->raise();
    if (!scampWorkbench_->openKernels(path)) {
        showError("Cannot open SCAMP-5 kernels", scampView_->message());
        return false;
    }
    if (!graph_) // nothing else to look at: give the trace room
        resizeDocks({dock}, {height() * 2 / 3}, Qt::Vertical);
    scampKernelsOpening_ = true;
    scampWorkbench_->run();
    return true;
}

bool StudioWindow::openTilingReport(const QString& path)
{
    QDockWidget* dock = raiseTilingDock();
    tilingReportOpening_ = true;
    if (!tilingPanel_->openTilingFile(path)) {
        tilingReportOpening_ = false;
        return false;
    }
    rememberRecent(path);
    if (!graph_) // nothing else to look at: give the tiles room
        resizeDocks({dock}, {height() / 2}, Qt::Vertical);
    statusLabel_->setText("Tiling report " + QFileInfo(path).fileName() +
                          ": drag the L1 budget to solve its kernels again");
    return true;
}

QDockWidget* StudioWindow::raiseTilingDock()
{
    auto* dock = findChild<QDockWidget*>("tiling");
    dock->show();
    dock->raise();
    return dock;
}

void StudioWindow::saveProjectDialog()
{
    const QString path = QFileDialog::getSaveFileName(this, "Save project", {}, "Tessera projects (*.json)");
    if (!path.isEmpty())
        saveProject(path);
}

void StudioWindow::openProject(const QString& path)
{
    // Tiling reports are JSON too; the command line, drops and recent files all come here.
    if (path.endsWith(".tiling.json", Qt::CaseInsensitive)) {
        openTilingReport(path);
        return;
    }
    if (ScampWorkbench::isKernelsFile(path)) {
        openScampKernels(path);
        return;
    }
    try {
        const Project project = loadProject(path.toStdString());
        pendingL2_ = project.l2Budget > 0 ? std::optional<qint64>(project.l2Budget) : std::nullopt;
        setTarget(QString::fromStdString(project.target));
        applyTargetDefaults();
        if (project.l3Budget)
            l3Box_->setValue(int(*project.l3Budget / 1024));
        if (project.l1Budget)
            l1Box_->setValue(int(*project.l1Budget / 1024));
        if (project.flashBudget)
            flashBox_->setValue(int(*project.flashBudget / 1024));
        openModel(QString::fromStdString(project.modelPath));
    } catch (const std::exception& error) {
        showError("Cannot open project", QString::fromStdString(error.what()));
    }
}

bool StudioWindow::saveProject(const QString& path)
{
    if (modelPath_.isEmpty()) {
        showError("Cannot save project", "open a model first");
        return false;
    }
    Project project;
    project.modelPath = QFileInfo(modelPath_).absoluteFilePath().toStdString();
    project.target = target().toStdString();
    project.l2Budget = l2Budget();
    project.l3Budget = budgets().l3;
    project.l1Budget = budgets().l1;
    project.flashBudget = budgets().flash;
    try {
        tessera::saveProject(project, path.toStdString());
    } catch (const std::exception& error) {
        showError("Cannot save project", QString::fromStdString(error.what()));
        return false;
    }
    statusBar()->showMessage("saved " + path, 3000);
    return true;
}

void StudioWindow::exportGapProjectDialog()
{
    if (!graph_) {
        showError("Export GAP project", "open a model first (File > Open model)");
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, "Folder for the GAP project");
    if (!folder.isEmpty())
        exportGapProject(folder);
}

void StudioWindow::exportStepTable()
{
    const QString path = QFileDialog::getSaveFileName(this, "Export step table", {}, "CSV (*.csv)");
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(stepModel_->toCsv().toUtf8()) < 0 || !file.commit())
        showError("Cannot export", path + ": " + file.errorString());
}

QStringList StudioWindow::recentFiles() const
{
    return QSettings().value(kRecentKey).toStringList();
}

void StudioWindow::rememberRecent(const QString& path)
{
    QStringList files = recentFiles();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files.removeAll(absolute);
    files.prepend(absolute);
    while (files.size() > kRecentFiles)
        files.removeLast();
    QSettings().setValue(kRecentKey, files);
    rebuildRecentMenu();
}

void StudioWindow::rebuildRecentMenu()
{
    recentMenu_->clear();
    const QStringList files = recentFiles();
    for (const QString& file : files)
        recentMenu_->addAction(QFileInfo(file).fileName(), this, [this, file] { openAnyFile(file); })->setToolTip(file);
    recentMenu_->setEnabled(!files.isEmpty());
}

void StudioWindow::showShortcuts()
{
    QMessageBox::information(this, "Keyboard shortcuts",
                             "Ctrl+O  open model or NVDLA loadable\nCtrl+Shift+O  open project\nCtrl+Shift+T  open tiling report\n"
                             "Ctrl+K  open SCAMP-5 kernels\n"
                             "Ctrl+S  save project\n"
                             "Ctrl+E  export step table\nCtrl+Shift+E  export GAP project\nCtrl+Shift+N  export NVDLA project\n"
                             "Ctrl+R  simulate on NVDLA (an NVDLA target)\nCtrl+F  find node\n"
                             "Ctrl+0  fit graph\n"
                             "Alt+Down / Alt+Up  next / previous step\nF1  this list\n\n"
                             "Drag the red L2 budget line in the memory timeline to re-plan.\n"
                             "In the SCAMP-5 trace, Up / Down step through the program.");
}

} // namespace tessera::studio
